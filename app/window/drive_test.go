package window

import (
	"math"
	"testing"
	"time"
)

// hold advances d through total of wall time in ticks of tick, with k held, and returns the
// command at the end.
func hold(d *driver, k keys, total, tick time.Duration) (throttle, steer float64) {
	n := int(math.Round(float64(total) / float64(tick)))
	for range n {
		c := d.update(k, tick)
		throttle, steer = c.Throttle, c.Steer
	}
	return throttle, steer
}

func TestDriverRampsInWallTime(t *testing.T) {
	for _, tc := range []struct {
		name         string
		k            keys
		total        time.Duration
		wantThrottle float64
		wantSteer    float64
	}{
		{"W for 0.2 s", keys{Forward: true}, 200 * time.Millisecond, 0.5, 0},
		{"W for 1 s saturates", keys{Forward: true}, time.Second, 1, 0},
		{"S for 0.2 s", keys{Back: true}, 200 * time.Millisecond, -0.5, 0},
		{"A for 0.3 s: a nudge", keys{Left: true}, 300 * time.Millisecond, 0, 0.09},
		{"A for 0.6 s", keys{Left: true}, 600 * time.Millisecond, 0, 0.36},
		{"D for 1 s: full lock", keys{Right: true}, time.Second, 0, -1},
		{"fine W", keys{Forward: true, Fine: true}, time.Second, fineThrottle, 0},
		{"fine D for 2 s", keys{Right: true, Fine: true}, 2 * time.Second, 0, -fineSteer},
		{"W and S cancel", keys{Forward: true, Back: true}, time.Second, 0, 0},
		{"W with brake", keys{Forward: true, Brake: true}, time.Second, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The same wall time at 60 and at 20 ticks a second gives the same command, but
			// for the half tick a key is first seen down for (up to 0.07 at 20 a second).
			for _, tick := range []time.Duration{time.Second / 60, time.Second / 20} {
				var d driver
				th, st := hold(&d, tc.k, tc.total, tick)
				tol := 0.03 + 2.8*tick.Seconds()/2
				if math.Abs(th-tc.wantThrottle) > tol || math.Abs(st-tc.wantSteer) > tol {
					t.Errorf("tick %v: throttle %.3f steer %.3f, want %.2f %.2f", tick, th, st, tc.wantThrottle, tc.wantSteer)
				}
			}
		})
	}
}

func TestDriverReleaseAndBrake(t *testing.T) {
	var d driver
	hold(&d, keys{Forward: true, Left: true}, time.Second, time.Second/60)
	// Released: throttle falls at 4/s, steer at 6/s.
	th, st := hold(&d, keys{}, 150*time.Millisecond, time.Second/60)
	if math.Abs(th-0.4) > 0.05 || math.Abs(st-0.1) > 0.05 {
		t.Fatalf("0.15 s after release: throttle %.3f steer %.3f, want 0.4 and 0.1", th, st)
	}
	// Pressed again before it settled: the steering goes on from where it is.
	_, st = hold(&d, keys{Left: true}, time.Second/60, time.Second/60)
	if math.Abs(st-0.1) > 0.03 {
		t.Fatalf("pressed again at steer 0.1: %.3f", st)
	}
	// The other way: back through zero at the fall rate, then building up from nothing.
	_, st = hold(&d, keys{Right: true}, 100*time.Millisecond, time.Second/60)
	if math.Abs(st+0.01) > 0.01 {
		t.Fatalf("0.1 s into steering the other way: %.3f, want about -0.01", st)
	}
	hold(&d, keys{}, time.Second, time.Second/60)
	if !d.idle() {
		t.Fatalf("a second after release the command is %+v, want rest", d.cmd)
	}
	// Reversing from full forward goes through zero at the fall rate.
	hold(&d, keys{Forward: true}, time.Second, time.Second/60)
	th, _ = hold(&d, keys{Back: true}, 125*time.Millisecond, time.Second/60)
	if math.Abs(th-0.5) > 0.05 {
		t.Fatalf("0.125 s into reversing: throttle %.3f, want 0.5", th)
	}
	c := d.update(keys{Brake: true}, time.Second/60)
	if c.Brake != 1 || c.Throttle != 0 {
		t.Fatalf("brake: %+v", c)
	}
	if c := d.update(keys{}, time.Second/60); c.Brake != 0 {
		t.Fatalf("brake released: %+v", c)
	}
	// A stalled frame moves the command by at most a quarter second's worth, and a key first
	// seen down after one by half of that.
	d.reset()
	if c := d.update(keys{Forward: true}, 5*time.Second); math.Abs(c.Throttle-0.3125) > 1e-9 {
		t.Fatalf("a key first seen after a 5 s stall: throttle %.3f, want 0.3125", c.Throttle)
	}
	if c := d.update(keys{Forward: true}, 5*time.Second); math.Abs(c.Throttle-0.9375) > 1e-9 {
		t.Fatalf("held through a 5 s stall: throttle %.3f, want 0.9375", c.Throttle)
	}
}
