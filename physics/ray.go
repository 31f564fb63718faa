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

// Clear reports whether a disc of radius r at (x, y) keeps clear of every body whose vertical
// extent overlaps [z0, z1], skipping the bodies skip accepts (skip may be nil): the test for
// placing a vehicle where nothing is.
func (s *Space) Clear(x, y, r, z0, z1 float64, skip func(*Body) bool) bool {
	if s.kin != nil {
		return s.kin.clearDisc(x, y, r, z0, z1, skip)
	}
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

// TopUnder returns the highest top, at most below metres up, of the track's bodies and boxes
// a disc of radius r at (x, y) overlaps; 0, the floor, when there is none: what a flying body
// coming down from below lands on (a roof it was over). Vehicles are not landed on: they move
// away, and a fleet of drones would ask about each other every step.
func (s *Space) TopUnder(x, y, r, below float64) float64 {
	if s.kin != nil {
		return s.kin.topUnder(x, y, r, below)
	}
	p := cp.Vector{X: x, Y: y}
	top := 0.0
	s.cp.BBQuery(cp.NewBBForCircle(p, r), cp.SHAPE_FILTER_ALL, func(sh *cp.Shape, _ any) {
		b, _ := sh.UserData.(*Body)
		if b == nil || b.Kind == KindVehicle || b.Top() <= top || b.Top() > below {
			return
		}
		if sh.PointQuery(p).Distance < r {
			top = b.Top()
		}
	}, nil)
	return top
}

// SweepClear reports whether a disc of radius r can move in a straight line from (x0, y0) to
// (x1, y1) without touching a body whose vertical extent overlaps [z0, z1], skipping the
// bodies skip accepts (skip may be nil).
func (s *Space) SweepClear(x0, y0, x1, y1, r, z0, z1 float64, skip func(*Body) bool) bool {
	if s.kin != nil {
		return s.kin.sweepClear(x0, y0, x1, y1, r, z0, z1, skip)
	}
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
	if s.kin != nil {
		return s.kin.sightLine(x0, y0, z0, x1, y1, z1, skip)
	}
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

// each calls f with every shape of the kinematic world and its body.
func (k *kinematic) each(f func(g *geom, b *Body)) {
	for i := range k.statics {
		f(&k.statics[i].geom, k.statics[i].body)
	}
	for i := range k.movers {
		f(&k.movers[i].geom, k.movers[i].body)
	}
}

// clearDisc is Clear in kinematic mode.
func (k *kinematic) clearDisc(x, y, r, z0, z1 float64, skip func(*Body) bool) bool {
	disc := geom{x: x, y: y, c: 1, hx: r, r: r, circle: true}
	clear := true
	k.each(func(g *geom, b *Body) {
		if !clear || (skip != nil && skip(b)) || z1 < b.Base || z0 > b.Top() {
			return
		}
		if _, _, depth := penetration(&disc, g, 0); depth > 0 {
			clear = false
		}
	})
	return clear
}

// topUnder is TopUnder in kinematic mode: the track's shapes, then the movers that are not
// vehicles (boxes), so that a fleet of drones is not a scan of every drone per drone.
func (k *kinematic) topUnder(x, y, r, below float64) float64 {
	disc := geom{x: x, y: y, c: 1, hx: r, r: r, circle: true}
	top := 0.0
	try := func(g *geom, b *Body) {
		if b.Top() <= top || b.Top() > below {
			return
		}
		if _, _, depth := penetration(&disc, g, 0); depth > 0 {
			top = b.Top()
		}
	}
	for i := range k.statics {
		try(&k.statics[i].geom, k.statics[i].body)
	}
	for i := range k.movers {
		if m := &k.movers[i]; !m.vehicle {
			try(&m.geom, m.body)
		}
	}
	return top
}

// sweepClear is SweepClear in kinematic mode: the segment against each shape grown by r (a
// box grown as a box, so its corners block a little more than a swept disc would).
func (k *kinematic) sweepClear(x0, y0, x1, y1, r, z0, z1 float64, skip func(*Body) bool) bool {
	clear := true
	k.each(func(g *geom, b *Body) {
		if !clear || (skip != nil && skip(b)) || z1 < b.Base || z0 > b.Top() {
			return
		}
		grown := *g
		grown.hx += r
		if !grown.circle {
			grown.hy += r
		}
		if _, _, _, hit := rayGeom(&grown, x0, y0, x1-x0, y1-y0); hit {
			clear = false
		}
	})
	return clear
}

// sightLine is SightLine in kinematic mode.
func (k *kinematic) sightLine(x0, y0, z0, x1, y1, z1 float64, skip func(*Body) bool) float64 {
	first := 1.0
	k.each(func(g *geom, b *Body) {
		if skip != nil && skip(b) {
			return
		}
		t, _, _, hit := rayGeom(g, x0, y0, x1-x0, y1-y0)
		if !hit || t >= first {
			return
		}
		if z := z0 + t*(z1-z0); z >= b.Base && z <= b.Top() {
			first = t
		}
	})
	return first
}
