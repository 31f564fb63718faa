package physics

import "github.com/jakecoffman/cp/v2"

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
