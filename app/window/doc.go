// Package window is simgui's desktop face: an Ebiten game that shows a running simulation — a
// top-down world view (or a 3D chase view drawn by simgui/render), live camera panels of the
// selected robot, a HUD — and lets a person drive a robot with the keyboard, pause, step, reset,
// change the time scale, spawn plugins and open or save scenarios. It is the only package
// besides editor/ that imports Ebiten.
//
// # Usage
//
//	sim, err := app.New(plan, app.Options{...})
//	err = window.Run(ctx, sim, window.Options{Open: open}) // on the main goroutine
//
// Run owns the simulation from then on: it runs the loop on a goroutine, Ebiten on the calling
// (main) thread, and closes the simulation when the window is closed or ctx is cancelled.
//
// # Screens
//
// The window hosts full-window Screens (Options.Screens): the simulator screen first, then any
// others (the descriptor editor). F2 cycles through them. A Screen has ebiten.Game's three
// methods; a Screen that also implements Attacher receives the Host, through which it reaches
// the running simulation (see Host).
//
// # Keys
//
// W/S or ↑/↓ throttle, A/D or ←/→ steer, Space brake, Q/E climb and sink (drones) — smoothed
// in wall time: steering grows with the square of the time a key is held (a 0.3 s tap is a
// nudge of a few degrees, a second is full lock), and Shift drives gently (at most 35 %
// throttle and 30 % steering); Tab / Shift+Tab select the next / previous robot (or click
// one); F follow the selected robot; C 3D chase view; V sensor frusta; L lidar rays; G grid;
// M markers; H the top-left box in one line; P pause/resume; N one step; R reset with the
// same seed; + / − time scale (0 back to 1×); I spawn list; Ctrl+O open, Ctrl+S save a
// scenario; F12 screenshot; F9 record (MCAP) / stop; F1 all keys; F2 next screen; Esc closes what is open. Mouse: drag
// to pan, wheel to zoom (over the World… list, to scroll it), click a panel to enlarge it.
// The file prompts take simgui/app/window/lineedit's keys (Ctrl+A selects all, Ctrl+U clears to the start, Esc
// cancels); the save prompt suggests a file that does not exist and asks before it overwrites
// one (Enter or Replace a second time).
//
// # What it shows
//
// The top-down view draws roads as triangles built once per layout, so memory does not grow
// with the zoom. Sensor wedges (V) end where their rays first meet a wall, box or robot
// (simgui/app/sensors/raycast), and a range sensor's wedge ends at its echo, labelled with
// the distance (also in the HUD). The 3D chase camera stands back by the robot's size, so
// every robot, a drone at any altitude too, fills the same share of the picture; it comes
// in along its line to the robot when the track is in the way and eases back out. The toolbar wraps onto more rows in a
// narrow window. A spawned robot is selected as soon as it appears, and followed once the spawn
// list closes: while it is open the view holds still between placements.
//
// # Concurrency
//
// Update, Draw and Layout run on Ebiten's game goroutine. They never block on the loop: drive
// commands go through world.Loop.Do, and everything that waits (pause, step, reset, time scale,
// spawn, open, save, native file dialogs) runs on a worker goroutine whose results Update
// picks up. Camera frames are received and converted on one goroutine per camera; the chase
// view is rendered on its own goroutine. Draw only draws the latest snapshot and images.
//
// # Tests and measurements
//
// The GUI tests (make test runs them under xvfb-run) start the simgui binary, or this package's
// test binary as a window program, in a process of its own and drive it with real X events
// from xdotool; they read the outcome from the state file (Options.StateFile, the hidden
// --state-file flag) and the control service, and save screenshots to /tmp/window-preview.
// They turn the X server's key repeat off while they type (xtest.NoKeyRepeat) and some run
// beside CPU hogs (xtest.CPUHogs): they wait on state, never on time.
// The Draw benchmark needs a display too, so it is not part of `simgui bench`:
//
//	xvfb-run -a -s "-screen 0 1920x1080x24" go test -run XXX -bench Draw ./app/window
//
// # Environment variables
//
//	SIMGUI_TRACE_STARTUP=1   print the time from process start to the first drawn frame
//	                         to stderr ("simgui: first frame 0.412 s after launch")
package window
