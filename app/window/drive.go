package window

import (
	"math"
	"time"

	"simgui/physics/drive"
)

// keys is the state of the driving keys in one tick. Fine (Shift held) drives gently: lower
// limits on throttle and steering.
type keys struct {
	Forward, Back, Left, Right, Brake, Up, Down bool
	Fine                                        bool
}

// any reports whether a driving key is held.
func (k keys) any() bool {
	return k.Forward || k.Back || k.Left || k.Right || k.Brake || k.Up || k.Down
}

// Smoothing, in command units and seconds of wall time. Throttle ramps toward the keys'
// target; steering grows with the square of the time a steer key is held, reaching full lock
// after steerFull, so that a tap turns a robot a few degrees and a long press turns it hard.
// Both return to zero faster than they build up, so a release stops promptly; the brake is
// applied at once. In fine mode throttle and steering stop at fineThrottle and fineSteer.
const (
	throttleRise = 2.5
	throttleFall = 4.0
	steerFull    = 1.0 // s
	steerFall    = 6.0
	verticalRate = 3.0
	fineThrottle = 0.35
	fineSteer    = 0.3
)

// driver turns held keys into a smoothed drive.Command. Rates are per second of wall time, so
// the result does not depend on the frame or tick rate.
type driver struct {
	cmd drive.Command
	// steerHeld is how long the steer key of the current direction has been held, seconds.
	steerHeld float64
	// lastHold is how long the last steering press that ended was held, seconds.
	lastHold float64
	prev     keys // the keys of the last update
}

// update advances the command by dt of wall time toward what the keys ask for and returns it.
func (d *driver) update(k keys, dt time.Duration) drive.Command {
	s := dt.Seconds()
	if s <= 0 {
		return d.cmd
	}
	s = min(s, 0.25) // a stalled frame must not jump the command
	maxThrottle, maxSteer := 1.0, 1.0
	if k.Fine {
		maxThrottle, maxSteer = fineThrottle, fineSteer
	}
	// A key seen down for the first time went down somewhere in the last dt: count half of
	// it. At a few frames a second dt is long, and a tap must not count as a long press.
	ts, ss := s, s
	if (k.Forward && !d.prev.Forward) || (k.Back && !d.prev.Back) {
		ts = s / 2
	}
	if (k.Left && !d.prev.Left) || (k.Right && !d.prev.Right) {
		ss = s / 2
	}
	d.prev = k
	target := axis(k.Forward, k.Back) * maxThrottle
	if k.Brake {
		target = 0
	}
	d.cmd.Throttle = approach(d.cmd.Throttle, target, rate(d.cmd.Throttle, target, throttleRise, throttleFall)*ts)
	d.steer(axis(k.Left, k.Right), maxSteer, ss)
	d.cmd.Vertical = approach(d.cmd.Vertical, axis(k.Up, k.Down), verticalRate*s)
	if k.Brake {
		d.cmd.Brake = 1
		d.cmd.Throttle = 0
	} else {
		d.cmd.Brake = 0
	}
	return d.cmd
}

// steer moves the steering toward dir (+1 left, -1 right, 0 none) by s seconds of holding.
func (d *driver) steer(dir, limit, s float64) {
	cur := d.cmd.Steer
	if dir == 0 || (cur != 0 && (cur > 0) != (dir > 0)) {
		// Released, or the other way: back through zero first.
		if d.steerHeld > 0 {
			d.lastHold = d.steerHeld
		}
		d.steerHeld = 0
		d.cmd.Steer = approach(cur, 0, steerFall*s)
		return
	}
	if d.steerHeld == 0 && cur != 0 {
		// Pressed again before the steering returned to zero: go on from where it is.
		d.steerHeld = steerFull * math.Sqrt(min(1, math.Abs(cur)/limit))
	}
	d.steerHeld += s
	x := min(1, d.steerHeld/steerFull)
	d.cmd.Steer = approach(cur, dir*limit*x*x, steerFall*s)
}

// idle reports whether the command has returned to rest.
func (d *driver) idle() bool { return d.cmd == drive.Command{} }

// reset puts the command at rest (on selecting another robot).
func (d *driver) reset() { *d = driver{} }

// axis is +1 for pos, -1 for neg, 0 for both or neither.
func axis(pos, neg bool) float64 {
	switch {
	case pos && !neg:
		return 1
	case neg && !pos:
		return -1
	}
	return 0
}

// rate picks the rise rate when moving away from zero toward target, the fall rate when
// moving back toward zero or across it.
func rate(cur, target, rise, fall float64) float64 {
	if target == 0 || (cur != 0 && (cur > 0) != (target > 0)) || abs(target) < abs(cur) {
		return fall
	}
	return rise
}

// approach moves cur toward target by at most step.
func approach(cur, target, step float64) float64 {
	switch {
	case cur < target:
		return min(cur+step, target)
	case cur > target:
		return max(cur-step, target)
	}
	return cur
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
