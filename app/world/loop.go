package world

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"simgui/app/events"
)

// MaxStepRequest is the most steps one request from outside (a /control step, a gz
// WorldControl's multi_step or run_to_sim_time) may ask for: a batch holds the loop until it
// is done, and 4,000,000,000 steps asked once ran for ever.
const MaxStepRequest = 1_000_000

// ErrStopped is returned by Loop methods once Run has returned.
var ErrStopped = errors.New("world loop stopped")

// LoopOptions configures a Loop.
type LoopOptions struct {
	// TimeScale paces sim time at TimeScale × wall time; 0 runs as fast as possible.
	TimeScale float64
	// Lockstep advances only when told (Step); otherwise the loop runs on its own.
	Lockstep bool
	// Paused starts the loop paused.
	Paused bool
	// MaxSteps makes Run return after this many steps (0: no limit).
	MaxSteps uint64
	// MaxLag is how far paced sim time may fall behind before the loop gives up catching up
	// (default 0.25 s of sim time).
	MaxLag time.Duration
}

// Loop owns a World on its own goroutine (Run). Other goroutines talk to it through Do, Call,
// Step, Pause, Resume, SetTimeScale and Reset, and read Snapshot. Queued work runs in FIFO
// order at the start of the next step.
type Loop struct {
	w    *World
	opts LoopOptions

	mu      sync.Mutex
	queue   []item
	updated chan struct{}
	stopped bool
	// stopErr is what Loop methods return once Run has returned: ErrStopped, wrapping why
	// when Run failed (a system that would not start).
	stopErr error
	wake    chan struct{}
	done    chan struct{}

	snap atomic.Pointer[Snapshot]

	// Loop-goroutine state.
	paused, lockstep bool
	timeScale        float64
	total            uint64
	anchorWall       time.Time
	anchorSim        time.Duration
	start            time.Time
	rtfWall          time.Time
	rtfSim           time.Duration
	rtf              float64
}

type item struct {
	fn    func()
	steps int
	// after, when set, makes the item a batch of steps (maybe none) and is told of its end.
	after func(*Snapshot, error)
	// failed, when set, receives the error of an fn that panicked (Call's result).
	failed func(error)
	// stop, when closed, ends the batch before its next step: whoever asked for it has gone.
	stop <-chan struct{}
}

// NewLoop returns a loop for w; call Run to start it.
func NewLoop(w *World, opts LoopOptions) *Loop {
	if opts.MaxLag == 0 {
		opts.MaxLag = 250 * time.Millisecond
	}
	l := &Loop{
		w: w, opts: opts, paused: opts.Paused, lockstep: opts.Lockstep, timeScale: opts.TimeScale,
		updated: make(chan struct{}), wake: make(chan struct{}, 1), done: make(chan struct{}),
	}
	l.snap.Store(l.decorate(w.Snapshot()))
	w.loop = l
	return l
}

// Loop returns the loop that owns the world, or nil while the world is stepped by hand.
// Systems that serve requests from other goroutines (world control services, for example)
// reach the world through it, never directly.
func (w *World) Loop() *Loop { return w.loop }

// Snapshot returns the latest published snapshot (never nil).
func (l *Loop) Snapshot() *Snapshot { return l.snap.Load() }

// Updated returns a channel that is closed when the next snapshot is published.
func (l *Loop) Updated() <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.updated
}

// Done is closed when Run has returned.
func (l *Loop) Done() <-chan struct{} { return l.done }

func (l *Loop) enqueue(it item) error {
	l.mu.Lock()
	if l.stopped {
		l.mu.Unlock()
		return l.stopErr
	}
	l.queue = append(l.queue, it)
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
	return nil
}

// Do queues fn to run on the loop goroutine at the start of the next step. It does not wait.
func (l *Loop) Do(fn func(w *World)) error {
	return l.enqueue(item{fn: func() { fn(l.w) }})
}

// Call runs fn on the loop goroutine at the start of the next step and waits for its result.
func (l *Loop) Call(ctx context.Context, fn func(w *World) error) error {
	res := make(chan error, 1)
	if err := l.enqueue(item{fn: func() { res <- fn(l.w) }, failed: func(err error) { res <- err }}); err != nil {
		return err
	}
	select {
	case err := <-res:
		return err
	case <-ctx.Done():
		return ctx.Err()
	case <-l.done:
		select {
		case err := <-res:
			return err
		default:
			return l.stoppedErr()
		}
	}
}

// stoppedErr is what a Loop method returns once Run has returned (see stopErr).
func (l *Loop) stoppedErr() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.stopErr
}

// Step runs n steps as soon as the work queued before it has run — also while paused or in
// lockstep — and returns the snapshot after the last one. Work queued after it waits until
// the n steps are done. If ctx ends first, Step returns its error and the steps not yet run
// are dropped: a caller that has gone does not keep the loop busy.
func (l *Loop) Step(ctx context.Context, n int) (*Snapshot, error) {
	return l.StepAfter(ctx, nil, n)
}

// StepAfter is Step with before run on the loop goroutine right ahead of the steps, in the
// same hand-over: a command and the steps it drives cost the loop one wake-up, not two.
func (l *Loop) StepAfter(ctx context.Context, before func(w *World), n int) (*Snapshot, error) {
	if n <= 0 && before == nil {
		return l.Snapshot(), nil
	}
	type result struct {
		s   *Snapshot
		err error
	}
	res := make(chan result, 1)
	var fn func()
	if before != nil {
		fn = func() { before(l.w) }
	}
	after := func(s *Snapshot, err error) { res <- result{s, err} }
	if err := l.enqueue(item{fn: fn, steps: max(n, 0), after: after, stop: ctx.Done()}); err != nil {
		return nil, err
	}
	select {
	case r := <-res:
		return r.s, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// StartSteps queues before (when not nil) and n steps, as StepAfter does, without waiting;
// after is called with the snapshot after the last step, on the loop goroutine (it must not
// block), or with ErrStopped if the loop stops first. One goroutine can so set many loops
// stepping and wait for them all at once (a sync.WaitGroup done in after), waking once rather
// than once a loop.
func (l *Loop) StartSteps(before func(w *World), n int, after func(*Snapshot, error)) error {
	return l.StartStepsUntil(nil, before, n, after)
}

// StartStepsUntil is StartSteps whose steps end early once stop is closed (nil: never), as
// Step's do when its caller's context ends: a client that left does not keep the loop busy.
// after is called all the same.
func (l *Loop) StartStepsUntil(stop <-chan struct{}, before func(w *World), n int, after func(*Snapshot, error)) error {
	if after == nil {
		return errors.New("world loop: StartSteps needs an after function")
	}
	var fn func()
	if before != nil {
		fn = func() { before(l.w) }
	}
	return l.enqueue(item{fn: fn, steps: max(n, 0), after: after, stop: stop})
}

// Pause stops free-running steps (Step still works) and emits PAUSED.
func (l *Loop) Pause() error { return l.SetPaused(context.Background(), true) }

// Resume restarts free-running steps and emits RESUMED.
func (l *Loop) Resume() error { return l.SetPaused(context.Background(), false) }

// SetPaused pauses or resumes the loop (emitting PAUSED or RESUMED when that changes its
// state) and waits for it, or for ctx.
func (l *Loop) SetPaused(ctx context.Context, p bool) error {
	return l.Call(ctx, func(w *World) error {
		l.setPaused(w, p)
		return nil
	})
}

// QueuePaused queues a pause or resume without waiting, then (if not nil) on the loop
// goroutine once it is applied. Changes queued one after another apply in that order, which
// goroutines each waiting on SetPaused do not promise.
func (l *Loop) QueuePaused(p bool, then func()) error {
	return l.Do(func(w *World) {
		l.setPaused(w, p)
		if then != nil {
			then()
		}
	})
}

// setPaused pauses or resumes the loop. Loop goroutine only.
func (l *Loop) setPaused(w *World, p bool) {
	if l.paused == p {
		return
	}
	l.paused = p
	l.reanchor()
	l.restartRTF()
	info := events.StepInfo{Step: w.step, Dt: w.dt, SimTime: int64(w.simTime)}
	if p {
		w.bus.Emit(events.Paused, info)
	} else {
		w.bus.Emit(events.Resumed, info)
	}
	l.publish()
}

// SetTimeScale changes the pace: sim time runs at x × wall time; 0 is as fast as possible.
// x must pass CheckTimeScale.
func (l *Loop) SetTimeScale(x float64) error {
	if err := CheckTimeScale(x); err != nil {
		return err
	}
	return l.Call(context.Background(), func(*World) error {
		l.timeScale = x
		l.reanchor()
		l.restartRTF()
		l.publish()
		return nil
	})
}

// SetLockstep switches between lockstep (advance only on Step) and free running.
func (l *Loop) SetLockstep(on bool) error {
	return l.Call(context.Background(), func(*World) error {
		l.lockstep = on
		l.reanchor()
		l.restartRTF()
		l.publish()
		return nil
	})
}

// Reset resets the world with seed (see World.Reset) and publishes the new state.
func (l *Loop) Reset(ctx context.Context, seed int64) error {
	return l.Call(ctx, func(w *World) error { return l.reset(seed) })
}

// StartReset queues a reset with seed, as Reset does, with before run on the loop goroutine
// right ahead of it and then right after it (either may be nil), in one hand-over and
// without waiting. If before fails, neither the reset nor then runs. done is told the first
// error (nil when all went well; ErrStopped if the loop stops first), on the loop goroutine:
// it must not block. Like StartSteps, it lets one goroutine set many loops resetting and
// wait for them all at once, where a Reset and a Call each would queue the loop twice.
func (l *Loop) StartReset(seed int64, before, then func(w *World) error, done func(error)) error {
	if done == nil {
		return errors.New("world loop: StartReset needs a done function")
	}
	return l.enqueue(item{fn: func() {
		if before != nil {
			if err := before(l.w); err != nil {
				done(err)
				return
			}
		}
		if err := l.reset(seed); err != nil {
			done(err)
			return
		}
		if then != nil {
			done(then(l.w))
			return
		}
		done(nil)
	}, failed: done})
}

// reset resets the world with seed and publishes the new state. Loop goroutine only.
func (l *Loop) reset(seed int64) error {
	err := l.w.Reset(seed)
	l.reanchor()
	l.restartRTF()
	l.publish()
	return err
}

// Run starts the world's systems and runs the loop until ctx is cancelled (returns
// ctx.Err()) or MaxSteps steps have run (returns nil). A TimeScale that fails CheckTimeScale
// is an error here.
func (l *Loop) Run(ctx context.Context) (err error) {
	defer func() {
		stopErr := ErrStopped
		if err != nil && ctx.Err() == nil {
			stopErr = fmt.Errorf("%w: %v", ErrStopped, err)
		}
		l.mu.Lock()
		l.stopped, l.stopErr = true, stopErr
		left := l.queue
		l.queue = nil
		l.mu.Unlock()
		close(l.done)
		// Nothing is queued after stopped is set: tell those waiting on queued work
		// (StartSteps, StartReset, Call) that it will never run.
		for _, it := range left {
			switch {
			case it.after != nil:
				it.after(nil, stopErr)
			case it.failed != nil:
				it.failed(stopErr)
			}
		}
	}()
	if err := CheckTimeScale(l.timeScale); err != nil {
		return fmt.Errorf("world loop: %w", err)
	}
	if err := l.w.Start(); err != nil {
		return err
	}
	l.start = time.Now()
	l.rtfWall = l.start
	l.reanchor()
	l.publish()
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		if l.opts.MaxSteps > 0 && l.total >= l.opts.MaxSteps {
			return nil
		}
		if it, ok := l.next(); ok {
			if it.fn != nil {
				l.runQueued(it)
			}
			if it.after == nil {
				continue
			}
			// A batch publishes one snapshot, after its last step: nobody can act between
			// its steps, and a snapshot per step cost a training step a tenth of its time.
			// A batch ends early, too, where the run does (MaxSteps: --steps, --duration).
			for i := 0; i < it.steps && ctx.Err() == nil && !closed(it.stop) && (l.opts.MaxSteps == 0 || l.total < l.opts.MaxSteps); i++ {
				l.w.Step()
				l.total++
			}
			l.publish()
			l.reanchor()
			it.after(l.Snapshot(), nil)
			continue
		}
		if l.paused || l.lockstep {
			select {
			case <-ctx.Done():
			case <-l.wake:
			}
			continue
		}
		if l.timeScale == 0 {
			l.stepOnce()
			continue
		}
		// Saturating arithmetic: see scaleDuration.
		now := time.Now()
		due := addDuration(l.anchorSim, scaleDuration(now.Sub(l.anchorWall), l.timeScale))
		next := l.w.simTime + l.w.stepNs
		if next <= due {
			if addDuration(due, -next) > l.opts.MaxLag {
				l.reanchor() // too far behind: drop the backlog instead of spiralling
			}
			l.stepOnce()
			continue
		}
		wait := scaleDuration(next-due, 1/l.timeScale)
		timer.Reset(wait)
		select {
		case <-ctx.Done():
		case <-l.wake:
		case <-timer.C:
		}
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
	}
}

// next pops the head of the queue.
func (l *Loop) next() (item, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.queue) == 0 {
		return item{}, false
	}
	it := l.queue[0]
	l.queue[0] = item{}
	l.queue = l.queue[1:]
	return it, true
}

func (l *Loop) stepOnce() {
	l.w.Step()
	l.total++
	l.publish()
}

// restartRTF starts the real-time factor's measure afresh, keeping the last figure until the
// next: wall time paused, or at another pace, is not time the loop fell behind in (a resume
// read "0.11, cannot keep up").
func (l *Loop) restartRTF() {
	l.rtfWall, l.rtfSim = time.Now(), l.w.simTime
}

func (l *Loop) reanchor() {
	l.anchorWall = time.Now()
	l.anchorSim = l.w.simTime
}

// decorate adds the loop's state to a world snapshot.
func (l *Loop) decorate(s *Snapshot) *Snapshot {
	s.Paused, s.Lockstep, s.TimeScale = l.paused, l.lockstep, l.timeScale
	if !l.start.IsZero() {
		now := time.Now()
		s.RealTime, s.Published = now.Sub(l.start), now
		if el := now.Sub(l.rtfWall); el >= 500*time.Millisecond && !l.paused {
			l.rtf = float64(l.w.simTime-l.rtfSim) / float64(el)
			if l.rtf < 0 { // a reset went back in time
				l.rtf = 0
			}
			l.rtfWall, l.rtfSim = now, l.w.simTime
		}
	}
	s.RealTimeFactor = l.rtf
	return s
}

func (l *Loop) publish() {
	s := l.decorate(l.w.Snapshot())
	l.snap.Store(s)
	l.mu.Lock()
	close(l.updated)
	l.updated = make(chan struct{})
	l.mu.Unlock()
}

// Steps returns the number of steps this loop has run (across resets). Loop goroutine only.
func (l *Loop) Steps() uint64 { return l.total }

// Status is the loop's own state, for systems that report it (the world clock).
type Status struct {
	Paused, Lockstep bool
	TimeScale        float64
	// RealTime is wall time since Run started; RealTimeFactor is sim time over wall time
	// across the last second or so (0 until measured).
	RealTime       time.Duration
	RealTimeFactor float64
}

// Status returns the loop's state now. Loop goroutine only: systems, event handlers and
// functions passed to Do call it.
func (l *Loop) Status() Status {
	st := Status{Paused: l.paused, Lockstep: l.lockstep, TimeScale: l.timeScale, RealTimeFactor: l.rtf}
	if !l.start.IsZero() {
		st.RealTime = time.Since(l.start)
	}
	return st
}

// closed reports whether ch is closed (a nil ch never is).
func closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
