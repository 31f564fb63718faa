package sensors

import (
	"runtime"
	"sync"
	"sync/atomic"

	"simgui/render"
)

// DefaultQueueLen is how many frames of one image sensor may wait for its worker.
const DefaultQueueLen = 4

// Pipeline runs a sensor's slow work (rendering, encoding, publishing) on a goroutine of its
// own, so that the step loop does not wait for it. Jobs run one at a time in the order they
// were submitted, so the readings of one sensor stay in order.
//
// When the worker falls behind and the queue (Options.QueueLen) is full, Submit drops the
// oldest waiting job (counted in Output.Dropped) — unless the system is lossless
// (Options.Lossless, SetLossless, or a dump is running), in which case Submit waits for room: the step loop
// then goes at the speed of the slowest camera.
type Pipeline[J any] struct {
	jobs chan J
	run  func(*render.Renderer, J)
	drop func(J)
	out  *Output
	sys  *System
	done chan struct{}

	mu      sync.Mutex
	idle    *sync.Cond
	pending int
	closed  bool
}

// NewPipeline starts a pipeline for the sensor of spec: run does a job on the pipeline's
// goroutine with a renderer lent for the job (one of the process's render slots); drop (may be
// nil) releases a job that was dropped. Close it with Close.
func NewPipeline[J any](spec *Spec, run func(*render.Renderer, J), drop func(J)) *Pipeline[J] {
	n := spec.sys.opts.QueueLen
	if n <= 0 {
		n = DefaultQueueLen
	}
	p := &Pipeline[J]{jobs: make(chan J, n), run: run, drop: drop, out: spec.Out, sys: spec.sys, done: make(chan struct{})}
	p.idle = sync.NewCond(&p.mu)
	spec.sys.addFlusher(p)
	go p.work()
	return p
}

func (p *Pipeline[J]) work() {
	defer close(p.done)
	for j := range p.jobs {
		p.runInSlot(j)
		p.finish()
	}
}

// renderSlots bounds how many pipeline jobs (frames being rendered, encoded and published) run
// at once in the process to one per core, and lends each job the slot's renderer. Every image
// sensor has a worker goroutine of its own; with a renderer of its own each and no bound, a
// fleet of 1,000 cameras rendered 1,000 frames at once and kept 1,000 renderers' scratch
// (which grows with the robots in view): 9 GB, and the step loop, one runnable goroutine among
// a thousand busy ones, all but stopped (under a step a second, the control socket
// unanswered). Waiting workers take slots in turn; meanwhile a lossy sensor drops its oldest
// frame and a lossless one (a dump) holds the loop back. A renderer draws the same frame
// whichever cameras it drew before.
var renderSlots = func() chan *renderSlot {
	n := max(1, runtime.GOMAXPROCS(0))
	c := make(chan *renderSlot, n)
	for range n {
		c <- &renderSlot{}
	}
	return c
}()

// renderSlot is one of renderSlots: its renderer, made on first use and kept for the process.
type renderSlot struct{ r *render.Renderer }

// slotWaiters counts workers waiting for a render slot.
var slotWaiters atomic.Int32

func (p *Pipeline[J]) runInSlot(j J) {
	var slot *renderSlot
	select {
	case slot = <-renderSlots:
	default:
		slotWaiters.Add(1)
		slot = <-renderSlots
		slotWaiters.Add(-1)
	}
	defer func() { renderSlots <- slot }()
	if !p.out.Wanted() {
		// Its subscribers left while the frame waited (a recording stopped, a client gone,
		// the process shutting down): nobody would see it. 1,000 recorded cameras' queued
		// frames, rendered for nobody, held a SIGTERM up for 25 s.
		if p.drop != nil {
			p.drop(j)
		}
		return
	}
	if slot.r == nil {
		slot.r = render.NewRenderer(render.Options{})
	}
	p.run(slot.r, j)
}

func (p *Pipeline[J]) finish() {
	p.mu.Lock()
	p.pending--
	if p.pending == 0 {
		p.idle.Broadcast()
	}
	p.mu.Unlock()
}

// Submit queues a job. Call it from one goroutine (the loop's).
func (p *Pipeline[J]) Submit(j J) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		if p.drop != nil {
			p.drop(j)
		}
		return
	}
	p.pending++
	p.mu.Unlock()
	if p.sys.lossless() {
		p.jobs <- j
		return
	}
	select {
	case p.jobs <- j:
		return
	default:
	}
	// Full: make room by dropping the oldest job, unless the worker just took it.
	select {
	case old := <-p.jobs:
		p.out.noteDrop()
		if p.drop != nil {
			p.drop(old)
		}
		p.finish()
	default:
	}
	p.jobs <- j
}

// Flush waits until every submitted job has run.
func (p *Pipeline[J]) Flush() {
	p.mu.Lock()
	for p.pending > 0 {
		p.idle.Wait()
	}
	p.mu.Unlock()
}

// Close runs what is queued, stops the goroutine and waits for it.
func (p *Pipeline[J]) Close() {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		<-p.done
		return
	}
	p.closed = true
	p.mu.Unlock()
	close(p.jobs)
	<-p.done
	p.sys.removeFlusher(p)
}

type flusher interface{ Flush() }
