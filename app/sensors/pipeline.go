package sensors

import (
	"sync"
)

// DefaultQueueLen is how many frames of one image sensor may wait for its worker.
const DefaultQueueLen = 4

// Pipeline runs a sensor's slow work (rendering, encoding, publishing) on a goroutine of its
// own, so that the step loop does not wait for it. Jobs run one at a time in the order they
// were submitted, so the readings of one sensor stay in order.
//
// When the worker falls behind and the queue (Options.QueueLen) is full, Submit drops the
// oldest waiting job (counted in Output.Dropped) — unless the system is lossless
// (Options.Lossless, or a dump is running), in which case Submit waits for room: the step loop
// then goes at the speed of the slowest camera.
type Pipeline[J any] struct {
	jobs chan J
	run  func(J)
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
// goroutine; drop (may be nil) releases a job that was dropped. Close it with Close.
func NewPipeline[J any](spec *Spec, run func(J), drop func(J)) *Pipeline[J] {
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
		p.run(j)
		p.finish()
	}
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
		p.out.dropped.Add(1)
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
