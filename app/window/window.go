package window

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"simgui/app"
	"simgui/app/scenario"
	"simgui/app/window/desktop"
	"simgui/app/world"
	"simgui/plugins"
)

// ErrNoDisplay is matched (errors.Is) by Run's error when no window could be opened: no X or
// Wayland display, or one that refused the connection.
var ErrNoDisplay = errors.New("no display")

// Default and least window size in device-independent pixels.
const (
	DefaultWidth  = 1280
	DefaultHeight = 800
	MinWidth      = 800
	MinHeight     = 600
)

// Options configures the window.
type Options struct {
	// Title is the window title; default "simgui — <scenario>".
	Title string
	// Width and Height are the initial window size (default 1280×800); the window is resizable.
	Width, Height int
	// Plugins is what the spawn list offers; default plugins.Builtin().
	Plugins Catalog
	// Screens are hosted after the simulator screen (the descriptor editor); F2 cycles.
	Screens []Screen
	// Load reads and checks a scenario file for Open, the default scenario for ""; nil
	// disables opening scenarios.
	Load func(path string) (*scenario.Plan, error)
	// New builds a scenario world from a plan the way the first one was built (the host then
	// runs it in place of the old one); nil disables opening scenarios.
	New func(plan *scenario.Plan) (*app.Sim, error)
	// Resolve checks a scenario made in the window (a track's test drive) and resolves its
	// plugins; nil disables test-driving tracks.
	Resolve func(sc *scenario.Scenario) (*scenario.Plan, error)
	// ScreenshotDir is where F12 writes PNGs; default the working directory.
	ScreenshotDir string
	// RecordDir is where F9 writes recordings (MCAP); default the working directory.
	RecordDir string
	// StateFile, when set, receives the window's state as JSON about ten times a second of
	// wall time (sim time, pause, the selected robot, camera frames, TPS, FPS): a hook for
	// tests that drive the window with real key events and check the outcome.
	StateFile string
	// Start is when the process started, for SIMGUI_TRACE_STARTUP; zero means unknown (the
	// trace then measures from Run).
	Start time.Time
	// Logger; default slog.Default().
	Logger *slog.Logger
}

// Run shows the window on the host's active world until the window is closed or ctx is
// cancelled. The host runs the worlds (Host.Run); the window follows its active world and
// lets the user pick another. It must be called on the main goroutine (Ebiten's rule); it can
// be called once per process. The window face (Face) calls it from Host.Run.
func Run(ctx context.Context, h *app.Host, opts Options) error {
	return run(ctx, h, opts, nil)
}

// run is Run with a hook for the benchmark: wrap, when not nil, wraps the game Ebiten runs.
func run(ctx context.Context, h *app.Host, opts Options, wrap func(ebiten.Game) ebiten.Game) error {
	if opts.Width <= 0 || opts.Height <= 0 {
		opts.Width, opts.Height = DefaultWidth, DefaultHeight
	}
	opts.Width, opts.Height = max(opts.Width, MinWidth), max(opts.Height, MinHeight)
	if opts.Plugins == nil {
		opts.Plugins = plugins.Builtin()
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Start.IsZero() {
		opts.Start = time.Now()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	g := newGame(ctx, h, opts)
	ebiten.SetWindowSize(desktop.WindowSize(opts.Width, opts.Height, MinWidth, MinHeight))
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	// Below this the help overlay, the HUD and the camera panel no longer fit side by side.
	ebiten.SetWindowSizeLimits(MinWidth, MinHeight, -1, -1)
	ebiten.SetWindowTitle(g.title())
	// A close request goes through Update, so that a screen with unkept work can ask first.
	ebiten.SetWindowClosingHandled(true)
	var eg ebiten.Game = g
	if wrap != nil {
		eg = wrap(g)
	}
	err := ebiten.RunGameWithOptions(eg, &ebiten.RunGameOptions{X11ClassName: "simgui", X11InstanceName: "simgui"})
	cerr := g.close()
	if err != nil && !g.updated { // the window never came up
		return fmt.Errorf("%w: %v", ErrNoDisplay, err)
	}
	return errors.Join(err, cerr)
}

// game is the ebiten.Game: it hosts the screens, owns the running session and the worker that
// does everything that waits.
type game struct {
	ctx  context.Context
	opts Options
	log  *slog.Logger

	host *app.Host
	cur  *app.Sim // the active world as of this tick; game goroutine only

	screens []Screen
	active  int
	sim     *simScreen
	// agreed marks the screens that let a close go on (CloseGuard), until agreedUntil.
	agreed      []bool
	agreedUntil time.Time

	jobs    chan func() func()
	results chan func()
	workers chan struct{} // closed when the worker has returned

	updated    bool // Update has run: the window is up
	clicks     int  // left-button presses seen, for the state file
	lastClick  [2]int
	keyPresses int          // key presses seen, for the state file
	keyBuf     []ebiten.Key // reused by AppendJustPressedKeys
	drawn      bool
	shot       bool // a screenshot is due at the end of this Draw
	lastTitle  string
	dialogBusy bool
}

func newGame(ctx context.Context, h *app.Host, opts Options) *game {
	g := &game{
		ctx: ctx, opts: opts, log: opts.Logger, host: h, cur: h.Active(),
		jobs: make(chan func() func(), 16), results: make(chan func(), 64), workers: make(chan struct{}),
	}
	g.sim = newSimScreen(g)
	g.screens = append([]Screen{g.sim}, opts.Screens...)
	for _, s := range g.screens[1:] {
		if a, ok := s.(Attacher); ok {
			a.Attach(g)
		}
	}
	go g.work()
	return g
}

// work runs queued jobs one after another; each returns what to apply on the game goroutine.
// It returns when jobs is closed.
func (g *game) work() {
	defer close(g.workers)
	for job := range g.jobs {
		if apply := g.runJob(job); apply != nil {
			g.results <- apply
		}
	}
}

// runJob runs one job; a panic in it (a scenario file opened from outside that trips a bug in
// building its world) fails the job with a message, and leaves the window, the faces and any
// training running.
func (g *game) runJob(job func() func()) (apply func()) {
	defer func() {
		if r := recover(); r != nil {
			g.log.Error("window: a job failed", "panic", r, "stack", string(debug.Stack()))
			apply = func() { g.Status(fmt.Sprintf("failed: internal error (%v); the log has the details", r)) }
		}
	}()
	return job()
}

// async queues work for the worker; apply (if returned) runs later in Update. It never blocks:
// when the queue is full the request is dropped with a message, and async returns false.
// Game goroutine only.
func (g *game) async(work func() func()) bool {
	select {
	case g.jobs <- work:
		return true
	default:
		g.Status("busy: the last request is still running")
		return false
	}
}

// deliver hands apply to the game goroutine from any goroutine (dialogs).
func (g *game) deliver(apply func()) {
	select {
	case g.results <- apply:
	case <-g.ctx.Done():
	}
}

// close runs after Ebiten has returned: it lets the worker finish (applying what it produces,
// so a scenario it opened is not lost) and closes the screens; the host closes the worlds.
func (g *game) close() error {
	close(g.jobs)
	for {
		select {
		case apply := <-g.results:
			apply()
			continue
		case <-g.workers:
		}
		break
	}
	for drained := false; !drained; {
		select {
		case apply := <-g.results:
			apply()
		default:
			drained = true
		}
	}
	g.sim.close()
	return nil
}

// Update implements ebiten.Game.
func (g *game) Update() error {
	g.updated = true
	select {
	case <-g.ctx.Done():
		return ebiten.Termination
	default:
	}
	for drained := false; !drained; {
		select {
		case apply := <-g.results:
			apply()
		default:
			drained = true
		}
	}
	if a := g.host.Active(); a != nil && a != g.cur {
		g.cur = a
		g.sim.onSession()
	}
	if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) {
		g.clicks++
		g.lastClick[0], g.lastClick[1] = ebiten.CursorPosition()
	}
	if ebiten.IsWindowBeingClosed() && g.mayClose() {
		return ebiten.Termination
	}
	g.keyBuf = inpututil.AppendJustPressedKeys(g.keyBuf[:0])
	g.keyPresses += len(g.keyBuf)
	next := -1
	if inpututil.IsKeyJustPressed(ebiten.KeyF2) && len(g.screens) > 1 {
		next = (g.active + 1) % len(g.screens)
	}
	if inpututil.IsKeyJustPressed(ebiten.KeyF12) {
		g.shot = true
	}
	if t := g.title(); t != g.lastTitle {
		ebiten.SetWindowTitle(t)
		g.lastTitle = t
	}
	err := g.screens[g.active].Update()
	if next >= 0 {
		// After this frame's Update: a key pressed in the same frame as F2 belongs to the
		// screen that was on show. Shown first, the next screen took it: G (the grid) and
		// F2 pressed quickly typed a g into the editor's focused field.
		g.show(next)
	}
	g.sim.writeState(time.Now())
	return err
}

// mayClose asks each screen with unkept work whether the window may close, showing the first
// that says no. A screen that agreed is not asked again while the closing goes on (within
// closeAgreed of the last answer): with robots spawned in the world and edits in the editor,
// each asking in turn, on timers of their own, never let the window close.
func (g *game) mayClose() bool {
	now := time.Now()
	if len(g.agreed) != len(g.screens) || now.After(g.agreedUntil) {
		g.agreed = make([]bool, len(g.screens))
	}
	g.agreedUntil = now.Add(closeAgreed)
	for i, s := range g.screens {
		if c, ok := s.(CloseGuard); ok && !g.agreed[i] {
			if !c.MayClose() {
				g.show(i)
				return false
			}
			g.agreed[i] = true
		}
	}
	return true
}

// closeAgreed is how long a screen's consent to close holds while the user answers another's.
const closeAgreed = 10 * time.Second

// Draw implements ebiten.Game.
func (g *game) Draw(screen *ebiten.Image) {
	g.screens[g.active].Draw(screen)
	if !g.drawn {
		g.drawn = true
		if os.Getenv("SIMGUI_TRACE_STARTUP") != "" {
			fmt.Fprintf(os.Stderr, "simgui: first frame %.3f s after launch\n", time.Since(g.opts.Start).Seconds())
		}
	}
	if g.shot {
		g.shot = false
		g.screenshot(screen)
	}
}

// Layout implements ebiten.Game.
func (g *game) Layout(w, h int) (int, int) { return g.screens[g.active].Layout(w, h) }

func (g *game) show(i int) {
	if i == g.active {
		return
	}
	if s, ok := g.screens[g.active].(Shower); ok {
		s.Shown(false)
	}
	if g.active == 0 {
		g.sim.release()
	}
	g.active = i
	if s, ok := g.screens[i].(Shower); ok {
		s.Shown(true)
	}
}

func (g *game) title() string {
	if g.opts.Title != "" {
		return g.opts.Title
	}
	sc := g.host.Scenario().Plan.Scenario
	name := sc.Title()
	if sc.DisplayName != "" && sc.Version > 0 {
		name += " v" + strconv.Itoa(sc.Version)
	}
	t := "simgui — " + name
	if g.cur.Kind != app.KindScenario {
		t += " — " + g.cur.Label
	}
	if g.active > 0 {
		t += " — " + screenName(g.screens[g.active], g.active)
	}
	return t
}

func screenName(s Screen, i int) string {
	if n, ok := s.(Named); ok {
		return n.Name()
	}
	if i == 0 {
		return "sim"
	}
	return fmt.Sprintf("screen %d", i+1)
}

// Host implementation.

var _ Host = (*game)(nil)

func (g *game) Sim() *app.Sim             { return g.cur }
func (g *game) Snapshot() *world.Snapshot { return g.cur.Loop.Snapshot() }
func (g *game) Plugins() Catalog          { return g.opts.Plugins }
func (g *game) Status(msg string)         { g.sim.status(msg) }

func (g *game) ShowScreen(name string) bool {
	for i, s := range g.screens {
		if screenName(s, i) == name {
			g.show(i)
			return true
		}
	}
	return false
}

func (g *game) TestDrive(v *plugins.VehicleDescriptor, at *world.Pose) {
	g.show(0)
	g.sim.testDrive(v, at)
}

// DriveTrack runs a scenario of the track in place of the one running: one robot, of the
// selected robot's vehicle (else the running scenario's first), at the track's first spawn
// point, selected, on the simulator screen. Routes, spawn poses and systems belong to the old
// track and are left out. The outcome arrives in the status line.
func (g *game) DriveTrack(trackID string) (ask string) {
	// As R, Ctrl+O and closing the window do, the drive asks first when it would drop robots
	// spawned here; the question goes to the editor, which is on show.
	if ask := g.sim.mayReplace("click Install & test drive again within %.0f s to drive on " + trackID); ask != "" {
		return ask
	}
	g.show(0)
	if g.opts.Resolve == nil || g.opts.New == nil {
		g.Status("this window cannot open scenarios; name " + trackID + " as world.trackId in a scenario")
		return ""
	}
	vehicleID := ""
	if snap := g.Snapshot(); snap != nil {
		for _, m := range snap.Models {
			if vehicleID == "" || m.Name == g.sim.selected {
				vehicleID = m.VehicleID
			}
		}
	}
	if vehicleID == "" && scenario.Default().Vehicle != nil {
		vehicleID = scenario.Default().Vehicle.VehicleID // no robot runs: the default scenario's
	}
	sc := &scenario.Scenario{
		ScenarioID:  "test-drive",
		DisplayName: "test drive of " + trackID,
		Description: vehicleID + " on " + trackID,
		World:       scenario.WorldSpec{TrackID: trackID},
		Vehicle:     &scenario.VehicleSpec{VehicleID: vehicleID},
		Source:      "test drive of " + trackID,
	}
	g.Status("opening " + trackID + " …")
	// Errors name the track: the scenario's Source is the test drive's.
	g.replaceScenario("", func() (*scenario.Plan, error) { return g.opts.Resolve(sc) },
		"driving "+vehicleID+" on "+trackID+": W A S D drive, Ctrl+O opens another scenario", nil)
	return ""
}

// screenshot saves the screen as drawn to a PNG in Options.ScreenshotDir, off the game
// goroutine. Draw only.
func (g *game) screenshot(screen *ebiten.Image) {
	b := screen.Bounds()
	pix := make([]byte, 4*b.Dx()*b.Dy())
	screen.ReadPixels(pix)
	dir := g.opts.ScreenshotDir
	if dir == "" {
		dir = "."
	}
	path := filepath.Join(dir, "simgui-"+time.Now().Format("20060102-150405.000")+".png")
	shown, _ := g.screens[g.active].(Notified) // the editor's: the simulator's line is not on show
	go func() {
		err := writePNG(path, b.Dx(), b.Dy(), pix)
		g.deliver(func() {
			msg := "screenshot saved to " + path
			if err != nil {
				msg = "screenshot: " + err.Error()
			} else {
				g.sim.shots = append(g.sim.shots, path)
			}
			g.Status(msg)
			if shown != nil {
				shown.Notify(msg)
			}
		})
	}()
}
