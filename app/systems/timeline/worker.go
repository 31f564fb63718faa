package timeline

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"

	"simgui/app/events"
	"simgui/app/transport"
)

// Stats counts what a timeline did. Read it with Publisher.Stats from any goroutine.
type Stats struct {
	// Published counts messages published; PublishErrors publishes the bus refused.
	Published, PublishErrors uint64
	// Calls counts service calls made (answered or not); CallErrors those that failed or timed out.
	Calls, CallErrors uint64
	// Dropped counts queued calls dropped before they were made: at a new cycle, at a world
	// reset, or when the system was removed.
	Dropped uint64
}

type counters struct {
	published, publishErrors, calls, callErrors, dropped atomic.Uint64
}

// pending is a service call waiting for the worker. cycle numbers every cycle the timeline
// played, across restarts, so that "calls from before the previous cycle" is one comparison.
type pending struct {
	c      *call
	cycle  int64
	action events.Action // ACTION_STARTED was emitted for it when queued
}

// finished is a call the worker made, for the loop goroutine to report as ACTION_COMPLETED.
type finished struct {
	action events.Action
	err    error
}

// worker makes service calls one at a time, in the order queued, on its own goroutine, so
// the step never waits for a service. The queue holds at most the calls of the current and
// the previous cycle (older ones are dropped when a cycle starts), or, without looping, one
// entry per service in the timeline per start.
type worker struct {
	bus *transport.Bus
	log *slog.Logger
	n   *counters

	mu     sync.Mutex
	cond   *sync.Cond
	queue  []pending
	closed bool
	done   chan struct{}
	// made holds the calls made since the loop goroutine last took them (takeFinished); at
	// most the queue's length accumulates between two steps.
	made []finished
}

func startWorker(bus *transport.Bus, log *slog.Logger, n *counters) *worker {
	w := &worker{bus: bus, log: log, n: n, done: make(chan struct{})}
	w.cond = sync.NewCond(&w.mu)
	go w.run()
	return w
}

// enqueue adds a call; it only takes the queue's lock, never waits for a call.
func (w *worker) enqueue(p pending) {
	w.mu.Lock()
	if !w.closed {
		w.queue = append(w.queue, p)
		w.cond.Signal()
	}
	w.mu.Unlock()
}

// dropBefore drops the waiting calls of cycles before cycle and returns them; the call in
// progress goes on.
func (w *worker) dropBefore(cycle int64) []pending {
	w.mu.Lock()
	defer w.mu.Unlock()
	i := 0
	for i < len(w.queue) && w.queue[i].cycle < cycle {
		i++
	}
	if i == 0 {
		return nil
	}
	out := slices.Clone(w.queue[:i])
	w.n.dropped.Add(uint64(i))
	w.queue = append(w.queue[:0], w.queue[i:]...)
	return out
}

// dropAll drops every waiting call and returns them.
func (w *worker) dropAll() []pending {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := slices.Clone(w.queue)
	w.n.dropped.Add(uint64(len(w.queue)))
	clear(w.queue)
	w.queue = w.queue[:0]
	return out
}

// takeFinished returns the calls made since the last take.
func (w *worker) takeFinished() []finished {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := w.made
	w.made = nil
	return out
}

// stop drops the waiting calls and waits for the call in progress, which ends by its timeout
// at the latest.
func (w *worker) stop() {
	w.mu.Lock()
	if !w.closed {
		w.closed = true
		w.n.dropped.Add(uint64(len(w.queue)))
		w.queue = nil
		w.cond.Broadcast()
	}
	w.mu.Unlock()
	<-w.done
}

// waiting returns the cycles of the queued calls, oldest first (for tests).
func (w *worker) waiting() []int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]int64, len(w.queue))
	for i, p := range w.queue {
		out[i] = p.cycle
	}
	return out
}

func (w *worker) run() {
	defer close(w.done)
	for {
		w.mu.Lock()
		for len(w.queue) == 0 && !w.closed {
			w.cond.Wait()
		}
		if w.closed {
			w.mu.Unlock()
			return
		}
		p := w.queue[0]
		w.queue[0] = pending{}
		w.queue = w.queue[1:]
		w.mu.Unlock()
		err := w.do(p.c)
		w.mu.Lock()
		if !w.closed {
			w.made = append(w.made, finished{action: p.action, err: err})
		}
		w.mu.Unlock()
	}
}

// do makes one call. The bus returns at the call's timeout even if the handler does not.
func (w *worker) do(c *call) error {
	w.n.calls.Add(1)
	rep, err := w.bus.Call(context.Background(), c.name, c.req, c.timeout)
	if err == nil {
		if got := string(rep.ProtoReflect().Descriptor().FullName()); got != c.repType {
			w.n.callErrors.Add(1)
			w.log.Warn("timeline: service replied with another type than repType", "call", c.label,
				"repType", c.repType, "got", got)
			return fmt.Errorf("replied with %s, not repType %s", got, c.repType)
		}
		return nil
	}
	w.n.callErrors.Add(1)
	w.log.Warn("timeline: service call failed", "call", c.label, "err", err)
	return err
}
