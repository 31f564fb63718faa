package editor

import (
	"fmt"
	"slices"
)

// Status kinds: how the status line marks its message.
const (
	statusInfo   = "info"
	statusBusy   = "busy"
	statusDone   = "done"
	statusFailed = "failed"
	// statusAsk is a question: a second click of the same button confirms.
	statusAsk = "ask"
)

// queued is a job waiting for the worker.
type queued struct {
	what string
	job  func() func()
}

// run queues job for the worker, which runs one at a time in order; what the job returns runs
// on the game goroutine. A job already running or waiting under the same name is not queued
// twice (a second click on Install while installing), and the status line says so.
func (e *Editor) run(what string, job func() func()) {
	if e.busy == what || slices.ContainsFunc(e.queue, func(q queued) bool { return q.what == what }) {
		e.setOutcome(statusBusy, "already "+what+" ...")
		return
	}
	e.queue = append(e.queue, queued{what, job})
	if e.busy != "" {
		e.setOutcome(statusBusy, fmt.Sprintf("%s ... (then %s)", e.busy, what))
	}
	e.startNext()
}

// startNext hands the worker the next job when it is idle. Game goroutine.
func (e *Editor) startNext() {
	if e.busy != "" || len(e.queue) == 0 {
		return
	}
	q := e.queue[0]
	e.queue = e.queue[1:]
	e.busy = q.what
	e.setOutcome(statusBusy, q.what+" ...")
	e.jobs <- q.job // the worker takes one job at a time and busy admits one
}

// work runs jobs until Close.
func (e *Editor) work() {
	for {
		select {
		case <-e.stopped:
			return
		case job := <-e.jobs:
			apply := job()
			e.deliver(func() {
				e.busy = ""
				apply()
				e.startNext()
			})
		}
	}
}

// deliver queues f for the game goroutine.
func (e *Editor) deliver(f func()) {
	e.mu.Lock()
	e.results = append(e.results, f)
	e.mu.Unlock()
}

// applyResults runs the finished work on the game goroutine and reports whether there was any.
func (e *Editor) applyResults() bool {
	e.mu.Lock()
	rs := e.results
	e.results = nil
	e.mu.Unlock()
	for _, f := range rs {
		f()
	}
	return len(rs) > 0
}
