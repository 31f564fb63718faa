package app

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"simgui/app/api"
	"simgui/app/scenario"
	"simgui/plugins"
)

// TestAPIServedBySim runs a Sim as the CLI does and trains over its API: the first reset
// builds the episode's world (ViewLoop follows it) and pauses the scenario's own world.
func TestAPIServedBySim(t *testing.T) {
	plan, err := scenario.Resolve(scenario.Default(), plugins.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	zero := 0.0
	sim, err := New(plan, Options{TimeScale: &zero, Control: ControlOptions{Addr: "off"},
		API: APIOptions{Addr: "127.0.0.1:0", Required: true}, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- sim.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	}()
	if sim.ViewLoop() != sim.Loop || sim.API.Current() != nil {
		t.Fatal("before any reset the view is the scenario's world")
	}
	changed := sim.API.Changed()
	base := "http://" + sim.APIAddr().String()
	post := func(path, body string) api.StepResult {
		t.Helper()
		r, err := http.Post(base+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		b, _ := io.ReadAll(r.Body)
		var res api.StepResult
		if r.StatusCode != 200 || json.Unmarshal(b, &res) != nil {
			t.Fatalf("%s: %d %s", path, r.StatusCode, b)
		}
		return res
	}
	post("/reset", `{"seed": 3, "vehicleParams": [{"key": "camera.width", "value": "84"}, {"key": "camera.height", "value": "84"}]}`)
	select {
	case <-changed:
	case <-time.After(5 * time.Second):
		t.Fatal("Changed not closed by the reset")
	}
	view := sim.ViewLoop()
	if view == sim.Loop || view != sim.API.Current().PrimaryLoop() {
		t.Fatal("ViewLoop does not follow the episode")
	}
	for range 4 {
		post("/step", `{"throttle": 1}`)
	}
	if s := view.Snapshot(); s.Step != 40 || !s.Lockstep || s.Models[0].Speed <= 0 {
		t.Errorf("episode world after 4 API steps: step %d lockstep %v speed %g", s.Step, s.Lockstep, s.Models[0].Speed)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !sim.Loop.Snapshot().Paused {
		if time.Now().After(deadline) {
			t.Fatal("the scenario's world was not paused by the first reset")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
