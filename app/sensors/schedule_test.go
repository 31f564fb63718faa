package sensors

import (
	"math"
	"testing"
	"time"
)

// count runs a schedule over steps of dt and returns the firing times.
func fire(rate float64, dt time.Duration, steps int) []time.Duration {
	s := NewSchedule(rate)
	var out []time.Duration
	for i := 1; i <= steps; i++ {
		if now := time.Duration(i) * dt; s.Due(now) {
			out = append(out, now)
		}
	}
	return out
}

// A 30 Hz sensor in a 200 Hz loop fires 1,801 times in the 12,000 steps of a minute (k = 0 …
// 1800), each time on the first step at or after ceil(k·1e9/30) ns.
func TestScheduleThirtyInTwoHundred(t *testing.T) {
	got := fire(30, 5*time.Millisecond, 12000)
	if len(got) != 1801 {
		t.Fatalf("%d firings in a minute, want 1801 (1800 ± 1)", len(got))
	}
	for k, at := range got {
		boundary := time.Duration(math.Ceil(float64(k) * 1e9 / 30))
		want := (boundary + 5*time.Millisecond - 1) / (5 * time.Millisecond) * (5 * time.Millisecond)
		if want == 0 {
			want = 5 * time.Millisecond
		}
		if at != want {
			t.Fatalf("firing %d at %v, want %v (first step at or after %v)", k, at, want, boundary)
		}
	}
	// Per simulated second, exactly 30 on average and 30 ± 1 in each.
	for s := range 60 {
		n := 0
		for _, at := range got {
			if at > time.Duration(s)*time.Second && at <= time.Duration(s+1)*time.Second {
				n++
			}
		}
		if n < 29 || n > 31 {
			t.Fatalf("second %d has %d firings", s, n)
		}
	}
}

// Over a long run nothing drifts, whatever the rate and the step: the count after T seconds is
// floor(T·rate) + 1.
func TestScheduleNoDrift(t *testing.T) {
	for _, c := range []struct {
		rate float64
		dt   time.Duration
	}{{7.3, 4 * time.Millisecond}, {15, 5 * time.Millisecond}, {100, 5 * time.Millisecond}, {33.3333, time.Millisecond}, {0.5, 10 * time.Millisecond}} {
		const seconds = 3600
		steps := int(seconds * time.Second / c.dt)
		got := len(fire(c.rate, c.dt, steps))
		if want := int(math.Floor(seconds*c.rate)) + 1; got != want {
			t.Errorf("%g Hz with %v steps over an hour: %d firings, want %d", c.rate, c.dt, got, want)
		}
	}
}

// A sensor faster than the loop fires once per step; a zero rate never.
func TestScheduleFastAndOff(t *testing.T) {
	if n := len(fire(1000, 5*time.Millisecond, 200)); n != 200 {
		t.Fatalf("1 kHz in a 200 Hz loop fired %d times in 200 steps, want 200", n)
	}
	if n := len(fire(0, 5*time.Millisecond, 200)); n != 0 {
		t.Fatalf("rate 0 fired %d times", n)
	}
}
