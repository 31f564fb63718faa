package drive

import (
	"math"

	"simgui/physics"
)

// The parameters of the quadcopter model (names, units, defaults, ranges) are plugins' drive table.
func init() { Register("quadcopter", newQuadcopter) }

// quadcopter is a kinematic multirotor (vehicle.drone.simple.v1): throttle flies forward,
// steer yaws, vertical climbs; with Twist, linear x/y/z and angular z are velocity targets.
// Velocities approach their targets at accel; altitude stays within [minAltitude, maxAltitude].
// Its body is flying: it collides only with what is taller than its altitude.
type quadcopter struct {
	maxSpeed, maxVertical, accel float64
	minAlt, maxAlt, startAlt     float64
	maxYaw                       float64 // rad/s
	climb                        float64
}

func newQuadcopter(p Params) (Model, error) {
	return &quadcopter{
		maxSpeed: p["maxSpeed"], maxVertical: p["maxVertical"], accel: p["accel"],
		minAlt: p["minAltitude"], maxAlt: p["maxAltitude"], startAlt: p["startAltitude"],
		maxYaw: p["maxYawRateDeg"] * math.Pi / 180,
	}, nil
}

func (q *quadcopter) StartAltitude() float64 { return q.startAlt }

func (q *quadcopter) ClimbRate() float64 { return q.climb }

func (q *quadcopter) Land() { q.climb = 0 }

func (q *quadcopter) Reset() {
	q.climb = 0
}

func (q *quadcopter) Update(b *physics.Body, cmd *Command, dt float64) {
	fwd, lat, w := b.LocalMotion()
	var fT, lT, zT, wT float64
	if cmd.Twist {
		fT, lT, zT, wT = cmd.Linear[0], cmd.Linear[1], cmd.Linear[2], cmd.Angular
	} else {
		fT = clamp(cmd.Throttle, -1, 1) * q.maxSpeed
		wT = clamp(cmd.Steer, -1, 1) * q.maxYaw
		zT = clamp(cmd.Vertical, -1, 1) * q.maxVertical
	}
	// Limit the horizontal target to maxSpeed in any direction.
	if sp := math.Hypot(fT, lT); sp > q.maxSpeed {
		fT, lT = fT*q.maxSpeed/sp, lT*q.maxSpeed/sp
	}
	zT = clamp(zT, -q.maxVertical, q.maxVertical)
	wT = clamp(wT, -q.maxYaw, q.maxYaw)
	if brake, ok := braking(cmd); ok {
		fT, lT = fT*(1-brake), lT*(1-brake)
	}
	step := q.accel * dt
	b.SetLocalMotion(approach(fwd, fT, step), approach(lat, lT, step), approach(w, wT, q.maxYaw*4*dt))

	q.climb = approach(q.climb, zT, step)
	alt := b.Base + q.climb*dt
	if alt <= q.minAlt || alt >= q.maxAlt {
		alt = clamp(alt, q.minAlt, q.maxAlt)
		q.climb = 0
	}
	b.Base = alt
}
