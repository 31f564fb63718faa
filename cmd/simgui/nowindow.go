//go:build headless

package main

import (
	"context"
	"errors"

	"github.com/spf13/cobra"

	"simgui/app"
)

// A scenario written for the full build may set the window's size or screenshot folder; here
// those settings are ignored, so the same file runs headless, and a setting the window does
// not take is refused, as there.
func init() {
	app.RegisterFace(app.FaceModule{
		ID:       app.WindowFaceID,
		Absent:   "this simgui is a headless build (-tags headless) and has no window",
		Settings: app.WindowSettings,
		Doc:      "the desktop window (not in this headless build)",
	})
}

// buildKind names this build in `simgui version`.
const buildKind = "headless (no window, static binary)"

// errNoWindow is what the window commands say in a headless build.
func errNoWindow() error {
	return errors.New("this simgui is a headless build (-tags headless) and has no window; " + headlessHint())
}

// runWindow fails at once: this build has no window.
func runWindow(context.Context, windowOptions) error { return errNoWindow() }

// newEditCmd is `simgui edit` saying in one line that the editor needs the window build,
// whatever flags and arguments it is given.
func newEditCmd() *cobra.Command {
	return &cobra.Command{
		Use:                "edit [plugin folder | archive | installed id]",
		Short:              "Open the visual plugin editor (not in this headless build)",
		Args:               cobra.ArbitraryArgs,
		FParseErrWhitelist: cobra.FParseErrWhitelist{UnknownFlags: true},
		RunE: func(*cobra.Command, []string) error {
			return errors.New("this simgui is a headless build (-tags headless) and has no editor window; plugins can be made without one: simgui plugin new, validate, export")
		},
	}
}
