// Package controlbench holds the /control service's benchmarks for `simgui bench` and `go
// test -bench`.
//
// control/step-roundtrip is a lockstep client's cycle — send {"command":"step"}, wait for the
// answer after the step ran — against control/gorilla-echo, the same request echoed by a bare
// gorilla server over the same loopback, so the ratio is the cost of the service and one world
// step over the WebSocket round trip itself.
//
// control/handoff-echo is the echo with one hand-off to another goroutine and back per message,
// the floor for any service whose world is owned by another goroutine (the loop): on two or
// more cores the Go scheduler's cross-thread wake-ups cost more than the step itself.
//
// control/loop-step/flood16 times world steps while 16 clients send commands as fast as they
// can; control/loop-step/idle is the same without clients.
package controlbench

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"

	"simgui/app/bench"
	"simgui/app/control"
	"simgui/app/transport"
	"simgui/app/world"
	"simgui/plugins"
)

func init() {
	bench.Register(bench.Case{Name: "control/gorilla-echo", Doc: "baseline: WebSocket round trip of a step request to a bare gorilla echo server", F: benchEcho})
	bench.Register(bench.Case{Name: "control/handoff-echo", Baseline: "control/gorilla-echo", Doc: "the echo with a hand-off to another goroutine and back, the floor for /control world commands", F: benchHandoffEcho})
	bench.Register(bench.Case{Name: "control/step-roundtrip", Baseline: "control/gorilla-echo", Doc: "step command over /control, answered after one world step (lockstep)", F: benchStepRoundTrip})
	bench.Register(bench.Case{Name: "control/loop-step/idle", Doc: "baseline: one world step of the control test world, no clients", F: benchLoopSteps(0)})
	bench.Register(bench.Case{Name: "control/loop-step/flood16", Baseline: "control/loop-step/idle", Doc: "one world step while 16 /control clients flood commands", F: benchLoopSteps(16)})
}

var stepRequest = []byte(`{"command":"step","steps":1}`)

var benchVehicle = &plugins.VehicleDescriptor{
	ID: "vehicle.bench.car.v1", DisplayName: "Bench car", Version: plugins.ContractVersion{Major: 1},
	Body:  &plugins.Body{Shape: "box", Length: 0.25, Width: 0.15, Height: 0.12, Mass: 1, Friction: 0.9},
	Drive: &plugins.Drive{Model: "differential"},
}

var benchTrack = &plugins.TrackDescriptor{
	ID:          "track.bench.v1",
	Elements:    []plugins.Element{{Kind: "wall", Name: "north", X: 0, Y: 2, Length: 4, Width: 0.02, Height: 0.25}},
	SpawnPoints: []plugins.SpawnPoint{{X: 0, Y: 0, YawDeg: 90}},
}

func asIsLayout(t *plugins.TrackDescriptor, _ map[string]any, _ int64) (*plugins.Layout, error) {
	return &plugins.Layout{Elements: t.Elements, SpawnPoints: t.SpawnPoints}, nil
}

// newSmallWorld builds a walled track with one differential car, car0, talking on bus.
func newSmallWorld(bus *transport.Bus) (*world.World, error) {
	return world.New(world.Config{
		Track: benchTrack, BuildLayout: asIsLayout, Bus: bus, Logger: slog.New(slog.DiscardHandler),
		Agents: []world.AgentSpec{{Name: "car0", Vehicle: benchVehicle}},
	})
}

// benchService starts a world loop (lockstep unless free) and a service on a free port; stop
// ends both.
func benchService(free bool) (svc *control.Service, loop *world.Loop, stop func(), err error) {
	bus := transport.NewBus(transport.Options{Logger: slog.New(slog.DiscardHandler)})
	w, err := newSmallWorld(bus)
	if err != nil {
		return nil, nil, nil, err
	}
	loop = world.NewLoop(w, world.LoopOptions{Lockstep: !free})
	svc, err = control.New(control.Options{Addr: "127.0.0.1:0", World: control.Fixed(loop, bus), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return nil, nil, nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); loop.Run(ctx) }()
	go func() { defer wg.Done(); svc.Serve(ctx) }()
	return svc, loop, func() { cancel(); wg.Wait(); bus.Close() }, nil
}

func dialBench(b bench.B, addr string) *websocket.Conn {
	c, _, err := websocket.DefaultDialer.Dial("ws://"+addr+"/control", nil)
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// roundTrips sends step requests and reads the answers, one per op; it returns the ops.
func roundTrips(b bench.B, c *websocket.Conn) int {
	b.ReportAllocs()
	ops := 0
	for b.Loop() {
		if err := c.WriteMessage(websocket.TextMessage, stepRequest); err != nil {
			b.Fatal(err)
		}
		if _, _, err := c.ReadMessage(); err != nil {
			b.Fatal(err)
		}
		ops++
	}
	return ops
}

func benchEcho(b bench.B) { echo(b, nil) }

func benchHandoffEcho(b bench.B) {
	req := make(chan chan struct{})
	defer close(req)
	go func() {
		for r := range req {
			r <- struct{}{}
		}
	}()
	echo(b, req)
}

// echo measures round trips to a bare gorilla echo server; with handoff, the server passes
// each message's turn to another goroutine and waits for it before answering.
func echo(b bench.B, handoff chan chan struct{}) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	up := websocket.Upgrader{}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer c.Close()
		done := make(chan struct{}, 1)
		for {
			mt, m, err := c.ReadMessage()
			if err != nil {
				return
			}
			if handoff != nil {
				handoff <- done
				<-done
			}
			if c.WriteMessage(mt, m) != nil {
				return
			}
		}
	})}
	go srv.Serve(ln)
	defer srv.Close()
	c := dialBench(b, ln.Addr().String())
	defer c.Close()
	roundTrips(b, c)
}

func benchStepRoundTrip(b bench.B) {
	svc, loop, stop, err := benchService(false)
	if err != nil {
		b.Fatal(err)
	}
	defer stop()
	c := dialBench(b, svc.Addr().String())
	defer c.Close()
	before := loop.Snapshot().Step
	ops := roundTrips(b, c)
	// Lockstep: each answer comes after its step, whatever the load.
	if got := loop.Snapshot().Step - before; got != uint64(ops) {
		b.Fatalf("%d round trips ran %d steps", ops, got)
	}
}

// floodCommands is what flooding clients send, round robin: reads that do not touch the loop
// and world commands that do.
var floodCommands = [][]byte{
	[]byte(`{'command':'device_list','filter':''}`),
	[]byte(`{"command":"fps"}`),
	[]byte(`{"command":"get_model_info","target_model":"car0"}`),
	[]byte(`{"command":"resume"}`),
	[]byte(`{"command":"nonsense"}`),
	[]byte(`{"command":`),
}

// benchLoopSteps times the free-running loop (as fast as possible, so queued commands run
// between steps) while clients flood it: ns/op is wall time per step.
func benchLoopSteps(clients int) func(bench.B) {
	return func(b bench.B) {
		svc, loop, stop, err := benchService(true)
		if err != nil {
			b.Fatal(err)
		}
		defer stop()
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		var answered atomic.Int64
		for i := range clients {
			c := dialBench(b, svc.Addr().String())
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer c.Close()
				for j := i; ctx.Err() == nil; j++ {
					if c.WriteMessage(websocket.TextMessage, floodCommands[j%len(floodCommands)]) != nil {
						return
					}
					if _, _, err := c.ReadMessage(); err != nil {
						return
					}
					answered.Add(1)
				}
			}()
		}
		start := loop.Snapshot().Step
		target := start
		for b.Loop() {
			// One op is one step; the loop runs many between two polls, and the ops after a
			// poll that found them done return at once.
			target++
			for loop.Snapshot().Step < target {
				time.Sleep(time.Millisecond)
			}
		}
		steps := loop.Snapshot().Step - start
		cancel()
		wg.Wait()
		// Correct for the last poll's overshoot: time per step actually run.
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(steps), "ns/step")
		if clients > 0 {
			b.ReportMetric(float64(answered.Load())/float64(steps), "answers/step")
		}
	}
}
