package raycast

import (
	"math"
)

// Static is the part of a scene that does not move, bucketed in a uniform grid. It is
// immutable and safe to share between goroutines.
type Static struct {
	prims []prim
	// Grid: nx × ny square cells of side cell from (x0, y0); cell c lists
	// items[start[c]:start[c+1]], indices into prims.
	x0, y0, cell float64
	nx, ny       int
	start        []int32
	items        []int32
}

// maxCellsPerSide bounds the grid; tracks larger than this many cells a side get bigger cells.
const maxCellsPerSide = 256

// NewStatic buckets shapes into a grid. The cell size is chosen so that a cell holds a few
// shapes: about 2·√n cells along the longer side of the scene for n shapes.
func NewStatic(shapes []Shape) *Static {
	s := &Static{prims: make([]prim, len(shapes))}
	if len(shapes) == 0 {
		return s
	}
	bx0, by0 := math.Inf(1), math.Inf(1)
	bx1, by1 := math.Inf(-1), math.Inf(-1)
	for i, sh := range shapes {
		s.prims[i] = newPrim(sh)
		x0, y0, x1, y1 := s.prims[i].bounds()
		bx0, by0, bx1, by1 = min(bx0, x0), min(by0, y0), max(bx1, x1), max(by1, y1)
	}
	side := max(bx1-bx0, by1-by0, 1e-3)
	n := min(maxCellsPerSide, max(1, int(math.Ceil(2*math.Sqrt(float64(len(shapes)))))))
	s.cell = side / float64(n)
	s.x0, s.y0 = bx0, by0
	s.nx = min(maxCellsPerSide, max(1, int(math.Ceil((bx1-bx0)/s.cell))))
	s.ny = min(maxCellsPerSide, max(1, int(math.Ceil((by1-by0)/s.cell))))

	// Two passes: count, then fill (compressed rows).
	cells := make([][]int32, s.nx*s.ny)
	for i := range s.prims {
		p := &s.prims[i]
		x0, y0, x1, y1 := p.bounds()
		i0, j0 := s.cellOf(x0, y0)
		i1, j1 := s.cellOf(x1, y1)
		for j := j0; j <= j1; j++ {
			for ii := i0; ii <= i1; ii++ {
				if p.overlapsCell(s.x0+float64(ii)*s.cell, s.y0+float64(j)*s.cell, s.cell) {
					c := j*s.nx + ii
					cells[c] = append(cells[c], int32(i))
				}
			}
		}
	}
	s.start = make([]int32, len(cells)+1)
	for c, l := range cells {
		s.start[c+1] = s.start[c] + int32(len(l))
		s.items = append(s.items, l...)
	}
	return s
}

// Len returns the number of static shapes.
func (s *Static) Len() int { return len(s.prims) }

// cellOf returns the cell holding (x, y), clamped to the grid.
func (s *Static) cellOf(x, y float64) (int, int) {
	i := int(math.Floor((x - s.x0) / s.cell))
	j := int(math.Floor((y - s.y0) / s.cell))
	return min(max(i, 0), s.nx-1), min(max(j, 0), s.ny-1)
}

// overlapsCell reports whether the shape touches the square cell [x, x+c] × [y, y+c]
// (separating axes for a box, nearest point for a circle).
func (p *prim) overlapsCell(x, y, c float64) bool {
	hc := c / 2
	mx, my := x+hc, y+hc
	if p.kind == Circle {
		dx := math.Max(math.Abs(p.cx-mx)-hc, 0)
		dy := math.Max(math.Abs(p.cy-my)-hc, 0)
		return dx*dx+dy*dy <= p.r2
	}
	// World axes.
	ex := math.Abs(p.ux)*p.hx + math.Abs(p.uy)*p.hy
	ey := math.Abs(p.uy)*p.hx + math.Abs(p.ux)*p.hy
	if math.Abs(p.cx-mx) > ex+hc || math.Abs(p.cy-my) > ey+hc {
		return false
	}
	// The box's axes: the cell's projection radius on a unit axis (ax, ay) is hc·(|ax|+|ay|).
	fx, fy := mx-p.cx, my-p.cy
	if math.Abs(fx*p.ux+fy*p.uy) > p.hx+hc*(math.Abs(p.ux)+math.Abs(p.uy)) {
		return false
	}
	return math.Abs(fy*p.ux-fx*p.uy) <= p.hy+hc*(math.Abs(p.ux)+math.Abs(p.uy))
}

// Caster casts rays against a Static and a set of moving shapes. It is not safe for concurrent
// use.
type Caster struct {
	static *Static
	dyn    []prim
	grid   dynGrid // indexes dyn when there are many
	// Scan scratch: the moving shapes that can matter for the current scan.
	near []prim
	// Mailbox: stamp[i] == ray when static shape i was already tested by this ray.
	stamp []uint32
	ray   uint32
	// ScanFan's ray directions.
	dx, dy []float64
}

// NewCaster returns a caster over s (nil means no static shapes).
func NewCaster(s *Static) *Caster {
	if s == nil {
		s = NewStatic(nil)
	}
	return &Caster{static: s, stamp: make([]uint32, len(s.prims))}
}

// SetStatic replaces the static scene (after a track is laid out again).
func (c *Caster) SetStatic(s *Static) {
	c.static = s
	c.stamp = make([]uint32, len(s.prims))
	c.ray = 0
}

// Static returns the static scene.
func (c *Caster) Static() *Static { return c.static }

// SetDynamic replaces the moving shapes.
func (c *Caster) SetDynamic(shapes []Shape) {
	c.dyn = c.dyn[:0]
	for _, s := range shapes {
		c.dyn = append(c.dyn, newPrim(s))
	}
	c.grid.build(c.dyn)
}

// Cast returns the distance from (x, y) along the direction angle (radians, counter-clockwise
// from +x) to the first shape containing altitude z, ignoring shapes with ID ignore (0 ignores
// nothing); +Inf when nothing is hit within maxDist.
func (c *Caster) Cast(x, y, z, angle, maxDist float64, ignore uint32) float64 {
	dy, dx := math.Sincos(angle)
	c.near = c.filterDyn(c.near[:0], x, y, z, dx, dy, maxDist, ignore)
	return c.cast(x, y, z, dx, dy, maxDist)
}

// filterDyn keeps the moving shapes that the ray from (x, y) at altitude z along the unit
// (dx, dy) can hit within maxDist: those whose bounding circle meets the ray's segment, found
// in the grid cells of the segment's bounding box. A sonar's cone of rays in a fleet of
// thousands asked for the whole circle of its range around the robot, hundreds of robots per
// ray, each with a square root; the segment's box holds a few. Dropping a shape the segment
// misses changes no result: it could only be hit beyond maxDist, which reads as no hit.
func (c *Caster) filterDyn(dst []prim, x, y, z, dx, dy, maxDist float64, ignore uint32) []prim {
	keep := func(i int32) {
		p := &c.dyn[i]
		if p.id == ignore && ignore != 0 || z < p.zlo || z > p.zhi {
			return
		}
		// The point of the segment nearest the centre, and whether the circle reaches it
		// (a hair wider, so that rounding never drops a shape the ray grazes).
		px, py := p.cx-x, p.cy-y
		t := min(max(px*dx+py*dy, 0), maxDist)
		ex, ey := px-t*dx, py-t*dy
		if r := p.br*(1+1e-9) + 1e-9; ex*ex+ey*ey > r*r {
			return
		}
		dst = append(dst, *p)
	}
	ex, ey := x+dx*maxDist, y+dy*maxDist
	if !c.grid.inBox(min(x, ex), min(y, ey), max(x, ex), max(y, ey), keep) {
		for i := range c.dyn {
			keep(int32(i))
		}
	}
	return dst
}

// cast is one ray with a unit direction against the static grid and c.near.
func (c *Caster) cast(x, y, z, dx, dy, maxDist float64) float64 {
	best := math.Inf(1)
	for i := range c.near {
		if t := c.near[i].hit(x, y, dx, dy); t < best {
			best = t
		}
	}
	limit := min(best, maxDist)
	if t := c.castStatic(x, y, z, dx, dy, limit); t < best {
		best = t
	}
	if best > maxDist {
		return math.Inf(1)
	}
	return best
}

// castStatic walks the grid cells the ray crosses up to distance limit and returns the nearest
// static hit at or before limit, or +Inf.
func (c *Caster) castStatic(x, y, z, dx, dy, limit float64) float64 {
	s := c.static
	if len(s.prims) == 0 {
		return math.Inf(1)
	}
	// Clip the ray to the grid's rectangle.
	gx1, gy1 := s.x0+float64(s.nx)*s.cell, s.y0+float64(s.ny)*s.cell
	t0, t1 := 0.0, limit
	var ok bool
	if t0, t1, ok = clipSlab(x, dx, s.x0, gx1, t0, t1); !ok {
		return math.Inf(1)
	}
	if t0, t1, ok = clipSlab(y, dy, s.y0, gy1, t0, t1); !ok {
		return math.Inf(1)
	}
	c.ray++
	if c.ray == 0 { // wrapped: forget old stamps
		clear(c.stamp)
		c.ray = 1
	}
	px, py := x+dx*t0, y+dy*t0
	i, j := s.cellOf(px, py)
	stepI, stepJ := 1, 1
	nextX, nextY := math.Inf(1), math.Inf(1) // distance to the next vertical / horizontal cell line
	deltaX, deltaY := math.Inf(1), math.Inf(1)
	if dx > 0 {
		deltaX = s.cell / dx
		nextX = (s.x0 + float64(i+1)*s.cell - x) / dx
	} else if dx < 0 {
		stepI = -1
		deltaX = -s.cell / dx
		nextX = (s.x0 + float64(i)*s.cell - x) / dx
	}
	if dy > 0 {
		deltaY = s.cell / dy
		nextY = (s.y0 + float64(j+1)*s.cell - y) / dy
	} else if dy < 0 {
		stepJ = -1
		deltaY = -s.cell / dy
		nextY = (s.y0 + float64(j)*s.cell - y) / dy
	}
	best := math.Inf(1)
	for {
		cell := j*s.nx + i
		for _, k := range s.items[s.start[cell]:s.start[cell+1]] {
			if c.stamp[k] == c.ray {
				continue
			}
			c.stamp[k] = c.ray
			p := &s.prims[k]
			if z < p.zlo || z > p.zhi {
				continue
			}
			if t := p.hit(x, y, dx, dy); t < best {
				best = t
			}
		}
		exit := min(nextX, nextY)
		if best <= exit || exit > t1 {
			break
		}
		if nextX < nextY {
			i += stepI
			if i < 0 || i >= s.nx {
				break
			}
			nextX += deltaX
		} else {
			j += stepJ
			if j < 0 || j >= s.ny {
				break
			}
			nextY += deltaY
		}
	}
	if best > limit {
		return math.Inf(1)
	}
	return best
}

// clipSlab narrows [t0, t1] to where p + t·d lies within [lo, hi]; ok is false when empty.
func clipSlab(p, d, lo, hi, t0, t1 float64) (float64, float64, bool) {
	if d == 0 {
		return t0, t1, p >= lo && p <= hi
	}
	a, b := (lo-p)/d, (hi-p)/d
	if a > b {
		a, b = b, a
	}
	t0, t1 = max(t0, a), min(t1, b)
	return t0, t1, t0 <= t1
}
