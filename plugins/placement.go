package plugins

import (
	"fmt"
	"math"
)

// checkPlacement warns, for a track whose descriptor is its layout, of spawn points off the
// floor or inside a solid element, of waypoints off the floor and of route legs through a
// fixed one: the track validates,
// and then the robot starts beside it, is pushed out of a wall, or a route asks to drive
// through one. Warnings, since the world copes (it moves a robot out of what it overlaps).
func (ps *Problems) checkPlacement(t *TrackDescriptor) {
	var solids []solid
	for i, e := range t.Elements {
		if s, ok := solidOf(e, i); ok {
			solids = append(solids, s)
		}
	}
	f := t.Floor
	offFloor := func(x, y float64) bool {
		return f != nil && f.Length > 0 && f.Width > 0 && (math.Abs(x-f.X) > f.Length/2 || math.Abs(y-f.Y) > f.Width/2)
	}
	for i, sp := range t.SpawnPoints {
		p := index("descriptor.spawnPoints", i)
		if offFloor(sp.X, sp.Y) {
			ps.warn(p, "(%s, %s) is off the floor (%s × %s m around (%s, %s)): a robot would start beside the track",
				fmtNum(sp.X), fmtNum(sp.Y), fmtNum(f.Length), fmtNum(f.Width), fmtNum(f.X), fmtNum(f.Y))
		}
		for _, s := range solids {
			if s.contains(sp.X, sp.Y) {
				ps.warn(p, "(%s, %s) is inside %s: a robot starting there is pushed out of it", fmtNum(sp.X), fmtNum(sp.Y), s.name)
				break
			}
		}
	}
	r := t.Route
	if r == nil {
		return
	}
	if r.CorridorWidth > 0 && len(r.Waypoints) > 0 {
		for i, sp := range t.SpawnPoints {
			if d := DistanceToPolyline(r.Waypoints, sp.X, sp.Y); d > r.CorridorWidth/2 {
				ps.warn(index("descriptor.spawnPoints", i), "(%s, %s) is %s m from the route, outside its corridor (%s m wide): a robot starting there is out of bounds at once",
					fmtNum(sp.X), fmtNum(sp.Y), fmtNum(math.Round(d*100)/100), fmtNum(r.CorridorWidth))
			}
		}
	}
	for i, w := range r.Waypoints {
		if offFloor(w[0], w[1]) {
			ps.warn(index("descriptor.route.waypoints", i), "(%s, %s) is off the floor (%s × %s m around (%s, %s)): the route leaves the track",
				fmtNum(w[0]), fmtNum(w[1]), fmtNum(f.Length), fmtNum(f.Width), fmtNum(f.X), fmtNum(f.Y))
		}
	}
	legs := len(r.Waypoints) - 1
	if r.Loop && len(r.Waypoints) > 2 {
		legs++
	}
	for i := range max(legs, 0) {
		a, b := r.Waypoints[i], r.Waypoints[(i+1)%len(r.Waypoints)]
		for _, s := range solids {
			if !s.movable && s.crosses(a, b) {
				ps.warn(index("descriptor.route.waypoints", (i+1)%len(r.Waypoints)),
					"the leg from waypoint %d to %d passes through %s", i, (i+1)%len(r.Waypoints), s.name)
				break
			}
		}
	}
}

// solid is an element robots cannot pass through, in the ground plane: a rectangle (walls
// and boxes, turned by yaw), a circle (cylinders) or a polygon.
type solid struct {
	name    string
	movable bool
	kind    string
	x, y    float64 // centre (rectangles, circles)
	c, s    float64 // cos and sin of the yaw (rectangles)
	hl, hw  float64 // half length and width (rectangles); hl the radius (circles)
	poly    [][2]float64
}

func solidOf(e Element, i int) (solid, bool) {
	if !(e.Height > 0) {
		return solid{}, false
	}
	name := fmt.Sprintf("%s %q", e.Kind, e.Name)
	if e.Name == "" {
		name = fmt.Sprintf("%s (element %d, no name)", e.Kind, i)
	}
	switch e.Kind {
	case ElementWall, ElementBox:
		s, c := math.Sincos(e.YawDeg * math.Pi / 180)
		return solid{name: name, movable: e.Movable, kind: e.Kind, x: e.X, y: e.Y, c: c, s: s, hl: e.Length / 2, hw: e.Width / 2}, true
	case ElementCylinder:
		return solid{name: name, kind: e.Kind, x: e.X, y: e.Y, hl: e.Radius}, true
	case ElementPolygon:
		if len(e.Points) >= 3 {
			return solid{name: name, kind: e.Kind, poly: e.Points}, true
		}
	}
	return solid{}, false
}

// local returns (x, y) in a rectangle's frame.
func (s solid) local(x, y float64) (float64, float64) {
	dx, dy := x-s.x, y-s.y
	return dx*s.c + dy*s.s, -dx*s.s + dy*s.c
}

func (s solid) contains(x, y float64) bool {
	switch {
	case s.poly != nil:
		return InPolygon(x, y, s.poly)
	case s.kind == ElementCylinder:
		return math.Hypot(x-s.x, y-s.y) < s.hl
	}
	lx, ly := s.local(x, y)
	return math.Abs(lx) < s.hl && math.Abs(ly) < s.hw
}

// crosses reports whether the segment a-b passes through the solid.
func (s solid) crosses(a, b [2]float64) bool {
	if s.contains(a[0], a[1]) || s.contains(b[0], b[1]) {
		return true
	}
	switch {
	case s.poly != nil:
		for i, p := range s.poly {
			if segmentsCross(a, b, p, s.poly[(i+1)%len(s.poly)]) {
				return true
			}
		}
		return false
	case s.kind == ElementCylinder:
		return SegmentDistance(a, b, [2]float64{s.x, s.y}) < s.hl
	}
	// A rectangle: in its frame, the segment against its four sides.
	ax, ay := s.local(a[0], a[1])
	bx, by := s.local(b[0], b[1])
	la, lb := [2]float64{ax, ay}, [2]float64{bx, by}
	corners := [4][2]float64{{-s.hl, -s.hw}, {s.hl, -s.hw}, {s.hl, s.hw}, {-s.hl, s.hw}}
	for i := range corners {
		if segmentsCross(la, lb, corners[i], corners[(i+1)%4]) {
			return true
		}
	}
	return false
}

// InPolygon reports whether (x, y) is inside the polygon (even-odd rule).
func InPolygon(x, y float64, poly [][2]float64) bool {
	in := false
	for i, j := 0, len(poly)-1; i < len(poly); j, i = i, i+1 {
		a, b := poly[i], poly[j]
		if (a[1] > y) != (b[1] > y) && x < (b[0]-a[0])*(y-a[1])/(b[1]-a[1])+a[0] {
			in = !in
		}
	}
	return in
}

// segmentsCross reports whether segments p1-p2 and q1-q2 properly intersect.
func segmentsCross(p1, p2, q1, q2 [2]float64) bool {
	cross := func(o, a, b [2]float64) float64 { return (a[0]-o[0])*(b[1]-o[1]) - (a[1]-o[1])*(b[0]-o[0]) }
	d1, d2 := cross(q1, q2, p1), cross(q1, q2, p2)
	d3, d4 := cross(p1, p2, q1), cross(p1, p2, q2)
	return (d1 > 0) != (d2 > 0) && (d3 > 0) != (d4 > 0)
}

// NearestOnSegment returns the point of the segment a-b nearest c.
func NearestOnSegment(a, b, c [2]float64) [2]float64 {
	dx, dy := b[0]-a[0], b[1]-a[1]
	t := 0.0
	if n := dx*dx + dy*dy; n > 0 {
		t = max(0, min(1, ((c[0]-a[0])*dx+(c[1]-a[1])*dy)/n))
	}
	return [2]float64{a[0] + t*dx, a[1] + t*dy}
}

// SegmentDistance is the distance from c to the segment a-b.
func SegmentDistance(a, b, c [2]float64) float64 {
	q := NearestOnSegment(a, b, c)
	return math.Hypot(c[0]-q[0], c[1]-q[1])
}

// DistanceToPolyline is the distance from (x, y) to the nearest point of the waypoints' line.
func DistanceToPolyline(wps [][2]float64, x, y float64) float64 {
	if len(wps) == 1 {
		return math.Hypot(x-wps[0][0], y-wps[0][1])
	}
	best := math.Inf(1)
	for i := 1; i < len(wps); i++ {
		best = math.Min(best, SegmentDistance(wps[i-1], wps[i], [2]float64{x, y}))
	}
	return best
}
