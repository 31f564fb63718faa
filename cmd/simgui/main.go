// Command simgui is the simgui robot simulator: with no arguments it opens the window with the
// default scenario; `simgui run --headless` runs without a display; `simgui plugin` manages
// plugins; `simgui bench` measures. See `simgui --help`.
package main

import (
	"fmt"
	"os"
)

func main() {
	if err := newRoot().Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "error: "+printable(err.Error()))
		os.Exit(1)
	}
}
