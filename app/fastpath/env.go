package fastpath

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sync"

	"simgui/app"
	"simgui/app/events"
	"simgui/app/route"
	"simgui/app/sensors"
	"simgui/app/transport/msgs"
	"simgui/app/world"
	"simgui/physics/drive"
	"simgui/plugins"
	"simgui/render"
)

// stateFields name the float64s of an env's state row in shared memory, in order. Distances
// are metres, angles radians (world frame: x east, y north, yaw counter-clockwise from east),
// times seconds. ultrasonic_m and route_distance have three decimals, as the training API's
// telemetry and route info have them; ultrasonic_m is NaN for a vehicle without a sonar.
// contacts counts the touches of walls or boxes that began during the last action period,
// touching those still going on; route_* follow app/route (route_total 0: no route). z is the
// altitude of the vehicle's base and climb its rate (m/s), 0 on the ground. New fields go at
// the end: clients find fields by name, but older ones may not.
var stateFields = [...]string{
	"x", "y", "yaw", "vx", "vy", "speed", "forward", "yaw_rate",
	"sim_time", "world_step", "actions",
	"ultrasonic_m", "contacts", "touching",
	"route_index", "route_total", "route_distance", "route_completed",
	"z", "climb",
}

// env is one world of a session. Its world belongs to its loop's goroutine; the session's
// goroutines only queue work on its loop (StartSteps, StartReset, Call).
type env struct {
	index int
	plan  *sessionPlan
	sim   *app.Sim
	// img and state are the env's slices of the shared memory, written on the loop goroutine
	// and read by the client after the reply.
	img, state []byte
	camera     string // first camera mount
	sonar      string // first ultrasonic mount, "" without one
	channels   int

	// reset is true once the client has reset the env (session goroutines only).
	reset bool

	// Loop goroutine only (or read after a loop call returned).
	// pending is the next episode, set just ahead of a reset and taken by its hook.
	pending *episodePlan
	// gains are the image gains of the episode on show, trying those of a reset under way.
	gains, trying *render.GainTable
	route         *route.Progress
	due           uint64
	actions       int
	contacts      int
	touching      int
	frame         sensors.Image
	// drawn is what the camera draws into: an RGB frame of the env's own, or the grey
	// camera's RGB, copied into img after each frame.
	drawn []byte
	err   error
}

// newEnv builds env i of a session in lockstep, not yet running: the host runs it once the
// session's worlds are added as an episode.
func newEnv(h *app.Host, sp *sessionPlan, i int, id, label string, img, state []byte) (*env, error) {
	first, err := sp.episode(0)
	if err != nil {
		return nil, err
	}
	e := &env{index: i, plan: sp, img: img, state: state}
	plan := *sp.base
	plan.Agents = []world.AgentSpec{{Name: agentName, Vehicle: first.vehicle}}
	plan.TrackParams = first.trackParams
	for _, m := range first.vehicle.Sensors {
		switch {
		case m.Kind == plugins.SensorCamera && e.camera == "":
			e.camera = m.ID
		case m.Kind == "ultrasonic" && e.sonar == "":
			e.sonar = m.ID
		}
	}
	e.channels = sp.channels
	e.drawn = make([]byte, 3*sp.width*sp.height)
	sim, err := h.Build(&plan, app.BuildOptions{Lockstep: true, Kind: app.KindEpisode, Label: label,
		Agents: []string{id}, BeforeReset: e.beforeReset})
	if err != nil {
		return nil, err
	}
	if err := sim.World.AddSystem(&capture{e: e}, world.SystemOptions{Name: "fastpath.capture"}); err != nil {
		sim.Close()
		return nil, err
	}
	e.sim = sim
	return e, nil
}

// beforeReset puts the pending episode's vehicle and track params into the world's config
// (world.Config.BeforeReset, on the loop goroutine). A reset from elsewhere (the window,
// /control) keeps the current episode's.
func (e *env) beforeReset(c *world.Config) error {
	ep := e.pending
	if ep == nil {
		return nil
	}
	e.pending = nil
	c.TrackParams = ep.trackParams
	c.Agents = []world.AgentSpec{{Name: agentName, Vehicle: ep.vehicle}}
	// The camera's frames, the window's and the bridge's too, go through the episode's gains
	// from the reset's first frame; a reset that fails puts the last episode's back.
	e.trying = render.NewGainTable(ep.gains)
	e.sim.Sensors.SetImageGains(agentName, e.camera, e.trying)
	return nil
}

// startReset sets the env's loop drawing the episode of seed, resetting the world into it
// and capturing the first observation, all in one hand-over, without waiting. done is
// called on the loop goroutine (it must not block) with the episode's info, or with the
// error that stopped it: an episode that cannot be drawn leaves the world as it was.
func (e *env) startReset(seed int64, layout bool, done func(*ResetInfo, error)) error {
	var info *ResetInfo
	before := func(*world.World) error {
		ep, err := e.plan.episode(seed)
		if err != nil {
			return err
		}
		e.pending = ep // taken by beforeReset, on this goroutine
		info = &ResetInfo{Env: e.index, Seed: seed, Draws: make(map[string]float64, len(ep.draw.Values)), TrackParams: ep.trackParams}
		for _, d := range ep.draw.Values {
			info.Draws[d.Key] = d.Value
		}
		return nil
	}
	then := func(w *world.World) error {
		if e.trying != nil { // the world is the new episode's: so are the gains
			e.gains, e.trying = e.trying, nil
		}
		e.actions, e.contacts, e.due = 0, 0, 0
		if err := e.capture(w); err != nil {
			return err
		}
		if m := w.Model(agentName); m != nil {
			info.Spawn = [3]float64{m.Initial.X, m.Initial.Y, m.Initial.Yaw}
		}
		if r := e.route; r != nil {
			info.Route = &RouteInfo{Waypoints: r.Waypoints, Reach: r.Reach, Loop: r.Loop}
		}
		if layout {
			for _, el := range w.Layout().Elements {
				if el.Kind == plugins.ElementWall || el.Kind == plugins.ElementBox {
					info.Elements = append(info.Elements, [5]float64{el.X, el.Y, el.Length, el.Width, el.YawDeg})
				}
			}
		}
		return nil
	}
	return e.sim.Loop.StartReset(seed, before, then, func(err error) {
		// A reset that failed has not taken the episode, nor its gains (then takes them).
		e.pending = nil
		if e.trying != nil {
			e.sim.Sensors.SetImageGains(agentName, e.camera, e.gains)
			e.trying = nil
		}
		if err != nil {
			done(nil, err)
			return
		}
		done(info, nil)
	})
}

// startStep applies an action (rusim's throttle and steer, −1..1, steer > 0 turning right, as
// the training API takes them, and the climb of a flying vehicle, −1..1) and sets the env's loop stepping one action period, without
// waiting; the observation is captured after its last world step. wg is done when the period
// is (or the loop stopped first); stepErr then says how it went.
func (e *env) startStep(a [maxActions]float64, gone <-chan struct{}, wg *sync.WaitGroup) error {
	cmd := drive.Command{Throttle: clamp(a[0]), Steer: -clamp(a[1]), Vertical: clamp(a[2])}
	n := e.plan.steps
	wg.Add(1)
	err := e.sim.Loop.StartStepsUntil(gone, func(w *world.World) {
		_ = w.SetCommand(agentName, cmd)
		e.due = w.StepCount() + uint64(n)
		e.actions++
	}, n, func(_ *world.Snapshot, err error) {
		if err != nil && e.err == nil {
			e.err = err
		}
		wg.Done()
	})
	if err != nil {
		wg.Done()
	}
	return err
}

// stepErr returns and clears the error of the action period startStep began (its capture's,
// or the loop's); call it once that period's wait group is done.
func (e *env) stepErr() error {
	err := e.err
	e.err = nil
	return err
}

func clamp(x float64) float64 { return math.Max(-1, math.Min(1, x)) }

// capture writes the env's observation and state into shared memory. Loop goroutine only.
func (e *env) capture(w *world.World) error {
	m := w.Model(agentName)
	if m == nil {
		return errors.New("the env's vehicle is not in its world")
	}
	sys := e.sim.Sensors
	if e.route == nil {
		e.route = route.New(w.Layout())
	}
	p := m.Body.Pose()
	if e.route != nil {
		e.route.Update(p.X, p.Y)
	}
	sonar := math.NaN()
	if e.sonar != "" {
		v, err := latest(sys, e.sonar)
		if err != nil {
			return err
		}
		sonar = mm(v)
	}
	if err := e.drawFrame(sys); err != nil {
		return err
	}
	vx, vy := m.Body.Velocity()
	fwd, _ := m.Body.LocalVelocity()
	row := [len(stateFields)]float64{
		p.X, p.Y, world.WrapAngle(p.Yaw), vx, vy, math.Hypot(vx, vy), fwd, m.Body.AngularVelocity(),
		w.SimTime().Seconds(), float64(w.StepCount()), float64(e.actions),
		sonar, float64(e.contacts), float64(e.touching),
	}
	if r := e.route; r != nil {
		row[14], row[15], row[16] = float64(r.Index), float64(len(r.Waypoints)), mm(r.Distance)
		if r.Completed {
			row[17] = 1
		}
	}
	row[18] = m.Body.Base
	if f, ok := m.Drive.(drive.Flyer); ok {
		row[19] = f.ClimbRate()
	}
	for i, x := range row {
		binary.LittleEndian.PutUint64(e.state[8*i:], math.Float64bits(x))
	}
	e.contacts = 0
	return nil
}

// drawFrame renders the camera into the env's image slot (an RGB camera through the
// episode's gains, which beforeReset set).
func (e *env) drawFrame(sys *sensors.System) error {
	// Not straight into shared memory: the client read its lines last, from another core,
	// so every line the drawing first touches there waits for that core, where one
	// sequential copy streams them (about a tenth of an 84×84 frame's time).
	f := &e.frame
	f.Pixels = e.drawn
	if err := sys.Frame(agentName, e.camera, f); err != nil {
		return fmt.Errorf("camera %s: %w", e.camera, err)
	}
	if n := f.Width * f.Height * f.Channels; n != len(e.img) {
		return fmt.Errorf("camera %s drew %d×%d×%d; the session expects %d bytes", e.camera, f.Width, f.Height, f.Channels, len(e.img))
	}
	e.drawn = f.Pixels
	copy(e.img, f.Pixels)
	return nil
}

// latest returns a sonar's latest range, firing it once when it has none yet (at a reset), as
// the training API's telemetry does.
func latest(sys *sensors.System, id string) (float64, error) {
	rd, ok := sys.Latest(agentName, id)
	if !ok {
		if err := sys.FireNow(agentName, id); err != nil {
			return 0, err
		}
		if rd, ok = sys.Latest(agentName, id); !ok {
			return 0, fmt.Errorf("sensor %s gave no reading", id)
		}
	}
	v, ok := rd.Msg.(*msgs.Float_V)
	if !ok || len(v.Data) == 0 {
		return 0, fmt.Errorf("sensor %s reads %T, not a range", id, rd.Msg)
	}
	return float64(v.Data[0]), nil
}

// mm rounds to three decimals, as the training API's telemetry strings.
func mm(x float64) float64 { return math.Round(x*1000) / 1000 }

// capture is the world system that captures an env's observation after the last world step
// of an action period and counts its vehicle's contacts. It is added after the sensors, so
// the sensors due at that step have fired.
type capture struct{ e *env }

// Init subscribes to the world's contacts.
func (c *capture) Init(w *world.World) error {
	on := func(delta int) events.Handler {
		return func(ev events.Event) {
			col, ok := ev.Data.(events.Collision)
			if !ok {
				return
			}
			if other, ours := otherOf(col); ours && (other.Kind == "static" || other.Kind == "box") {
				if delta > 0 {
					c.e.contacts++
				}
				c.e.touching = max(0, c.e.touching+delta)
			}
		}
	}
	w.Events().On(events.CollisionStarted, on(1), 0)
	w.Events().On(events.CollisionEnded, on(-1), 0)
	return nil
}

// otherOf returns the entity the env's vehicle touches in col, and whether it is in col.
func otherOf(col events.Collision) (events.Entity, bool) {
	switch {
	case col.A.Kind == "vehicle" && col.A.Name == agentName:
		return col.B, true
	case col.B.Kind == "vehicle" && col.B.Name == agentName:
		return col.A, true
	}
	return events.Entity{}, false
}

// PostStep captures when the action period's last step is done.
func (c *capture) PostStep(w *world.World) {
	e := c.e
	if e.due == 0 || w.StepCount() != e.due {
		return
	}
	e.due = 0
	if err := e.capture(w); err != nil && e.err == nil {
		e.err = err
	}
}

// Reset forgets the old episode's route and contacts.
func (c *capture) Reset(*world.World) {
	c.e.route, c.e.touching, c.e.contacts, c.e.due = nil, 0, 0, 0
}
