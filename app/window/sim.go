package window

import (
	"fmt"
	"image"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"simgui/app/window/desktop"
	"simgui/app/window/lineedit"
	"simgui/app/world"
	"simgui/physics/drive"
	"simgui/plugins"
)

// simScreen is the simulator screen: the world view (top-down or 3D chase), the camera
// panels, the HUD, the toolbar and the overlays (help, spawn list, file prompt).
type simScreen struct {
	g    *game
	w, h int

	snap  *world.Snapshot // taken at the start of each Update
	view  view
	fit   bool // the view has been fitted to a layout
	track *trackGeom

	selected string
	// pending is a robot just spawned, to select (and frame, if pendingFrame) as soon as a
	// snapshot has it (the spawn is on the loop; the snapshot after it comes a step later),
	// until pendingBy. One placed where the user clicked is on screen already: the view stays.
	pending      string
	pendingBy    time.Time
	pendingFrame bool
	// reveal is a robot just placed where the user clicked: once its own panels are laid out,
	// the view moves to it if they cover it (a robot with a camera and a depth camera was
	// placed right under them, and nothing seemed to happen).
	reveal string
	// testDriven is the robot of each plugin's last test drive, by plugin id: the next one
	// replaces it instead of piling up copies of older versions.
	testDriven map[string]string
	// resetBy: until then a second R confirms a reset that removes robots spawned here;
	// closeBy likewise a second close request, and replaceBy a second test drive on a track.
	resetBy, closeBy, replaceBy time.Time
	follow                      bool
	show                        struct{ frusta, lidar, grid, markers, help, chase, briefHUD bool }
	helpTop                     int // the first key line the F1 overlay shows when cut to a short window

	drv        driver
	steerClock steerClock
	lastTick   time.Time
	lastSent   drive.Command
	sentAt     time.Time

	mouse   mouseState
	spawnOn bool
	spawn   spawnList
	worlds  worldList
	prompt  *prompt
	kb      lineedit.Keyboard

	statusMsg string
	statusAt  time.Time
	// statusOpen holds the status line open, whole, until it is clicked or Esc is pressed
	// (a click on a message too long for its box opens it); statusBox is where Draw put it.
	statusOpen  bool
	statusBox   image.Rectangle
	statusBoxOf string // statusShownAs when Draw drew statusBox
	// noticesShown is how many of the host's notices the status line has shown.
	noticesShown int
	// orbit is how the 3D view's camera was turned and zoomed (drag, wheel).
	orbit chaseOrbit

	panels   *panels
	chase    *chaseView
	chaseErr string
	tools    []button
	barH     int // height of the toolbar, which wraps in a narrow window
	hud      []string
	b        batch
	labels   []label     // scratch for Draw
	nameTags tagSpace    // where Draw has put names this frame
	models   modelFinder // the robots text markers follow, by name
	// savedNames are the robots of the scenario last saved from this world: closing the
	// window or opening another scenario does not lose them.
	savedNames map[string]bool

	stateW *desktop.StateFile[State]
	shots  []string
	// rec is the recording F9 started, if any.
	rec recording
	// others are the files recorded by others (the control socket, --record), looked at
	// every othersEvery.
	others   []string
	othersAt time.Time
}

// mouseState follows a left-button press: a click if it does not move, a drag (pan, or aim
// a spawn) if it does.
type mouseState struct {
	down, moved bool
	// sx, sy is where the press started, lx, ly the last position (screen pixels).
	sx, sy, lx, ly int
}

func newSimScreen(g *game) *simScreen {
	s := &simScreen{g: g, panels: newPanels(), follow: true, lastTick: time.Now()}
	s.show.grid, s.show.markers = true, true
	if g.opts.StateFile != "" {
		s.stateW = desktop.NewStateFile[State](g.opts.StateFile, 100*time.Millisecond)
	}
	s.selected = g.cur.Plan.Primary
	return s
}

// Name implements Named.
func (s *simScreen) Name() string { return "sim" }

// Layout implements Screen: one logical pixel per device-independent pixel, so a bigger
// window shows more of the world.
func (s *simScreen) Layout(w, h int) (int, int) {
	s.w, s.h = max(w, 1), max(h, 1)
	return s.w, s.h
}

// Update implements Screen.
func (s *simScreen) Update() error {
	now := time.Now()
	dt := now.Sub(s.lastTick)
	s.lastTick = now
	sim := s.g.cur
	s.snap = sim.Loop.Snapshot()
	if ns := s.g.host.Notices(); len(ns) > s.noticesShown {
		// A face off for this run (its port taken by another simgui) is news to a person
		// who looks at the window, not at the terminal.
		s.status(strings.Join(ns[s.noticesShown:], " · "))
		s.noticesShown = len(ns)
	}
	s.view.W, s.view.H = s.w, s.h
	if s.track == nil || s.track.version != s.snap.LayoutVersion || s.track.layout != s.snap.Layout {
		s.track = newTrackGeom(s.snap.Layout, s.snap.LayoutVersion)
	}
	if s.show.frusta {
		s.track.setMoving(s.snap)
	}
	if s.pending != "" {
		if m, ok := s.snap.Model(s.pending); ok {
			s.selectModel(s.pending)
			if s.pendingFrame {
				s.frame(m)
			} else {
				s.reveal = s.pending
			}
			s.pending = ""
		} else if now.After(s.pendingBy) {
			s.pending = ""
		}
	}
	if _, ok := s.snap.Model(s.selected); !ok {
		s.selectModel(s.firstModel())
	}
	if !s.fit {
		// The whole track, but close enough that the robot followed is 40 pixels long.
		s.view.fit(s.snap.Layout)
		if m, ok := s.snap.Model(s.selected); ok {
			hl, hw, _ := footprint(m.Vehicle)
			if z := min(maxScale, 40/(2*math.Max(hl, hw))); z > s.view.Scale {
				// Closer than the whole track: on the robot, or it may be off the screen.
				s.view.Scale, s.view.CX, s.view.CY = z, m.Pose.X, m.Pose.Y
			}
		}
		s.fit = true
	}

	s.tools = s.toolbar()
	s.barH = layoutBar(s.tools, s.w, s.h)
	k := keys{}
	if s.prompt != nil {
		if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) {
			s.statusClick(ebiten.CursorPosition()) // above the prompt: a failed open's reason
		}
		s.prompt.layout(s.w, s.h, s.barH)
		if !s.prompt.update(s.kb.Read(now), s.g.Files) {
			s.prompt = nil
		}
	} else {
		k = s.handleKeys()
		s.handleMouse()
	}
	s.drive(k, dt, now)

	// While the spawn list is open the view holds still, so that the floor stays under the
	// pointer between placements; it follows again once the list closes.
	if s.follow && !s.spawnOn {
		if m, ok := s.snap.Model(s.selected); ok {
			s.view.CX, s.view.CY = m.Pose.X, m.Pose.Y
		}
	}
	var desc *plugins.VehicleDescriptor
	if m, ok := s.snap.Model(s.selected); ok {
		desc = m.Vehicle
	}
	s.panels.sync(sim.Bus, s.selected, desc, s.show.lidar)
	s.panels.refreshPaused(sim.Loop, s.snap)
	s.panels.update(now, s.snap.Paused)
	s.panels.layout(s.w, s.h, s.barH)
	if s.reveal != "" {
		if m, ok := s.snap.Model(s.reveal); ok && s.reveal == s.selected {
			if x, y := s.view.toScreen(m.Pose.X, m.Pose.Y); s.panels.contains(int(x), int(y)) {
				s.view.CX, s.view.CY = m.Pose.X, m.Pose.Y
			}
		}
		s.reveal = ""
	}
	if s.show.chase {
		if s.chase == nil {
			s.chase = newChaseView()
		}
		s.chase.request(sim, s.selected, s.w/2, s.h/2, s.orbit)
		s.chase.update()
	}
	if s.spawnOn && s.spawn.refreshDue(now) {
		s.refreshSpawnList()
	}
	s.spawn.layout(s.hudBottom())
	if s.worlds.on {
		s.worlds.layout(s.g.host, s.g.cur, s.hudBottom(), s.h-s.barH)
	}
	chaseFPS := 0.0
	if s.show.chase && s.chase != nil {
		chaseFPS, s.chaseErr = s.chase.status()
		if s.chaseErr != "" {
			s.chaseErr = "3D view: " + s.chaseErr
		}
	}
	s.hud = hudLines(s.snap, s.selected, ebiten.ActualTPS(), ebiten.ActualFPS(), chaseFPS, s.panels.rangeReadings())
	s.hud = append([]string{"world: " + worldLabel(s.g.cur) + worldHint(s.g.host)}, s.hud...)
	if s.show.briefHUD {
		// One line, so that the map under the box shows (robots parked there hid under it).
		s.hud = []string{s.hud[0] + "   (H: details)"}
	}
	var rec string
	if s.rec.stop != nil {
		// Said while it lasts: the status line's message fades.
		rec = fmt.Sprintf("REC %s  %s  (F9 stops)", recClock(now.Sub(s.rec.since)), filepath.Base(s.rec.path))
	}
	if others := s.otherRecordings(now); len(others) > 0 {
		// Every camera draws every frame for a recording: the window says so, whoever started it.
		if rec != "" {
			rec += "  · "
		}
		rec += "REC " + strings.Join(others, ", ") + " (stop_record ends it)"
	}
	if rec != "" {
		if s.show.briefHUD {
			s.hud[0] = rec + " · " + s.hud[0]
		} else {
			s.hud = append([]string{rec}, s.hud...)
		}
	}
	return nil
}

// writeState hands the state to Options.StateFile's writer about ten times a second. The game
// calls it every tick, whichever screen is on show.
func (s *simScreen) writeState(now time.Time) {
	if s.stateW == nil || !s.stateW.Due(now) {
		return
	}
	if s.g.active != 0 || s.snap == nil { // Update did not take one this tick
		s.snap = s.g.cur.Loop.Snapshot()
	}
	s.stateW.Put(s.state())
}

// release brings the robot the keys were driving to rest (the screen goes out of view, so its
// keys are no longer read).
func (s *simScreen) release() {
	if s.selected != "" && s.lastSent != (drive.Command{}) {
		name := s.selected
		s.g.cur.Loop.Do(func(w *world.World) { w.SetCommand(name, drive.Command{}) })
	}
	s.drv.reset()
	s.lastSent = drive.Command{}
}

// drive turns the driving keys into commands for the selected robot. A command goes to the
// loop when it changes, and again every quarter second while keys are held (so a command
// another client set is taken back); nothing is sent while the robot is left alone, so the
// window never fights a control client or a system that drives it.
func (s *simScreen) drive(k keys, dt time.Duration, now time.Time) {
	cmd := s.drv.update(k, dt)
	if s.selected == "" {
		return
	}
	changed := cmd != s.lastSent
	resend := k.any() && now.Sub(s.sentAt) >= 250*time.Millisecond
	if !changed && !resend {
		return
	}
	name, clock := s.selected, &s.steerClock
	if err := s.g.cur.Loop.Do(func(w *world.World) {
		w.SetCommand(name, cmd)
		clock.set(cmd.Steer, w.SimTime())
	}); err == nil {
		s.lastSent, s.sentAt = cmd, now
	}
}

// steerClock measures, on the loop goroutine, the keys' last steering in sim time: how long
// it lasted, from the command that started it to the one that ended it, the largest steer it
// applied and its area (the sum of |steer| × sim seconds). The state file reports them, so
// that a test can tell a tap from a press the window was too busy to end in time, and a turn
// from the steering the simulation was given.
type steerClock struct {
	mu    sync.Mutex
	on    bool
	since time.Duration // the press's first command
	at    time.Duration // the latest command
	steer float64       // its |steer|
	peak  float64
	area  float64
	last  steerPress
}

// steerPress is one steering press as the simulation applied it.
type steerPress struct {
	sim        time.Duration
	peak, area float64
}

func (c *steerClock) set(steer float64, now time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	on := steer != 0
	if c.on {
		c.area += c.steer * (now - c.at).Seconds()
	}
	switch {
	case on && !c.on:
		c.since, c.peak, c.area = now, 0, 0
	case !on && c.on:
		c.last = steerPress{sim: now - c.since, peak: c.peak, area: c.area}
	}
	c.on, c.at, c.steer = on, now, math.Abs(steer)
	c.peak = max(c.peak, c.steer)
}

func (c *steerClock) lastPress() steerPress {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.last
}

// selectModel selects a robot by name ("" for none) and resets the driving state; a robot
// the keys were driving is brought to rest.
func (s *simScreen) selectModel(name string) {
	if name == s.selected {
		return
	}
	if old := s.selected; old != "" && s.lastSent != (drive.Command{}) {
		s.g.cur.Loop.Do(func(w *world.World) { w.SetCommand(old, drive.Command{}) })
	}
	s.selected = name
	s.drv.reset()
	s.lastSent = drive.Command{}
}

// frame follows m and zooms the top-down view in so that it is at least 40 pixels long (the
// view a robot starts in).
func (s *simScreen) frame(m world.ModelState) {
	s.follow = true
	s.view.CX, s.view.CY = m.Pose.X, m.Pose.Y
	hl, hw, _ := footprint(m.Vehicle)
	s.view.Scale = min(maxScale, max(s.view.Scale, 40/(2*math.Max(hl, hw))))
}

// firstModel is the plan's primary robot if it exists, else the first one, else "".
func (s *simScreen) firstModel() string {
	if p := s.g.cur.Plan.Primary; p != "" {
		if _, ok := s.snap.Model(p); ok {
			return p
		}
	}
	if len(s.snap.Models) > 0 {
		return s.snap.Models[0].Name
	}
	return ""
}

// cycle selects the next (step 1) or previous (step -1) robot, and centres the view on it
// when it is off the screen. With no other robot to go to it says so: Tab in the default
// scenario, its one KS0223 selected, did nothing at all, as if the key were not read.
func (s *simScreen) cycle(step int) {
	n := len(s.snap.Models)
	switch {
	case n == 0:
		s.status("there is no robot to select (I spawns one)")
		return
	case n == 1 && s.snap.Models[0].Name == s.selected:
		s.status(s.selected + " is the only robot to select (I spawns another)")
		return
	}
	i := 0
	for j, m := range s.snap.Models {
		if m.Name == s.selected {
			i = (j + step + n) % n
			break
		}
	}
	m := s.snap.Models[i]
	s.selectModel(m.Name)
	// Picked off the screen, it is brought into view (the view does not start following).
	if x, y := s.view.toScreen(m.Pose.X, m.Pose.Y); !s.follow && (x < 0 || y < 0 || x > float32(s.view.W) || y > float32(s.view.H)) {
		s.view.CX, s.view.CY = m.Pose.X, m.Pose.Y
	}
}

// onSession is called after a scenario was opened: everything tied to the old simulation is
// dropped and the view refits.
func (s *simScreen) onSession() {
	s.panels.close()
	if s.chase != nil {
		s.chase.close()
		s.chase = nil
	}
	s.track, s.fit = nil, false
	s.selected = ""
	s.savedNames = nil
	s.drv.reset()
	s.lastSent = drive.Command{}
	s.snap = s.g.cur.Loop.Snapshot()
	s.selectModel(s.firstModel())
}

func (s *simScreen) close() {
	if s.rec.path != "" {
		// The recorder closes the file cleanly when the process ends; the window that started
		// it says where it is, as F9 does, since its status line is gone.
		s.g.log.Info("recording saved as the window closed; Foxglove opens it", "path", s.rec.path,
			"length", time.Since(s.rec.since).Round(time.Second).String())
	}
	s.panels.close()
	if s.chase != nil {
		s.chase.close()
		s.chase = nil
	}
	if s.stateW != nil {
		s.snap = s.g.cur.Loop.Snapshot()
		s.stateW.Put(s.state())
		s.stateW.Close()
	}
}

// state is the window's state for Options.StateFile.
func (s *simScreen) state() State {
	st := State{
		SimTime: s.snap.SimTime.Seconds(), Step: s.snap.Step, Paused: s.snap.Paused, TimeScale: s.snap.TimeScale,
		Selected: s.selected, Models: len(s.snap.Models),
		Chase: s.show.chase, Screen: screenName(s.g.screens[s.g.active], s.g.active),
		TPS: ebiten.ActualTPS(), FPS: ebiten.ActualFPS(), Shots: s.shots, Status: s.statusLine(), Recording: s.rec.path, OtherRecordings: slices.Clone(s.others),
		Scenario: s.g.cur.Plan.Scenario.Source, Targets: map[string][4]int{},
	}
	st.Frames, st.Rates = s.panels.counts()
	if s.chase != nil {
		st.ChaseFrames = s.chase.count()
	}
	if s.prompt != nil {
		st.Prompt = s.prompt.title
		if !s.prompt.browse.r.Empty() {
			st.Targets["prompt:browse"] = rectOf(s.prompt.browse.r)
			st.Targets["prompt:ok"] = rectOf(s.prompt.ok.r)
		}
		st.PromptText = s.prompt.line.Text()
		st.PromptNote = s.prompt.shownNote()
	}
	for _, b := range s.tools {
		st.Targets["tool:"+b.label] = rectOf(b.r)
	}
	if s.spawnOn {
		for _, b := range s.spawn.rows {
			st.Targets["spawn:"+b.label] = rectOf(b.r)
		}
	}
	if s.worlds.on {
		for i, b := range s.worlds.rows {
			st.Targets["world:"+s.worlds.ids[i]] = rectOf(b.r)
		}
	}
	st.World, st.Worlds, st.Follow = s.g.cur.ID, len(s.g.host.Worlds()), s.follow
	for i, r := range s.panels.rects {
		st.Targets["panel:"+s.panels.cams[i].Sensor] = rectOf(r)
	}
	if s.panels.enlarged >= 0 {
		st.Targets["panel:enlarged"] = rectOf(s.panels.big)
	}
	if m, ok := s.snap.Model(s.selected); ok {
		st.Pose = [3]float64{m.Pose.X, m.Pose.Y, m.Pose.Yaw}
		st.Forward, st.Throttle, st.Steer = m.Forward, m.Command.Throttle, m.Command.Steer
	}
	if len(s.snap.Models) <= maxStateRobots {
		st.Robots = make(map[string][3]float64, len(s.snap.Models))
		for _, m := range s.snap.Models {
			st.Robots[m.Name] = [3]float64{m.Pose.X, m.Pose.Y, m.Pose.Yaw}
		}
	}
	st.Ranges = map[string]float64{}
	for id, r := range s.panels.rangeReadings() {
		if !math.IsNaN(r) {
			st.Ranges[id] = r
		}
	}
	st.Targets["bar"] = [4]int{0, s.h - s.barH, s.w, s.h}
	if !s.statusBox.Empty() && s.statusBoxOf == s.statusShownAs() {
		st.Targets["status"] = rectOf(s.statusBox)
	}
	if w, h := boxSize(s.hudFitted()); w > 0 {
		st.Targets["hud"] = [4]int{8, 8, 8 + int(w), 8 + int(h)}
	}
	if s.show.help {
		x, y, w, h := s.helpBox()
		st.Targets["help"] = [4]int{int(x), int(y), int(x + w), int(y + h)}
	}
	if i := s.panels.enlarged; i >= 0 && i < len(s.panels.cams) {
		st.Enlarged = s.panels.cams[i].Sensor
	}
	if p := s.g.cur.Plan; p != nil && p.Track != nil {
		st.Track = p.Track.ID
	}
	st.View = [3]float64{s.view.CX, s.view.CY, s.view.Scale}
	st.Cursor[0], st.Cursor[1] = ebiten.CursorPosition()
	st.Clicks, st.LastClick = s.g.clicks, s.g.lastClick
	st.Focused, st.Keys = ebiten.IsFocused(), s.g.keyPresses
	press := s.steerClock.lastPress()
	st.Picked, st.SteerHold, st.SteerSim = s.spawn.picked, s.drv.lastHold, press.sim.Seconds()
	st.SteerPeak, st.SteerArea = press.peak, press.area
	return st
}

func rectOf(r image.Rectangle) [4]int { return [4]int{r.Min.X, r.Min.Y, r.Max.X, r.Max.Y} }

// hudFitted is the HUD cut to the room left of the camera panels beside it: in a narrow
// window its lines ran over the first panel's title. Lines stay whole when that room is under
// hudMinWidth.
func (s *simScreen) hudFitted() []string {
	// The text's room: the box starts 8 px in, pads its text by 8 px a side, and keeps 8 px
	// from a panel.
	room := float32(s.w - 32)
	for _, r := range s.panels.rects {
		if r.Min.Y < s.hudBottom() {
			room = min(room, float32(r.Min.X-32))
		}
	}
	if w, _ := boxSize(s.hud); w-16 <= room || room < hudMinWidth {
		return s.hud
	}
	out := make([]string, len(s.hud))
	for i, l := range s.hud {
		out[i] = fitText(l, room)
	}
	return out
}

// hudMinWidth is the narrowest the HUD is cut to, pixels.
const hudMinWidth = 160

// hudBottom is the y just below the HUD box.
func (s *simScreen) hudBottom() int { return 8 + len(s.hud)*lineHeight + 8 + 6 }
