package window

import (
	"github.com/hajimehoshi/ebiten/v2"
	"simgui/app/window/desktop"

	"simgui/app"
	"simgui/app/world"
	"simgui/plugins"
)

// Screen is one full-window mode the window hosts: the simulator view is one, the descriptor
// editor another. Its methods are ebiten.Game's and come with the same promises: Update runs
// at 60 ticks per second of wall time and must not block; Draw draws the latest state and may
// run fewer or more times than Update; Layout maps the window's size in device-independent
// pixels to the screen's logical size. All three run on Ebiten's game goroutine, and only for
// the screen on show.
type Screen interface {
	Update() error
	Draw(screen *ebiten.Image)
	Layout(outsideWidth, outsideHeight int) (screenWidth, screenHeight int)
}

// Named is implemented by screens with a name for the window title and the F2 hint.
type Named interface {
	Name() string
}

// Attacher is implemented by screens that need the running simulation. Attach is called once,
// before the window opens; the Host's methods may be called from Update and Draw on.
type Attacher interface {
	Attach(h Host)
}

// Shower is implemented by screens that want to know when they come on show or leave it
// (called on Ebiten's goroutine, before the next Update of the screen on show).
type Shower interface {
	Shown(on bool)
}

// Notified is implemented by screens with a status line of their own: what the window did
// while such a screen was on show (F12's screenshot saved, or why not) is said there too, where
// it is seen, as well as in the simulator screen's status line.
type Notified interface {
	Notify(msg string)
}

// CloseGuard is implemented by screens that may hold work the user has not kept. When the
// window is asked to close, MayClose says whether it may: a screen that says no has said why
// in its status line, is brought on show, and the window stays; asking again decides.
type CloseGuard interface {
	MayClose() bool
}

// Host is what the window offers the screens it hosts. Its methods are called on Ebiten's game
// goroutine and never block.
type Host interface {
	// Sim returns the simulation on show; it changes when a scenario is opened, so do not keep
	// it across frames.
	Sim() *app.Sim
	// Snapshot returns the latest snapshot of the simulation on show.
	Snapshot() *world.Snapshot
	// Plugins returns the plugins the spawn list offers (built-in and user).
	Plugins() Catalog
	// TestDrive spawns v into the running world at (x, y, yaw) — when at is nil, at the track's
	// next spawn point — selects it and shows the simulator screen, so a robot being authored
	// can be driven at once. The result arrives asynchronously in the status line.
	TestDrive(v *plugins.VehicleDescriptor, at *world.Pose)
	// DriveTrack runs the track with one robot to drive in place of the running scenario
	// (game.DriveTrack says which robot and where); the outcome arrives in the status line.
	// It returns a question, and does not start, when robots spawned here would go: asked
	// again soon after, it drives.
	DriveTrack(trackID string) (ask string)
	// ShowScreen brings the named screen on show ("sim" is the simulator); false if unknown.
	ShowScreen(name string) bool
	// Status shows a one-line message in the simulator screen's status line.
	Status(msg string)
	// Files opens the native file dialog off the game goroutine; done is called later on the
	// game goroutine with the chosen path, or "" when cancelled or unavailable. Always offer a
	// typed path as well: the dialog can be missing or blocked.
	Files(req FileRequest, done func(path string))
}

// FileRequest describes a native file dialog (shared with the editor).
type FileRequest = desktop.FileRequest

// Catalog is the set of plugins the spawn list offers. plugins.Builtin() is one; the user
// registry is another. Vehicles is asked again whenever the list is opened and every second
// while it is open, so newly installed plugins appear.
type Catalog interface {
	Vehicles() []string
	Vehicle(id string) (*plugins.VehicleDescriptor, error)
}
