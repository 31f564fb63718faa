// Command simgui is the simgui robot simulator: with no arguments it opens the window with the
// default scenario; `simgui run --headless` runs without a display; `simgui plugin` manages
// plugins; `simgui bench` measures. See `simgui --help`.
package main

import (
	"errors"
	"fmt"
	"os"
	"strings"
)

func main() {
	root := newRoot()
	// cobra prints help, usage and completion scripts without looking at the write's error:
	// `simgui run --help > /dev/full` exited 0. Its text goes through out, checked at the end.
	out := &errWriter{w: os.Stdout}
	root.SetOut(out)
	err := root.Execute()
	if err == nil && out.err != nil {
		err = fmt.Errorf("writing to standard output: %w", out.err)
	}
	if err != nil {
		// One line: the problems an error joins are told apart by "; ".
		fmt.Fprintln(os.Stderr, "error: "+printable(strings.ReplaceAll(err.Error(), "\n", "; ")))
		// Exit status 1 unless the error names another (a run cut short by a signal).
		code := 1
		var ec interface{ ExitCode() int }
		if errors.As(err, &ec) {
			code = ec.ExitCode()
		}
		os.Exit(code)
	}
}
