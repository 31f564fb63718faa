package world

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"
	"time"
)

func TestCheckTimeScale(t *testing.T) {
	for _, x := range []float64{0, MinTimeScale, 0.5, 1, 32, MaxTimeScale} {
		if err := CheckTimeScale(x); err != nil {
			t.Errorf("%g: %v", x, err)
		}
	}
	for _, x := range []float64{-1e-9, -1, math.NaN(), math.Inf(1), math.Inf(-1), MaxTimeScale * (1 + 1e-12), 1e18, 1e19,
		1e-9, 5e-324, MinTimeScale * (1 - 1e-12)} {
		err := CheckTimeScale(x)
		if err == nil || !strings.Contains(err.Error(), "up to 1000000") {
			t.Errorf("%g: %v", x, err)
		}
	}
}

func TestScaleDurationSaturates(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		k    float64
		want time.Duration
	}{
		{time.Second, 2, 2 * time.Second},
		{100 * time.Hour, MaxTimeScale, math.MaxInt64},
		{math.MaxInt64, 1e18, math.MaxInt64},
		{-time.Hour, 1e18, math.MinInt64},
		{time.Second, math.NaN(), 0},
		{time.Second, 1 / MaxTimeScale, time.Microsecond},
	} {
		if got := scaleDuration(tc.d, tc.k); got != tc.want {
			t.Errorf("scaleDuration(%v, %g) = %v, want %v", tc.d, tc.k, got, tc.want)
		}
	}
	if got := addDuration(math.MaxInt64-1, 5); got != math.MaxInt64 {
		t.Errorf("addDuration overflow: %v", got)
	}
	if got := addDuration(math.MinInt64+1, -5); got != math.MinInt64 {
		t.Errorf("addDuration underflow: %v", got)
	}
}

// TestLoopPacingSurvivesHugeScalesAndLongGaps: the loop refuses scales it cannot keep, and at
// the largest one, with its wall-clock anchor 100 hours back (as after a machine slept), it
// keeps stepping — before, the pacing product wrapped around int64 and the loop waited for
// ever.
func TestLoopPacingSurvivesHugeScalesAndLongGaps(t *testing.T) {
	w := newTestWorld(t, 1, nil)
	l := NewLoop(w, LoopOptions{TimeScale: 1})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go l.Run(ctx)
	for _, x := range []float64{1e18, math.NaN(), math.Inf(1), -1} {
		if err := l.SetTimeScale(x); err == nil {
			t.Errorf("SetTimeScale(%g) accepted", x)
		}
	}
	if err := l.SetTimeScale(MaxTimeScale); err != nil {
		t.Fatal(err)
	}
	if err := l.Call(ctx, func(*World) error { l.anchorWall = time.Now().Add(-100 * time.Hour); return nil }); err != nil {
		t.Fatal(err)
	}
	advances(t, l)
	if err := l.SetTimeScale(1); err != nil {
		t.Fatal(err)
	}
	advances(t, l)
}

// advances waits until the loop's step count passes what it is now.
func advances(t *testing.T, l *Loop) {
	t.Helper()
	start := l.Snapshot().Step
	deadline := time.Now().Add(10 * time.Second)
	for l.Snapshot().Step < start+3 {
		if time.Now().After(deadline) {
			t.Fatalf("loop stuck at step %d", l.Snapshot().Step)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestLoopRefusesABadTimeScaleAtRun(t *testing.T) {
	w := newTestWorld(t, 1, nil)
	l := NewLoop(w, LoopOptions{TimeScale: math.Inf(1), MaxSteps: 10})
	if err := l.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "time scale +Inf") {
		t.Fatalf("Run: %v", err)
	}
}

// TestQueuedPanicIsContained: a command that panics on the loop goroutine fails its Call (or
// is logged, for Do) and the loop steps on.
func TestQueuedPanicIsContained(t *testing.T) {
	var logs bytes.Buffer
	w := newTestWorld(t, 1, &logs)
	l := NewLoop(w, LoopOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go l.Run(ctx)
	var nilMap map[string]int
	err := l.Call(ctx, func(*World) error { nilMap["x"] = 1; return nil })
	if err == nil || !strings.Contains(err.Error(), "panicked") {
		t.Fatalf("Call: %v", err)
	}
	l.Do(func(*World) { panic("from Do") })
	advances(t, l)
	if err := l.Call(ctx, func(*World) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(logs.String(), "from Do") {
		t.Errorf("Do's panic not logged: %s", logs.String())
	}
}

// A pause is not time the loop fell behind in: the real-time factor after a resume is the one
// before the pause until it is measured again (a resume read "0.11, cannot keep up").
func TestRealTimeFactorSkipsPauses(t *testing.T) {
	w := newTestWorld(t, 1, nil)
	l := NewLoop(w, LoopOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go l.Run(ctx)
	deadline := time.Now().Add(30 * time.Second)
	for l.Snapshot() == nil || l.Snapshot().RealTimeFactor == 0 {
		if time.Now().After(deadline) {
			t.Fatal("no real-time factor measured")
		}
		time.Sleep(time.Millisecond)
	}
	if err := l.Pause(); err != nil {
		t.Fatal(err)
	}
	before := l.Snapshot().RealTimeFactor
	// Ten seconds paused, as far as the measure can tell.
	if err := l.Call(ctx, func(*World) error { l.rtfWall = l.rtfWall.Add(-10 * time.Second); return nil }); err != nil {
		t.Fatal(err)
	}
	if got := l.Snapshot().RealTimeFactor; got != before {
		t.Errorf("paused: factor %g, was %g", got, before)
	}
	if err := l.Resume(); err != nil {
		t.Fatal(err)
	}
	if got := l.Snapshot().RealTimeFactor; got != before {
		t.Errorf("resumed: factor %g, was %g before the pause", got, before)
	}
}
