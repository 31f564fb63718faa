package editor

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"simgui/app/window/desktop"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
)

// RunOptions configure Run: the editor's Options and its own window.
type RunOptions struct {
	Options
	// Width and Height are the window size in device-independent pixels; default 1280×800.
	Width, Height int
	// Title is the window title; default "simgui plugin editor".
	Title string
	// ScreenshotDir is where F12 writes PNGs of the window; default the working directory.
	ScreenshotDir string
}

// ErrNoDisplay is wrapped by Run's error when no window could be opened.
var ErrNoDisplay = errors.New("no display for the editor window (set DISPLAY, or run under xvfb-run)")

// The editor window's least size.
const (
	minWidth  = 1024
	minHeight = 640
)

// Run shows the editor in a window of its own until the window is closed or ctx is cancelled.
// It must be called on the main goroutine (Ebiten's rule), once per process. Without a host,
// Install & test drive installs only.
func Run(ctx context.Context, opts RunOptions) error {
	if opts.Width <= 0 || opts.Height <= 0 {
		opts.Width, opts.Height = 1280, 800
	}
	opts.Width, opts.Height = max(opts.Width, minWidth), max(opts.Height, minHeight)
	if opts.Title == "" {
		opts.Title = "simgui plugin editor"
	}
	if opts.ScreenshotDir == "" {
		opts.ScreenshotDir = "."
	}
	e, err := New(opts.Options)
	if err != nil {
		return err
	}
	defer e.Close()
	g := &standalone{e: e, ctx: ctx, dir: opts.ScreenshotDir}
	ebiten.SetWindowSize(desktop.WindowSize(opts.Width, opts.Height, minWidth, minHeight))
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	// Below this the form's tables and the previews no longer fit side by side.
	ebiten.SetWindowSizeLimits(minWidth, minHeight, -1, -1)
	ebiten.SetWindowTitle(opts.Title)
	// A close request goes through Update, so that unkept changes are asked about first.
	ebiten.SetWindowClosingHandled(true)
	err = ebiten.RunGameWithOptions(g, &ebiten.RunGameOptions{X11ClassName: "simgui-editor", X11InstanceName: "simgui-editor"})
	if err != nil && !g.drawn {
		return fmt.Errorf("%w: %v", ErrNoDisplay, err)
	}
	return err
}

// standalone is the ebiten.Game of Run: the editor, F12 screenshots, and ctx to stop.
type standalone struct {
	e     *Editor
	ctx   context.Context
	dir   string
	shot  bool
	drawn bool
}

func (g *standalone) Update() error {
	select {
	case <-g.ctx.Done():
		return ebiten.Termination
	default:
	}
	if ebiten.IsWindowBeingClosed() && g.e.MayClose() {
		return ebiten.Termination
	}
	if inpututil.IsKeyJustPressed(ebiten.KeyF12) {
		g.shot = true
	}
	return g.e.Update()
}

func (g *standalone) Draw(screen *ebiten.Image) {
	g.e.Draw(screen)
	g.drawn = true
	if g.shot {
		g.shot = false
		g.screenshot(screen)
	}
}

func (g *standalone) Layout(w, h int) (int, int) { return g.e.Layout(w, h) }

// screenshot saves the screen as drawn to a PNG in dir, off the game goroutine.
func (g *standalone) screenshot(screen *ebiten.Image) {
	b := screen.Bounds()
	img := image.NewRGBA(b)
	screen.ReadPixels(img.Pix)
	path := filepath.Join(g.dir, fmt.Sprintf("editor-%s.png", time.Now().Format("20060102-150405.000")))
	go func() {
		err := writePNG(path, img)
		g.e.deliver(func() {
			if err != nil {
				g.e.setStatus("screenshot: " + err.Error())
				return
			}
			g.e.record.Shots = append(g.e.record.Shots, path)
			g.e.setStatus("screenshot saved to " + path)
		})
	}()
}

func writePNG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
