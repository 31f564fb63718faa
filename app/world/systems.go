package world

import (
	"fmt"
	"math"
	"runtime/debug"
	"slices"
	"time"
)

// Initer is a system that sets itself up after the world and its robots exist (an
// on_init hook): inspect agents, allocate resources, subscribe to events. An error aborts loading.
type Initer interface {
	Init(w *World) error
}

// Stepper is a system with work in phase 1 of the step (on_step). dt is the raw step, or the
// accumulated time since its last call when the system has a frequency, in seconds.
type Stepper interface {
	Step(w *World, dt float64)
}

// PostStepper is a system that reads the settled state after physics (sensors, publishers).
// It must not set poses or commands for this step; changes it makes apply from the next step.
type PostStepper interface {
	PostStep(w *World)
}

// Resetter is a system that discards state that does not survive a world reset (on_reset).
type Resetter interface {
	Reset(w *World)
}

// Shutdowner is a system that releases external resources when the world closes (on_shutdown).
type Shutdowner interface {
	Shutdown() error
}

// Republisher is a system that can publish its newest output on topic at once, without a
// step: a client that subscribes while the world's time stands still (paused, or a lockstep
// world nobody steps) would otherwise get nothing, and ROS nodes end themselves after a few
// silent seconds. It reports whether topic is one of its own.
type Republisher interface {
	Republish(w *World, topic string) bool
}

// ModelAttacher is implemented by systems that can attach to one model instead of the world;
// the scenario's `model:` key reaches them through it before Init.
type ModelAttacher interface {
	AttachModel(name string) error
}

// MaxPanics is how many consecutive panicking calls disable a system.
const MaxPanics = 5

type systemEntry struct {
	name     string
	sys      any
	priority int
	periodNs time.Duration // 0 = every step
	accNs    time.Duration
	panics   int
	disabled bool
}

// SystemOptions configures AddSystem.
type SystemOptions struct {
	// Name identifies the system in logs and errors (its registry type, usually).
	Name string
	// Frequency in Hz; 0 calls Step every step.
	Frequency float64
	// Priority orders the systems as gz-sim's <gz:system_priority> does: lower first.
	Priority int
}

// AddSystem adds a system. If the world has already started (Init called), the system's Init
// runs now. Systems are called in priority order, lower first, and systems of equal priority
// in the order they were added (gz-sim's rule).
func (w *World) AddSystem(sys any, opt SystemOptions) error {
	if opt.Frequency < 0 {
		return fmt.Errorf("system %s: frequency %g Hz must not be negative", opt.Name, opt.Frequency)
	}
	if !(opt.Frequency == 0 || opt.Frequency >= MinFrequency) {
		return fmt.Errorf("system %s: frequency %g Hz is not a number from %.3g Hz (a period of %.0f years) up; 0 runs it every step",
			opt.Name, opt.Frequency, MinFrequency, time.Duration(math.MaxInt64).Hours()/24/365.25)
	}
	e := &systemEntry{name: opt.Name, sys: sys, priority: opt.Priority, periodNs: periodOf(opt.Frequency)}
	if w.started {
		if in, ok := sys.(Initer); ok {
			if err := in.Init(w); err != nil {
				return fmt.Errorf("system %s: init: %w", opt.Name, err)
			}
		}
	}
	at := len(w.systems) // after every system of lower or equal priority
	for at > 0 && w.systems[at-1].priority > e.priority {
		at--
	}
	w.systems = slices.Insert(w.systems, at, e)
	return nil
}

// RemoveSystem shuts a system down and removes it.
func (w *World) RemoveSystem(sys any) error {
	for i, e := range w.systems {
		if e.sys == sys {
			w.systems = append(w.systems[:i:i], w.systems[i+1:]...)
			if sd, ok := sys.(Shutdowner); ok {
				return sd.Shutdown()
			}
			return nil
		}
	}
	return fmt.Errorf("remove system: not added")
}

// Start runs every system's Init in order. The loop calls it before the first step; callers
// that drive World.Step themselves call it once.
func (w *World) Start() error {
	if w.started {
		return nil
	}
	w.started = true
	for _, e := range w.systems {
		if in, ok := e.sys.(Initer); ok {
			if err := in.Init(w); err != nil {
				return fmt.Errorf("system %s: init: %w", e.name, err)
			}
		}
	}
	return nil
}

// Close shuts every system down, in reverse order, and returns the first error. The physics
// goes with it: the world may be read (snapshots, models) but not stepped afterwards.
func (w *World) Close() error {
	var first error
	for i := len(w.systems) - 1; i >= 0; i-- {
		if sd, ok := w.systems[i].sys.(Shutdowner); ok {
			if err := sd.Shutdown(); err != nil && first == nil {
				first = fmt.Errorf("system %s: shutdown: %w", w.systems[i].name, err)
			}
		}
	}
	// Free the physics at once (physics.Space.Release): a process that builds a world per
	// training episode would otherwise keep the old ones' spaces for two collections each.
	if w.space != nil {
		w.space.Release()
	}
	return first
}

// stepSystems runs the Step hooks with frequency accumulation.
func (w *World) stepSystems() {
	for _, e := range w.systems {
		st, ok := e.sys.(Stepper)
		if !ok || e.disabled {
			continue
		}
		dt := w.dt
		if e.periodNs > 0 {
			e.accNs += w.stepNs
			if e.accNs < e.periodNs {
				continue
			}
			dt = e.accNs.Seconds()
			e.accNs = 0
		}
		w.guard(e, "step", func() { st.Step(w, dt) })
	}
}

// Republish asks the systems for their newest output on topic (Republisher); it reports
// whether one of them publishes it. Loop goroutine only.
func (w *World) Republish(topic string) bool {
	done := false
	for _, e := range w.systems {
		if r, ok := e.sys.(Republisher); ok && !e.disabled && !done {
			w.guard(e, "republish", func() { done = r.Republish(w, topic) })
		}
	}
	return done
}

func (w *World) postStepSystems() {
	for _, e := range w.systems {
		if ps, ok := e.sys.(PostStepper); ok && !e.disabled {
			w.guard(e, "post-step", func() { ps.PostStep(w) })
		}
	}
}

// guard runs fn, recovering and counting panics; MaxPanics in a row disable the system.
func (w *World) guard(e *systemEntry, hook string, fn func()) {
	ok := false
	defer func() {
		if ok {
			e.panics = 0
			return
		}
		r := recover()
		e.panics++
		w.log.Error("system panicked", "system", e.name, "hook", hook, "step", w.step,
			"panic", fmt.Sprint(r), "stack", string(debug.Stack()))
		if e.panics >= MaxPanics {
			e.disabled = true
			w.log.Error("system disabled after repeated panics; it stays off until the world is reset",
				"system", e.name, "panics", e.panics)
		}
	}()
	fn()
	ok = true
}

// DisabledSystems returns the names of systems disabled by repeated panics.
func (w *World) DisabledSystems() []string {
	var out []string
	for _, e := range w.systems {
		if e.disabled {
			out = append(out, e.name)
		}
	}
	return out
}

// CallbackHandle identifies a callback for RemoveCallback.
type CallbackHandle uint64

type callback struct {
	id       CallbackHandle
	fn       func(w *World, dt float64)
	periodNs time.Duration
	last     time.Duration
}

// AddCallback registers fn to run in phase 1 (after actuators, before systems). With a
// frequency it runs when sim time has advanced at least 1/frequency since it last ran, with
// that elapsed time as dt; reset sets its last run to zero.
func (w *World) AddCallback(fn func(w *World, dt float64), frequency float64) CallbackHandle {
	w.nextCB++
	cb := &callback{id: CallbackHandle(w.nextCB), fn: fn, last: w.simTime}
	cb.periodNs = periodOf(frequency)
	w.callbacks = append(w.callbacks, cb)
	return cb.id
}

// RemoveCallback removes a callback; it reports whether it was registered.
func (w *World) RemoveCallback(h CallbackHandle) bool {
	for i, cb := range w.callbacks {
		if cb.id == h {
			w.callbacks = append(w.callbacks[:i:i], w.callbacks[i+1:]...)
			return true
		}
	}
	return false
}

func (w *World) runCallbacks() {
	for _, cb := range w.callbacks {
		if cb.periodNs == 0 {
			w.callSafely(cb, w.dt)
			continue
		}
		// Phase 1 sees the time at the end of this step: a 10 Hz callback in a 200 Hz world
		// runs on every 20th step.
		now := w.simTime + w.stepNs
		if now-cb.last >= cb.periodNs {
			w.callSafely(cb, (now - cb.last).Seconds())
			cb.last = now
		}
	}
}

func (w *World) callSafely(cb *callback, dt float64) {
	defer func() {
		if r := recover(); r != nil {
			w.log.Error("callback panicked", "callback", cb.id, "step", w.step, "panic", fmt.Sprint(r),
				"stack", string(debug.Stack()))
		}
	}()
	cb.fn(w, dt)
}

// MinFrequency is the lowest frequency of a system, in Hz: its period, in nanoseconds, is the
// longest a time.Duration holds (about 292 years).
const MinFrequency = 1e9 / math.MaxInt64

// periodOf returns the period of frequency f (Hz), 0 for 0 (every step). A period longer than
// a time.Duration holds is the longest one: converted as it was, it overflowed to a negative
// period, which ran the system every step.
func periodOf(f float64) time.Duration {
	if !(f > 0) {
		return 0
	}
	if p := 1e9 / f; p < math.MaxInt64 { // the constant is 2^63 as a float64
		return time.Duration(p)
	}
	return math.MaxInt64
}
