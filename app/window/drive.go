package window

import (
	"time"

	"simgui/physics/drive"
)

// keys is the state of the driving keys in one tick.
type keys struct {
	Forward, Back, Left, Right, Brake, Up, Down bool
}

// any reports whether a driving key is held.
func (k keys) any() bool {
	return k.Forward || k.Back || k.Left || k.Right || k.Brake || k.Up || k.Down
}

// Smoothing rates, in command units per second of wall time. Throttle and steer ramp toward
// the keys' target and return to zero faster than they build up, so a tap is a nudge and a
// release stops promptly; the brake is applied at once.
const (
	throttleRise = 2.5
	throttleFall = 4.0
	steerRise    = 4.0
	steerFall    = 6.0
	verticalRate = 3.0
)

// driver turns held keys into a smoothed drive.Command. Rates are per second of wall time, so
// the result does not depend on the frame or tick rate.
type driver struct {
	cmd drive.Command
}

// update advances the command by dt of wall time toward what the keys ask for and returns it.
func (d *driver) update(k keys, dt time.Duration) drive.Command {
	s := dt.Seconds()
	if s <= 0 {
		return d.cmd
	}
	s = min(s, 0.25) // a stalled frame must not jump the command
	target := axis(k.Forward, k.Back)
	if k.Brake {
		target = 0
	}
	d.cmd.Throttle = approach(d.cmd.Throttle, target, rate(d.cmd.Throttle, target, throttleRise, throttleFall)*s)
	st := axis(k.Left, k.Right)
	d.cmd.Steer = approach(d.cmd.Steer, st, rate(d.cmd.Steer, st, steerRise, steerFall)*s)
	d.cmd.Vertical = approach(d.cmd.Vertical, axis(k.Up, k.Down), verticalRate*s)
	if k.Brake {
		d.cmd.Brake = 1
		d.cmd.Throttle = 0
	} else {
		d.cmd.Brake = 0
	}
	return d.cmd
}

// idle reports whether the command has returned to rest.
func (d *driver) idle() bool { return d.cmd == drive.Command{} }

// reset puts the command at rest (on selecting another robot).
func (d *driver) reset() { d.cmd = drive.Command{} }

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
