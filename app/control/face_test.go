package control

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"simgui/app"
	"simgui/app/markers"
	"simgui/app/scenario"
	"simgui/plugins"
)

// The control service as a face: it starts with the host, its world commands go to the
// active world (also after a training episode takes over), its markers follow the world on
// show, and Shutdown closes the sessions.
func TestControlFaceFollowsTheActiveWorld(t *testing.T) {
	quiet := slog.New(slog.DiscardHandler)
	resolve := func(src string) *scenario.Plan {
		sc, err := scenario.Parse([]byte(src), "face.yaml")
		if err != nil {
			t.Fatal(err)
		}
		p, err := scenario.Resolve(sc, plugins.Builtin())
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	h := app.NewHost(app.HostOptions{Logger: quiet})
	sc, err := h.Build(resolve("world: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}\n"), app.BuildOptions{Lockstep: true})
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

	c, _, err := websocket.DefaultDialer.Dial("ws://"+f.Addr().String()+"/control", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if got, ok := askJSON(t, c, `{"command":"step","steps":7}`)["result"].(map[string]any); !ok || got["steps"] != 7.0 || sc.Loop.Snapshot().Step != 7 {
		t.Fatalf("step on the scenario world: %v, step %d", got, sc.Loop.Snapshot().Step)
	}
	if got := askJSON(t, c, `{"command":"device_list"}`)["result"].(map[string]any); len(got) != 0 {
		t.Fatalf("device_list without a bridge: %v", got)
	}
	m, _ := markers.DecodeRequest([]byte(`{"command":"Add","markers":[{"group":"g","id":1,"type":"Sphere","sphere":{"size":0.1,"point":{}}}]}`))
	f.Service().Markers().Apply(m)

	ep, err := h.Build(resolve("world: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.arcade.red.v1}\n"),
		app.BuildOptions{Lockstep: true, Kind: app.KindEpisode, Label: "episode 1"})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.AddEpisode("episode-1", []*app.Sim{ep}, ep); err != nil {
		t.Fatal(err)
	}
	if got, ok := askJSON(t, c, `{"command":"step","steps":3}`)["result"].(map[string]any); !ok || got["iterations"] != 3.0 ||
		ep.Loop.Snapshot().Step != 3 || sc.Loop.Snapshot().Step != 7 {
		t.Fatalf("step during the episode: %v; episode at %d, scenario at %d", got, ep.Loop.Snapshot().Step, sc.Loop.Snapshot().Step)
	}
	deadline := time.Now().Add(10 * time.Second)
	for ep.Loop.Snapshot().Overlays[markers.OverlayKey] == nil {
		if time.Now().After(deadline) {
			t.Fatal("the markers did not follow the world on show")
		}
		ep.Loop.Step(context.Background(), 1) // the overlay is set at the start of a step
	}

	if err := f.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, _, err := c.ReadMessage(); err == nil {
		t.Fatal("the session is still open after Shutdown")
	}
}

// ip binds the face's address in place of its listen address's host, the port kept; an ip
// that is not an address is refused when the face's settings are checked.
func TestControlFaceIP(t *testing.T) {
	t.Setenv(PortEnv, "18125")
	for _, tc := range []struct{ listen, ip, want string }{
		{"", "", ""},
		{"127.0.0.1:9000", "", "127.0.0.1:9000"},
		{"", "0.0.0.0", "0.0.0.0:18125"},
		{"127.0.0.1:9000", "::", "[::]:9000"},
	} {
		f := &Face{Listen: tc.listen, IP: tc.ip}
		if got, err := f.addr(); err != nil || got != tc.want {
			t.Errorf("listen %q, ip %q: addr %q (%v), want %q", tc.listen, tc.ip, got, err, tc.want)
		}
	}
	if err := (&Face{IP: "localhost"}).Validate(); err == nil || err.Error() != "ip: localhost is not an IP address" {
		t.Errorf("ip localhost: %v", err)
	}
	if err := (&Face{IP: "0.0.0.0"}).Validate(); err != nil {
		t.Errorf("ip 0.0.0.0: %v", err)
	}
}
