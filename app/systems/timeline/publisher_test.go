package timeline

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"simgui/app/systems"
	"simgui/app/transport"
	"simgui/app/world"
)

func same(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Fatalf("%s: published (ms:data)\n%v\nwant\n%v", what, got, want)
	}
}

// Keyframes may be listed in any order; those with the same time fire in the order listed.
func TestKeyframesInAnyOrderTiesInListedOrder(t *testing.T) {
	w, bus := newWorld(t)
	rec := record(t, bus, "/mark")
	add(t, w, marks("", "0.02:4", "0.01:2", "0:1", "0.01:3", "0.02:5", "0.01:-3"))
	steps(w, 10)
	same(t, "shuffled keyframes", rec.take(), "5:1", "10:2", "10:3", "10:-3", "20:4", "20:5")
}

// A keyframe fires on the step whose interval (previous end, end] holds its time; the first
// step also holds time 0. The message is stamped with the step's end.
func TestKeyframeFiresOnTheStepThatReachesIt(t *testing.T) {
	w, bus := newWorld(t)
	rec := record(t, bus, "/mark")
	add(t, w, marks("", "0:1", "0.005:2", "0.0051:3", "0.0125:4", "0.015:5", "0.0150001:6"))
	steps(w, 3)
	same(t, "step boundaries", rec.take(), "5:1", "5:2", "10:3", "15:4", "15:5")
	steps(w, 1)
	same(t, "just after a boundary", rec.take(), "20:6")
	steps(w, 100)
	same(t, "a timeline without loop ends", rec.take())
}

// A cmd_vel keyframe at t drives the model from sim time t on: the world applies it at the
// start of the step that begins at t.
func TestCmdVelKeyframeTakesEffectAtItsTime(t *testing.T) {
	w, _ := newWorld(t)
	add(t, w, `
type: systems.timeline_publisher
config:
  keyframes: [{time: 0.1, outputs: [{topic: /model/ego/cmd_vel, type: gz.msgs.Twist, content: "linear { x: 0.5 }"}]}]`)
	until(w, 100*time.Millisecond)
	if fwd, _ := w.Model("ego").Body.LocalVelocity(); fwd != 0 {
		t.Fatalf("at 0.1 s the car already moves at %g m/s", fwd)
	}
	w.Step() // [0.1, 0.105]: speed ramps by 4 m/s² × 5 ms
	if fwd, _ := w.Model("ego").Body.LocalVelocity(); !near(fwd, 0.02, 1e-12) {
		t.Fatalf("at 0.105 s forward %g m/s, want 0.02", fwd)
	}
}

// The period defaults to the last keyframe's time: the last keyframe and the next cycle's
// first fire on the same step, the last one first.
func TestPeriodDefaultsToLastKeyframe(t *testing.T) {
	w, bus := newWorld(t)
	rec := record(t, bus, "/mark")
	p := add(t, w, marks("loop: true", "0.05:2", "0:1", "0.02:9"))
	if p.Period() != 50*time.Millisecond {
		t.Fatalf("period %v, want 50ms", p.Period())
	}
	until(w, 150*time.Millisecond)
	same(t, "period from the last keyframe", rec.take(),
		"5:1", "20:9", "50:2", "50:1", "70:9", "100:2", "100:1", "120:9", "150:2", "150:1")
}

// A period shorter than the last keyframe is extended to it; a longer one leaves a gap.
func TestPeriodShorterThanLastKeyframeIsExtended(t *testing.T) {
	w, bus := newWorld(t)
	rec := record(t, bus, "/mark")
	p := add(t, w, marks("loop: true\nperiod: 0.02", "0:1", "0.05:2"))
	if p.Period() != 50*time.Millisecond {
		t.Fatalf("period %v, want 50ms (extended to the last keyframe)", p.Period())
	}
	until(w, 100*time.Millisecond)
	same(t, "extended period", rec.take(), "5:1", "50:2", "50:1", "100:2", "100:1")

	w2, bus2 := newWorld(t)
	rec2 := record(t, bus2, "/mark")
	add(t, w2, marks("loop: true\nperiod: 0.08", "0:1", "0.05:2"))
	until(w2, 170*time.Millisecond)
	same(t, "period longer than the keyframes", rec2.take(), "5:1", "50:2", "80:1", "130:2", "160:1")
}

func TestLoopNeedsAPeriod(t *testing.T) {
	for _, src := range []string{
		marks("loop: true", "0:1"),
		marks("loop: true\nperiod: 0", "0:1", "0:2"),
		marks("loop: true\nperiod: 1e-300", "0:1"), // above 0, but 0 ns
	} {
		_, err := buildErr(src)
		if err == nil || !strings.Contains(err.Error(), "looping needs a period of at least 1 ns") {
			t.Errorf("%s\nerror %v, want a load error about the period", src, err)
		}
	}
	// Without loop a timeline of keyframes at 0 is fine.
	if _, err := buildErr(marks("", "0:1")); err != nil {
		t.Fatal(err)
	}
}

// A step covering more than one cycle fires only the latest cycle: here the period (3 ms) is
// shorter than the step (5 ms).
func TestStepCoveringSeveralCyclesFiresOnlyTheLatest(t *testing.T) {
	w, bus := newWorld(t)
	rec := record(t, bus, "/mark")
	add(t, w, marks("loop: true\nperiod: 0.003", "0:1", "0.0015:2"))
	// Step 1 covers [0, 5] ms: cycles 0 and 1 ([3, 6]); cycle 1 fires 0 (at 3) and 1.5 (at 4.5).
	// Step 2 covers (5, 10]: cycles 1..3 ([9, 12]); cycle 3 fires 0 (at 9).
	// Step 3 covers (10, 15]: cycles 3..5 ([15, 18]); cycle 5 fires 0 (at 15).
	// Step 4 covers (15, 20]: cycles 5..6 ([18, 21]); cycle 6 fires 0 (at 18) and 1.5 (at 19.5).
	steps(w, 4)
	same(t, "period shorter than the step", rec.take(), "5:1", "5:2", "10:1", "15:1", "20:1", "20:2")
}

// The same with a system frequency: the system is called every 10 steps (50 ms) and the period
// is 20 ms.
func TestFrequencyBelowPeriodFiresOnlyTheLatestCycle(t *testing.T) {
	w, bus := newWorld(t)
	rec := record(t, bus, "/mark")
	add(t, w, marks("loop: true\nperiod: 0.02", "0:1", "0.01:2")+"frequency: 20\n")
	// First call at the 10th step covers [0, 50] ms, more than a cycle: only cycle 2 ([40, 60])
	// fires, 0 (at 40) and 10 (at 50). Second call, step 20: (50, 100] ms, only cycle 5 ([100,
	// 120]) fires, its 0 at 100.
	steps(w, 20)
	same(t, "frequency 20 Hz, period 20 ms", rec.take(), "50:1", "50:2", "100:1")
}

// Keyframes follow sim time at any system frequency: called every 0.5 s in a world stepping
// 0.1 s, keyframes at 0, 0.1 and 0.7 fire on the first calls at or after their times: 0.5, 0.5
// and 1.0 s.
func TestKeyframesFollowSimTimeAtAnyFrequency(t *testing.T) {
	quiet := slog.New(slog.DiscardHandler)
	bus := transport.NewBus(transport.Options{Logger: quiet})
	w, err := world.New(world.Config{Track: flatArena, BuildLayout: asIs, Bus: bus, Logger: quiet, StepSize: 0.1,
		Agents: []world.AgentSpec{{Name: "ego", Vehicle: ks0223}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close(); bus.Close() })
	rec := record(t, bus, "/mark")
	add(t, w, marks("", "0:1", "0.1:2", "0.7:3")+"frequency: 2\n")
	until(w, 2*time.Second)
	same(t, "frequency 2 Hz, step 0.1 s", rec.take(), "500:1", "500:2", "1000:3")

	// At 2.5 Hz (calls at 0.4, 0.8, 1.2 s, ...), attached to a model spawned at 0.3 s: the
	// timeline starts when the model appeared, so its 0.7 is at sim time 1.0, fired at 1.2.
	w2, err := world.New(world.Config{Track: flatArena, BuildLayout: asIs, Bus: bus, Logger: quiet, StepSize: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w2.Close() })
	add(t, w2, marks("", "0:1", "0.1:2", "0.7:3")+"frequency: 2.5\nmodel: late\n")
	until(w2, 300*time.Millisecond)
	if _, err := w2.Spawn(world.AgentSpec{Name: "late", Vehicle: ks0223}); err != nil {
		t.Fatal(err)
	}
	until(w2, 2*time.Second)
	same(t, "2.5 Hz, model from 0.3 s", rec.take(), "400:1", "400:2", "1200:3")
}

// The timeline starts on the first step after it is loaded, not at sim time 0.
func TestStartsOnFirstStepAfterLoading(t *testing.T) {
	w, bus := newWorld(t)
	rec := record(t, bus, "/mark")
	steps(w, 100)
	add(t, w, marks("", "0:1", "0.1:2")) // the world has started: Init runs now
	same(t, "before the next step", rec.take())
	steps(w, 20)
	same(t, "started at 0.5 s", rec.take(), "505:1", "600:2")
}

// Pausing freezes the timeline and stepping steps it: a paused loop runs no steps, and steps
// taken while paused advance the timeline exactly as free steps would.
func TestPauseFreezesAndStepSteps(t *testing.T) {
	w, bus := newWorld(t)
	rec := record(t, bus, "/mark")
	l := world.NewLoop(w, world.LoopOptions{Paused: true})
	ctx, cancel := context.WithCancel(context.Background())
	go l.Run(ctx)
	t.Cleanup(func() { cancel(); <-l.Done() })

	if _, err := l.Step(ctx, 40); err != nil { // 0.2 s while paused, before the timeline exists
		t.Fatal(err)
	}
	err := l.Call(ctx, func(w *world.World) error {
		p, opt := build(t, marks("loop: true", "0:1", "0.05:2", "0.1:3"))
		return w.AddSystem(p, opt)
	})
	if err != nil {
		t.Fatal(err)
	}
	// Round trips through the paused loop: no steps, nothing published.
	for range 5 {
		if err := l.Call(ctx, func(*world.World) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	if s := l.Snapshot(); s.SimTime != 200*time.Millisecond || !s.Paused {
		t.Fatalf("paused loop at %v (paused %v)", s.SimTime, s.Paused)
	}
	same(t, "paused", rec.take())
	l.Step(ctx, 1)
	same(t, "first step while paused starts the timeline", rec.take(), "205:1")
	l.Step(ctx, 8)
	same(t, "stepping steps it", rec.take())
	l.Step(ctx, 1)
	same(t, "one more step", rec.take(), "250:2")
	l.Step(ctx, 30)
	same(t, "30 steps", rec.take(), "300:3", "300:1", "350:2", "400:3", "400:1")
}

// A world reset starts the timeline over.
func TestResetStartsOver(t *testing.T) {
	w, bus := newWorld(t)
	rec := record(t, bus, "/mark")
	add(t, w, marks("", "0:1", "0.05:2"))
	until(w, 30*time.Millisecond)
	same(t, "before the reset", rec.take(), "5:1")
	if err := w.Reset(3); err != nil {
		t.Fatal(err)
	}
	until(w, 60*time.Millisecond)
	same(t, "after the reset", rec.take(), "5:1", "50:2")
}

// When sim time goes back (a step starts before the previous one ended), the timeline starts
// over even without a reset.
func TestSimTimeGoingBackStartsOver(t *testing.T) {
	w, bus := newWorld(t)
	rec := record(t, bus, "/mark")
	p := add(t, w, marks("", "0:1", "0.05:2"))
	until(w, 100*time.Millisecond)
	same(t, "first run", rec.take(), "5:1", "50:2")
	// Another world's clock, at 0, behind the 100 ms this timeline has seen.
	earlier, _ := newWorld(t)
	p.Step(earlier, dt.Seconds())
	same(t, "time went back", rec.take(), "5:1")
	// Forward again, by a jump from 5 ms to 105 ms: the keyframes in between fire.
	steps(w, 1)
	same(t, "forward jump", rec.take(), "105:2")
}

// Attached to a model that does not exist yet, the timeline starts when the model appears;
// it stops while the model is gone and starts over when it comes back.
func TestModelSpawnedLaterStartsWhenItAppears(t *testing.T) {
	w, bus := newWorld(t)
	rec := record(t, bus, "/mark")
	p := add(t, w, marks("", "0:1", "0.05:2")+"model: late\n")
	if p.Model() != "late" {
		t.Fatalf("attached to %q", p.Model())
	}
	steps(w, 20)
	same(t, "before the model exists", rec.take())
	if _, err := w.Spawn(world.AgentSpec{Name: "late", Vehicle: ks0223}); err != nil {
		t.Fatal(err)
	}
	until(w, 200*time.Millisecond)
	same(t, "after the spawn at 0.1 s", rec.take(), "105:1", "150:2")
	w.Remove("late")
	steps(w, 20)
	same(t, "model gone", rec.take())
	w.Spawn(world.AgentSpec{Name: "late", Vehicle: ks0223})
	steps(w, 1)
	same(t, "model back at 0.3 s", rec.take(), "305:1")
}

// Attached to a model that exists at load, it starts on the first step; a reset replaces the
// model and starts it over.
func TestAttachedToAnExistingModel(t *testing.T) {
	w, bus := newWorld(t)
	rec := record(t, bus, "/mark")
	add(t, w, marks("", "0:1", "0.01:2")+"model: ego\n")
	steps(w, 4)
	same(t, "ego exists", rec.take(), "5:1", "10:2")
	w.Reset(1)
	steps(w, 1)
	same(t, "after reset", rec.take(), "5:1")
}

// A Publisher needs the world's bus when it publishes or calls.
func TestInitNeedsABus(t *testing.T) {
	w, err := world.New(world.Config{Track: flatArena, BuildLayout: asIs})
	if err != nil {
		t.Fatal(err)
	}
	p, opt := build(t, marks("", "0:1"))
	w.AddSystem(p, opt)
	if err := w.Start(); err == nil || !strings.Contains(err.Error(), "no transport bus") {
		t.Fatalf("start without a bus: %v", err)
	}
}

// An output on a topic declared with another type is refused at load; a mismatch that appears
// later is counted and logged once, and the rest of the timeline goes on.
func TestOutputTypeMismatch(t *testing.T) {
	w, bus := newWorld(t)
	w.Start()
	if err := bus.DeclareTopic("/lights", "gz.msgs.Twist"); err != nil {
		t.Fatal(err)
	}
	p, opt := build(t, `
type: systems.timeline_publisher
config:
  keyframes: [{time: 0, outputs: [{topic: /lights, type: gz.msgs.Double, content: "data: 1"}]}]`)
	err := w.AddSystem(p, opt)
	want := "keyframe 1 (time 0 s) output 1 on /lights: the topic carries gz.msgs.Twist, not gz.msgs.Double"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("load error %v, want %q", err, want)
	}

	rec := record(t, bus, "/mark")
	p = add(t, w, `
type: systems.timeline_publisher
config:
  loop: true
  period: 0.01
  keyframes:
    - {time: 0, outputs: [{topic: /late, type: gz.msgs.Double, content: "data: 1"}, {topic: /mark, type: gz.msgs.Double, content: "data: 7"}]}`)
	if err := bus.DeclareTopic("/late", "gz.msgs.Twist"); err != nil {
		t.Fatal(err)
	}
	steps(w, 2)
	same(t, "the other output", rec.take(), "5:7", "10:7")
	if s := p.Stats(); s.PublishErrors != 2 || s.Published != 2 {
		t.Fatalf("stats %+v, want 2 refused publishes and 2 published", s)
	}
}

// buildErr builds an entry and returns the error.
func buildErr(entry string) (*Publisher, error) {
	var e systems.Entry
	if err := yaml.Unmarshal([]byte(entry), &e); err != nil {
		return nil, err
	}
	b, err := systems.Build(e)
	if err != nil {
		return nil, err
	}
	return b.System.(*Publisher), nil
}
