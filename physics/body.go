package physics

import (
	"github.com/jakecoffman/cp/v2"
)

// Kind says what a body is.
type Kind uint8

// Body kinds.
const (
	KindStatic  Kind = iota // track geometry
	KindBox                 // pushable box
	KindVehicle             // robot
)

func (k Kind) String() string {
	switch k {
	case KindStatic:
		return "static"
	case KindBox:
		return "box"
	case KindVehicle:
		return "vehicle"
	}
	return "unknown"
}

// Pose is a planar pose: X, Y in metres, Yaw in radians (counter-clockwise from +x).
type Pose struct {
	X, Y, Yaw float64
}

// Body is one simulated thing: a static element, a pushable box or a vehicle.
type Body struct {
	// ID is unique within the space, assigned in insertion order; 0 is never used.
	ID   uint32
	Name string
	Kind Kind
	// Base and Height are the vertical extent of the body's shapes: from Base (altitude, metres)
	// up to Base+Height. Flying vehicles change Base as they climb.
	Base, Height float64
	// Flying bodies collide only with shapes whose top is above their Base.
	Flying bool

	cp     *cp.Body
	shapes []*cp.Shape
	space  *Space
}

// Pose returns the body's planar pose.
func (b *Body) Pose() Pose {
	p := b.cp.Position()
	return Pose{X: p.X, Y: p.Y, Yaw: b.cp.Angle()}
}

// SetPose moves the body (teleport); velocities are kept.
func (b *Body) SetPose(p Pose) {
	b.cp.SetPosition(cp.Vector{X: p.X, Y: p.Y})
	b.cp.SetAngle(p.Yaw)
	if b.cp.GetType() == cp.BODY_STATIC {
		for _, sh := range b.shapes {
			b.space.cp.ReindexShape(sh)
		}
	}
}

// Velocity returns the world-frame linear velocity in m/s.
func (b *Body) Velocity() (vx, vy float64) {
	v := b.cp.Velocity()
	return v.X, v.Y
}

// SetVelocity sets the world-frame linear velocity in m/s.
func (b *Body) SetVelocity(vx, vy float64) { b.cp.SetVelocity(vx, vy) }

// AngularVelocity returns the yaw rate in rad/s.
func (b *Body) AngularVelocity() float64 { return b.cp.AngularVelocity() }

// SetAngularVelocity sets the yaw rate in rad/s.
func (b *Body) SetAngularVelocity(w float64) { b.cp.SetAngularVelocity(w) }

// LocalVelocity returns the velocity in the body frame: forward (along +x of the body) and
// lateral (to the left) components in m/s.
func (b *Body) LocalVelocity() (forward, lateral float64) {
	v := b.cp.Velocity()
	r := b.rotation()
	return v.X*r.X + v.Y*r.Y, -v.X*r.Y + v.Y*r.X
}

// rotation is (cos yaw, sin yaw), cached by cp with the body's transform (SetAngle and each
// step refresh it).
func (b *Body) rotation() cp.Vector { return b.cp.Rotation() }

// SetLocalVelocity sets the velocity from body-frame components in m/s.
func (b *Body) SetLocalVelocity(forward, lateral float64) {
	r := b.rotation()
	b.cp.SetVelocity(forward*r.X-lateral*r.Y, forward*r.Y+lateral*r.X)
}

// Mass returns the body's mass in kg (0 for static bodies).
func (b *Body) Mass() float64 {
	if b.Kind == KindStatic {
		return 0
	}
	return b.cp.Mass()
}

// Top returns the altitude of the body's top in metres.
func (b *Body) Top() float64 { return b.Base + b.Height }

// overlapsZ reports whether the vertical extents of a and b overlap.
func overlapsZ(a, b *Body) bool {
	return a.Base < b.Top() && b.Base < a.Top()
}
