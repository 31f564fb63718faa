package window

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"simgui/app"
	"simgui/app/markers"
	"simgui/app/world"
	"simgui/plugins"
)

// timeScales are the steps + and − move through.
var timeScales = []float64{0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32}

// pressed reports a key that went down this tick.
func pressed(k ebiten.Key) bool { return inpututil.IsKeyJustPressed(k) }

func held(ks ...ebiten.Key) bool {
	for _, k := range ks {
		if ebiten.IsKeyPressed(k) {
			return true
		}
	}
	return false
}

// modifier reports a modifier down at any time since the last tick: held now, or released
// this tick. A quick Ctrl+S on a busy machine can go down and up between two ticks, and the S
// it came with must not then read as a plain S (throttle back).
func modifier(ks ...ebiten.Key) bool {
	for _, k := range ks {
		if ebiten.IsKeyPressed(k) || inpututil.IsKeyJustReleased(k) {
			return true
		}
	}
	return false
}

// handleKeys applies the keys pressed this tick and returns the driving keys held.
func (s *simScreen) handleKeys() keys {
	ctrl := modifier(ebiten.KeyControl, ebiten.KeyMeta)
	shift := modifier(ebiten.KeyShift)
	switch {
	case ctrl && pressed(ebiten.KeyO):
		s.openPrompt()
		return keys{}
	case ctrl && pressed(ebiten.KeyS):
		s.savePrompt()
		return keys{}
	case ctrl:
		return keys{} // Ctrl with a driving key is not driving
	}
	if pressed(ebiten.KeyF1) {
		s.show.help = !s.show.help
	}
	if pressed(ebiten.KeyF9) {
		s.toggleRecording()
	}
	if pressed(ebiten.KeyEscape) {
		switch {
		case s.statusOpen:
			s.closeStatus()
		case s.show.help:
			s.show.help = false
		case s.panels.enlarged >= 0:
			s.panels.enlarged = -1
		case s.spawn.picked != "" || s.spawnOn:
			// The list and its armed robot go together (a right click disarms only).
			s.spawn.picked, s.spawnOn = "", false
		case s.worlds.on:
			s.worlds.on = false
		}
	}
	if pressed(ebiten.KeyTab) {
		if shift {
			s.cycle(-1)
		} else {
			s.cycle(1)
		}
	}
	toggles := []struct {
		k ebiten.Key
		v *bool
	}{{ebiten.KeyF, &s.follow}, {ebiten.KeyC, &s.show.chase}, {ebiten.KeyV, &s.show.frusta},
		{ebiten.KeyG, &s.show.grid}, {ebiten.KeyM, &s.show.markers},
		{ebiten.KeyH, &s.show.briefHUD}}
	for _, t := range toggles {
		if pressed(t.k) {
			*t.v = !*t.v
		}
	}
	if pressed(ebiten.KeyM) {
		s.markersSaid()
	}
	if pressed(ebiten.KeyL) {
		s.toggleLidar()
	}
	if pressed(ebiten.KeyI) {
		s.toggleSpawn()
		s.worlds.on = false
	}
	if pressed(ebiten.KeyBracketRight) {
		s.cycleWorld(1)
	}
	if pressed(ebiten.KeyBracketLeft) {
		s.cycleWorld(-1)
	}
	if pressed(ebiten.KeyP) {
		s.pauseResume()
	}
	if pressed(ebiten.KeyN) {
		s.stepOnce()
	}
	if pressed(ebiten.KeyR) {
		s.reset()
	}
	if pressed(ebiten.KeyEqual) || pressed(ebiten.KeyNumpadAdd) {
		s.scaleTime(1)
	}
	if pressed(ebiten.KeyMinus) || pressed(ebiten.KeyNumpadSubtract) {
		s.scaleTime(-1)
	}
	if pressed(ebiten.Key0) || pressed(ebiten.KeyNumpad0) {
		s.setTimeScale(1)
	}
	return keys{
		Forward: held(ebiten.KeyW, ebiten.KeyArrowUp),
		Back:    held(ebiten.KeyS, ebiten.KeyArrowDown),
		Left:    held(ebiten.KeyA, ebiten.KeyArrowLeft),
		Right:   held(ebiten.KeyD, ebiten.KeyArrowRight),
		Brake:   held(ebiten.KeySpace),
		Up:      held(ebiten.KeyQ),
		Down:    held(ebiten.KeyE),
		Fine:    shift,
	}
}

// handleMouse: the wheel zooms at the cursor (or scrolls the keys overlay); a left click
// uses the toolbar, a panel, the spawn list, places an armed spawn or selects a robot; a left
// drag pans (or aims a spawn); a right click disarms a spawn.
func (s *simScreen) handleMouse() {
	x, y := ebiten.CursorPosition()
	if _, wy := ebiten.Wheel(); wy != 0 {
		switch {
		case s.overHelp(x, y): // drawn over the world and the panels
			s.scrollHelp(wy)
		case s.panels.contains(x, y):
		case s.worlds.over(x, y):
			s.worlds.scroll(-int(math.Round(3 * wy))) // three rows a notch, down for the wheel towards the user
		case s.show.chase:
			s.orbit.wheel(wy)
		default:
			s.view.zoomAt(float64(x), float64(y), math.Pow(1.15, wy))
		}
	}
	if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonRight) {
		s.spawn.picked = ""
	}
	if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) {
		if b := hit(s.tools, x, y); b != nil {
			b.action()
			return
		}
		if s.statusClick(x, y) {
			return
		}
		if s.panels.click(x, y) {
			return
		}
		if s.worlds.on {
			if id, ok := s.worlds.click(s.g.host, x, y); ok {
				s.pickWorld(id)
				return
			}
		}
		if s.spawnOn && s.spawn.click(x, y) {
			if s.spawn.picked != "" {
				s.closeStatus() // the line saying where to click takes its place at once
			}
			return
		}
		s.mouse = mouseState{down: true, sx: x, sy: y, lx: x, ly: y}
		return
	}
	if !s.mouse.down {
		return
	}
	if ebiten.IsMouseButtonPressed(ebiten.MouseButtonLeft) {
		if !s.mouse.moved && math.Hypot(float64(x-s.mouse.sx), float64(y-s.mouse.sy)) > 4 {
			s.mouse.moved = true
		}
		switch {
		case s.mouse.moved && s.show.chase:
			// Dragging right turns the camera round to the robot's left, as on a turntable.
			s.orbit.yaw = math.Remainder(s.orbit.yaw-float64(x-s.mouse.lx)*0.01, 2*math.Pi)
		case s.mouse.moved && s.spawn.picked == "":
			s.view.pan(float64(x-s.mouse.lx), float64(y-s.mouse.ly))
			s.follow = false
		}
		s.mouse.lx, s.mouse.ly = x, y
		return
	}
	// Released.
	s.mouse.down = false
	if s.show.chase {
		return
	}
	wx, wy := s.view.toWorld(float64(s.mouse.sx), float64(s.mouse.sy))
	if s.spawn.picked != "" {
		yaw := s.spawnHeading(wx, wy)
		if s.mouse.moved {
			ex, ey := s.view.toWorld(float64(x), float64(y))
			yaw = math.Atan2(ey-wy, ex-wx)
		}
		s.spawnPicked(&world.Pose{X: wx, Y: wy, Yaw: yaw})
		return
	}
	if !s.mouse.moved {
		if name := s.robotAt(x, y); name != "" {
			s.selectModel(name)
		}
	}
}

// robotAt returns the robot under screen point (x, y) — within its footprint or 10 pixels of
// its centre, the nearest one — or "".
func (s *simScreen) robotAt(x, y int) string {
	best, bestD := "", math.Inf(1)
	wx, wy := s.view.toWorld(float64(x), float64(y))
	for _, m := range s.snap.Models {
		hl, hw, _ := footprint(m.Vehicle)
		d := math.Hypot(m.Pose.X-wx, m.Pose.Y-wy)
		if d <= math.Max(hl, hw) || d*s.view.Scale <= 10 {
			if d < bestD {
				best, bestD = m.Name, d
			}
		}
	}
	return best
}

// toolbar is the button row at the bottom of the window.
func (s *simScreen) toolbar() []button {
	pause := "Pause (P)"
	if s.snap.Paused {
		pause = "Resume (P)"
	}
	return []button{
		{label: pause, on: s.snap.Paused, action: s.pauseResume},
		{label: "Step (N)", action: s.stepOnce},
		{label: "Reset (R)", action: s.reset},
		{label: "−", action: func() { s.scaleTime(-1) }},
		{label: fmt.Sprintf("×%g", s.snap.TimeScale), action: func() { s.setTimeScale(1) }},
		{label: "+", action: func() { s.scaleTime(1) }},
		{label: "Spawn (I)", on: s.spawnOn, action: s.toggleSpawn},
		{label: "World… ([ ])", on: s.worlds.on, action: s.toggleWorlds},
		{label: "Open… (Ctrl+O)", action: s.openPrompt},
		{label: "Save… (Ctrl+S)", action: s.savePrompt},
		{label: "3D (C)", on: s.show.chase, action: func() { s.show.chase = !s.show.chase }},
		{label: "Frusta (V)", on: s.show.frusta, action: func() { s.show.frusta = !s.show.frusta }},
		{label: "Lidar (L)", on: s.show.lidar, action: s.toggleLidar},
		{label: "Follow (F)", on: s.follow, action: func() { s.follow = !s.follow }},
		{label: "Record (F9)", on: s.rec.stop != nil, action: s.toggleRecording},
		{label: "Keys (F1)", on: s.show.help, action: func() { s.show.help = !s.show.help }},
	}
}

// World controls. Each runs on the worker (the loop methods wait for the loop) and reports in
// the status line.

// clientDriven says, in the status line, that the world on show is a training episode,
// which its client resets and steps (it waits for the client's steps): the window's reset,
// pause and step would change it under the client without a word. It reports whether it is.
func (s *simScreen) clientDriven(what string) bool {
	if s.g.cur == nil || s.g.cur.Kind != app.KindEpisode {
		return false
	}
	s.status(what + ": this world is a training episode, which its client resets and steps; the window only shows it ([ and ] show another world)")
	return true
}

func (s *simScreen) pauseResume() {
	if s.clientDriven("pause") {
		return
	}
	loop, paused := s.g.cur.Loop, s.snap.Paused
	s.g.async(func() func() {
		var err error
		if paused {
			err = loop.Resume()
		} else {
			err = loop.Pause()
		}
		return func() {
			switch {
			case err != nil:
				s.status("pause: " + err.Error())
			case paused:
				s.status("resumed")
			default:
				s.status("paused")
			}
		}
	})
}

func (s *simScreen) stepOnce() {
	if s.clientDriven("step") {
		return
	}
	loop, paused, ctx := s.g.cur.Loop, s.snap.Paused, s.g.ctx
	s.g.async(func() func() {
		if !paused {
			if err := loop.Pause(); err != nil {
				return func() { s.status("step: " + err.Error()) }
			}
		}
		snap, err := loop.Step(ctx, 1)
		return func() {
			if err != nil {
				s.status("step: " + err.Error())
				return
			}
			s.status(fmt.Sprintf("stepped to %.3f s (step %d)", snap.SimTime.Seconds(), snap.Step))
		}
	})
}

// toggleLidar shows or hides the selected robot's lidar rays; turned on for a robot without a
// lidar, it says so (nothing else would change on the screen).
func (s *simScreen) toggleLidar() {
	s.show.lidar = !s.show.lidar
	if !s.show.lidar {
		return
	}
	if m, ok := s.snap.Model(s.selected); ok && m.Vehicle != nil &&
		!slices.ContainsFunc(m.Vehicle.Sensors, func(mt plugins.SensorMount) bool { return mt.Kind == plugins.SensorLidar }) {
		s.status(m.Name + " has no lidar: L draws the rays of the selected robot's lidar")
	}
}

// resetAgain is how long a second R (or Reset click) has to confirm a reset that would remove
// robots spawned in the window.
const resetAgain = 4 * time.Second

// replaceAgain is how long a second Install & test drive of a track has to confirm replacing a
// world with robots spawned in the window: the editor is on show, its question to be read.
const replaceAgain = 10 * time.Second

// markersSaid says what M did: markers shown or hidden, and when shown, whether the world has
// any (a press on a world without any changed nothing to see).
func (s *simScreen) markersSaid() {
	if !s.show.markers {
		s.status("markers hidden (M shows them)")
		return
	}
	if set, _ := s.snap.Overlays[markers.OverlayKey].(*markers.Set); set.Len() == 0 {
		s.status("markers shown: this world has none yet (clients add them with the control service's /markers)")
		return
	}
	s.status("markers shown (M hides them)")
}

// spawnedHere counts the robots running that the scenario does not have: a reset removes them.
func (s *simScreen) spawnedHere() int { return s.spawnedBut(nil) }

// unsavedHere counts the robots spawnedHere counts but those in the scenario last saved from
// this world: closing the window or opening another scenario would lose the others.
func (s *simScreen) unsavedHere() int { return s.spawnedBut(s.savedNames) }

// spawnedBut counts the robots running that neither the scenario nor saved has.
func (s *simScreen) spawnedBut(saved map[string]bool) int {
	n := 0
	for _, m := range s.snap.Models {
		if !saved[m.Name] && !slices.ContainsFunc(s.g.cur.Plan.Agents, func(a world.AgentSpec) bool { return a.Name == m.Name }) {
			n++
		}
	}
	return n
}

// MayClose implements CloseGuard: robots spawned in the window and not saved are asked about
// first, as a reset and Ctrl+O ask; a second close within resetAgain drops them.
func (s *simScreen) MayClose() bool {
	if n := s.unsavedHere(); n > 0 && time.Now().After(s.closeBy) {
		s.closeBy = time.Now().Add(resetAgain)
		s.status(fmt.Sprintf("close the window again within %.0f s to quit and drop the %s spawned here (Ctrl+S first saves a world with them)",
			resetAgain.Seconds(), robotsCount(n)))
		return false
	}
	return true
}

// mayReplace returns "" when a test drive on another track may replace the world now, and
// otherwise the question to show: with robots spawned here and not saved it asks first, as
// closing does, and lets it when asked again within replaceAgain. again says how to ask again
// (a %.0f for the seconds).
func (s *simScreen) mayReplace(again string) string {
	if n := s.unsavedHere(); n > 0 && time.Now().After(s.replaceBy) {
		s.replaceBy = time.Now().Add(replaceAgain)
		return fmt.Sprintf(again, replaceAgain.Seconds()) + fmt.Sprintf(": it replaces the running world and drops the %s spawned there (F2 shows the simulator, where Ctrl+S saves a world with them)",
			robotsCount(n))
	}
	s.replaceBy = time.Time{}
	return ""
}

func (s *simScreen) reset() {
	if s.clientDriven("reset") {
		return
	}
	if n := s.spawnedHere(); n > 0 && time.Now().After(s.resetBy) {
		s.resetBy = time.Now().Add(resetAgain)
		s.status(fmt.Sprintf("R again within %.0f s resets the world and removes the %s spawned here (Ctrl+S first saves a world with them)",
			resetAgain.Seconds(), robotsCount(n)))
		return
	}
	s.resetBy = time.Time{}
	loop, seed, ctx := s.g.cur.Loop, s.snap.Seed, s.g.ctx
	before := len(s.snap.Models)
	s.drv.reset()
	s.status("resetting …")
	s.g.async(func() func() {
		err := loop.Reset(ctx, seed)
		after := len(loop.Snapshot().Models)
		return func() {
			if err != nil {
				s.status(resetFailed(err))
				return
			}
			msg := fmt.Sprintf("reset with seed %d", seed)
			if after < before {
				// A reset rebuilds the scenario's world: robots spawned here are not in it.
				msg += fmt.Sprintf(": the scenario's robots only (%d); robots spawned here: %d removed (Ctrl+S saves a world with them)", after, before-after)
			}
			s.status(msg)
		}
	})
}

// scaleTime moves the time scale one step up (dir 1) or down (dir -1).
func (s *simScreen) scaleTime(dir int) {
	cur := s.snap.TimeScale
	next := cur
	if dir > 0 {
		next = timeScales[len(timeScales)-1]
		for _, x := range timeScales {
			if x > cur+1e-9 {
				next = x
				break
			}
		}
		if cur == 0 {
			next = 0
		}
	} else {
		next = timeScales[0]
		for i := len(timeScales) - 1; i >= 0; i-- {
			if timeScales[i] < cur-1e-9 {
				next = timeScales[i]
				break
			}
		}
		if cur == 0 {
			next = timeScales[len(timeScales)-1]
		}
	}
	s.setTimeScale(next)
}

func (s *simScreen) setTimeScale(x float64) {
	loop := s.g.cur.Loop
	s.g.async(func() func() {
		err := loop.SetTimeScale(x)
		return func() {
			if err != nil {
				s.status("time scale: " + err.Error())
				return
			}
			s.status(fmt.Sprintf("time scale ×%g", x))
		}
	})
}

// Spawning.

func (s *simScreen) toggleSpawn() {
	s.spawnOn = !s.spawnOn
	s.spawn.picked = ""
	if s.spawnOn {
		s.refreshSpawnList()
	}
}

// refreshSpawnList asks the catalog for its vehicles on the worker.
func (s *simScreen) refreshSpawnList() {
	cat := s.g.opts.Plugins
	s.spawn.loading = true
	s.g.async(func() func() {
		ids := cat.Vehicles()
		return func() {
			s.spawn.ids, s.spawn.listed, s.spawn.loading = ids, time.Now(), false
		}
	})
}

// spawnPicked spawns the picked vehicle at pose.
func (s *simScreen) spawnPicked(pose *world.Pose) {
	id := s.spawn.picked
	cat := s.g.opts.Plugins
	ctx, loop, name := s.g.ctx, s.g.cur.Loop, spawnName(id, s.snap)
	s.status("spawning " + name + " …")
	s.g.async(func() func() {
		v, err := cat.Vehicle(id)
		if err == nil {
			_, err = spawnVehicle(ctx, loop, v, name, pose, "")
		}
		return func() { s.spawned(name, "", false, err) }
	})
}

// testDrive spawns a descriptor handed over by another screen (Host.TestDrive), in place of
// the robot of its last test drive.
func (s *simScreen) testDrive(v *plugins.VehicleDescriptor, at *world.Pose) {
	ctx, loop, name := s.g.ctx, s.g.cur.Loop, spawnName(v.ID, s.snap)
	old := s.testDriven[v.ID]
	s.status("spawning " + name + " for a test drive …")
	s.g.async(func() func() {
		replaced, err := spawnVehicle(ctx, loop, v, name, at, old)
		if at == nil && errors.Is(err, world.ErrNoFreePlace) {
			// Placed by a click, a robot needs room for its outline only, turned as it is aimed.
			err = fmt.Errorf("%w; pick it in the spawn list (I) and click where it goes", err)
		}
		return func() {
			if err == nil {
				if s.testDriven == nil {
					s.testDriven = map[string]string{}
				}
				s.testDriven[v.ID] = name
			}
			note := ""
			if replaced {
				note = ", in place of " + old + ", the earlier test drive of " + v.ID
			}
			s.spawned(name, note, true, err)
		}
	})
}

// spawned selects a spawned robot, and frames it if frame, once the snapshot has it (see
// pending); note ends the status line.
func (s *simScreen) spawned(name, note string, frame bool, err error) {
	if err != nil {
		s.status("spawn failed: " + err.Error())
		return
	}
	s.pending, s.pendingBy, s.pendingFrame = name, time.Now().Add(3*time.Second), frame
	s.status("spawned " + name + " (selected)" + note)
}

// resetFailed is the status line of a reset that failed: the world's errors say "reset: "
// already ("reset: reset: plugin X is no longer installed" was shown).
func resetFailed(err error) string {
	if msg := err.Error(); strings.HasPrefix(msg, "reset: ") {
		return msg
	}
	return "reset: " + err.Error()
}
