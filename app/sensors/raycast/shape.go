package raycast

import (
	"fmt"
	"math"

	"simgui/plugins"
)

// Kind says what a Shape is.
type Kind uint8

// Shape kinds.
const (
	Box    Kind = iota // an oriented rectangle: centre, Yaw, half extents HalfL (along Yaw) and HalfW
	Circle             // a disc of Radius
)

// Shape is one obstacle: a box or a circle in the plane, standing from ZMin to ZMax.
type Shape struct {
	Kind Kind
	// X, Y is the centre in metres; Yaw turns a box counter-clockwise (radians).
	X, Y, Yaw float64
	// HalfL and HalfW are a box's half length (along its yaw) and half width, in metres.
	HalfL, HalfW float64
	// Radius is a circle's radius in metres.
	Radius float64
	// ZMin and ZMax are the vertical extent in metres.
	ZMin, ZMax float64
	// ID identifies the body the shape belongs to, so that a sensor can ignore its own
	// vehicle; 0 for track geometry.
	ID uint32
}

// SegmentRadius is the radius of the rounded segments polygon outlines are made of, as in
// physics.Space.AddElement.
const SegmentRadius = 0.005

// prim is a Shape prepared for ray tests.
type prim struct {
	cx, cy   float64 // centre
	ux, uy   float64 // box axis (cos yaw, sin yaw)
	hx, hy   float64 // box half extents; a circle's radius in hx
	r2       float64 // a circle's squared radius
	zlo, zhi float64
	br       float64 // the radius of a circle around the centre that holds the shape
	id       uint32
	kind     Kind
}

func newPrim(s Shape) prim {
	p := prim{cx: s.X, cy: s.Y, zlo: s.ZMin, zhi: s.ZMax, id: s.ID, kind: s.Kind}
	switch s.Kind {
	case Box:
		p.uy, p.ux = math.Sincos(s.Yaw)
		p.hx, p.hy = s.HalfL, s.HalfW
		p.br = math.Hypot(p.hx, p.hy)
	case Circle:
		p.hx, p.r2 = s.Radius, s.Radius*s.Radius
		p.br = p.hx
	}
	return p
}

// bounds returns the shape's axis-aligned bounding box.
func (p *prim) bounds() (x0, y0, x1, y1 float64) {
	if p.kind == Circle {
		return p.cx - p.hx, p.cy - p.hx, p.cx + p.hx, p.cy + p.hx
	}
	ex := math.Abs(p.ux)*p.hx + math.Abs(p.uy)*p.hy
	ey := math.Abs(p.uy)*p.hx + math.Abs(p.ux)*p.hy
	return p.cx - ex, p.cy - ey, p.cx + ex, p.cy + ey
}

// hit returns the distance along the unit direction (dx, dy) from (x, y) at which the ray
// enters the shape: 0 when (x, y) is inside or on it, +Inf when the ray misses it.
func (p *prim) hit(x, y, dx, dy float64) float64 {
	fx, fy := x-p.cx, y-p.cy
	if p.kind == Circle {
		c := fx*fx + fy*fy - p.r2
		if c <= 0 {
			return 0
		}
		b := fx*dx + fy*dy
		if b >= 0 {
			return math.Inf(1)
		}
		disc := b*b - c
		if disc < 0 {
			return math.Inf(1)
		}
		return -b - math.Sqrt(disc)
	}
	// The ray in the box's frame.
	ox := fx*p.ux + fy*p.uy
	oy := fy*p.ux - fx*p.uy
	ax, ay := math.Abs(ox), math.Abs(oy)
	if ax <= p.hx && ay <= p.hy {
		return 0
	}
	ddx := dx*p.ux + dy*p.uy
	ddy := dy*p.ux - dx*p.uy
	// Outside the box, the ray enters through a face it looks at: the slab it is outside of
	// along an axis whose direction points back towards the centre.
	near, far := math.Inf(-1), math.Inf(1)
	if ddx != 0 {
		inv := 1 / ddx
		t1, t2 := (-p.hx-ox)*inv, (p.hx-ox)*inv
		if t1 > t2 {
			t1, t2 = t2, t1
		}
		near, far = t1, t2
	} else if ax > p.hx {
		return math.Inf(1)
	}
	if ddy != 0 {
		inv := 1 / ddy
		t1, t2 := (-p.hy-oy)*inv, (p.hy-oy)*inv
		if t1 > t2 {
			t1, t2 = t2, t1
		}
		near, far = max(near, t1), min(far, t2)
	} else if ay > p.hy {
		return math.Inf(1)
	}
	if near > far || near < 0 {
		return math.Inf(1)
	}
	return near
}

// LayoutShapes returns the obstacles of a layout's static elements, as physics.Space.AddElement
// makes bodies of them (see the package doc). Movable boxes are left out: they move, so their
// shapes come from their bodies each step. Errors name the element.
func LayoutShapes(l *plugins.Layout) ([]Shape, error) {
	var out []Shape
	for i := range l.Elements {
		e := &l.Elements[i]
		if e.Height <= 0 {
			continue
		}
		z0, z1 := e.Z, e.Z+e.Height
		switch e.Kind {
		case plugins.ElementWall, plugins.ElementBox:
			if e.Length <= 0 || e.Width <= 0 {
				return nil, fmt.Errorf("%s %q: length and width must be positive", e.Kind, e.Name)
			}
			if e.Movable && e.Kind == plugins.ElementBox {
				continue
			}
			out = append(out, Shape{Kind: Box, X: e.X, Y: e.Y, Yaw: e.YawDeg * math.Pi / 180,
				HalfL: e.Length / 2, HalfW: e.Width / 2, ZMin: z0, ZMax: z1})
		case plugins.ElementCylinder:
			if e.Radius <= 0 {
				return nil, fmt.Errorf("cylinder %q: radius must be positive", e.Name)
			}
			out = append(out, Shape{Kind: Circle, X: e.X, Y: e.Y, Radius: e.Radius, ZMin: z0, ZMax: z1})
		case plugins.ElementPolygon:
			if len(e.Points) < 3 {
				return nil, fmt.Errorf("polygon %q: needs at least 3 points", e.Name)
			}
			for j, p := range e.Points {
				q := e.Points[(j+1)%len(e.Points)]
				out = append(out, Shape{Kind: Circle, X: p[0], Y: p[1], Radius: SegmentRadius, ZMin: z0, ZMax: z1})
				dx, dy := q[0]-p[0], q[1]-p[1]
				if l := math.Hypot(dx, dy); l > 0 {
					out = append(out, Shape{Kind: Box, X: (p[0] + q[0]) / 2, Y: (p[1] + q[1]) / 2,
						Yaw: math.Atan2(dy, dx), HalfL: l / 2, HalfW: SegmentRadius, ZMin: z0, ZMax: z1})
				}
			}
		}
	}
	return out, nil
}
