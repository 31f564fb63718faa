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

// Clear reports whether a disc of radius r at (x, y) keeps clear of every body whose vertical
// extent overlaps [z0, z1], skipping the bodies skip accepts (skip may be nil): the test for
// placing a vehicle where nothing is.
func (s *Space) Clear(x, y, r, z0, z1 float64, skip func(*Body) bool) bool {
	p := cp.Vector{X: x, Y: y}
	clear := true
	s.cp.BBQuery(cp.NewBBForCircle(p, r), cp.SHAPE_FILTER_ALL, func(sh *cp.Shape, _ any) {
		b, _ := sh.UserData.(*Body)
		if !clear || b == nil || (skip != nil && skip(b)) || z1 < b.Base || z0 > b.Top() {
			return
		}
		if sh.PointQuery(p).Distance < r {
			clear = false
		}
	}, nil)
	return clear
}

// SweepClear reports whether a disc of radius r can move in a straight line from (x0, y0) to
// (x1, y1) without touching a body whose vertical extent overlaps [z0, z1], skipping the
// bodies skip accepts (skip may be nil).
func (s *Space) SweepClear(x0, y0, x1, y1, r, z0, z1 float64, skip func(*Body) bool) bool {
	clear := true
	s.cp.SegmentQuery(cp.Vector{X: x0, Y: y0}, cp.Vector{X: x1, Y: y1}, r, cp.SHAPE_FILTER_ALL,
		func(sh *cp.Shape, _, _ cp.Vector, _ float64, _ any) {
			b, _ := sh.UserData.(*Body)
			if b == nil || (skip != nil && skip(b)) || z1 < b.Base || z0 > b.Top() {
				return
			}
			clear = false
		}, nil)
	return clear
}

// SightLine follows the straight line from (x0, y0, z0) to (x1, y1, z1) and returns the
// fraction of the way at which it first enters a body, skipping the bodies skip accepts
// (skip may be nil); 1 when nothing is in the way. A body is entered where the line crosses
// its outline at an altitude within its vertical extent: bodies are upright prisms.
func (s *Space) SightLine(x0, y0, z0, x1, y1, z1 float64, skip func(*Body) bool) float64 {
	first := 1.0
	s.cp.SegmentQuery(cp.Vector{X: x0, Y: y0}, cp.Vector{X: x1, Y: y1}, 0, cp.SHAPE_FILTER_ALL,
		func(sh *cp.Shape, _, _ cp.Vector, alpha float64, _ any) {
			b, _ := sh.UserData.(*Body)
			if b == nil || (skip != nil && skip(b)) || alpha >= first {
				return
			}
			if z := z0 + alpha*(z1-z0); z >= b.Base && z <= b.Top() {
				first = alpha
			}
		}, nil)
	return first
}
