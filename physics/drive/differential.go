package drive

import (
	"math"

	"simgui/physics"
)

// The parameters of the differential model (names, units, defaults, ranges) are plugins' drive table.
func init() { Register("differential", newDifferential) }

// differential is the KS0223 drive (as rusim's Ks0223Vehicle.cs drives it): left and right motors
// L, R in [-1, 1] (from rusim's mixing L = throttle − steer, R = throttle + steer, or given
// directly), scaled by the motor gains; v_cmd = (L+R)/2, w_cmd = (R−L)/2, clamped to [-1, 1].
// Forward speed ramps toward maxSpeed·v_cmd at accel, then toward 0 at brake·brakeDecel,
// yaw rate toward maxYawRate·w_cmd at yawAccel; sideways speed is bled off by tyre friction.
type differential struct {
	maxSpeed, accel, brakeDecel float64
	maxYaw, yawAcc              float64 // rad/s, rad/s²
	gainL, gainR, grip          float64
}

func newDifferential(p Params) (Model, error) {
	return &differential{
		maxSpeed: p["maxSpeed"], accel: p["accel"], brakeDecel: p["brakeDecel"],
		maxYaw: p["maxYawRateDeg"] * math.Pi / 180, yawAcc: p["yawAccelDeg"] * math.Pi / 180,
		gainL: p["motorGainLeft"], gainR: p["motorGainRight"], grip: p["lateralFriction"],
	}, nil
}

func (d *differential) Reset() {}

func (d *differential) Update(b *physics.Body, cmd *Command, dt float64) {
	fwd, lat, w := b.LocalMotion()

	var vTarget, wTarget float64
	if cmd.Twist {
		vTarget = clamp(cmd.Linear[0], -d.maxSpeed, d.maxSpeed)
		wTarget = clamp(cmd.Angular, -d.maxYaw, d.maxYaw)
	} else {
		l, r := cmd.Throttle-cmd.Steer, cmd.Throttle+cmd.Steer
		if cmd.Wheels {
			l, r = cmd.Left, cmd.Right
		}
		l = clamp(l, -1, 1) * d.gainL
		r = clamp(r, -1, 1) * d.gainR
		vTarget = clamp((l+r)/2, -1, 1) * d.maxSpeed
		wTarget = clamp((r-l)/2, -1, 1) * d.maxYaw
	}
	// As rusim's tick: toward the commanded speed, then toward 0 at the brake's rate. With the
	// throttle held, a partial brake slows the car by its rate times the tick, no more.
	fwd = approach(fwd, vTarget, d.accel*dt)
	if brake, ok := braking(cmd); ok {
		fwd = approach(fwd, 0, brake*d.brakeDecel*dt)
	}
	lat = lateralGrip(lat, d.grip, dt)
	b.SetLocalMotion(fwd, lat, approach(w, wTarget, d.yawAcc*dt))
}
