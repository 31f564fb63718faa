package physics

import (
	"math"

	"github.com/jakecoffman/cp/v2"
)

// Hit is the result of a ray query.
type Hit struct {
	Body     *Body
	X, Y     float64 // point of impact
	Distance float64 // metres from the ray's origin
	NX, NY   float64 // surface normal
}

// RayCast casts a horizontal ray at altitude z from (x0, y0) to (x1, y1) and returns the first
// body it hits whose vertical extent contains z, skipping ignore (the sensor's own body; may be
// nil). ok is false when nothing is hit within the segment.
func (s *Space) RayCast(x0, y0, x1, y1, z float64, ignore *Body) (hit Hit, ok bool) {
	if s.kin != nil {
		return s.kin.rayCast(x0, y0, x1, y1, z, ignore)
	}
	start, end := cp.Vector{X: x0, Y: y0}, cp.Vector{X: x1, Y: y1}
	best := math.Inf(1)
	s.cp.SegmentQuery(start, end, 0, cp.SHAPE_FILTER_ALL, func(sh *cp.Shape, p, n cp.Vector, alpha float64, _ any) {
		b, _ := sh.UserData.(*Body)
		if b == nil || b == ignore || z < b.Base || z > b.Top() {
			return
		}
		if alpha < best {
			best = alpha
			hit = Hit{Body: b, X: p.X, Y: p.Y, NX: n.X, NY: n.Y}
		}
	}, nil)
	if math.IsInf(best, 1) {
		return Hit{}, false
	}
	hit.Distance = best * math.Hypot(x1-x0, y1-y0)
	return hit, true
}

// rayCast is RayCast in kinematic mode: every shape is tried (sensors cast through
// app/sensors/raycast; this query is for the odd probe).
func (k *kinematic) rayCast(x0, y0, x1, y1, z float64, ignore *Body) (hit Hit, ok bool) {
	dx, dy := x1-x0, y1-y0
	best := math.Inf(1)
	try := func(g *geom, b *Body) {
		if b == ignore || z < b.Base || z > b.Top() {
			return
		}
		if t, nx, ny, hitIt := rayGeom(g, x0, y0, dx, dy); hitIt && t < best {
			best = t
			hit = Hit{Body: b, X: x0 + t*dx, Y: y0 + t*dy, NX: nx, NY: ny}
		}
	}
	for i := range k.statics {
		try(&k.statics[i].geom, k.statics[i].body)
	}
	for i := range k.movers {
		try(&k.movers[i].geom, k.movers[i].body)
	}
	if math.IsInf(best, 1) {
		return Hit{}, false
	}
	hit.Distance = best * math.Hypot(dx, dy)
	return hit, true
}
