package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"simgui/app/api"
	"simgui/app/bridge"
	"simgui/app/control"
	"simgui/app/scenario"
	"simgui/app/sensors"
	"simgui/app/starttrack"
	_ "simgui/app/systems/standard" // built-in systems register themselves
	"simgui/app/transport"
	"simgui/app/world"
	"simgui/physics/drive"
	"simgui/plugins"
	"simgui/plugins/trackgen"
	_ "simgui/render" // its benchmarks join simgui bench
)

// Version is the simgui runtime version (plugins' compatibleRuntime is checked against it);
// it lives in package plugins so that the plugin SDK can check it without importing app.
const Version = plugins.RuntimeVersion

// Options configures a Sim beyond what the scenario says.
type Options struct {
	// TimeScale overrides the scenario's runtime.timeScale when not nil (0 = as fast as
	// possible).
	TimeScale *float64
	// Lockstep overrides the scenario's runtime.lockstep when true.
	Lockstep bool
	// Paused starts the loop paused.
	Paused bool
	// MaxSteps stops Run after that many steps (0: run until cancelled).
	MaxSteps uint64
	// Hold, when not nil, is a command held on every agent from the first step (`--cmd`).
	Hold *drive.Command
	// Control configures the WebSocket control service.
	Control ControlOptions
	// API configures the training HTTP API.
	API APIOptions
	// Logger; default slog.Default().
	Logger *slog.Logger
	// Bridge configures the CLOiSim device bridge (off by default).
	Bridge BridgeOptions
	// StartTimeout bounds how long Run waits for every part of the world to start before it
	// reports the missing ones (default 30 s, as CLOiSim).
	StartTimeout time.Duration
	// Plugins, when set, is asked at every world reset whether the plan's track and vehicles
	// are still installed: a plugin removed while the simulation runs keeps running until the
	// next reset, which then fails with an error naming it (the world keeps its state).
	Plugins plugins.Resolver
}

// service is an outside face served while the loop runs.
type service interface {
	Serve(ctx context.Context) error
	Shutdown(ctx context.Context) error
}

// Sim is one running simulation: bus, world, loop and services.
type Sim struct {
	Plan  *scenario.Plan
	Bus   *transport.Bus
	World *world.World
	Loop  *world.Loop
	// Bridge serves the devices on CLOiSim's wire; nil unless Options.Bridge.Enabled.
	Bridge *bridge.Bridge
	// Control is the WebSocket service (nil when off).
	Control *control.Service
	// Sensors runs the vehicles' sensors (app/sensors).
	Sensors *sensors.System
	// API is the training HTTP API (nil when off); see ViewLoop.
	API *api.Service
	// Start follows the start of the world's systems, sensors, bridge and services (CLOiSim's
	// PluginStartTracker); its Done channel closes when the world has loaded.
	Start *starttrack.Tracker

	log          *slog.Logger
	stops        []func()
	services     []service
	pauseOnce    sync.Once
	startTimeout time.Duration
}

// New builds a simulation from a plan. Nothing runs until Run.
func New(plan *scenario.Plan, opts Options) (*Sim, error) {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	bus := transport.NewBus(transport.Options{Logger: opts.Logger})
	w, err := world.New(world.Config{
		Name: plan.WorldName, StepSize: plan.StepSize, Seed: plan.Seed,
		Track: plan.Track, TrackParams: plan.TrackParams, BuildLayout: trackgen.Build,
		Agents: plan.Agents, VehicleCollisions: plan.VehicleCollisions,
		Logger: opts.Logger, Bus: bus, BeforeReset: pluginsCheck(opts.Plugins),
	})
	if err != nil {
		bus.Close()
		return nil, fmt.Errorf("%s: %w", plan.Scenario.Source, err)
	}
	s := &Sim{Plan: plan, Bus: bus, World: w, log: opts.Logger, startTimeout: opts.StartTimeout}
	s.Start = starttrack.New(func(p starttrack.Progress) { s.log.Debug(p.String()) })
	for _, b := range plan.Systems {
		if err := w.AddSystem(b.System, b.Options); err != nil {
			s.Close()
			return nil, err
		}
	}
	if err := s.startSensors(); err != nil {
		s.Close()
		return nil, err
	}
	if opts.Hold != nil {
		for _, m := range w.Models() {
			m.Command = *opts.Hold
		}
	}
	timeScale := plan.TimeScale
	if opts.TimeScale != nil {
		timeScale = *opts.TimeScale
	}
	s.Loop = world.NewLoop(w, world.LoopOptions{
		TimeScale: timeScale, Lockstep: plan.Lockstep || opts.Lockstep, Paused: opts.Paused, MaxSteps: opts.MaxSteps,
	})
	stop, err := s.Loop.Advertise(bus)
	if err != nil {
		s.Close()
		return nil, err
	}
	s.stops = append(s.stops, stop)
	if err := s.startBridge(opts.Bridge); err != nil {
		s.Close()
		return nil, err
	}
	if err := s.startControl(opts.Control); err != nil {
		s.Close()
		return nil, err
	}
	if err := s.startAPI(opts.API, opts.Plugins); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// Run runs the loop until ctx is cancelled or MaxSteps steps have run. Cancellation is not an
// error.
func (s *Sim) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.trackStart(ctx, s.startTimeout)
	var wg sync.WaitGroup
	for _, svc := range s.services {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.Start.Started(serviceName(svc)) // it listens since New; serving starts now
			if err := svc.Serve(ctx); err != nil && !errors.Is(err, context.Canceled) {
				s.log.Error("service stopped", "err", err)
			}
		}()
	}
	err := s.Loop.Run(ctx)
	cancel()
	shut, done := context.WithTimeout(context.Background(), 5*time.Second)
	defer done()
	for _, svc := range s.services {
		svc.Shutdown(shut)
	}
	wg.Wait()
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// Close shuts systems and services down and closes the bus. Call it after Run returned.
func (s *Sim) Close() error {
	shut, done := context.WithTimeout(context.Background(), 5*time.Second)
	defer done()
	for _, svc := range s.services {
		svc.Shutdown(shut)
	}
	s.services = nil
	for i := len(s.stops) - 1; i >= 0; i-- {
		s.stops[i]()
	}
	s.stops = nil
	var err error
	if s.World != nil {
		err = s.World.Close()
	}
	s.Bus.Close()
	return err
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
