package timeline

import (
	"context"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"
	"gopkg.in/yaml.v3"

	"simgui/app/bench"
	"simgui/app/systems"
	"simgui/app/transport"
	"simgui/app/transport/msgs"
	"simgui/app/world"
	"simgui/plugins"
)

// Benchmarks for `simgui bench` and `go test -bench` (see bench_test.go): the step time of a
// world whose timeline calls a service every cycle, against the same world whose timeline
// only publishes. The slow service sleeps past its timeout on every call; the step must not
// notice.
func init() {
	const base = "timeline/step/no-service"
	bench.Register(bench.Case{Name: base, F: BenchStep(""),
		Doc: "baseline: World.Step with a KS0223 and a 50 ms looping timeline publishing cmd_vel"})
	bench.Register(bench.Case{Name: "timeline/step/fast-service", Baseline: base, F: BenchStep("fast"),
		Doc: "World.Step, the same timeline also calling a service that answers at once every cycle"})
	bench.Register(bench.Case{Name: "timeline/step/slow-service", Baseline: base, F: BenchStep("slow"),
		Doc: "World.Step, the same timeline also calling a service that sleeps past its 5 ms timeout every cycle"})
}

// ks0223 is the KS0223 car (reference ks0223-and-tracks.md §1) with the differential drive's
// default, calibrated parameters, for benchmarks and tests that need the real drive.
var ks0223 = &plugins.VehicleDescriptor{
	ID: "vehicle.ks0223.v1", DisplayName: "KS0223", Version: plugins.ContractVersion{Major: 1},
	DeviceType: "ground_robot_differential",
	Body:       &plugins.Body{Shape: "box", Length: 0.25, Width: 0.15, Height: 0.12, Mass: 1, Friction: 0.9},
	Drive:      &plugins.Drive{Model: "differential"},
}

// flatArena is an empty floor with basic_arena's spawn point: (0, −7.5) facing north.
var flatArena = &plugins.TrackDescriptor{
	ID: "track.flat_arena.v1", DisplayName: "Flat arena", Version: plugins.ContractVersion{Major: 1},
	SpawnPoints: []plugins.SpawnPoint{{X: 0, Y: -7.5, YawDeg: 90}},
}

// asIs lays a track out as described.
func asIs(t *plugins.TrackDescriptor, _ map[string]any, _ int64) (*plugins.Layout, error) {
	return &plugins.Layout{Elements: t.Elements, SpawnPoints: t.SpawnPoints}, nil
}

const benchTimeline = `
loop: true
period: 0.05
keyframes:
  - time: 0
    outputs: [{topic: /model/ego/cmd_vel, type: gz.msgs.Twist, content: "linear { x: 0.5 }"}]
  - time: 0.025
    outputs: [{topic: /model/ego/cmd_vel, type: gz.msgs.Twist, content: "angular { z: 1 }"}]
`

const benchCall = `
    services: [{name: /bench/%s, reqType: gz.msgs.Double, repType: gz.msgs.Boolean, timeout: 5, reqMsg: "data: 1"}]
`

// BenchStep measures World.Step with the benchmark timeline; service is "" (none), "fast" or
// "slow". It reports the service calls made and dropped per step.
func BenchStep(service string) func(b *testing.B) {
	return func(b *testing.B) {
		quiet := slog.New(slog.DiscardHandler)
		bus := transport.NewBus(transport.Options{Logger: quiet})
		defer bus.Close()
		src := benchTimeline
		if service != "" {
			src += fmt.Sprintf(benchCall, service)
			stop, err := bus.Advertise("/bench/"+service, "gz.msgs.Double", "gz.msgs.Boolean",
				func(ctx context.Context, _ proto.Message) (proto.Message, error) {
					if service == "slow" {
						time.Sleep(10 * time.Millisecond) // twice the timeout, ignoring ctx
					}
					return &msgs.Boolean{Data: true}, nil
				})
			if err != nil {
				b.Fatal(err)
			}
			defer stop()
		}
		w, err := world.New(world.Config{Track: flatArena, BuildLayout: asIs, Bus: bus, Logger: quiet,
			Agents: []world.AgentSpec{{Name: "ego", Vehicle: ks0223}}})
		if err != nil {
			b.Fatal(err)
		}
		p, err := fromYAML(src)
		if err != nil {
			b.Fatal(err)
		}
		if err := w.AddSystem(p, world.SystemOptions{Name: ID}); err != nil {
			b.Fatal(err)
		}
		if err := w.Start(); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			w.Step()
		}
		b.StopTimer()
		s := p.Stats()
		b.ReportMetric(float64(s.Calls)/float64(b.N), "calls/step")
		b.ReportMetric(float64(s.Dropped)/float64(b.N), "dropped/step")
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// fromYAML builds a Publisher from the `config:` body of a scenario entry, as the scenario
// loader does (strict keys, then Validate).
func fromYAML(config string) (*Publisher, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(config), &doc); err != nil {
		return nil, err
	}
	e := systems.Entry{Type: ID}
	if len(doc.Content) == 1 {
		e.Config = *doc.Content[0]
	}
	built, err := systems.Build(e)
	if err != nil {
		return nil, err
	}
	return built.System.(*Publisher), nil
}
