package raycast

import (
	"math"
)

// Fan is a uniform fan of N rays: ray i leaves at Min + i·Step radians from a scan's heading.
// Make one with NewFan and reuse it for every scan.
type Fan struct {
	Min, Step float64
	N         int
	cos, sin  []float64
}

// NewFan returns a fan of n rays from min radians, step apart (counter-clockwise for step >
// 0). The fan should span at most a full turn.
func NewFan(min, step float64, n int) *Fan {
	f := &Fan{Min: min, Step: step, N: n, cos: make([]float64, n), sin: make([]float64, n)}
	for i := range n {
		f.sin[i], f.cos[i] = math.Sincos(min + float64(i)*step)
	}
	return f
}

// smallScene is the number of static shapes below which a scan considers them all instead of
// asking the grid for those within range.
const smallScene = 64

// cand is a shape prepared for the rays of one scan: the scan's origin in the shape's frame.
type cand struct {
	kind   Kind
	ox, oy float64 // box: origin in the box frame; circle: origin − centre
	ux, uy float64 // box axis
	hx, hy float64 // box half extents
	c      float64 // circle: |origin − centre|² − r²
	dmin   float64 // no ray meets the shape nearer than this
}

// hit is prim.hit with the origin-dependent part done once per scan.
func (k *cand) hit(dx, dy float64) float64 {
	if k.kind == Circle {
		b := k.ox*dx + k.oy*dy
		if b >= 0 {
			return math.Inf(1)
		}
		disc := b*b - k.c
		if disc < 0 {
			return math.Inf(1)
		}
		return -b - math.Sqrt(disc)
	}
	ddx := dx*k.ux + dy*k.uy
	ddy := dy*k.ux - dx*k.uy
	near, far := math.Inf(-1), math.Inf(1)
	if ddx != 0 {
		inv := 1 / ddx
		t1, t2 := (-k.hx-k.ox)*inv, (k.hx-k.ox)*inv
		if t1 > t2 {
			t1, t2 = t2, t1
		}
		near, far = t1, t2
	} else if math.Abs(k.ox) > k.hx {
		return math.Inf(1)
	}
	if ddy != 0 {
		inv := 1 / ddy
		t1, t2 := (-k.hy-k.oy)*inv, (k.hy-k.oy)*inv
		if t1 > t2 {
			t1, t2 = t2, t1
		}
		near, far = max(near, t1), min(far, t2)
	} else if math.Abs(k.oy) > k.hy {
		return math.Inf(1)
	}
	if near > far || near < 0 {
		return math.Inf(1)
	}
	return near
}

// ScanFan casts the rays of fan from (x, y) at altitude z, the fan turned by yaw, and writes
// each ray's distance to out (len(out) = fan.N): the same answers as Cast, ray for ray, but
// found shape by shape — each shape within maxDist is tested only against the rays inside the
// angle it covers as seen from (x, y), skipping rays that already hit something nearer than
// it can be — so that a scan costs about one test per ray in a corridor.
func (c *Caster) ScanFan(x, y, z, yaw float64, fan *Fan, maxDist float64, ignore uint32, out []float64) {
	out = out[:fan.N]
	for i := range out {
		out[i] = math.Inf(1)
	}
	// Directions in the world, for this heading.
	if cap(c.dx) < fan.N {
		c.dx, c.dy = make([]float64, fan.N), make([]float64, fan.N)
	}
	dx, dy := c.dx[:fan.N], c.dy[:fan.N]
	sy, cy := math.Sincos(yaw)
	for i := range dx {
		dx[i] = cy*fan.cos[i] - sy*fan.sin[i]
		dy[i] = sy*fan.cos[i] + cy*fan.sin[i]
	}
	base := yaw + fan.Min
	// The moving shapes near the fan's sector, from the grid when there is one: a fleet's
	// every scan swept every robot of it.
	dyn := func(i int32) {
		if p := &c.dyn[i]; (ignore == 0 || p.id != ignore) && z >= p.zlo && z <= p.zhi {
			c.sweep(p, x, y, base, fan, maxDist, out)
		}
	}
	if x0, y0, x1, y1 := fanBox(x, y, base, fan, maxDist); !c.grid.inBox(x0, y0, x1, y1, dyn) {
		for i := range c.dyn {
			dyn(int32(i))
		}
	}
	s := c.static
	if len(s.prims) <= smallScene {
		for i := range s.prims {
			if p := &s.prims[i]; z >= p.zlo && z <= p.zhi {
				c.sweep(p, x, y, base, fan, maxDist, out)
			}
		}
	} else if len(s.prims) > 0 {
		c.ray++
		if c.ray == 0 {
			clear(c.stamp)
			c.ray = 1
		}
		i0, j0 := s.cellOf(x-maxDist, y-maxDist)
		i1, j1 := s.cellOf(x+maxDist, y+maxDist)
		for j := j0; j <= j1; j++ {
			for i := i0; i <= i1; i++ {
				cell := j*s.nx + i
				for _, k := range s.items[s.start[cell]:s.start[cell+1]] {
					if c.stamp[k] == c.ray {
						continue
					}
					c.stamp[k] = c.ray
					if p := &s.prims[k]; z >= p.zlo && z <= p.zhi {
						c.sweep(p, x, y, base, fan, maxDist, out)
					}
				}
			}
		}
	}
	for i, t := range out {
		if t > maxDist {
			out[i] = math.Inf(1)
		}
	}
}

// fanBox returns a box holding the sector of radius r from (x, y) that a fan's rays sweep,
// its first ray at angle base: the origin, both end rays' ends, and the ends of the axis
// directions inside the sector; a fan of half a turn or more gets the whole circle's box. It is
// widened a little for rounding.
func fanBox(x, y, base float64, fan *Fan, r float64) (x0, y0, x1, y1 float64) {
	span := fan.Step * float64(fan.N-1)
	if !(math.Abs(span) < math.Pi) || !(r < math.Inf(1)) {
		return x - r, y - r, x + r, y + r
	}
	if span < 0 {
		base, span = base+span, -span
	}
	x0, y0, x1, y1 = x, y, x, y
	add := func(a float64) {
		s, c := math.Sincos(a)
		px, py := x+r*c, y+r*s
		x0, y0, x1, y1 = min(x0, px), min(y0, py), max(x1, px), max(y1, py)
	}
	add(base)
	add(base + span)
	for k := range 4 { // +x, +y, -x, -y
		a := float64(k) * math.Pi / 2
		if off := math.Mod(a-base, 2*math.Pi); off < 0 && off+2*math.Pi <= span || off >= 0 && off <= span {
			add(a)
		}
	}
	pad := 1e-6 * (1 + r)
	return x0 - pad, y0 - pad, x1 + pad, y1 + pad
}

// sweep tests shape p against the rays of the fan (first ray at angle base) that point at it.
func (c *Caster) sweep(p *prim, x, y, base float64, fan *Fan, maxDist float64, out []float64) {
	fx, fy := x-p.cx, y-p.cy
	d := math.Hypot(fx, fy)
	r := p.br
	if d-r > maxDist {
		return
	}
	k := cand{kind: p.kind, dmin: max(0, d-r)}
	// Outside the shape, the rays that can meet it lie within the angle its outline covers.
	var lo, hi float64 // relative to the direction of the centre
	if p.kind == Circle {
		k.ox, k.oy, k.c = fx, fy, fx*fx+fy*fy-p.r2
		if k.c <= 0 {
			fill(out, 0)
			return
		}
		hi = math.Asin(min(1, p.hx/d))
		lo = -hi
	} else {
		k.ux, k.uy, k.hx, k.hy = p.ux, p.uy, p.hx, p.hy
		k.ox, k.oy = fx*p.ux+fy*p.uy, fy*p.ux-fx*p.uy
		if math.Abs(k.ox) <= p.hx && math.Abs(k.oy) <= p.hy {
			fill(out, 0)
			return
		}
		if d > 4*r { // far: the bounding circle's angle is tight enough and cheaper
			hi = math.Asin(r / d)
			lo = -hi
		} else {
			// The corners' angles around the direction from the origin to the centre.
			cx, cy := -fx/d, -fy/d // unit vector origin → centre
			lo, hi = math.Inf(1), math.Inf(-1)
			for _, s := range [4][2]float64{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}} {
				vx := p.cx + s[0]*p.hx*p.ux - s[1]*p.hy*p.uy - x
				vy := p.cy + s[0]*p.hx*p.uy + s[1]*p.hy*p.ux - y
				a := math.Atan2(cx*vy-cy*vx, cx*vx+cy*vy)
				lo, hi = min(lo, a), max(hi, a)
			}
		}
	}
	if fan.N == 1 || fan.Step <= 0 { // no angular order to use
		for i := range fan.N {
			if t := k.hit(c.dx[i], c.dy[i]); t < out[i] {
				out[i] = t
			}
		}
		return
	}
	const eps = 1e-9 // rounding must not lose a ray on the edge
	centre := math.Atan2(-fy, -fx)
	rel := math.Mod(centre+lo-eps-base, 2*math.Pi)
	if rel < 0 {
		rel += 2 * math.Pi
	}
	width := hi - lo + 2*eps
	for _, shift := range [2]float64{0, -2 * math.Pi} {
		a, b := rel+shift, rel+shift+width
		i0 := max(0, int(math.Ceil(a/fan.Step)))
		i1 := min(fan.N-1, int(math.Floor(b/fan.Step)))
		for i := i0; i <= i1; i++ {
			if k.dmin >= out[i] {
				continue
			}
			if t := k.hit(c.dx[i], c.dy[i]); t < out[i] {
				out[i] = t
			}
		}
	}
}

func fill(out []float64, v float64) {
	for i := range out {
		out[i] = v
	}
}
