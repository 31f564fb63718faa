package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
	"google.golang.org/protobuf/proto"

	"simgui/app"
	"simgui/app/api"
	"simgui/app/bridge"
	"simgui/app/scenario"
	"simgui/app/transport/msgs"
	"simgui/app/world"
	"simgui/physics"
	"simgui/plugins"
)

// A kinematic world works with the faces: a fleet of KS0223s in a scenario with
// runtime.physics: kinematic drives on the device bridge's clock, a client reads a robot's
// odometry from the bridge, and the training API resets and steps an episode built from the
// same scenario, which is kinematic too.
func TestKinematicFleetThroughTheFaces(t *testing.T) {
	const fleet = 60
	var src strings.Builder
	src.WriteString("axes: world\nruntime: {physics: kinematic, seed: 5}\nworld: {trackId: track.basic_arena.v1}\n" +
		"sensors: {camera: {enabled: false}}\nagents:\n  vehicles:\n")
	for i := range fleet {
		fmt.Fprintf(&src, "    - {agentId: r%d, vehicleId: vehicle.ks0223.v1, spawnPose: {position: [%g, %g], yawDeg: 0}}\n",
			i, -3+float64(i%10)*0.6, -3+float64(i/10)*0.6)
	}
	sc, err := scenario.Parse([]byte(src.String()), "fleet.yaml")
	if err != nil {
		t.Fatal(err)
	}
	plan, err := scenario.Resolve(sc, plugins.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.DiscardHandler)
	h := app.NewHost(app.HostOptions{Logger: quiet})
	sim, err := h.Build(plan, app.BuildOptions{Paused: true, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	h.SetScenario(sim)
	apiFace := &api.Face{Listen: "127.0.0.1:0", Required: true}
	bridgeFace := &bridge.Face{QueueLen: 64}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx, apiFace, bridgeFace) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("host: %v", err)
		}
		h.Close()
	})
	select {
	case <-h.Start.Done():
	case <-time.After(30 * time.Second):
		t.Fatalf("the host did not start: missing %v", h.Start.Missing())
	}
	mode := func(s *app.Sim) physics.Mode {
		var m physics.Mode
		if err := s.Loop.Call(ctx, func(w *world.World) error { m = w.Space().Mode(); return nil }); err != nil {
			t.Fatal(err)
		}
		return m
	}
	if m := mode(sim); m != physics.Kinematic {
		t.Fatalf("the scenario world is %v", m)
	}

	// The bridge: r0's odometry, while the whole fleet drives forward.
	var port uint16
	deadline := time.Now().Add(20 * time.Second)
	for port == 0 {
		if d := h.Devices(); d != nil {
			port = d.PortList("")["r0MicomTx"]
		}
		if port == 0 && time.Now().After(deadline) {
			t.Fatal("the bridge lists no r0MicomTx")
		}
		time.Sleep(10 * time.Millisecond)
	}
	sub := zmq4.NewSub(ctx)
	defer sub.Close()
	if err := sub.Dial(fmt.Sprintf("tcp://127.0.0.1:%d", port)); err != nil {
		t.Fatal(err)
	}
	tag := bridge.TagBytes("r0MicomTx")
	if err := sub.SetOption(zmq4.OptionSubscribe, string(tag[:])); err != nil {
		t.Fatal(err)
	}
	sim.Loop.Do(func(w *world.World) {
		for _, m := range w.Models() {
			m.Command.Throttle = 1
		}
	})
	if err := sim.Loop.Resume(); err != nil {
		t.Fatal(err)
	}
	var odom msgs.Micom
	for odom.GetOdom().GetPose().GetX() < 0.2 {
		msg := recvWithin(t, sub, 20*time.Second)
		if err := proto.Unmarshal(msg.Frames[0][8:], &odom); err != nil {
			t.Fatal(err)
		}
	}
	sim.Loop.Pause()

	// The training API: an episode of the kinematic scenario, stepped forward.
	base := "http://" + apiFace.Addr().String()
	post := func(path string, body any) map[string]any {
		t.Helper()
		data, _ := json.Marshal(body)
		resp, err := http.Post(base+path, "application/json", bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != 200 {
			t.Fatalf("%s: %d %v %v", path, resp.StatusCode, err, out)
		}
		return out
	}
	// Without the per-episode draws: a motor gain drawn under 1 lowers the top speed.
	post("/reset", map[string]any{"seed": 3, "flags": []map[string]string{{"key": "randomization.enabled", "value": "false"}}})
	ep := h.World(apiFace.Service().Current().Agents[0].World)
	if m := mode(ep); m != physics.Kinematic {
		t.Fatalf("the API's episode is %v", m)
	}
	var speed float64
	for range 20 {
		st := post("/step", map[string]any{"throttle": 1})
		speed, _ = st["state"].(map[string]any)["speed"].(float64)
	}
	if math.Abs(speed-0.73) > 0.01 {
		t.Fatalf("after 1 s at full throttle the API reports %.3f m/s, want the KS0223's 0.73", speed)
	}
}

// recvWithin receives one message or fails the test after d.
func recvWithin(t *testing.T, s zmq4.Socket, d time.Duration) zmq4.Msg {
	t.Helper()
	ch := make(chan zmq4.Msg, 1)
	errs := make(chan error, 1)
	go func() {
		m, err := s.Recv()
		if err != nil {
			errs <- err
			return
		}
		ch <- m
	}()
	select {
	case m := <-ch:
		return m
	case err := <-errs:
		t.Fatalf("recv: %v", err)
	case <-time.After(d):
		t.Fatal("no message from the bridge")
	}
	return zmq4.Msg{}
}
