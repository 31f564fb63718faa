package sensors

import (
	"runtime"
	"sync"
	"testing"

	"simgui/render"
)

// Image sensors' workers render at most one frame per core at a time, each with one of as
// many shared renderers, however many sensors there are: a fleet of 1,000 cameras rendered
// 1,000 frames at once, each camera keeping a renderer of its own (9 GB, the step loop all but
// stopped). Jobs of more pipelines than slots wait for one and all run in the end.
func TestPipelinesShareRenderSlots(t *testing.T) {
	slots := cap(renderSlots)
	n := slots + 3
	sys := New(Options{})
	var (
		mu        sync.Mutex
		running   int
		started   int
		renderers = map[*render.Renderer]bool{}
	)
	release := make(chan struct{})
	pipes := make([]*Pipeline[int], n)
	for i := range pipes {
		spec := &Spec{sys: sys, Out: &Output{sys: sys}}
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
