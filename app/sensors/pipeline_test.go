package sensors

import (
	"bytes"
	"fmt"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"testing"

	"simgui/app/transport"
	"simgui/render"
)

// Image sensors' workers render at most one frame per core at a time, each with one of as
// many shared renderers, however many sensors there are: a fleet of 1,000 cameras rendered
// 1,000 frames at once, each camera keeping a renderer of its own (9 GB, the step loop all but
// stopped). Jobs of more pipelines than slots wait for one and all run in the end.
func TestPipelinesShareRenderSlots(t *testing.T) {
	slots := cap(renderSlots)
	n := slots + 3
	bus := transport.NewBus(transport.Options{})
	defer bus.Close()
	sys := New(Options{Bus: bus})
	var (
		mu        sync.Mutex
		running   int
		started   int
		renderers = map[*render.Renderer]bool{}
	)
	release := make(chan struct{})
	pipes := make([]*Pipeline[int], n)
	for i := range pipes {
		out := &Output{sys: sys, Topic: fmt.Sprintf("/model/r%d/sensor/cam/image", i)}
		defer bus.Subscribe(out.Topic).Close()
		spec := &Spec{sys: sys, Out: out}
		pipes[i] = NewPipeline(spec, func(r *render.Renderer, _ int) {
			mu.Lock()
			running++
			started++
			renderers[r] = true
			mu.Unlock()
			<-release
			mu.Lock()
			running--
			mu.Unlock()
		}, nil)
	}
	for _, p := range pipes {
		p.Submit(1)
	}
	// Wait until every job is either running or waiting for a slot.
	for {
		mu.Lock()
		s := started
		mu.Unlock()
		if s == n || s == slots && int(slotWaiters.Load()) == n-slots {
			break
		}
		runtime.Gosched()
	}
	mu.Lock()
	if running > slots {
		t.Errorf("%d jobs render at once; want at most %d (one per core)", running, slots)
	}
	mu.Unlock()
	close(release)
	for _, p := range pipes {
		p.Flush()
		p.Close()
	}
	if started != n {
		t.Errorf("%d of %d jobs ran", started, n)
	}
	if len(renderers) > slots || renderers[nil] {
		t.Errorf("jobs drew with %d renderers (nil among them: %v); want at most %d, none nil", len(renderers), renderers[nil], slots)
	}
}

// A frame whose topic lost its last subscriber while the frame waited for a slot is not
// rendered: after a recording of 1,000 cameras stopped, their queued frames were rendered for
// nobody, and a SIGTERM then took 25 s.
func TestPipelineSkipsFramesNobodyWants(t *testing.T) {
	bus := transport.NewBus(transport.Options{})
	defer bus.Close()
	sys := New(Options{Bus: bus})
	out := &Output{sys: sys, Topic: "/model/r/sensor/cam/image"}
	sub := bus.Subscribe(out.Topic)
	var mu sync.Mutex
	ran, dropped := 0, 0
	p := NewPipeline(&Spec{sys: sys, Out: out}, func(*render.Renderer, int) {
		mu.Lock()
		ran++
		mu.Unlock()
	}, func(int) { dropped++ })
	defer p.Close()
	// Hold every slot so that the frames wait, then let the subscriber go.
	release := holdRenderSlots()
	for i := range 3 {
		p.Submit(i)
	}
	sub.Close()
	release()
	p.Flush()
	if ran != 0 || dropped != 3 {
		t.Fatalf("%d frames rendered, %d released for nobody; want 0 and 3", ran, dropped)
	}
	// With a subscriber again, frames are rendered.
	sub = bus.Subscribe(out.Topic)
	defer sub.Close()
	p.Submit(3)
	p.Flush()
	if ran != 1 {
		t.Fatalf("%d frames rendered for a subscriber; want 1", ran)
	}
}

// A frame dropped because the sensor's worker fell behind is counted, and the first drop of
// a topic is logged once: a ROS client saw 20 Hz from a 30 Hz camera without a word.
func TestPipelineDropsAreCountedAndLoggedOnce(t *testing.T) {
	var logged bytes.Buffer
	bus := transport.NewBus(transport.Options{})
	defer bus.Close()
	sys := New(Options{Bus: bus, QueueLen: 2, Logger: slog.New(slog.NewTextHandler(&logged, nil))})
	out := &Output{sys: sys, Topic: "/model/r/sensor/cam/image"}
	defer bus.Subscribe(out.Topic).Close() // frames nobody wants are skipped, not run
	var mu sync.Mutex
	var ran []int
	p := NewPipeline(&Spec{sys: sys, Out: out}, func(_ *render.Renderer, j int) {
		mu.Lock()
		ran = append(ran, j)
		mu.Unlock()
	}, nil)
	defer p.Close()
	// With every slot held no job runs: the queue keeps the last two of six.
	release := holdRenderSlots()
	for i := range 6 {
		p.Submit(i)
	}
	release()
	p.Flush()
	// The worker may have taken the first job before the slots were all held by it; then it
	// runs that one and the queue keeps two of the other five.
	mu.Lock()
	defer mu.Unlock()
	if got, want := out.Dropped(), uint64(6-len(ran)); got != want || len(ran) < 2 || len(ran) > 3 {
		t.Fatalf("ran %v, %d dropped; want the last two (and perhaps the first) run and the rest dropped", ran, got)
	}
	if n := strings.Count(logged.String(), "sensor readings dropped"); n != 1 {
		t.Fatalf("%d drop warnings, want 1:\n%s", n, logged.String())
	}
	if !strings.Contains(logged.String(), "topic="+out.Topic) {
		t.Fatalf("the warning does not name the topic:\n%s", logged.String())
	}
}

// holdRenderSlots takes every render slot, so that no pipeline job runs, and returns what
// gives them back.
func holdRenderSlots() (release func()) {
	var held []*renderSlot
	for range cap(renderSlots) {
		held = append(held, <-renderSlots)
	}
	return func() {
		for _, s := range held {
			renderSlots <- s
		}
	}
}
