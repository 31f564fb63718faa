package window

import "math"

// roadMesh is a road seen from above as world-frame triangles, built once per layout: drawing
// it costs a few vertices a frame and no memory that grows with the zoom (stroking paths with
// the vector package costs a stencil image per path the size of what it covers on screen).
type roadMesh struct {
	tris   []worldTri
	lo, hi [2]float64 // bounding box, for skipping roads off screen
}

// sharpJoint is the turn, in radians, above which two segments of a road meet in a round
// joint; gentler turns are mitred.
const sharpJoint = 25 * math.Pi / 180

// newRoadMesh lays a strip of width along points with flat ends, as render lays roads in 3D:
// mitred where the road bends gently, a disc where it turns sharply.
func newRoadMesh(points [][2]float64, width float64, c rgba) roadMesh {
	var pts [][2]float64
	for _, p := range points {
		if n := len(pts); n == 0 || math.Hypot(p[0]-pts[n-1][0], p[1]-pts[n-1][1]) > 1e-9 {
			pts = append(pts, p)
		}
	}
	r := roadMesh{lo: [2]float64{math.Inf(1), math.Inf(1)}, hi: [2]float64{math.Inf(-1), math.Inf(-1)}}
	if len(pts) < 2 || !(width > 0) {
		return r
	}
	h := width / 2
	// dirs[i] is the unit direction of segment i (pts[i] to pts[i+1]).
	dirs := make([][2]float64, len(pts)-1)
	for i := range dirs {
		dx, dy := pts[i+1][0]-pts[i][0], pts[i+1][1]-pts[i][1]
		l := math.Hypot(dx, dy)
		dirs[i] = [2]float64{dx / l, dy / l}
	}
	// offset is the left offset of the strip at point j for segment i: mitred at a gentle
	// joint, square to the segment at an end or a sharp joint.
	sharp := func(j int) bool {
		a, b := dirs[j-1], dirs[j]
		return math.Abs(math.Atan2(a[0]*b[1]-a[1]*b[0], a[0]*b[0]+a[1]*b[1])) > sharpJoint
	}
	offset := func(j, i int) [2]float64 {
		n := [2]float64{-dirs[i][1] * h, dirs[i][0] * h}
		if j == 0 || j == len(pts)-1 || sharp(j) {
			return n
		}
		a, b := dirs[j-1], dirs[j]
		mx, my := -(a[1] + b[1]), a[0]+b[0]
		l := math.Hypot(mx, my)
		cos := (mx*n[0] + my*n[1]) / (l * h) // cos of half the turn
		k := h / (l * cos)
		return [2]float64{mx * k, my * k}
	}
	add := func(a, b, d [2]float64) {
		r.tris = append(r.tris, worldTri{p: [3][2]float64{a, b, d}, c: c})
		for _, q := range [3][2]float64{a, b, d} {
			r.lo[0], r.lo[1] = math.Min(r.lo[0], q[0]), math.Min(r.lo[1], q[1])
			r.hi[0], r.hi[1] = math.Max(r.hi[0], q[0]), math.Max(r.hi[1], q[1])
		}
	}
	for i := range dirs {
		p, q := pts[i], pts[i+1]
		o0, o1 := offset(i, i), offset(i+1, i)
		a, b := [2]float64{p[0] + o0[0], p[1] + o0[1]}, [2]float64{q[0] + o1[0], q[1] + o1[1]}
		d, e := [2]float64{q[0] - o1[0], q[1] - o1[1]}, [2]float64{p[0] - o0[0], p[1] - o0[1]}
		add(e, d, b)
		add(e, b, a)
	}
	// A road whose last point is its first closes a loop: its flat ends meet there at a
	// corner, filled with a disc as a sharp joint is (they left a square notch).
	closed := len(pts) > 2 && pts[0] == pts[len(pts)-1]
	for j := 0; j < len(pts)-1; j++ {
		if j == 0 && !closed || j > 0 && !sharp(j) {
			continue
		}
		const n = 16
		p := pts[j]
		for k := range n {
			s0, c0 := math.Sincos(2 * math.Pi * float64(k) / n)
			s1, c1 := math.Sincos(2 * math.Pi * float64(k+1) / n)
			add(p, [2]float64{p[0] + c0*h, p[1] + s0*h}, [2]float64{p[0] + c1*h, p[1] + s1*h})
		}
	}
	return r
}
