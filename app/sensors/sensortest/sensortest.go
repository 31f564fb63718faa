// Package sensortest builds real worlds with a sensors system for the tests and benchmarks of
// the sensor kinds: a layout of your own or the default scenario, vehicles with the sensors
// you mount, a transport bus, and helpers to step and collect readings.
package sensortest

import (
	"fmt"

	"simgui/app/scenario"
	"simgui/app/sensors"
	"simgui/app/transport"
	"simgui/app/world"
	"simgui/plugins"
	"simgui/plugins/trackgen"
)

// TB is what the helpers need of a test or benchmark: *testing.T and *testing.B satisfy it,
// and so does the harness of simgui bench (app/bench).
type TB interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
	Cleanup(f func())
}

// Sensor is one sensor to put on a test vehicle: where and how it is mounted, and its
// contract entry.
type Sensor struct {
	Mount    plugins.SensorMount
	Contract plugins.SensorDescriptor
}

// KS0223 returns a copy of the built-in KS0223 (vehicle.ks0223.v1) carrying only the given
// sensors, or all of its own when none are given.
func KS0223(tb TB, ss ...Sensor) *plugins.VehicleDescriptor {
	return Builtin(tb, "vehicle.ks0223.v1", ss...)
}

// Builtin returns a copy of a built-in vehicle carrying only the given sensors, or all of its
// own when none are given.
func Builtin(tb TB, id string, ss ...Sensor) *plugins.VehicleDescriptor {
	tb.Helper()
	v, err := plugins.Builtin().Vehicle(id)
	if err != nil {
		tb.Fatal(err)
	}
	v = v.Clone()
	if len(ss) == 0 {
		return v
	}
	c := *v.Contract
	c.Sensors, v.Sensors = nil, nil
	for _, s := range ss {
		v.Sensors = append(v.Sensors, s.Mount)
		c.Sensors = append(c.Sensors, s.Contract)
	}
	v.Contract = &c
	return v
}

// Env is a world with a sensors system, driven by the test.
type Env struct {
	TB     TB
	World  *world.World
	System *sensors.System
	Bus    *transport.Bus
}

// New builds a world of layout with agents, adds a sensors system (opts.Bus is set to a new bus
// when nil) and starts it. The world and bus are closed when the test ends.
func New(tb TB, layout *plugins.Layout, agents []world.AgentSpec, opts sensors.Options) *Env {
	tb.Helper()
	track := &plugins.TrackDescriptor{ID: "track.sensortest.v1"}
	return build(tb, world.Config{
		Track:       track,
		BuildLayout: func(*plugins.TrackDescriptor, map[string]any, int64) (*plugins.Layout, error) { return layout, nil },
		Agents:      agents, Seed: 1, VehicleCollisions: true,
	}, opts)
}

// Default builds the default scenario's world (the KS0223 in the cardboard corridor, seed 0)
// with a sensors system; vehicle, when not nil, replaces the agent's descriptor (start from
// KS0223 to change its sensors).
func Default(tb TB, vehicle *plugins.VehicleDescriptor, opts sensors.Options) *Env {
	tb.Helper()
	plan, err := scenario.Resolve(scenario.Default(), plugins.Builtin())
	if err != nil {
		tb.Fatal(err)
	}
	agents := append([]world.AgentSpec(nil), plan.Agents...)
	if vehicle != nil {
		agents[0].Vehicle = vehicle
	}
	return build(tb, world.Config{
		Name: plan.WorldName, StepSize: plan.StepSize, Seed: plan.Seed, Track: plan.Track,
		TrackParams: plan.TrackParams, BuildLayout: trackgen.Build, Agents: agents,
		VehicleCollisions: plan.VehicleCollisions,
	}, opts)
}

func build(tb TB, cfg world.Config, opts sensors.Options) *Env {
	tb.Helper()
	if opts.Bus == nil {
		opts.Bus = transport.NewBus(transport.Options{})
	}
	w, err := world.New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	e := &Env{TB: tb, World: w, System: sensors.New(opts), Bus: opts.Bus}
	if err := w.AddSystem(e.System, world.SystemOptions{Name: "sensors"}); err != nil {
		tb.Fatal(err)
	}
	if err := w.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		w.Close()
		opts.Bus.Close()
	})
	return e
}

// Step runs n steps.
func (e *Env) Step(n int) {
	for range n {
		e.World.Step()
	}
}

// Subscribe subscribes to a sensor's topic with a queue long enough for a test run.
func (e *Env) Subscribe(model, id, kind string) *transport.Subscription {
	sub := e.Bus.Subscribe(sensors.Topic(model, id, kind), transport.WithQueueLen(1<<16))
	e.TB.Cleanup(sub.Close)
	return sub
}

// Drain waits for queued frames (System.Flush) and returns every message the subscription
// holds. The bus delivers synchronously, so after Flush every reading is in the
// subscription's queue: Drain takes what is there and does not wait for more (a timeout here
// would end early on a loaded machine, where a 20 ms pause between reads is no rarity).
func (e *Env) Drain(sub *transport.Subscription) []transport.Message {
	e.System.Flush()
	var out []transport.Message
	for {
		select {
		case m, ok := <-sub.C():
			if !ok {
				return out
			}
			out = append(out, m)
		default:
			return out
		}
	}
}

// Last returns the last message of a subscription after Drain, failing the test when there is
// none.
func (e *Env) Last(sub *transport.Subscription) transport.Message {
	e.TB.Helper()
	ms := e.Drain(sub)
	if len(ms) == 0 {
		e.TB.Fatalf("no reading on %s", sub.Topic())
	}
	return ms[len(ms)-1]
}

// Spawn adds an agent now.
func (e *Env) Spawn(name string, v *plugins.VehicleDescriptor, p world.Pose) *world.Model {
	e.TB.Helper()
	m, err := e.World.Spawn(world.AgentSpec{Name: name, Vehicle: v, Spawn: &p})
	if err != nil {
		e.TB.Fatal(fmt.Errorf("spawn %s: %w", name, err))
	}
	return m
}
