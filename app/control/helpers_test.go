package control

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"simgui/app/bridge"
	"simgui/app/transport"
	"simgui/app/world"
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
func start(t *testing.T, opts Options) *env {
	t.Helper()
	bus := transport.NewBus(transport.Options{Logger: slog.New(slog.DiscardHandler)})
	w, err := newSmallWorld(bus)
	if err != nil {
		t.Fatal(err)
	}
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
	loop := world.NewLoop(w, world.LoopOptions{Lockstep: true})
	opts.Addr, opts.Loop, opts.Bus, opts.Bridge = "127.0.0.1:0", loop, bus, bm
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
	t.Cleanup(func() { cancel(); wg.Wait(); bus.Close() })
	return &env{svc: svc, loop: loop, bus: bus, bridge: bm, addr: svc.Addr().String()}
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
