package physics

import (
	"math"

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
//
// What a drive reads of its body every step (space, cp, k, Kind) comes first, in one cache
// line: a fleet's drives read thousands of bodies a step.
type Body struct {
	space *Space
	// Dynamic mode: the cp body (and its shapes, below).
	cp *cp.Body
	// Kinematic mode: a moving body's state is movers[k] of the space's kinematic solver; a
	// static body (k < 0) keeps its pose in own, and so does a moving body once removed.
	k int32
	// ID is unique within the space, assigned in insertion order; 0 is never used.
	ID   uint32
	Kind Kind
	// Flying bodies collide only with shapes whose top is above their Base.
	Flying bool
	// Base and Height are the vertical extent of the body's shapes: from Base (altitude, metres)
	// up to Base+Height. Flying vehicles change Base as they climb.
	Base, Height float64
	Name         string

	shapes  []*cp.Shape
	reach   float64 // dynamic mode: the farthest a point of its shapes lies from its centre, m
	own     *kstate
	statics []int32 // a static body's shapes in the solver's statics
	mass    float64 // a moving body's, in kg
}

// kin returns the body's kinematic state.
func (b *Body) kin() *kstate {
	if b.k >= 0 {
		return &b.space.kin.movers[b.k]
	}
	return b.own
}

// Pose returns the body's planar pose.
func (b *Body) Pose() Pose {
	if b.cp == nil {
		k := b.kin()
		return Pose{X: k.x, Y: k.y, Yaw: k.yaw}
	}
	p := b.cp.Position()
	return Pose{X: p.X, Y: p.Y, Yaw: b.cp.Angle()}
}

// SetPose moves the body (teleport); velocities are kept.
func (b *Body) SetPose(p Pose) {
	if b.cp == nil {
		k := b.kin()
		k.x, k.y = p.X, p.Y
		k.setYaw(p.Yaw)
		if b.Kind == KindStatic && b.space != nil {
			b.space.kin.moveStatic(b)
		}
		return
	}
	b.cp.SetPosition(cp.Vector{X: p.X, Y: p.Y})
	b.cp.SetAngle(p.Yaw)
	if b.cp.GetType() == cp.BODY_STATIC && b.space != nil {
		for _, sh := range b.shapes {
			b.space.cp.ReindexShape(sh)
		}
	}
}

// Velocity returns the world-frame linear velocity in m/s.
func (b *Body) Velocity() (vx, vy float64) {
	if b.cp == nil {
		k := b.kin()
		return k.vx, k.vy
	}
	v := b.cp.Velocity()
	return v.X, v.Y
}

// SetVelocity sets the world-frame linear velocity in m/s. Static bodies do not move.
func (b *Body) SetVelocity(vx, vy float64) {
	if b.cp == nil {
		if b.Kind != KindStatic {
			k := b.kin()
			k.vx, k.vy = vx, vy
		}
		return
	}
	b.cp.SetVelocity(vx, vy)
}

// AngularVelocity returns the yaw rate in rad/s.
func (b *Body) AngularVelocity() float64 {
	if b.cp == nil {
		return b.kin().w
	}
	return b.cp.AngularVelocity()
}

// SetAngularVelocity sets the yaw rate in rad/s. Static bodies do not move.
func (b *Body) SetAngularVelocity(w float64) {
	if b.cp == nil {
		if b.Kind != KindStatic {
			b.kin().w = w
		}
		return
	}
	b.cp.SetAngularVelocity(w)
}

// LocalVelocity returns the velocity in the body frame: forward (along +x of the body) and
// lateral (to the left) components in m/s.
func (b *Body) LocalVelocity() (forward, lateral float64) {
	forward, lateral, _ = b.LocalMotion()
	return forward, lateral
}

// LocalMotion returns the body-frame velocity (as LocalVelocity) and the yaw rate in rad/s
// in one read: what a drive model reads of its body every step.
func (b *Body) LocalMotion() (forward, lateral, w float64) {
	if b.cp == nil { // the kinematic state read in place, so that a drive's call inlines it
		k := b.kin()
		return k.vx*k.c + k.vy*k.s, -k.vx*k.s + k.vy*k.c, k.w
	}
	vx, vy, w, c, s := b.motion()
	return vx*c + vy*s, -vx*s + vy*c, w
}

// motion returns the world velocity, the yaw rate and (cos yaw, sin yaw). cp caches the
// rotation with the body's transform (SetAngle and each step refresh it); the kinematic
// state keeps it beside the yaw.
func (b *Body) motion() (vx, vy, w, c, s float64) {
	if b.cp == nil {
		k := b.kin()
		return k.vx, k.vy, k.w, k.c, k.s
	}
	v, r := b.cp.Velocity(), b.cp.Rotation()
	return v.X, v.Y, b.cp.AngularVelocity(), r.X, r.Y
}

// SetLocalVelocity sets the velocity from body-frame components in m/s.
func (b *Body) SetLocalVelocity(forward, lateral float64) {
	_, _, _, c, s := b.motion()
	b.SetVelocity(forward*c-lateral*s, forward*s+lateral*c)
}

// SetLocalMotion sets the velocity from body-frame components (m/s) and the yaw rate (rad/s),
// as SetLocalVelocity and SetAngularVelocity do. Static bodies do not move. A kinematic body
// is written in one go: a fleet's drives call this for thousands of bodies a step, and going
// through the two setters measured slower on 10,000 robots.
func (b *Body) SetLocalMotion(forward, lateral, w float64) {
	if b.cp == nil {
		if b.k < 0 && b.Kind == KindStatic { // a mover (b.k >= 0) is asked first, as the usual case
			return
		}
		k := b.kin()
		k.vx, k.vy, k.w = forward*k.c-lateral*k.s, forward*k.s+lateral*k.c, w
		return
	}
	b.SetLocalVelocity(forward, lateral)
	b.cp.SetAngularVelocity(w)
}

// Mass returns the body's mass in kg (0 for static bodies).
func (b *Body) Mass() float64 {
	if b.Kind == KindStatic {
		return 0
	}
	if b.cp == nil {
		return b.mass
	}
	return b.cp.Mass()
}

// Top returns the altitude of the body's top in metres.
func (b *Body) Top() float64 { return b.Base + b.Height }

// overlapsZ reports whether the vertical extents of a and b overlap.
func overlapsZ(a, b *Body) bool {
	return a.Base < b.Top() && b.Base < a.Top()
}

// setYaw sets the yaw and its cached rotation.
func (k *kstate) setYaw(yaw float64) {
	k.yaw = yaw
	k.s, k.c = math.Sincos(yaw)
}

// turnSeries is the largest turn that turn rotates by series; a larger one takes a Sincos.
const turnSeries = 0.05

// turn adds d to the yaw and rotates the cached rotation by d: by the Taylor series of
// cos d and sin d (turnTerms) and one Newton step back to unit length, in place of a Sincos of
// the whole yaw. A substep turns a body by hundredths of a radian, and a fleet turns thousands
// of them every step. The rotation then differs from Sincos(yaw) only by rounding, which the
// Newton step keeps from growing in length and which drifts in angle by about 1e-16 rad a turn.
func (k *kstate) turn(d float64) {
	if !(math.Abs(d) <= turnSeries) { // NaN too
		k.setYaw(k.yaw + d)
		return
	}
	cd, sd := turnTerms(d)
	k.rotate(d, cd, sd)
}

// turnTerms returns cos d and sin d by their Taylor series, for |d| ≤ turnSeries (the first
// left-out term is under 1e-15 there). The Horner form's coefficients are constants:
// multiplications only, no divisions in the chain.
func turnTerms(d float64) (cd, sd float64) {
	d2 := d * d
	cd = 1 + d2*(-1.0/2+d2*(1.0/24+d2*(-1.0/720)))         // 1 - d²/2 + d⁴/24 - d⁶/720
	sd = d * (1 + d2*(-1.0/6+d2*(1.0/120+d2*(-1.0/5040)))) // d - d³/6 + d⁵/120 - d⁷/5040
	return cd, sd
}

// rotate adds d to the yaw and turns the cached rotation by (cd, sd) = turnTerms(d).
func (k *kstate) rotate(d, cd, sd float64) {
	c, s := k.c*cd-k.s*sd, k.s*cd+k.c*sd
	f := 1.5 - (c*c+s*s)/2
	k.yaw += d
	k.c, k.s = c*f, s*f
}
