package timeline

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"simgui/app/events"
	"simgui/app/transport"
	"simgui/app/transport/msgs"
	"simgui/app/world"
)

// gate is a service (/test/svc, gz.msgs.Double → gz.msgs.Boolean) that reports each request's
// data on entered, then holds the call until the test sends on release. Its cleanup frees
// every call, before the world closes.
type gate struct {
	entered  chan float64
	release  chan struct{}
	finished atomic.Int64 // calls that returned
	free     chan struct{}
	once     sync.Once
}

func newGate(t *testing.T, bus *transport.Bus) *gate {
	t.Helper()
	g := &gate{entered: make(chan float64, 1024), release: make(chan struct{}), free: make(chan struct{})}
	stop, err := bus.Advertise("/test/svc", "gz.msgs.Double", "gz.msgs.Boolean",
		func(_ context.Context, req proto.Message) (proto.Message, error) {
			g.entered <- req.(*msgs.Double).GetData()
			select { // deliberately deaf to ctx: a slow service that ignores its timeout
			case <-g.release:
			case <-g.free:
			}
			g.finished.Add(1)
			return &msgs.Boolean{Data: true}, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.freeAll(); stop() })
	return g
}

func (g *gate) freeAll() { g.once.Do(func() { close(g.free) }) }

// next returns the data of the next call the service receives.
func (g *gate) next(t *testing.T) float64 {
	t.Helper()
	select {
	case v := <-g.entered:
		return v
	case <-time.After(10 * time.Second): // a hang guard, not a timing condition
		t.Fatal("the service was not called")
		return 0
	}
}

// calls is a timeline config calling /test/svc with the given data at "time:data" pairs.
func calls(head string, timeoutMs int, frames ...string) string {
	var b strings.Builder
	b.WriteString("type: systems.timeline_publisher\nconfig:\n")
	for _, l := range strings.Split(strings.TrimSpace(head), "\n") {
		if l != "" {
			b.WriteString("  " + l + "\n")
		}
	}
	b.WriteString("  keyframes:\n")
	for _, f := range frames {
		at, data, _ := strings.Cut(f, ":")
		fmt.Fprintf(&b, "    - {time: %s, services: [{name: /test/svc, reqType: gz.msgs.Double, repType: gz.msgs.Boolean, timeout: %d, reqMsg: \"data: %s\"}]}\n",
			at, timeoutMs, data)
	}
	return b.String()
}

// relative returns the queued calls' cycles counted from the current run's cycle 0.
func relative(p *Publisher) []int64 {
	out := p.work.waiting()
	for i := range out {
		out[i] -= p.base
	}
	return out
}

// Calls are made in order, one at a time, on the worker: the steps go on while a call waits.
func TestServiceCallsInOrderOffTheStep(t *testing.T) {
	w, bus := newWorld(t)
	g := newGate(t, bus)
	p := add(t, w, calls("", 60000, "0.01:3", "0:1", "0:2", "0.5:4"))
	steps(w, 3) // would hang if a step waited for the service
	if got := relative(p); len(got) < 2 {
		t.Fatalf("queued %v while the first call is held", got)
	}
	var order []float64
	for range 3 {
		order = append(order, g.next(t))
		g.release <- struct{}{}
	}
	if !slices.Equal(order, []float64{1, 2, 3}) {
		t.Fatalf("calls made in order %v, want 1 2 3", order)
	}
	if err := w.RemoveSystem(p); err != nil { // waits for the third call to return
		t.Fatal(err)
	}
	if s := p.Stats(); s.Calls != 3 || s.CallErrors != 0 || s.Dropped != 0 || g.finished.Load() != 3 {
		t.Fatalf("stats %+v, %d returned; want 3 calls, no errors", s, g.finished.Load())
	}
}

// When a new cycle starts, calls still waiting from before the previous cycle are dropped.
func TestNewCycleDropsCallsFromBeforeThePreviousCycle(t *testing.T) {
	w, bus := newWorld(t)
	g := newGate(t, bus)
	p := add(t, w, calls("loop: true\nperiod: 0.1", 60000, "0:1"))
	steps(w, 1)
	g.next(t) // cycle 0's call is in progress and held
	until(w, 100*time.Millisecond)
	if got := relative(p); !slices.Equal(got, []int64{1}) {
		t.Fatalf("waiting at the start of cycle 1: %v", got)
	}
	until(w, 200*time.Millisecond)
	if got := relative(p); !slices.Equal(got, []int64{1, 2}) {
		t.Fatalf("waiting at the start of cycle 2: %v (cycle 1 is the previous cycle: kept)", got)
	}
	until(w, 300*time.Millisecond)
	if got := relative(p); !slices.Equal(got, []int64{2, 3}) || p.Stats().Dropped != 1 {
		t.Fatalf("waiting at the start of cycle 3: %v, dropped %d; want cycle 1 dropped", got, p.Stats().Dropped)
	}
	g.freeAll()
	g.next(t)
	g.next(t)
	w.RemoveSystem(p)
	if s := p.Stats(); s.Calls != 3 || s.Dropped != 1 {
		t.Fatalf("stats %+v: want cycles 0, 2, 3 called and 1 dropped", s)
	}
}

// Calls still waiting at a world reset are dropped; the timeline then starts over.
func TestResetDropsWaitingCalls(t *testing.T) {
	w, bus := newWorld(t)
	g := newGate(t, bus)
	p := add(t, w, calls("", 60000, "0:1", "0.01:2", "0.02:3"))
	steps(w, 1)
	if v := g.next(t); v != 1 {
		t.Fatalf("first call %g", v)
	}
	until(w, 20*time.Millisecond)
	if n := len(p.work.waiting()); n != 2 {
		t.Fatalf("%d calls waiting before the reset, want 2", n)
	}
	if err := w.Reset(7); err != nil {
		t.Fatal(err)
	}
	if n := len(p.work.waiting()); n != 0 || p.Stats().Dropped != 2 {
		t.Fatalf("after the reset %d calls wait, %d dropped; want 0 and 2", n, p.Stats().Dropped)
	}
	steps(w, 1) // the timeline starts over: call 1 again
	g.release <- struct{}{}
	if v := g.next(t); v != 1 {
		t.Fatalf("the call after the reset carries %g, want 1 (2 and 3 were dropped)", v)
	}
	g.release <- struct{}{}
	w.RemoveSystem(p)
	if s := p.Stats(); s.Calls != 2 || s.Dropped != 2 {
		t.Fatalf("stats %+v", s)
	}
}

// Removing the system drops the waiting calls and waits for the call in progress.
func TestRemoveWaitsForTheCallInProgress(t *testing.T) {
	w, bus := newWorld(t)
	g := newGate(t, bus)
	p := add(t, w, calls("", 60000, "0:1", "0:2"))
	steps(w, 1)
	g.next(t)
	wk := p.work
	removed := make(chan int64)
	go func() { // the world is handed to this goroutine until it sends
		if err := w.RemoveSystem(p); err != nil {
			t.Error(err)
		}
		removed <- g.finished.Load()
	}()
	for len(wk.waiting()) > 0 { // removal has begun once call 2 is dropped
		runtime.Gosched()
	}
	g.release <- struct{}{}
	if n := <-removed; n != 1 {
		t.Fatalf("RemoveSystem returned with %d calls finished, want the call in progress finished", n)
	}
	if s := p.Stats(); s.Calls != 1 || s.Dropped != 1 || s.CallErrors != 0 {
		t.Fatalf("stats %+v: want call 1 made and answered, call 2 dropped", s)
	}
}

// ... but no longer than the call's timeout when the service does not answer.
func TestRemoveWaitsAtMostTheTimeout(t *testing.T) {
	w, bus := newWorld(t)
	g := newGate(t, bus)
	p := add(t, w, calls("", 50, "0:1"))
	steps(w, 1)
	g.next(t)
	start := time.Now()
	if err := w.RemoveSystem(p); err != nil {
		t.Fatal(err)
	}
	t.Logf("RemoveSystem took %v with a 50 ms timeout", time.Since(start))
	if s := p.Stats(); s.Calls != 1 || s.CallErrors != 1 || g.finished.Load() != 0 {
		t.Fatalf("stats %+v, %d returned: want the call ended by its timeout while the handler still runs", s, g.finished.Load())
	}
}

// A service that never answers in time does not slow or stop the timeline: its outputs fire
// on time, and the queue stays at two cycles' calls.
func TestSlowServiceNeverBlocksTheStep(t *testing.T) {
	w, bus := newWorld(t)
	g := newGate(t, bus)
	rec := record(t, bus, "/mark")
	p := add(t, w, `
type: systems.timeline_publisher
config:
  loop: true
  period: 0.05
  keyframes:
    - time: 0
      outputs: [{topic: /mark, type: gz.msgs.Double, content: "data: 1"}]
      services: [{name: /test/svc, reqType: gz.msgs.Double, repType: gz.msgs.Boolean, timeout: 60000, reqMsg: "data: 1"}]`)
	steps(w, 1)
	g.next(t) // held for the rest of the test
	until(w, 10*time.Second)
	if n := len(rec.take()); n != 201 {
		t.Fatalf("%d outputs published in 10 s of 50 ms cycles, want 201", n)
	}
	if got, s := relative(p), p.Stats(); !slices.Equal(got, []int64{199, 200}) || s.Dropped != 198 || s.Calls != 1 {
		t.Fatalf("waiting %v, stats %+v: want cycles 199 and 200 waiting, 198 dropped, 1 call", got, s)
	}
}

// A timeline scripts a run through the world's services: it drives, teleports the car with
// set_pose, then pauses the world with control.
func TestScriptedRunWithWorldServices(t *testing.T) {
	w, _ := newWorld(t)
	p := add(t, w, `
type: systems.timeline_publisher
config:
  keyframes:
    - {time: 0, outputs: [{topic: /model/ego/cmd_vel, type: gz.msgs.Twist, content: "linear { x: 0.5 }"}]}
    - {time: 0.9, outputs: [{topic: /model/ego/cmd_vel, type: gz.msgs.Twist}]}
    - time: 1
      services:
        - name: /world/default/set_pose
          reqType: gz.msgs.Pose
          repType: gz.msgs.Boolean
          reqMsg: 'name: "ego" position { x: 2 y: 3 } orientation { z: 0.7071067811865476 w: 0.7071067811865476 }'
    - {time: 1.5, services: [{name: /world/default/control, reqType: gz.msgs.WorldControl, repType: gz.msgs.Boolean, reqMsg: "pause: true"}]}`)
	l := world.NewLoop(w, world.LoopOptions{}) // free running, as fast as it can
	ctx, cancel := context.WithCancel(context.Background())
	go l.Run(ctx)
	defer func() { cancel(); <-l.Done() }()

	deadline := time.After(20 * time.Second) // a hang guard
	for {
		up := l.Updated()
		if l.Snapshot().Paused {
			break
		}
		select {
		case <-up:
		case <-deadline:
			t.Fatalf("the timeline did not pause the world; at %v", l.Snapshot().SimTime)
		}
	}
	s := l.Snapshot()
	ego, _ := s.Model("ego")
	if s.SimTime < 1500*time.Millisecond || !near(ego.Pose.X, 2, 1e-9) || !near(ego.Pose.Y, 3, 1e-9) ||
		!near(ego.Pose.Yaw, math.Pi/2, 1e-9) || ego.Speed != 0 {
		t.Fatalf("paused at %v with ego at %+v moving %g m/s; want paused after 1.5 s at (2, 3) facing north, still",
			s.SimTime, ego.Pose, ego.Speed)
	}
	if err := l.Call(ctx, func(w *world.World) error { return w.RemoveSystem(p) }); err != nil {
		t.Fatal(err)
	}
	if st := p.Stats(); st.Calls != 2 || st.CallErrors != 0 || st.Published != 2 {
		t.Fatalf("stats %+v", st)
	}
}

// A timeline's service call is an action: ACTION_STARTED when its keyframe fires, ACTION_COMPLETED
// on the step after the reply (the world's events run on the loop goroutine); calls dropped at
// a reset complete with the reason.
func TestServiceCallsAreActions(t *testing.T) {
	w, bus := newWorld(t)
	g := newGate(t, bus)
	var got []string
	log := func(ev events.Event) {
		a := ev.Data.(events.Action)
		got = append(got, fmt.Sprintf("%s %d %s %s %s %q", ev.Name, a.ID, a.Kind, a.Target, a.Source, a.Err))
	}
	w.Events().On(events.ActionStarted, log, 0)
	w.Events().On(events.ActionCompleted, log, 0)
	add(t, w, calls("", 60000, "0:1", "0:2", "0:3"))
	steps(w, 1)
	const call = "service_call /test/svc systems.timeline_publisher"
	if want := []string{
		`ACTION_STARTED 1 ` + call + ` ""`, `ACTION_STARTED 2 ` + call + ` ""`, `ACTION_STARTED 3 ` + call + ` ""`,
	}; !slices.Equal(got, want) {
		t.Fatalf("after the keyframes fired:\n%v\nwant\n%v", got, want)
	}
	got = nil
	g.next(t)
	g.release <- struct{}{}
	g.next(t) // the second call is in progress (and held), so the first has finished
	for len(got) == 0 {
		steps(w, 1)
	}
	if want := []string{`ACTION_COMPLETED 1 ` + call + ` ""`}; !slices.Equal(got, want) {
		t.Fatalf("after the first reply:\n%v\nwant\n%v", got, want)
	}
	got = nil
	if err := w.Reset(1); err != nil { // drops the third call, still waiting
		t.Fatal(err)
	}
	if want := []string{`ACTION_COMPLETED 3 ` + call + ` "dropped before it was made: the world was reset"`}; !slices.Equal(got, want) {
		t.Fatalf("after the reset:\n%v\nwant\n%v", got, want)
	}
}
