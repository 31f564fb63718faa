package main

import (
	"context"
	"errors"
	"os"
)

type windowOptions struct {
	scenario string
	seed     int64
	seedSet  bool
}

// errNoDisplay is what a machine without a display gets from `simgui`.
var errNoDisplay = errors.New("no display found (DISPLAY is not set); run headless instead: simgui run --headless --duration 10")

// runWindow opens the window. Until the window lands it only reports what it would need.
func runWindow(ctx context.Context, o windowOptions) error {
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return errNoDisplay
	}
	if _, err := loadPlan(o.scenario, nil); err != nil {
		return err
	}
	return errors.New("the window is not built yet; run headless instead: simgui run --headless --duration 10")
}
