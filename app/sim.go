package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"

	"simgui/app/scenario"
	"simgui/app/sensors"
	"simgui/app/systems"
	"simgui/app/systems/clock"
	"simgui/app/systems/gztopics"
	"simgui/app/systems/odometry"
	_ "simgui/app/systems/standard" // every built-in system registers itself
	"simgui/app/transport"
	"simgui/app/world"
	"simgui/physics/drive"
	"simgui/plugins"
	"simgui/plugins/trackgen"
)

// Version is the simgui runtime version (plugins' compatibleRuntime is checked against it);
// it lives in package plugins so that the plugin SDK can check it without importing app.
const Version = plugins.RuntimeVersion

// DefaultSystems are added to every world the app builds, before the scenario's own systems,
// unless the scenario lists them itself (then its configuration and place are used): the gz
// topics and services, the world clock and the wheel odometry.
var DefaultSystems = []string{gztopics.ID, clock.ID, odometry.ID}

// Kind says what a world is for.
type Kind string

// World kinds.
const (
	// KindScenario is the world of the process's scenario, the one the window opens on.
	KindScenario Kind = "scenario"
	// KindEpisode is a world of a training episode (one per agent when agents are isolated).
	KindEpisode Kind = "episode"
)

// BuildOptions configure Build beyond what the plan says.
type BuildOptions struct {
	// TimeScale overrides the plan's time scale when not nil (0 = as fast as possible).
	TimeScale *float64
	// Lockstep overrides the plan's lockstep when true: the world advances only when stepped.
	Lockstep bool
	// Paused starts the loop paused.
	Paused bool
	// MaxSteps stops Run after that many steps (0: run until cancelled).
	MaxSteps uint64
	// Hold, when not nil, is a command held on every agent from the first step (`--cmd`).
	Hold *drive.Command
	// Plugins, when set, is asked at every world reset whether the plan's track and vehicles
	// are still installed: a plugin removed while the simulation runs keeps running until the
	// next reset, which then fails with an error naming it (the world keeps its state).
	Plugins plugins.Resolver
	// BeforeReset, when set, runs at the start of every world reset, before the plugins check,
	// on the loop goroutine: it may replace the config's track params or agents (a training
	// face draws each episode's vehicle and track this way while the world keeps its place
	// in the host). An error fails the reset and the world keeps its state.
	BeforeReset func(*world.Config) error
	// Kind, Label and Agents describe the world to the host's readers (the window's world
	// list, device_list). Kind defaults to KindScenario, Label to the scenario's name, Agents
	// to the plan's agents.
	Kind   Kind
	Label  string
	Agents []string
	// Logger; default slog.Default().
	Logger *slog.Logger
}

// Sim is one world of the process: its plan, transport bus, world (with its systems and
// sensors) and the loop that owns it. Build makes every Sim, whether for the scenario or for a
// training episode; a Host runs them.
type Sim struct {
	Plan *scenario.Plan
	Bus  *transport.Bus
	// World belongs to Loop's goroutine once Run has started: reach it through Loop.
	World *world.World
	Loop  *world.Loop
	// Sensors runs the vehicles' sensors (app/sensors).
	Sensors *sensors.System

	// ID is unique among the worlds of a host ("scenario", "episode-3", "episode-3/agent-2"),
	// set when the host adds the world.
	ID     string
	Kind   Kind
	Label  string
	Agents []string

	log       *slog.Logger
	closeOnce sync.Once
	closeErr  error
	running   chan struct{} // closed when Run starts
	runOnce   sync.Once
}

// Build makes a world from a plan: the bus, the world with the track laid out and the agents
// spawned, the scenario's systems and the default ones, the sensors system, and a loop that
// has not started. It is the only way the process makes worlds. On error nothing is left
// open.
func Build(plan *scenario.Plan, o BuildOptions) (*Sim, error) {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Kind == "" {
		o.Kind = KindScenario
	}
	if o.Label == "" {
		o.Label = plan.Scenario.ScenarioID
		if o.Label == "" {
			o.Label = plan.Scenario.Source
		}
	}
	if o.Agents == nil {
		for _, a := range plan.Agents {
			o.Agents = append(o.Agents, a.Name)
		}
	}
	bus := transport.NewBus(transport.Options{Logger: o.Logger})
	w, err := world.New(world.Config{
		Name: plan.WorldName, StepSize: plan.StepSize, Seed: plan.Seed,
		Track: plan.Track, TrackParams: plan.TrackParams, BuildLayout: trackgen.Build,
		Agents: plan.Agents, VehicleCollisions: plan.VehicleCollisions, Physics: plan.Physics,
		Logger: o.Logger, Bus: bus, BeforeReset: beforeReset(o.BeforeReset, pluginsCheck(o.Plugins)),
	})
	if err != nil {
		bus.Close()
		return nil, fmt.Errorf("%s: %w", plan.Scenario.Source, err)
	}
	s := &Sim{Plan: plan, Bus: bus, World: w, Kind: o.Kind, Label: o.Label, Agents: o.Agents,
		log: o.Logger, running: make(chan struct{})}
	timeScale := plan.TimeScale
	if o.TimeScale != nil {
		timeScale = *o.TimeScale
	}
	s.Loop = world.NewLoop(w, world.LoopOptions{
		TimeScale: timeScale, Lockstep: plan.Lockstep || o.Lockstep, Paused: o.Paused, MaxSteps: o.MaxSteps,
	})
	if err := s.addSystems(); err != nil {
		s.Close()
		return nil, err
	}
	if err := s.startSensors(); err != nil {
		s.Close()
		return nil, err
	}
	if o.Hold != nil {
		for _, m := range w.Models() {
			m.Command = *o.Hold
		}
	}
	return s, nil
}

// addSystems adds the default systems the scenario does not list, then the scenario's in
// order. The defaults come first so that the scenario's systems find the command topics
// declared at their Init.
func (s *Sim) addSystems() error {
	listed := map[string]bool{}
	for _, b := range s.Plan.Systems {
		listed[b.Options.Name] = true
	}
	for _, id := range DefaultSystems {
		if listed[id] {
			continue
		}
		b, err := systems.Build(systems.Entry{Type: id})
		if err != nil {
			return fmt.Errorf("default system %s: %w", id, err)
		}
		if err := s.World.AddSystem(b.System, b.Options); err != nil {
			return err
		}
	}
	for _, b := range s.Plan.Systems {
		if err := s.World.AddSystem(b.System, b.Options); err != nil {
			return err
		}
	}
	return nil
}

// SystemNames lists the systems the plan asked for, numbered, as the start tracker names them.
func (s *Sim) SystemNames() []string {
	var names []string
	for i, b := range s.Plan.Systems {
		names = append(names, fmt.Sprintf("system %s #%d", b.Options.Name, i+1))
	}
	return names
}

// Run runs the loop until ctx is cancelled or MaxSteps steps have run. Cancellation is not an
// error. Run may be called once.
func (s *Sim) Run(ctx context.Context) error {
	err := ErrAlreadyRunning
	s.runOnce.Do(func() {
		close(s.running)
		err = s.Loop.Run(ctx)
		if errors.Is(err, context.Canceled) {
			err = nil
		}
	})
	return err
}

// ErrAlreadyRunning is returned by a second Run of the same Sim.
var ErrAlreadyRunning = errors.New("the world is already running")

// Close shuts the world's systems down and closes its bus. Call it after Run has returned
// (or when Run was never called). It is idempotent.
func (s *Sim) Close() error {
	s.closeOnce.Do(func() {
		if s.World != nil {
			s.closeErr = s.World.Close()
		}
		s.Bus.Close()
	})
	return s.closeErr
}

// HasAgent reports whether the world holds the named agent.
func (s *Sim) HasAgent(name string) bool { return slices.Contains(s.Agents, name) }

// beforeReset chains two reset hooks; either may be nil.
func beforeReset(first, then func(*world.Config) error) func(*world.Config) error {
	switch {
	case first == nil:
		return then
	case then == nil:
		return first
	}
	return func(c *world.Config) error {
		if err := first(c); err != nil {
			return err
		}
		return then(c)
	}
}

// pluginsCheck returns the world's BeforeReset hook that checks the plugins in use against r,
// or nil without r.
func pluginsCheck(r plugins.Resolver) func(*world.Config) error {
	if r == nil {
		return nil
	}
	return func(c *world.Config) error {
		ids := make([]string, len(c.Agents))
		for i, a := range c.Agents {
			ids[i] = a.Vehicle.ID
		}
		return plugins.StillAvailable(r, c.Track.ID, ids)
	}
}
