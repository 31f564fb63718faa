package physics

import (
	"math"

	"github.com/jakecoffman/cp/v2"
)

// addCP gives b a cp body at pose with the given shapes: a static body for static kinds, a
// dynamic one of the given mass otherwise. Nothing bounces (elasticity 0). grouped puts the
// shapes in the vehicles' group, whose members do not collide with each other.
func (s *Space) addCP(b *Body, pose Pose, mass, friction float64, shapes []shapeSpec, grouped bool) {
	var body *cp.Body
	if b.Kind == KindStatic {
		body = newCP(cp.NewStaticBody)
	} else {
		// Every moving body has one shape (a vehicle's or a box's); its moment is that shape's.
		body = s.cp.AddBody(newCP(func() *cp.Body { return cp.NewBody(mass, momentFor(mass, shapes[0])) }))
	}
	body.SetPosition(cp.Vector{X: pose.X, Y: pose.Y})
	body.SetAngle(pose.Yaw)
	body.UserData = b
	b.cp = body
	for _, sp := range shapes {
		var sh *cp.Shape
		switch sp.kind {
		case shapeBox:
			sh = cp.NewBox(body, sp.length, sp.width, 0)
		case shapeCircle:
			sh = cp.NewCircle(body, sp.radius, cp.Vector{X: sp.x, Y: sp.y})
		case shapeSegment:
			sh = cp.NewSegment(body, cp.Vector{X: sp.a[0], Y: sp.a[1]}, cp.Vector{X: sp.b[0], Y: sp.b[1]}, sp.radius)
		}
		if grouped {
			sh.SetFilter(cp.NewShapeFilter(vehicleGroup, cp.ALL_CATEGORIES, cp.ALL_CATEGORIES))
		}
		s.noteShape(b, sp)
		sh.UserData = b
		sh.SetFriction(friction)
		sh.SetElasticity(0)
		s.cp.AddShape(sh)
		b.shapes = append(b.shapes, sh)
	}
}

func momentFor(mass float64, sp shapeSpec) float64 {
	if sp.kind == shapeCircle {
		return cp.MomentForCircle(mass, 0, sp.radius, cp.Vector{X: sp.x, Y: sp.y})
	}
	return cp.MomentForBox(mass, sp.length, sp.width)
}

// noteShape records how far sp reaches from b's centre and, when it is thinner than any shape
// of its kind (static or moving) before it, its half thickness: they set how many substeps a
// fast step takes (cpSubsteps).
func (s *Space) noteShape(b *Body, sp shapeSpec) {
	var half, reach float64
	switch sp.kind {
	case shapeBox:
		half, reach = min(sp.length, sp.width)/2, math.Hypot(sp.length, sp.width)/2
	case shapeCircle:
		half, reach = sp.radius, math.Hypot(sp.x, sp.y)+sp.radius
	case shapeSegment:
		half = sp.radius
		reach = max(math.Hypot(sp.a[0], sp.a[1]), math.Hypot(sp.b[0], sp.b[1])) + sp.radius
	}
	b.reach = max(b.reach, reach)
	thin := &s.thinnest[0]
	if b.Kind != KindStatic {
		thin = &s.thinnest[1]
	}
	if half > 0 && (*thin == 0 || half < *thin) {
		*thin = half
	}
}

// maxCPSubsteps bounds the substeps of one dynamic step.
const maxCPSubsteps = 64

// maxCPSubstep is the longest substep, in seconds: cp pushes an overlap out a share of it per
// step, and a drive adds its acceleration once per step, so a coarse step let a car pushing
// into a wall sink into it.
const maxCPSubstep = 0.01

// cpSubsteps returns how many parts a dynamic step of dt is cut into so that no point of a
// moving body travels further in one than half of the thinnest static shape's and the
// thinnest moving one's half thicknesses together: cp has no continuous collision detection
// and pushes an overlap out along its shallower side, so a body that got past the middle of
// a wall between two looks went through it (a car at 2 m/s with 0.1 s steps left the closed
// corridor). At ordinary speeds and steps it is 1.
func (s *Space) cpSubsteps(dt float64) int {
	limit := (s.thinnest[0] + s.thinnest[1]) / 2
	if s.thinnest[0] <= 0 || s.thinnest[1] <= 0 {
		return 1
	}
	fastest := 0.0
	for _, b := range s.bodies {
		if b.Kind == KindStatic || b.cp == nil {
			continue
		}
		v := b.cp.Velocity()
		fastest = max(fastest, math.Hypot(v.X, v.Y)+math.Abs(b.cp.AngularVelocity())*b.reach)
	}
	n := max(math.Ceil(fastest*dt/limit), math.Ceil(dt/maxCPSubstep-1e-9))
	if !(n < maxCPSubsteps) { // NaN too
		return maxCPSubsteps
	}
	return max(1, int(n))
}
