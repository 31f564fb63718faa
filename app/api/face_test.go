package api

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"simgui/app"
	"simgui/app/scenario"
	"simgui/plugins"
	"simgui/plugins/registry"
)

// The training API as a face: it starts with the host; a reset adds the episode's world to the
// host, where it becomes the active world; when the client goes idle the scenario world is on
// show again (and the next step brings the episode back); Shutdown removes the episode.
func TestAPIFaceEpisodesAreWorldsOfTheHost(t *testing.T) {
	plan, err := scenario.Resolve(scenario.Default(), plugins.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	h := app.NewHost(app.HostOptions{Logger: slog.New(slog.DiscardHandler)})
	sc, err := h.Build(plan, app.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	h.SetScenario(sc)
	f := &Face{Listen: "127.0.0.1:0", Required: true, IdleTimeout: 300 * time.Millisecond}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx, f) }()
	defer func() { cancel(); <-done; h.Close() }()
	<-h.Start.Done()

	base := "http://" + f.Addr().String()
	post := func(path, body string) string {
		t.Helper()
		r, err := http.Post(base+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		b, _ := io.ReadAll(r.Body)
		if r.StatusCode != 200 {
			t.Fatalf("%s: %d %s", path, r.StatusCode, b)
		}
		return string(b)
	}
	waitActive := func(what string, want func(*app.Sim) bool) *app.Sim {
		t.Helper()
		deadline := time.After(20 * time.Second)
		for {
			ch := h.Changed()
			if a := h.Active(); want(a) {
				return a
			}
			select {
			case <-ch:
			case <-deadline:
				t.Fatalf("waiting for %s: active %s", what, h.Active().ID)
			}
		}
	}

	post("/reset", `{"seed": 5}`)
	ep := waitActive("the episode", func(s *app.Sim) bool { return s.ID == "episode-1" })
	if ep.Kind != app.KindEpisode || !strings.HasPrefix(ep.Label, "episode 1 · ego") || len(h.Worlds()) != 2 {
		t.Fatalf("episode world %q %q, %d worlds", ep.Kind, ep.Label, len(h.Worlds()))
	}
	post("/step", `{"throttle": 1}`)
	if s := ep.Loop.Snapshot().Step; s != 10 {
		t.Fatalf("one API step advanced the episode to step %d, want 10 (0.05 s of 5 ms steps)", s)
	}
	waitActive("the scenario after the client went idle", func(s *app.Sim) bool { return s == sc })
	post("/step", `{"throttle": 1}`)
	waitActive("the episode back with the next step", func(s *app.Sim) bool { return s == ep })

	post("/reset", `{"seed": 6}`)
	waitActive("the second episode", func(s *app.Sim) bool { return s.ID == "episode-2" })
	if len(h.Worlds()) != 2 || h.World("episode-1") != nil {
		t.Fatalf("the first episode's world is still there: %d worlds", len(h.Worlds()))
	}
	// Another scenario opened (the window's Ctrl+O): resets that name no track start from it.
	other, err := scenario.Parse([]byte("world: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}\n"), "arena.yaml")
	if err != nil {
		t.Fatal(err)
	}
	otherPlan, err := scenario.Resolve(other, plugins.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	arena, err := h.Build(otherPlan, app.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	h.SetScenario(arena)
	post("/reset", `{"seed": 7}`)
	ep3 := waitActive("the third episode", func(s *app.Sim) bool { return s.ID == "episode-3" })
	if track := ep3.Plan.Track.ID; track != "track.basic_arena.v1" {
		t.Fatalf("a reset after another scenario was opened is on %s, want the opened one's track.basic_arena.v1", track)
	}
	sc = arena
	if err := f.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(h.Worlds()) != 1 || h.Active() != sc {
		t.Fatalf("after Shutdown: %d worlds, active %s", len(h.Worlds()), h.Active().ID)
	}
	if _, err := http.Get(base + "/health"); err == nil {
		t.Error("the API still answers after Shutdown")
	}
}

// The API over a user registry (the host's plugins): an installed rusim export is in /contract
// and /health counts it, a reset drives it (simulated with the fallback body), and /health names
// no path.
func TestAPIFaceWithUserPlugins(t *testing.T) {
	reg := registry.Open(t.TempDir(), registry.Options{})
	if _, err := reg.Install(filepath.Join("..", "..", "plugins", "testdata", "vehicle.arcade.green.v1.rusim-plugin.zip"), registry.InstallOptions{}); err != nil {
		t.Fatal(err)
	}
	plan, err := scenario.Resolve(scenario.Default(), reg)
	if err != nil {
		t.Fatal(err)
	}
	h := app.NewHost(app.HostOptions{Plugins: reg, Logger: slog.New(slog.DiscardHandler)})
	sc, err := h.Build(plan, app.BuildOptions{Paused: true})
	if err != nil {
		t.Fatal(err)
	}
	h.SetScenario(sc)
	f := &Face{Listen: "127.0.0.1:0", Required: true}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx, f) }()
	defer func() { cancel(); <-done; h.Close() }()
	<-h.Start.Done()
	base := "http://" + f.Addr().String()
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
	var c Contract
	get("/contract", &c)
	found := false
	for _, d := range c.AvailableVehicles {
		found = found || d.DeviceID == "vehicle.arcade.green.v1"
	}
	var hl Health
	get("/health", &hl)
	builtin := len(plugins.Builtin().Vehicles())
	if !found || hl.AvailableVehicles != builtin+1 || hl.PluginRegistrySource != "builtin+user" {
		t.Fatalf("green car listed %v, health %+v (built-in vehicles %d)", found, hl, builtin)
	}
	if b, _ := json.Marshal(hl); strings.Contains(string(b), reg.Home()) || strings.Contains(string(b), "/") {
		t.Errorf("/health shows a path: %s", b)
	}
	r, err := http.Post(base+"/reset", "application/json", strings.NewReader(`{"seed": 1, "selectedVehicleId": "vehicle.arcade.green.v1"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	var res StepResult
	if err := json.NewDecoder(r.Body).Decode(&res); err != nil || r.StatusCode != 200 || res.ActiveVehicleID != "vehicle.arcade.green.v1" {
		t.Fatalf("reset with the user plugin: %d %v %s", r.StatusCode, err, res.ActiveVehicleID)
	}
	// Its exported contract has a camera and a speedometer; rusim runs an arcade car on the
	// KS0223's controller and telemetry, which its clients read (the sonar above all).
	keys := func(res StepResult) []string {
		var k []string
		for _, kv := range res.State.Telemetry {
			k = append(k, kv.Key)
		}
		return k
	}
	green := keys(res)
	r2, err := http.Post(base+"/reset", "application/json", strings.NewReader(`{"seed": 1, "selectedVehicleId": "vehicle.ks0223.v1"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Body.Close()
	var ks StepResult
	if err := json.NewDecoder(r2.Body).Decode(&ks); err != nil || r2.StatusCode != 200 {
		t.Fatalf("reset with the KS0223: %d %v", r2.StatusCode, err)
	}
	if want := keys(ks); !slices.Equal(green, want) || !slices.Contains(green, telSonar) {
		t.Errorf("the exported arcade car's telemetry keys %v, want the KS0223's %v", green, want)
	}
}
