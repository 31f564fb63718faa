package world

import (
	"testing"
	"time"
)

// The step rate's factor is the measured one while steps come, and 0 when paused or when no
// step has been published for a second.
func TestStepRateFactor(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := &Snapshot{RealTimeFactor: 1.5, Published: at}
	for _, c := range []struct {
		s    Snapshot
		now  time.Time
		want float64
	}{
		{*s, at.Add(200 * time.Millisecond), 1.5},
		{*s, at.Add(2 * time.Second), 0},
		{Snapshot{RealTimeFactor: 1.5, Published: at, Paused: true}, at, 0},
		{Snapshot{RealTimeFactor: 1.5}, at, 1.5}, // outside a loop: as measured
	} {
		if got := c.s.StepRateFactor(c.now); got != c.want {
			t.Errorf("%+v at %v: %g, want %g", c.s, c.now.Sub(at), got, c.want)
		}
	}
}
