package drive

import (
	"math"

	"simgui/physics"
)

// The parameters of the ackermann model (names, units, defaults, ranges) are plugins' drive table.
func init() { Register("ackermann", newAckermann) }

// ackermann is a car-like drive (kinematic bicycle): throttle sets the target speed, steer the
// front wheel angle δ (reached at steerRate), and the yaw rate follows v·tan(δ)/wheelBase, so a
// car cannot turn on the spot.
type ackermann struct {
	maxSpeed, reverseSpeed, accel, brakeDecel float64
	wheelBase, grip                           float64
	maxSteer, steerAcc                        float64 // rad, rad/s
	delta                                     float64
}

func newAckermann(p Params) (Model, error) {
	return &ackermann{
		maxSpeed: p["maxSpeed"], reverseSpeed: p["reverseSpeed"], accel: p["accel"], brakeDecel: p["brakeDecel"],
		wheelBase: p["wheelBase"], grip: p["lateralFriction"],
		maxSteer: p["maxSteerDeg"] * math.Pi / 180, steerAcc: p["steerRateDeg"] * math.Pi / 180,
	}, nil
}

func (a *ackermann) Reset() {
	a.delta = 0
}

func (a *ackermann) Update(b *physics.Body, cmd *Command, dt float64) {
	fwd, lat := b.LocalVelocity()

	var vTarget, deltaTarget float64
	if cmd.Twist {
		vTarget = clamp(cmd.Linear[0], -a.reverseSpeed, a.maxSpeed)
		deltaTarget = a.delta
		if v := math.Abs(vTarget); v > 0.05 {
			deltaTarget = math.Atan(cmd.Angular * a.wheelBase / vTarget)
		}
	} else {
		t := clamp(cmd.Throttle, -1, 1)
		if t >= 0 {
			vTarget = t * a.maxSpeed
		} else {
			vTarget = t * a.reverseSpeed
		}
		deltaTarget = clamp(cmd.Steer, -1, 1) * a.maxSteer
	}
	deltaTarget = clamp(deltaTarget, -a.maxSteer, a.maxSteer)
	a.delta = approach(a.delta, deltaTarget, a.steerAcc*dt)

	if brake, ok := braking(cmd); ok {
		fwd = approach(fwd, 0, brake*a.brakeDecel*dt)
		vTarget = approach(vTarget, 0, math.Abs(vTarget)*brake)
	}
	fwd = approach(fwd, vTarget, a.accel*dt)
	lat = lateralGrip(lat, a.grip, dt)
	b.SetLocalMotion(fwd, lat, fwd*math.Tan(a.delta)/a.wheelBase)
}
