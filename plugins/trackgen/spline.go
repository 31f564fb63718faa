package trackgen

import "math"

type vec [2]float64

func (a vec) add(b vec) vec       { return vec{a[0] + b[0], a[1] + b[1]} }
func (a vec) sub(b vec) vec       { return vec{a[0] - b[0], a[1] - b[1]} }
func (a vec) scale(k float64) vec { return vec{a[0] * k, a[1] * k} }
func (a vec) len() float64        { return math.Hypot(a[0], a[1]) }
func lerp(a, b vec, ta, tb, t float64) vec {
	if tb == ta {
		return a
	}
	return a.scale((tb - t) / (tb - ta)).add(b.scale((t - ta) / (tb - ta)))
}

// catmullRom returns a polyline through the control points along a centripetal Catmull-Rom
// spline (alpha 0.5, which neither cusps nor loops within a segment), with vertices about
// spacing apart. The end tangents come from phantom points mirrored past the ends. Repeated
// consecutive points are dropped.
func catmullRom(points [][2]float64, spacing float64) [][2]float64 {
	var p []vec
	for _, q := range points {
		if len(p) == 0 || vec(q).sub(p[len(p)-1]).len() > 1e-9 {
			p = append(p, vec(q))
		}
	}
	if len(p) < 2 {
		out := make([][2]float64, len(p))
		for i := range p {
			out[i] = p[i]
		}
		return out
	}
	ext := make([]vec, 0, len(p)+2)
	ext = append(ext, p[0].scale(2).sub(p[1]))
	ext = append(ext, p...)
	ext = append(ext, p[len(p)-1].scale(2).sub(p[len(p)-2]))

	out := [][2]float64{p[0]}
	for i := 1; i+2 < len(ext); i++ {
		p0, p1, p2, p3 := ext[i-1], ext[i], ext[i+1], ext[i+2]
		t0 := 0.0
		t1 := t0 + math.Sqrt(p1.sub(p0).len())
		t2 := t1 + math.Sqrt(p2.sub(p1).len())
		t3 := t2 + math.Sqrt(p3.sub(p2).len())
		n := max(1, int(math.Ceil(p2.sub(p1).len()/spacing)))
		for k := 1; k <= n; k++ {
			t := t1 + (t2-t1)*float64(k)/float64(n)
			a1 := lerp(p0, p1, t0, t1, t)
			a2 := lerp(p1, p2, t1, t2, t)
			a3 := lerp(p2, p3, t2, t3, t)
			b1 := lerp(a1, a2, t0, t2, t)
			b2 := lerp(a2, a3, t1, t3, t)
			out = append(out, lerp(b1, b2, t1, t2, t))
		}
	}
	return out
}

// offset returns the polyline shifted d to the left (negative d: right) of its direction. Each
// vertex moves along the bisector of its two segments' normals, scaled (mitred) so that it
// stays d from both segments; the mitre is capped at 2d for near-reversals.
func offset(line [][2]float64, d float64) [][2]float64 {
	normal := func(a, b vec) (vec, bool) {
		t := b.sub(a)
		l := t.len()
		if l == 0 {
			return vec{}, false
		}
		return vec{-t[1] / l, t[0] / l}, true
	}
	out := make([][2]float64, len(line))
	for i := range line {
		n1, ok1 := normal(vec(line[max(i-1, 0)]), vec(line[i]))
		n2, ok2 := normal(vec(line[i]), vec(line[min(i+1, len(line)-1)]))
		switch {
		case !ok1:
			n1 = n2
		case !ok2:
			n2 = n1
		}
		m := n1.add(n2)
		ml := m.len()
		if ml < 1e-9 {
			out[i] = line[i]
			continue
		}
		m = m.scale(1 / ml)
		k := 1 / math.Max(m[0]*n1[0]+m[1]*n1[1], 0.5)
		out[i] = vec(line[i]).add(m.scale(d * k))
	}
	return out
}

// distToPolyline is the distance from q to the nearest point of the polyline.
func distToPolyline(q [2]float64, line [][2]float64) float64 {
	best := math.Inf(1)
	for i := 0; i+1 < len(line); i++ {
		best = math.Min(best, distToSegment(vec(q), vec(line[i]), vec(line[i+1])))
	}
	if len(line) == 1 {
		best = vec(q).sub(vec(line[0])).len()
	}
	return best
}

func distToSegment(q, a, b vec) float64 { return math.Sqrt(distSqToSegment(q, a, b)) }

// distSqToSegment is the squared distance from q to the segment ab.
func distSqToSegment(q, a, b vec) float64 {
	abx, aby := b[0]-a[0], b[1]-a[1]
	aqx, aqy := q[0]-a[0], q[1]-a[1]
	l2 := abx*abx + aby*aby
	t := 0.0
	if l2 > 0 {
		t = min(1, max(0, (aqx*abx+aqy*aby)/l2))
	}
	dx, dy := aqx-t*abx, aqy-t*aby
	return dx*dx + dy*dy
}

// chunks splits a polyline into consecutive pieces of about step arc length each, sharing end
// vertices; the last piece may be shorter.
func chunks(line [][2]float64, step float64) [][][2]float64 {
	var out [][][2]float64
	start, acc := 0, 0.0
	for i := 1; i < len(line); i++ {
		acc += vec(line[i]).sub(vec(line[i-1])).len()
		if acc >= step || i == len(line)-1 {
			out = append(out, line[start:i+1])
			start, acc = i, 0
		}
	}
	return out
}

// resample returns points every spacing metres of arc length along line, plus its last point.
func resample(line [][2]float64, spacing float64) [][2]float64 {
	if len(line) < 2 {
		return line
	}
	out := [][2]float64{line[0]}
	carry := 0.0 // arc length since the last output point
	for i := 1; i < len(line); i++ {
		a, b := vec(line[i-1]), vec(line[i])
		seg := b.sub(a).len()
		pos := spacing - carry // distance along this segment of the next output point
		for ; pos <= seg; pos += spacing {
			out = append(out, a.add(b.sub(a).scale(pos/seg)))
		}
		carry = seg - (pos - spacing)
	}
	if carry > 1e-9 {
		out = append(out, line[len(line)-1])
	}
	return out
}

// pieces cuts a polyline into straight pieces, each from one vertex to a later one, no longer
// than maxLen and with no vertex in between farther than sag from the piece. Consecutive
// pieces share their end vertex.
func pieces(line [][2]float64, maxLen, sag float64) [][][2]float64 {
	var out [][][2]float64
	for i := 0; i+1 < len(line); {
		j := i + 1
		for j+1 < len(line) && fits(line[i:j+2], maxLen, sag) {
			j++
		}
		out = append(out, line[i:j+1])
		i = j
	}
	return out
}

// fits reports whether the chord from the first to the last point of run is at most maxLen
// long and passes within sag of every point between.
func fits(run [][2]float64, maxLen, sag float64) bool {
	a, b := vec(run[0]), vec(run[len(run)-1])
	if b.sub(a).len() > maxLen {
		return false
	}
	for _, q := range run[1 : len(run)-1] {
		if distToSegment(vec(q), a, b) > sag {
			return false
		}
	}
	return true
}

// segGrid finds the segments of a polyline near a point: each segment is listed in every cell
// of a square grid that its bounding box touches.
type segGrid struct {
	line  [][2]float64
	size  float64
	cells map[[2]int][]int
}

func newSegGrid(line [][2]float64, size float64) *segGrid {
	g := &segGrid{line: line, size: size, cells: map[[2]int][]int{}}
	for i := 0; i+1 < len(line); i++ {
		lo, hi := g.cell(vec{math.Min(line[i][0], line[i+1][0]), math.Min(line[i][1], line[i+1][1])}),
			g.cell(vec{math.Max(line[i][0], line[i+1][0]), math.Max(line[i][1], line[i+1][1])})
		for cx := lo[0]; cx <= hi[0]; cx++ {
			for cy := lo[1]; cy <= hi[1]; cy++ {
				g.cells[[2]int{cx, cy}] = append(g.cells[[2]int{cx, cy}], i)
			}
		}
	}
	return g
}

func (g *segGrid) cell(p vec) [2]int {
	return [2]int{int(math.Floor(p[0] / g.size)), int(math.Floor(p[1] / g.size))}
}

// closer reports whether some segment passes closer than r to q.
func (g *segGrid) closer(q [2]float64, r float64) bool {
	lo, hi := g.cell(vec{q[0] - r, q[1] - r}), g.cell(vec{q[0] + r, q[1] + r})
	for cx := lo[0]; cx <= hi[0]; cx++ {
		for cy := lo[1]; cy <= hi[1]; cy++ {
			for _, i := range g.cells[[2]int{cx, cy}] {
				if distSqToSegment(vec(q), vec(g.line[i]), vec(g.line[i+1])) < r*r {
					return true
				}
			}
		}
	}
	return false
}
