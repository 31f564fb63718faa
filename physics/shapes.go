package physics

import (
	"fmt"
	"math"

	"simgui/plugins"
)

// shapeSpec is one collision shape in its body's frame, as both modes build it: a box
// (Length along the body's x, Width along y) or a circle centred at (X, Y), or a segment from
// A to B with Radius (polygon outlines).
type shapeSpec struct {
	kind          shapeKind
	x, y          float64 // circle centre
	length, width float64 // box
	radius        float64 // circle, segment
	a, b          [2]float64
}

type shapeKind uint8

const (
	shapeBox shapeKind = iota
	shapeCircle
	shapeSegment
)

// outlineRadius is the half thickness of a polygon's outline segments, in metres.
const outlineRadius = 0.005

// defaultFriction is the friction of elements and vehicles that give none.
const defaultFriction = 0.7

// elementBody is what AddElement makes of an element: its kind, pose and shapes. ok is false
// for elements that do not collide (no height, or a visual kind).
type elementBody struct {
	kind     Kind
	pose     Pose
	mass     float64 // boxes
	friction float64
	shapes   []shapeSpec
}

// elementShapes maps a track element onto a body. Elements with no height (roads, markers,
// flat polygons) and visual kinds are not bodies. Movable boxes are pushable bodies; walls, fixed
// boxes, cylinders and polygons (as outline segments, which are right for concave ones too)
// are static.
func elementShapes(e plugins.Element) (eb elementBody, ok bool, err error) {
	if e.Height <= 0 {
		return eb, false, nil
	}
	eb.friction = e.Friction
	if eb.friction == 0 {
		eb.friction = defaultFriction
	}
	eb.kind = KindStatic
	eb.pose = Pose{X: e.X, Y: e.Y}
	switch e.Kind {
	case plugins.ElementWall, plugins.ElementBox:
		if e.Length <= 0 || e.Width <= 0 {
			return eb, false, fmt.Errorf("%s %q: length and width must be positive", e.Kind, e.Name)
		}
		eb.pose.Yaw = e.YawDeg * math.Pi / 180
		if e.Kind == plugins.ElementBox && e.Movable {
			eb.kind = KindBox
			eb.mass = e.Mass
			if eb.mass <= 0 {
				eb.mass = 1
			}
		}
		eb.shapes = []shapeSpec{{kind: shapeBox, length: e.Length, width: e.Width}}
	case plugins.ElementCylinder:
		if e.Radius <= 0 {
			return eb, false, fmt.Errorf("cylinder %q: radius must be positive", e.Name)
		}
		eb.shapes = []shapeSpec{{kind: shapeCircle, radius: e.Radius}}
	case plugins.ElementPolygon:
		if len(e.Points) < 3 {
			return eb, false, fmt.Errorf("polygon %q: needs at least 3 points", e.Name)
		}
		// The points are in the world frame: the body sits at the origin.
		eb.pose = Pose{}
		for i, p := range e.Points {
			q := e.Points[(i+1)%len(e.Points)]
			eb.shapes = append(eb.shapes, shapeSpec{kind: shapeSegment, a: p, b: q, radius: outlineRadius})
		}
	default:
		// Visual kinds with a height (a raised marker, say) do not collide.
		return eb, false, nil
	}
	return eb, true, nil
}

// vehicleShape is a vehicle's one shape.
func vehicleShape(bd plugins.Body) shapeSpec {
	if bd.Shape == "circle" {
		return shapeSpec{kind: shapeCircle, radius: bd.Radius}
	}
	return shapeSpec{kind: shapeBox, length: bd.Length, width: bd.Width}
}
