package sensors

import (
	"math"
	"time"
)

// Schedule decides on which steps a sensor of rate f fires: the k-th firing (k = 0, 1, ...) is
// on the first step whose sim time is at or after the boundary ceil(k·1e9/f) nanoseconds. The
// boundaries are computed from k, not accumulated, so nothing drifts over long runs: a 30 Hz
// sensor in a 200 Hz loop fires exactly 30 times per simulated second on average, and 1,801
// times in the steps up to and including t = 60 s (k = 0 … 1800). When several boundaries pass
// within one step (a sensor faster than the loop) it fires once and skips to the first
// boundary after the step. A zero rate never fires.
type Schedule struct {
	rate float64
	// Whole-number rates use integer arithmetic: boundary = ceil(k·1e9/n).
	n    int64
	k    int64
	next time.Duration
}

// NewSchedule returns a schedule for rateHz firings per simulated second, starting at sim time 0.
func NewSchedule(rateHz float64) Schedule {
	s := Schedule{rate: rateHz}
	if rateHz > 0 && rateHz == math.Trunc(rateHz) && rateHz <= 1e9 {
		s.n = int64(rateHz)
	}
	return s
}

// Rate returns the rate in Hz.
func (s *Schedule) Rate() float64 { return s.rate }

// boundary returns ceil(k·1e9/rate) nanoseconds.
func (s *Schedule) boundary(k int64) time.Duration {
	if s.n > 0 && k < math.MaxInt64/1_000_000_000 {
		return time.Duration((k*1e9 + s.n - 1) / s.n)
	}
	return time.Duration(math.Ceil(float64(k) * 1e9 / s.rate))
}

// Due reports whether the sensor fires at sim time now (the time after the current step) and,
// if so, moves on to the next boundary after now. Call it once per step with growing times.
func (s *Schedule) Due(now time.Duration) bool {
	if !(s.rate > 0) || now < s.next {
		return false
	}
	// The first boundary after now: k = floor(now·rate/1e9) + 1, corrected for rounding.
	k := int64(math.Floor(float64(now)*s.rate/1e9)) + 1
	k = max(k, s.k+1)
	for k > s.k+1 && s.boundary(k-1) > now {
		k--
	}
	for s.boundary(k) <= now {
		k++
	}
	s.k, s.next = k, s.boundary(k)
	return true
}

// Next returns the sim time of the next boundary.
func (s *Schedule) Next() time.Duration { return s.next }
