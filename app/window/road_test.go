package window

import (
	"math"
	"testing"
)

func meshArea(r roadMesh) float64 {
	a := 0.0
	for _, t := range r.tris {
		p := t.p
		a += math.Abs((p[1][0]-p[0][0])*(p[2][1]-p[0][1])-(p[2][0]-p[0][0])*(p[1][1]-p[0][1])) / 2
	}
	return a
}

func TestRoadMesh(t *testing.T) {
	// A straight road with a repeated point: exactly its length times its width.
	r := newRoadMesh([][2]float64{{0, 0}, {1, 0}, {1, 0}, {3, 0}}, 0.5, colorRoad)
	if a := meshArea(r); math.Abs(a-1.5) > 1e-9 {
		t.Errorf("straight road area %g, want 1.5", a)
	}
	if r.lo != [2]float64{0, -0.25} || r.hi != [2]float64{3, 0.25} {
		t.Errorf("bounds %v %v", r.lo, r.hi)
	}
	// A gentle arc (mitred joints): close to the annulus sector it follows.
	var arc [][2]float64
	for k := 0; k <= 90; k++ {
		s, c := math.Sincos(float64(k) * math.Pi / 180)
		arc = append(arc, [2]float64{10 * c, 10 * s})
	}
	want := math.Pi / 4 * (10.5*10.5 - 9.5*9.5)
	if a := meshArea(newRoadMesh(arc, 1, colorRoad)); math.Abs(a-want)/want > 1e-3 {
		t.Errorf("arc area %g, want %g", a, want)
	}
	// A right angle: both legs and a disc filling the corner.
	l := newRoadMesh([][2]float64{{0, 0}, {2, 0}, {2, 2}}, 0.4, colorRoad)
	if !covers(l, 2.13, -0.13) || !covers(l, 1.9, 0.1) || covers(l, 2.25, -0.25) {
		t.Error("the corner of a right-angled road is not filled with a disc")
	}
	// A square loop whose last point is its first: the corner where it closes is filled as
	// the others are (the flat ends left a square notch there).
	sq := newRoadMesh([][2]float64{{0, 0}, {2, 0}, {2, 2}, {0, 2}, {0, 0}}, 0.4, colorRoad)
	if !covers(sq, -0.13, -0.13) || !covers(sq, 2.13, -0.13) || covers(sq, -0.25, -0.25) {
		t.Error("the corner where a road closes its loop is not filled like the others")
	}
}

// covers reports whether a point lies in one of r's triangles.
func covers(r roadMesh, x, y float64) bool {
	for _, t := range r.tris {
		p := t.p
		d1 := (x-p[1][0])*(p[0][1]-p[1][1]) - (p[0][0]-p[1][0])*(y-p[1][1])
		d2 := (x-p[2][0])*(p[1][1]-p[2][1]) - (p[1][0]-p[2][0])*(y-p[2][1])
		d3 := (x-p[0][0])*(p[2][1]-p[0][1]) - (p[2][0]-p[0][0])*(y-p[0][1])
		neg, pos := d1 < 0 || d2 < 0 || d3 < 0, d1 > 0 || d2 > 0 || d3 > 0
		if !(neg && pos) {
			return true
		}
	}
	return false
}
