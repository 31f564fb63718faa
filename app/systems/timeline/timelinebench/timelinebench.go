// Package timelinebench holds the timeline publisher's benchmarks for `simgui bench` and `go
// test -bench`: the step time of a world whose timeline calls a service every cycle, against
// the same world whose timeline only publishes. The slow service sleeps past its timeout on
// every call; the step must not notice.
package timelinebench

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"google.golang.org/protobuf/proto"
	"gopkg.in/yaml.v3"

	"simgui/app/bench"
	"simgui/app/systems"
	"simgui/app/systems/timeline"
	"simgui/app/transport"
	"simgui/app/transport/msgs"
	"simgui/app/world"
	"simgui/plugins"
)

func init() {
	const base = "timeline/step/no-service"
	bench.Register(bench.Case{Name: base, F: benchStep(""),
		Doc: "baseline: World.Step with a KS0223 and a 50 ms looping timeline publishing cmd_vel"})
	bench.Register(bench.Case{Name: "timeline/step/fast-service", Baseline: base, F: benchStep("fast"),
		Doc: "World.Step, the same timeline also calling a service that answers at once every cycle"})
	bench.Register(bench.Case{Name: "timeline/step/slow-service", Baseline: base, F: benchStep("slow"),
		Doc: "World.Step, the same timeline also calling a service that sleeps past its 5 ms timeout every cycle"})
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

// benchStep measures World.Step with the benchmark timeline; service is "" (none), "fast" or
// "slow". It reports the service calls made and dropped per step.
func benchStep(service string) func(bench.B) {
	return func(b bench.B) {
		ks0223, err := plugins.Builtin().Vehicle("vehicle.ks0223.v1")
		if err != nil {
			b.Fatal(err)
		}
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
		if err := w.AddSystem(p, world.SystemOptions{Name: timeline.ID}); err != nil {
			b.Fatal(err)
		}
		if err := w.Start(); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		steps := 0
		for b.Loop() {
			w.Step()
			steps++
		}
		s := p.Stats()
		b.ReportMetric(float64(s.Calls)/float64(steps), "calls/step")
		b.ReportMetric(float64(s.Dropped)/float64(steps), "dropped/step")
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// fromYAML builds a Publisher from the `config:` body of a scenario entry, as the scenario
// loader does (strict keys, then Validate).
func fromYAML(config string) (*timeline.Publisher, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(config), &doc); err != nil {
		return nil, err
	}
	e := systems.Entry{Type: timeline.ID}
	if len(doc.Content) == 1 {
		e.Config = *doc.Content[0]
	}
	built, err := systems.Build(e)
	if err != nil {
		return nil, err
	}
	return built.System.(*timeline.Publisher), nil
}
