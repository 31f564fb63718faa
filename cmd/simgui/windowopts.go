package main

import "github.com/spf13/pflag"

// windowFlags are the window's own flags (the scenario, seed and service flags are shared with
// headless runs).
type windowFlags struct {
	screenshotDir string
	stateFile     string
}

func (wf *windowFlags) register(fl *pflag.FlagSet) {
	fl.StringVar(&wf.screenshotDir, "screenshot-dir", "", "directory F12 writes screenshots to (default: the working directory)")
	fl.StringVar(&wf.stateFile, "state-file", "", "write the window's state as JSON to this file ten times a second, and the editor's beside it as <name>.editor.json (a test hook)")
	fl.MarkHidden("state-file")
}

// check makes --screenshot-dir and checks that screenshots can be written there, as
// --record-dir is checked, when the window opens rather than at the first F12: a file's path
// or a read-only folder let the window open only to fail every screenshot.
func (wf *windowFlags) check() error {
	if wf.screenshotDir == "" {
		return nil
	}
	return checkOutputDir("--screenshot-dir", wf.screenshotDir, "screenshots")
}

type windowOptions struct {
	scenario string
	seed     int64
	seedSet  bool
	// timeScale overrides the scenario's runtime.timeScale when not nil.
	timeScale *float64
	services  serviceFlags
	window    windowFlags
	// set reports whether a flag was given on the command line.
	set func(string) bool
}
