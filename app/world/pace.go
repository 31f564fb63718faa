package world

import (
	"fmt"
	"math"
	"runtime/debug"
	"time"
)

// MinTimeScale and MaxTimeScale are the slowest and fastest paces a loop accepts, as
// multiples of real time. Beyond the fastest a paced loop is as fast as possible in all but
// name (0 says so); below the slowest a 5 ms step comes less often than every 5 s, and a run
// asked for 5e-324 never ended, without a word.
const (
	MinTimeScale = 1e-3
	MaxTimeScale = 1e6
)

// CheckTimeScale accepts the paces a loop can keep: 0 (as fast as possible) or a number from
// MinTimeScale up to MaxTimeScale. NaN, ±Inf, negative and other values are refused. Every
// face that takes a time scale (the command line's --time-scale, /control set_time_scale, a
// scenario's runtime.timeScale, the window) checks it here.
func CheckTimeScale(x float64) error {
	if x == 0 || x >= MinTimeScale && x <= MaxTimeScale { // NaN fails both
		return nil
	}
	return fmt.Errorf("time scale %g is not 0 (as fast as possible) or a number from %g up to %.0f", x, MinTimeScale, float64(MaxTimeScale))
}

// scaleDuration returns d × k, saturated to the range of time.Duration: pacing arithmetic on
// long wall-clock intervals (a machine that slept for hours) or large scales must never wrap
// around, which would leave the loop waiting for ever.
func scaleDuration(d time.Duration, k float64) time.Duration {
	x := float64(d) * k
	switch {
	case x != x:
		return 0
	case x >= math.MaxInt64: // float64(MaxInt64) is 2^63, one past the largest Duration
		return math.MaxInt64
	case x <= math.MinInt64:
		return math.MinInt64
	}
	return time.Duration(x)
}

// addDuration returns a + b, saturated.
func addDuration(a, b time.Duration) time.Duration {
	s := a + b
	switch {
	case b > 0 && s < a:
		return math.MaxInt64
	case b < 0 && s > a:
		return math.MinInt64
	}
	return s
}

// runQueued runs one queued function; a panic in it (code a face sent to the loop) is logged
// and the loop steps on. Call's functions report it as their error.
func (l *Loop) runQueued(it item) {
	defer func() {
		if r := recover(); r != nil {
			l.w.log.Error("world loop: a queued command panicked; the loop steps on", "panic", r, "stack", string(debug.Stack()))
			if it.failed != nil {
				it.failed(fmt.Errorf("the command panicked: %v", r))
			}
		}
	}()
	it.fn()
}
