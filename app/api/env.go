package api

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"simgui/app"
	"simgui/app/route"
	"simgui/app/scenario"
	"simgui/app/sensors"
	"simgui/app/world"
	"simgui/physics/drive"
)

// env is one world of an episode with the agents it holds. Steps on an env are serialized by
// mu; different envs (isolated agents) step in parallel, each on its own loop goroutine.
type env struct {
	sim    *app.Sim
	plan   *scenario.Plan
	steps  int // world steps per API step
	agents []*agent

	// img is the image every camera frame of this world is drawn into, in turn, and encoded
	// from before the next: one frame's buffers a world, however many agents it holds. Loop
	// goroutine only.
	img sensors.Image

	mu sync.Mutex
}

// agent is one agent of an episode.
type agent struct {
	id, vehicleID string
	primary       bool
	env           *env
	draw          scenario.Draw

	camera  *cameraSpec // nil without a camera
	sensors sensorRig

	// echo is the last motor command in rusim's naming; set under env.mu before a step, read
	// by the capture on the loop goroutine (ordered by the loop's queue).
	echo motorEcho

	// Loop goroutine only.
	route *route.Progress

	// last is the reading after the latest step, immutable once stored.
	last atomic.Pointer[reading]
}

// reading is an agent's state after a step, in the world frame.
type reading struct {
	pose                   world.Pose
	vx, vy, yawRate, speed float64
	climb                  float64 // m/s up (flying vehicles)
	telemetry              []KV
	route                  []KV // nil without a route
	done                   bool
	simTime                time.Duration
	step                   uint64
	frame                  string // JPEG in base64; "" when no frame was drawn
	frameBytes             int    // the JPEG's length
	frameW, frameH         int
}

// newEnv builds one world of an episode (in lockstep: it advances only when the API steps it);
// the host runs it once the episode is added.
func newEnv(h *app.Host, plan *scenario.Plan, label string) (*env, error) {
	var names []string
	for _, a := range plan.Agents {
		names = append(names, a.Name)
	}
	sim, err := h.Build(plan, app.BuildOptions{Lockstep: true, Kind: app.KindEpisode, Label: label, Agents: names})
	if err != nil {
		return nil, err
	}
	e := &env{sim: sim, plan: plan}
	e.steps = plan.ActionSteps
	return e, nil
}

// step applies cmds (agents of this env), advances the world by one action period and reads
// every agent; agents in frames get a camera frame. Callers hold no lock; step takes e.mu.
func (e *env) step(ctx context.Context, cmds []agentCommand, frames []*agent) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return err // its client left while it waited for the steps before it
	}
	loop := e.sim.Loop
	if len(cmds) > 0 {
		for _, c := range cmds {
			c.agent.echo = c.echo
		}
		// Do does not wait: the commands are applied at the start of the first of the steps.
		if err := loop.Do(func(w *world.World) {
			for _, c := range cmds {
				_ = w.SetCommand(c.agent.id, c.cmd)
			}
		}); err != nil {
			return err
		}
	}
	if _, err := loop.Step(ctx, e.steps); err != nil {
		return err
	}
	return e.read(frames)
}

// read captures every agent's reading on the loop goroutine, with frames for some.
func (e *env) read(frames []*agent) error {
	return e.sim.Loop.Call(context.Background(), func(w *world.World) error {
		return e.capture(w, frames)
	})
}

// agentCommand is a converted command for one agent.
type agentCommand struct {
	agent *agent
	cmd   drive.Command
	echo  motorEcho
}

// capture reads every agent of the env. Loop goroutine only.
func (e *env) capture(w *world.World, frames []*agent) error {
	sys := e.sim.Sensors
	for _, a := range e.agents {
		m := w.Model(a.id)
		if m == nil {
			return fmt.Errorf("agent %s is not in its world", a.id)
		}
		p := m.Body.Pose()
		vx, vy := m.Body.Velocity()
		rd := &reading{
			pose: world.Pose{X: p.X, Y: p.Y, Z: m.Body.Base, Yaw: world.WrapAngle(p.Yaw)},
			vx:   vx, vy: vy, yawRate: m.Body.AngularVelocity(), speed: math.Hypot(vx, vy),
			simTime: w.SimTime(), step: w.StepCount(),
		}
		if f, ok := m.Drive.(drive.Flyer); ok {
			rd.climb = f.ClimbRate()
		}
		if a.route == nil {
			a.route = route.New(w.Layout())
		}
		if a.route != nil {
			a.route.Update(p.X, p.Y)
			rd.route, rd.done = routeInfo(a.route), a.route.Completed
		}
		var err error
		if rd.telemetry, err = a.sensors.read(sys, a.id, a.echo); err != nil {
			return err
		}
		if a.camera != nil && slices.Contains(frames, a) {
			if rd.frame, rd.frameBytes, rd.frameW, rd.frameH, err = a.camera.frame(sys, a.id, &e.img); err != nil {
				return err
			}
		}
		a.last.Store(rd)
	}
	return nil
}

// episode is what one /reset built: its worlds and agents, in request order. Its worlds are
// an episode of the host, called id.
type episode struct {
	id       string
	seq      uint64 // the reset that built it, counting from 1: later resets build larger
	host     *app.Host
	seed     int64
	isolated bool
	trackID  string
	envs     []*env
	agents   []*agent
	primary  *agent
	added    bool
}

// agentList names the episode's agents for an error: the first few, and how many more.
func (ep *episode) agentList() string {
	const shown = 8
	var names []string
	for _, a := range ep.agents[:min(len(ep.agents), shown)] {
		names = append(names, "'"+a.id+"'")
	}
	if n := len(ep.agents) - shown; n > 0 {
		names = append(names, fmt.Sprintf("and %d more", n))
	}
	return strings.Join(names, ", ")
}

// buildEpisode builds the worlds of ep and adds them to h as the episode of reset seq, called
// episode-<seq> (the host starts them). On error nothing is left running.
func buildEpisode(h *app.Host, seq uint64, ep *episodePlan) (*episode, error) {
	id := fmt.Sprintf("episode-%d", seq)
	out := &episode{id: id, seq: seq, host: h, seed: ep.seed, isolated: ep.isolated, trackID: ep.track.ID,
		agents: make([]*agent, len(ep.agents))}
	for w, plan := range ep.worlds {
		e, err := newEnv(h, plan, worldLabel(id, ep, w))
		if err != nil {
			out.stop()
			return nil, err
		}
		out.envs = append(out.envs, e)
		for k, i := range ep.owners[w] {
			ap := &ep.agents[i]
			v := plan.Agents[k].Vehicle
			a := &agent{id: ap.id, vehicleID: ap.vehicleID, primary: ap.primary, env: e,
				draw: ep.draws[i], sensors: newSensorRig(v)}
			if a.camera, _ = newCameraSpec(v, ap.image); a.camera != nil {
				// The world's own camera frames (the window's, the bridge's) go through the
				// gains too: set before the world runs.
				e.sim.Sensors.SetImageGains(ap.id, a.camera.id, a.camera.lut)
			}
			e.agents = append(e.agents, a)
			out.agents[i] = a
			if a.primary {
				out.primary = a
			}
		}
	}
	sims := make([]*app.Sim, len(out.envs))
	for i, e := range out.envs {
		sims[i] = e.sim
	}
	if err := h.AddEpisode(id, sims, out.primary.env.sim); err != nil {
		out.stop()
		return nil, err
	}
	out.added = true
	return out, nil
}

// worldLabel names world w of an episode for the window's list: "episode 3 · ego", or with
// isolated agents "episode 3 · agent-2 (isolated)". A shared world of more than labelAgents
// agents names the first and counts the others: naming all of 10,000 made a 69 KB label,
// which the window's HUD and world list and each recording's world mark carried.
func worldLabel(id string, ep *episodePlan, w int) string {
	var names []string
	owners := ep.owners[w]
	for _, i := range owners[:min(len(owners), labelAgents)] {
		names = append(names, ep.agents[i].id)
	}
	if more := len(owners) - len(names); more > 0 {
		names = append(names, fmt.Sprintf("and %d more", more))
	}
	label := strings.Replace(id, "-", " ", 1) + " · " + strings.Join(names, ", ")
	if ep.isolated {
		label += " (isolated)"
	}
	return label
}

// labelAgents is how many agents a world's label names.
const labelAgents = 8

// stop stops and closes every world of the episode.
func (ep *episode) stop() {
	if ep.added {
		ep.host.RemoveEpisode(ep.id)
		return
	}
	for _, e := range ep.envs {
		e.sim.Close()
	}
}

// target finds the agent a step is for: agentId match, else the only agent driving the
// vehicle id, else the primary. Two agents with the vehicle id is an error (rusim: 500).
func (ep *episode) target(agentID, vehicleID string) (*agent, error) {
	if agentID != "" {
		for _, a := range ep.agents {
			if a.id == agentID {
				return a, nil
			}
		}
	}
	if vehicleID != "" {
		var found *agent
		n := 0
		for _, a := range ep.agents {
			if a.vehicleID == vehicleID {
				found = a
				n++
			}
		}
		switch {
		case n > 1:
			return nil, internalError("Ambiguous targetVehicleId '%s': %d agents drive it; use targetAgentId.", vehicleID, n)
		case n == 1:
			return found, nil
		}
	}
	return ep.primary, nil
}
