package api

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"simgui/app/scenario"
	"simgui/app/world"
	"simgui/physics/drive"
	"simgui/plugins"
)

// env is one world of an episode with the agents it holds. Steps on an env are serialized by
// mu; different envs (isolated agents) step in parallel, each on its own loop goroutine.
type env struct {
	inst   Instance
	plan   *scenario.Plan
	steps  int // world steps per API step
	agents []*agent

	mu     sync.Mutex
	cancel context.CancelFunc
	done   chan struct{}
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
	route *routeProgress

	// last is the reading after the latest step, immutable once stored.
	last atomic.Pointer[reading]
}

// reading is an agent's state after a step, in the world frame.
type reading struct {
	pose                   world.Pose
	vx, vy, yawRate, speed float64
	telemetry              []KV
	route                  []KV // nil without a route
	done                   bool
	simTime                time.Duration
	step                   uint64
	frame                  string // JPEG in base64; "" when no frame was drawn
	frameBytes             int    // the JPEG's length
	frameW, frameH         int
}

// newEnv builds and starts one world.
func newEnv(build func(*scenario.Plan) (Instance, error), plan *scenario.Plan) (*env, error) {
	inst, err := build(plan)
	if err != nil {
		return nil, err
	}
	if inst.Sensors == nil {
		if inst.Close != nil {
			inst.Close()
		}
		return nil, errors.New("the world has no sensors system (Instance.Sensors)")
	}
	e := &env{inst: inst, plan: plan, done: make(chan struct{})}
	e.steps = max(1, int(math.Round(plan.ActionPeriod/plan.StepSize)))
	ctx, cancel := context.WithCancel(context.Background())
	e.cancel = cancel
	go func() {
		defer close(e.done)
		_ = inst.Run(ctx)
	}()
	return e, nil
}

// stop ends the world's loop and releases it.
func (e *env) stop() {
	e.cancel()
	<-e.done
	if e.inst.Close != nil {
		_ = e.inst.Close()
	}
}

// step applies cmds (agents of this env), advances the world by one action period and reads
// every agent; agents in frames get a camera frame. Callers hold no lock; step takes e.mu.
func (e *env) step(cmds []agentCommand, frames []*agent) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	loop := e.inst.Loop
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
	if _, err := loop.Step(context.Background(), e.steps); err != nil {
		return err
	}
	return e.read(frames)
}

// read captures every agent's reading on the loop goroutine, with frames for some.
func (e *env) read(frames []*agent) error {
	return e.inst.Loop.Call(context.Background(), func(w *world.World) error {
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
	sys := e.inst.Sensors
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
		if a.route == nil {
			a.route = newRouteProgress(w.Layout())
		}
		if a.route != nil {
			a.route.update(p.X, p.Y)
			rd.route, rd.done = a.route.info(), a.route.completed
		}
		var err error
		if rd.telemetry, err = a.sensors.read(sys, a.id, a.echo); err != nil {
			return err
		}
		if a.camera != nil && slices.Contains(frames, a) {
			if rd.frame, rd.frameBytes, rd.frameW, rd.frameH, err = a.camera.frame(sys, a.id); err != nil {
				return err
			}
		}
		a.last.Store(rd)
	}
	return nil
}

// episode is what one /reset built: its worlds and agents, in request order.
type episode struct {
	seed     int64
	isolated bool
	trackID  string
	envs     []*env
	agents   []*agent
	primary  *agent
	view     *Episode
}

// buildEpisode builds and starts the worlds of ep. On error nothing is left running.
func buildEpisode(build func(*scenario.Plan) (Instance, error), ep *episodePlan) (*episode, error) {
	out := &episode{seed: ep.seed, isolated: ep.isolated, trackID: ep.track.ID, agents: make([]*agent, len(ep.agents))}
	for w, plan := range ep.worlds {
		e, err := newEnv(build, plan)
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
			a.camera, _ = newCameraSpec(v, ap.image)
			e.agents = append(e.agents, a)
			out.agents[i] = a
			if a.primary {
				out.primary = a
			}
		}
	}
	out.view = out.newView()
	return out, nil
}

// stop stops every world of the episode, in parallel.
func (ep *episode) stop() {
	var wg sync.WaitGroup
	for _, e := range ep.envs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.stop()
		}()
	}
	wg.Wait()
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

// Episode describes the worlds the API drives after a reset, for readers such as the window.
// It is immutable; its loops run until the next reset replaces the episode.
type Episode struct {
	// Seed is the reset's seed; agent i's world and draws use Seed+i.
	Seed int64
	// Isolated is true when every agent has its own world.
	Isolated bool
	// TrackID is the episode's track.
	TrackID string
	// Agents in request order; Primary indexes the primary agent.
	Agents  []EpisodeAgent
	Primary int
}

// EpisodeAgent is one agent of an Episode and the loop of the world it is in (agents of a
// shared world have the same Loop).
type EpisodeAgent struct {
	ID, VehicleID string
	Loop          *world.Loop
	// Vehicle is the descriptor as spawned, randomization applied; it must not be modified.
	Vehicle *plugins.VehicleDescriptor
}

// PrimaryLoop returns the loop of the primary agent's world.
func (e *Episode) PrimaryLoop() *world.Loop { return e.Agents[e.Primary].Loop }

func (ep *episode) newView() *Episode {
	v := &Episode{Seed: ep.seed, Isolated: ep.isolated, TrackID: ep.trackID}
	for i, a := range ep.agents {
		var desc *plugins.VehicleDescriptor
		for k, x := range a.env.agents {
			if x == a {
				desc = a.env.plan.Agents[k].Vehicle
			}
		}
		v.Agents = append(v.Agents, EpisodeAgent{ID: a.id, VehicleID: a.vehicleID, Loop: a.env.inst.Loop, Vehicle: desc})
		if a == ep.primary {
			v.Primary = i
		}
	}
	return v
}
