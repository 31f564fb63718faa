package window

import (
	"context"
	"errors"

	"simgui/app"
)

// FaceID is the window's face in the app's registry.
const FaceID = app.WindowFaceID

func init() {
	app.RegisterFace(app.FaceModule{
		ID: FaceID, New: func() app.Face { return &Face{} },
		Doc: "the desktop window: the active world, camera panels, keyboard driving, the editor",
	})
}

// Face is the window as a face of the host. It needs the main goroutine: Host.Run calls
// RunMain there, and the host shuts down when the window closes. It is off unless turned on
// (the command line does for every command that opens the window).
type Face struct {
	// Width and Height are the initial window size (default 1280×800).
	Width  int `yaml:"width"`
	Height int `yaml:"height"`
	// ScreenshotDir is where F12 writes PNGs (default the working directory).
	ScreenshotDir string `yaml:"screenshotDir"`
	// RecordDir is where F9 writes recordings (default the working directory).
	RecordDir string `yaml:"recordDir"`
	// The state file (Options.StateFile, a test hook) is not a setting: a scenario, which
	// comes from anyone, would name a file the window replaces ten times a second. Only the
	// command line's hidden --state-file gives it.

	// Options are what the program, not the settings, gives: hosted screens, how to open a
	// scenario, the spawn list's plugins, the start time. The fields above override theirs.
	Options Options `yaml:"-"`

	h *app.Host
}

// Validate checks the window size.
func (f *Face) Validate() error {
	if f.Width < 0 || f.Height < 0 || f.Width > 16384 || f.Height > 16384 {
		return errors.New("width and height must be 0 (default) or a size up to 16384 pixels")
	}
	return nil
}

// Start checks that there is a display to open the window on (so that nothing else starts
// for a window that cannot open) and keeps the host for RunMain, where the window opens.
func (f *Face) Start(_ context.Context, h *app.Host) error {
	if err := probeDisplay(); err != nil {
		return err
	}
	f.h = h
	return nil
}

// RunMain shows the window until it is closed or ctx ends.
func (f *Face) RunMain(ctx context.Context) error {
	o := f.Options
	if f.Width > 0 && f.Height > 0 {
		o.Width, o.Height = f.Width, f.Height
	}
	if f.ScreenshotDir != "" {
		o.ScreenshotDir = f.ScreenshotDir
	}
	if f.RecordDir != "" {
		o.RecordDir = f.RecordDir
	}
	if o.Logger == nil {
		o.Logger = f.h.Logger()
	}
	return Run(ctx, f.h, o)
}

// Shutdown has nothing to do: the window is closed when RunMain returns.
func (f *Face) Shutdown(context.Context) error { return nil }

var (
	_ app.Face          = (*Face)(nil)
	_ app.MainRunner    = (*Face)(nil)
	_ app.FaceValidator = (*Face)(nil)
)
