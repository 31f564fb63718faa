package app

import (
	"context"
	"log/slog"
	"testing"

	"simgui/app/scenario"
	"simgui/app/world"
	"simgui/plugins"
)

// The rusim scenario tests reach app's wiring only through these three helpers.

// runHeadless builds plan's world as `simgui run --headless` does, reads its start, runs steps
// steps as fast as possible and returns the start, the world after the run and the steps run.
func runHeadless(t *testing.T, plan *scenario.Plan, steps uint64) (*startPoses, *world.World, uint64) {
	t.Helper()
	zero := 0.0
	sim, err := New(plan, Options{TimeScale: &zero, MaxSteps: steps, Control: ControlOptions{Addr: "off"},
		API: APIOptions{Addr: "off"}, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatalf("new: %v", err)
	}
	t.Cleanup(func() { sim.Close() })
	start := &startPoses{}
	start.read(sim.World)
	if err := sim.Run(context.Background()); err != nil {
		t.Fatalf("run: %v", err)
	}
	return start, sim.World, sim.Loop.Snapshot().Step
}

// buildStart builds plan's world and reads its start, without stepping it.
func buildStart(t *testing.T, plan *scenario.Plan) *startPoses {
	t.Helper()
	sim, err := New(plan, Options{Control: ControlOptions{Addr: "off"}, API: APIOptions{Addr: "off"}, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	s := &startPoses{}
	s.read(sim.World)
	return s
}

// episodeView is the training API's current episode: its track, and per agent in request
// order its id, vehicle and the start of the world it is in (agents of a shared world share
// one).
type episodeView struct {
	trackID string
	primary int
	agents  []episodeAgent
}

type episodeAgent struct {
	id, vehicleID string
	world         *startPoses
}

// resetServer serves the training API on 127.0.0.1 over the default scenario, as `simgui run
// --headless` does, until the test ends. It returns the URL of /reset and a function that reads
// the episode the last reset built.
func resetServer(t *testing.T) (string, func() episodeView) {
	t.Helper()
	base, err := scenario.Resolve(scenario.Default(), plugins.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	zero := 0.0
	server, err := New(base, Options{TimeScale: &zero, Control: ControlOptions{Addr: "off"},
		API: APIOptions{Addr: "127.0.0.1:0", Required: true}, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- server.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
		server.Close()
	})
	current := func() episodeView {
		ep := server.API.Current()
		v := episodeView{trackID: ep.TrackID, primary: ep.Primary}
		read := map[*world.Loop]*startPoses{}
		for _, a := range ep.Agents {
			s := read[a.Loop]
			if s == nil {
				s = &startPoses{}
				if err := a.Loop.Call(ctx, func(w *world.World) error { s.read(w); return nil }); err != nil {
					t.Fatal(err)
				}
				read[a.Loop] = s
			}
			v.agents = append(v.agents, episodeAgent{id: a.ID, vehicleID: a.VehicleID, world: s})
		}
		return v
	}
	return "http://" + server.APIAddr().String() + "/reset", current
}
