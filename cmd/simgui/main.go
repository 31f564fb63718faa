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
	if err := newRoot().Execute(); err != nil {
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
