package app

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"simgui/app/api"
	"simgui/app/scenario"
	"simgui/plugins"
	"simgui/plugins/registry"
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

// TestAPIWithUserPlugins serves the API over a user registry: an installed rusim export is in
// /contract and /health counts it, and a reset drives it (simulated with the fallback body).
func TestAPIWithUserPlugins(t *testing.T) {
	reg := registry.Open(t.TempDir(), registry.Options{})
	if _, err := reg.Install(filepath.Join("..", "plugins", "testdata", "vehicle.arcade.green.v1.rusim-plugin.zip"), registry.InstallOptions{}); err != nil {
		t.Fatal(err)
	}
	plan, err := scenario.Resolve(scenario.Default(), reg)
	if err != nil {
		t.Fatal(err)
	}
	sim, err := New(plan, Options{Control: ControlOptions{Addr: "off"}, Plugins: reg,
		API: APIOptions{Addr: "127.0.0.1:0", Required: true}, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go sim.Run(ctx)
	base := "http://" + sim.APIAddr().String()
	get := func(path string, v any) {
		r, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		if err := json.NewDecoder(r.Body).Decode(v); err != nil {
			t.Fatal(err)
		}
	}
	var c api.Contract
	get("/contract", &c)
	found := false
	for _, d := range c.AvailableVehicles {
		found = found || d.DeviceID == "vehicle.arcade.green.v1"
	}
	var h api.Health
	get("/health", &h)
	builtin := len(plugins.Builtin().Vehicles())
	if !found || h.AvailableVehicles != builtin+1 || h.PluginRegistrySource != "builtin+user" {
		t.Fatalf("green car listed %v, health %+v (built-in vehicles %d)", found, h, builtin)
	}
	// /health is readable by any client: it names no path (the registry's home above all).
	if b, _ := json.Marshal(h); strings.Contains(string(b), reg.Home()) || strings.Contains(string(b), "/") {
		t.Errorf("/health shows a path: %s", b)
	}
	r, err := http.Post(base+"/reset", "application/json", strings.NewReader(`{"seed": 1, "selectedVehicleId": "vehicle.arcade.green.v1"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	var res api.StepResult
	if err := json.NewDecoder(r.Body).Decode(&res); err != nil || r.StatusCode != 200 || res.ActiveVehicleID != "vehicle.arcade.green.v1" {
		t.Fatalf("reset with the user plugin: %d %v %s", r.StatusCode, err, res.ActiveVehicleID)
	}
}
