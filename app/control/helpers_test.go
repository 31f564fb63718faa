package control

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"simgui/app"
	"simgui/app/bridge"
	"simgui/app/record"
	"simgui/app/scenario"
	"simgui/app/transport"
	"simgui/app/world"
	"simgui/plugins"
)

// env is a running world loop (lockstep) and service for a test.
type env struct {
	svc    *Service
	loop   *world.Loop
	bus    *transport.Bus
	bridge *bridge.Manager
	addr   string
}

// start runs a lockstep world with car0, a bridge with car0's micom and lidar ports, and a
// service configured by opts (Loop, Bus, Bridge and Addr are filled in).
func start(t *testing.T, opts Options, build ...func(*app.BuildOptions)) *env {
	t.Helper()
	// The app's builder: the world with its default systems (gz topics, clock, odometry).
	plan := &scenario.Plan{Scenario: &scenario.Scenario{Source: "control test"}, WorldName: "default",
		Track:       &plugins.TrackDescriptor{ID: "track.test.v1", SpawnPoints: []plugins.SpawnPoint{{}}},
		TrackParams: map[string]any{}, StepSize: 0.005, ActionPeriod: 0.05, VehicleCollisions: true,
		Agents: []world.AgentSpec{{Name: "car0", Vehicle: &plugins.VehicleDescriptor{
			ID: "vehicle.test.car.v1", Version: plugins.ContractVersion{Major: 1},
			Body:  &plugins.Body{Shape: "box", Length: 0.25, Width: 0.15, Height: 0.12, Mass: 1, Friction: 0.9},
			Drive: &plugins.Drive{Model: "differential"},
		}}}}
	bo := app.BuildOptions{Lockstep: true, Logger: slog.New(slog.DiscardHandler)}
	for _, f := range build {
		f(&bo)
	}
	sim, err := app.Build(plan, bo)
	if err != nil {
		t.Fatal(err)
	}
	bus, loop := sim.Bus, sim.Loop
	bm, err := bridge.NewManager(bridge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []struct {
		typ         bridge.DeviceType
		model, part string
		key         string
	}{
		{bridge.DeviceMicom, "car0", "Micom", "Info"},
		{bridge.DeviceMicom, "car0", "Micom", "Rx"},
		{bridge.DeviceMicom, "car0", "Micom", "Tx"},
		{bridge.DeviceLaser, "car0", "lidar", "Data"},
		{bridge.DeviceWorld, "World", "SimulationWorld", "Clock"},
	} {
		if _, _, err := bm.AllocateDevice(d.typ, d.model, d.part, "", d.key); err != nil {
			t.Fatal(err)
		}
	}
	opts.Addr, opts.World = "127.0.0.1:0", Fixed(loop, bus)
	opts.Devices = func() Devices { return managerDevices{bm} }
	if opts.StartRecording == nil {
		opts.StartRecording = func(f *os.File) (func() error, error) {
			r, err := record.StartFile(bus, f, record.Options{})
			if err != nil {
				return nil, err
			}
			return func() error { _, err := r.Stop(); return err }, nil
		}
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	svc, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); loop.Run(ctx) }()
	go func() {
		defer wg.Done()
		if err := svc.Serve(ctx); err != nil {
			t.Errorf("serve: %v", err)
		}
	}()
	t.Cleanup(func() { cancel(); wg.Wait(); sim.Close() })
	return &env{svc: svc, loop: loop, bus: bus, bridge: bm, addr: svc.Addr().String()}
}

// managerDevices answers device_list and port_list from a bridge's port registry, as the
// bridge face does.
type managerDevices struct{ m *bridge.Manager }

func (d managerDevices) DeviceList(filter string) map[string]map[string]map[string]map[string]uint16 {
	out := map[string]map[string]map[string]map[string]uint16{}
	for model, types := range d.m.GetDeviceMapList(filter) {
		out[model] = map[string]map[string]map[string]uint16{}
		for typ, parts := range types {
			out[model][string(typ)] = parts
		}
	}
	return out
}

func (d managerDevices) PortList(filter string) map[string]uint16 {
	return d.m.GetDevicePortList(filter)
}

// dial opens a session on path with extra request headers.
func (e *env) dial(t *testing.T, path string, h http.Header) *websocket.Conn {
	t.Helper()
	c, resp, err := websocket.DefaultDialer.Dial("ws://"+e.addr+path, h)
	if err != nil {
		code := 0
		if resp != nil {
			code = resp.StatusCode
		}
		t.Fatalf("dial %s: %v (HTTP %d)", path, err, code)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// waitIdle waits until the service has n sessions open, none of them answering a request.
func (e *env) waitIdle(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		e.svc.mu.Lock()
		idle := len(e.svc.sessions) == n
		for _, st := range e.svc.sessions {
			idle = idle && !st.busy
		}
		e.svc.mu.Unlock()
		if idle {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the service never had %d idle sessions", n)
		}
		time.Sleep(time.Millisecond)
	}
}

// ask sends a text message and returns the raw answer.
func ask(t *testing.T, c *websocket.Conn, msg string) []byte {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(30 * time.Second))
	if err := c.WriteMessage(websocket.TextMessage, []byte(msg)); err != nil {
		t.Fatalf("send %.60s: %v", msg, err)
	}
	_, b, err := c.ReadMessage()
	if err != nil {
		t.Fatalf("answer to %.60s: %v", msg, err)
	}
	return b
}

// askJSON sends msg and decodes the answer.
func askJSON(t *testing.T, c *websocket.Conn, msg string) map[string]any {
	t.Helper()
	b := ask(t, c, msg)
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("answer %s: %v", b, err)
	}
	return out
}

// busyLoop has loop run no commands, as it runs none during a step batch, until the returned
// function (or the test's end) lets it go.
func busyLoop(t *testing.T, loop *world.Loop) (release func()) {
	t.Helper()
	ch := make(chan struct{})
	var once sync.Once
	release = func() { once.Do(func() { close(ch) }) }
	t.Cleanup(release) // before start's cleanup waits for the loop
	if err := loop.Do(func(*world.World) { <-ch }); err != nil {
		t.Fatal(err)
	}
	return release
}
