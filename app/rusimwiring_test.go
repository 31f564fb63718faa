package app_test

import (
	"context"
	"log/slog"
	"testing"

	"simgui/app"
	"simgui/app/api"
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
	h := app.NewHost(app.HostOptions{Logger: slog.New(slog.DiscardHandler)})
	sim, err := h.Build(plan, app.BuildOptions{TimeScale: &zero, MaxSteps: steps})
	if err != nil {
		t.Fatalf("new: %v", err)
	}
	h.SetScenario(sim)
	t.Cleanup(func() { h.Close() })
	start := &startPoses{}
	start.read(sim.World)
	if err := h.Run(context.Background()); err != nil {
		t.Fatalf("run: %v", err)
	}
	return start, sim.World, sim.Loop.Snapshot().Step
}

// buildStart builds plan's world and reads its start, without stepping it.
func buildStart(t *testing.T, plan *scenario.Plan) *startPoses {
	t.Helper()
	sim, err := app.Build(plan, app.BuildOptions{Logger: slog.New(slog.DiscardHandler)})
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
	h := app.NewHost(app.HostOptions{Logger: slog.New(slog.DiscardHandler)})
	sim, err := h.Build(base, app.BuildOptions{TimeScale: &zero})
	if err != nil {
		t.Fatal(err)
	}
	h.SetScenario(sim)
	face := &api.Face{Listen: "127.0.0.1:0", Required: true}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx, face) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
		h.Close()
	})
	<-h.Start.Done()
	current := func() episodeView {
		ep := face.Service().Current()
		v := episodeView{trackID: ep.TrackID, primary: ep.Primary}
		read := map[string]*startPoses{}
		for _, a := range ep.Agents {
			s := read[a.World]
			if s == nil {
				w := h.World(a.World)
				if w == nil {
					t.Fatalf("agent %s's world %q is not in the host", a.ID, a.World)
				}
				s = &startPoses{}
				if err := w.Loop.Call(ctx, func(w *world.World) error { s.read(w); return nil }); err != nil {
					t.Fatal(err)
				}
				read[a.World] = s
			}
			v.agents = append(v.agents, episodeAgent{id: a.ID, vehicleID: a.VehicleID, world: s})
		}
		return v
	}
	return "http://" + face.Addr().String() + "/reset", current
}
