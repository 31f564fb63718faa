package render

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// Shadows are shadow maps: the sun is a directional light, so its view is an orthographic
// projection, and a map of the depth nearest to the sun per texel says whether a point is lit
// (its own depth is not farther) at the cost of one lookup per pixel. The static scene's map is
// built once per Static; vehicles and other moving things are drawn each frame into a small
// map of their own around them (dynMap), with texels a power-of-two fraction of the static
// ones so that one set of light-space coordinates addresses both.

// lightFrame is the sun's orthographic frame: s = p·e1, t = p·e2 across the light, depth
// d = p·ld along it (ld points from the sun into the scene, so nearer the sun is smaller).
type lightFrame struct {
	e1, e2, ld mgl64.Vec3
}

func newLightFrame(toSun mgl64.Vec3) lightFrame {
	ld := toSun.Mul(-1)
	e1, e2 := perpendicular(ld)
	return lightFrame{e1: e1, e2: e2, ld: ld}
}

func (f *lightFrame) project(p mgl64.Vec3) (s, t, d float64) {
	return p.Dot(f.e1), p.Dot(f.e2), p.Dot(f.ld)
}

// shadowMap is a depth map over light-space texels [s0 + i·texel, ...) × [t0 + j·texel, ...).
type shadowMap struct {
	lightFrame
	s0, t0 float64
	texel  float64
	w, h   int
	depth  []float32 // +Inf where nothing is
	// tiles summarizes the map over tiles of tileSide × tileSide texels (tw × th of them): the
	// least and greatest depth in each, so that a run of pixels whose light-space box lies in
	// tiles all nearer or all deeper than it needs no lookup a pixel (see tilesVerdict).
	tw, th     int
	tmin, tmax []float32
}

// shadowTileShift is log2 of the side of a shadow map's tiles in texels.
const shadowTileShift = 3

// summarize fills the map's tiles from its depths.
func (m *shadowMap) summarize() {
	m.tw, m.th = (m.w+1<<shadowTileShift-1)>>shadowTileShift, (m.h+1<<shadowTileShift-1)>>shadowTileShift
	m.tmin, m.tmax = make([]float32, m.tw*m.th), make([]float32, m.tw*m.th)
	for i := range m.tmin {
		m.tmin[i], m.tmax[i] = inf32, float32(math.Inf(-1))
	}
	for y := range m.h {
		for x, d := range m.depth[y*m.w : (y+1)*m.w] {
			k := (y>>shadowTileShift)*m.tw + x>>shadowTileShift
			m.tmin[k], m.tmax[k] = min(m.tmin[k], d), max(m.tmax[k], d)
		}
	}
}

// Verdicts on a run of pixels.
const (
	runMixed = iota // look each pixel up
	runLit          // none is in shadow
	runDark         // all are
)

// tilesVerdict says whether the points of the light-space box [s0, s1] × [t0, t1] (texels)
// with depths (bias taken off) in [d0, d1] are all lit, all in shadow, or may be either: lit
// when every tile the box meets is no nearer than d1, dark when the box lies inside the map
// and every tile it meets is nearer than d0 throughout.
func (m *shadowMap) tilesVerdict(s0, t0, s1, t1 float64, d0, d1 float32) int {
	if !(s1 >= 0 && t1 >= 0 && s0 < float64(m.w) && t0 < float64(m.h)) { // off the map, or NaN
		return runLit
	}
	inside := s0 >= 0 && t0 >= 0 && s1 < float64(m.w) && t1 < float64(m.h)
	x0, x1 := max(0, int(s0))>>shadowTileShift, min(m.w-1, int(s1))>>shadowTileShift
	y0, y1 := max(0, int(t0))>>shadowTileShift, min(m.h-1, int(t1))>>shadowTileShift
	lit, dark := true, inside
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			k := y*m.tw + x
			lit = lit && d1 <= m.tmin[k]
			dark = dark && d0 > m.tmax[k]
		}
	}
	switch {
	case lit:
		return runLit
	case dark:
		return runDark
	}
	return runMixed
}

// Limits of the static map: texels of at least minShadowTexel metres, at most maxShadowSide a
// side (a 34 m arena gets 17 mm texels, the cardboard corridor 4 mm).
const (
	minShadowTexel = 0.004
	maxShadowSide  = 2048
)

func newShadowMap(f lightFrame, s0, t0, s1, t1, texel float64, maxSide int) *shadowMap {
	ext := math.Max(s1-s0, t1-t0)
	texel = math.Max(texel, ext/float64(maxSide))
	m := &shadowMap{lightFrame: f, s0: s0 - texel, t0: t0 - texel, texel: texel}
	m.w = min(maxSide, int(math.Ceil((s1-s0)/texel))+2)
	m.h = min(maxSide, int(math.Ceil((t1-t0)/texel))+2)
	m.depth = make([]float32, m.w*m.h)
	for i := range m.depth {
		m.depth[i] = inf32
	}
	return m
}

// drawTriangle writes the light-space triangle (s, t, d per vertex, texel units relative to the
// map origin) into the map, keeping the nearest depth, at every texel centre it covers.
func (m *shadowMap) drawTriangle(a, b, c [3]float64) {
	drawLightTri(m.depth, m.w, m.h, a, b, c)
}

// drawLightTri rasterizes a triangle given in texel coordinates (x, y, depth) into depth
// (w × h), keeping minima. Texel (i, j) is covered when its centre is inside or on an edge.
// Each row's covered interval comes from the three edge functions, which are linear in x.
func drawLightTri(depth []float32, w, h int, a, b, c [3]float64) {
	area := (b[0]-a[0])*(c[1]-a[1]) - (c[0]-a[0])*(b[1]-a[1])
	if area == 0 || math.IsNaN(area) {
		return
	}
	if area < 0 {
		b, c = c, b
		area = -area
	}
	y0 := max(0, int(math.Floor(min(a[1], b[1], c[1]))))
	y1 := min(h-1, int(math.Ceil(max(a[1], b[1], c[1]))))
	if y0 > y1 {
		return
	}
	// Edge function k at (px, py): e_k = A_k + B_k·px + C_k·py, ≥ 0 inside.
	type edge struct{ A, B, C float64 }
	mk := func(p, q [3]float64) edge { // (q − p) × (x − p)
		return edge{A: (q[0]-p[0])*(-p[1]) - (q[1]-p[1])*(-p[0]), B: -(q[1] - p[1]), C: q[0] - p[0]}
	}
	es := [3]edge{mk(b, c), mk(c, a), mk(a, b)}
	// Depth is a plane: d = D0 + Dx·px + Dy·py.
	inv := 1 / area
	Dx := (es[0].B*a[2] + es[1].B*b[2] + es[2].B*c[2]) * inv
	Dy := (es[0].C*a[2] + es[1].C*b[2] + es[2].C*c[2]) * inv
	D0 := (es[0].A*a[2] + es[1].A*b[2] + es[2].A*c[2]) * inv
	for y := y0; y <= y1; y++ {
		py := float64(y) + 0.5
		lo, hi := 0.0, float64(w) // px range, texel centres at x + 0.5
		for _, e := range es {
			k := e.A + e.C*py // e = k + B·px ≥ 0
			switch {
			case e.B > 0:
				lo = math.Max(lo, -k/e.B)
			case e.B < 0:
				hi = math.Min(hi, -k/e.B)
			case k < 0:
				hi = -1
			}
		}
		x0 := max(0, int(math.Ceil(lo-0.5)))
		x1 := min(w-1, int(math.Floor(hi-0.5)))
		if x0 > x1 {
			continue
		}
		d := D0 + Dy*py + Dx*(float64(x0)+0.5)
		row := depth[y*w+x0 : y*w+x1+1]
		for i := range row {
			if f := float32(d); f < row[i] {
				row[i] = f
			}
			d += Dx
		}
	}
}

// toTexels returns a world point in the map's texel coordinates and its depth.
func (m *shadowMap) toTexels(p mgl64.Vec3) [3]float64 {
	s, t, d := m.project(p)
	return [3]float64{(s - m.s0) / m.texel, (t - m.t0) / m.texel, d}
}

// visibleAt returns the lit fraction (0..1) of a point given in texel coordinates and depth
// (toTexels), with depth bias, for baking: the lit share of a 3 × 3 texel box centred on the
// point, each texel weighted by how much of it the box covers, so that the result changes
// smoothly as the point moves (plain lookups step at every texel edge, which shows on
// magnified floors).
func (m *shadowMap) visibleAt(q [3]float64, bias float64) float64 {
	// The box [q−1.5, q+1.5) texels overlaps texels cx−1..cx+2; the end ones partly.
	bx, by := q[0]-1.5, q[1]-1.5
	x0, y0 := int(math.Floor(bx)), int(math.Floor(by))
	fx, fy := bx-float64(x0), by-float64(y0)
	wx := [4]float64{1 - fx, 1, 1, fx}
	wy := [4]float64{1 - fy, 1, 1, fy}
	d := q[2] - bias
	lit := 0.0
	for j := range 4 {
		for i := range 4 {
			x, y := x0+i, y0+j
			if x < 0 || y < 0 || x >= m.w || y >= m.h || d <= float64(m.depth[y*m.w+x]) {
				lit += wx[i] * wy[j]
			}
		}
	}
	return lit / 9
}

// slopeBias is the depth bias a receiver needs against its own texels: half a texel's spread
// of depth over its slope to the light, plus a millimetre.
func slopeBias(cosToSun, texel float64) float64 {
	c := math.Max(cosToSun, 0.17) // beyond 80° from the light, stop growing
	tan := math.Sqrt(1-c*c) / c
	return 0.001 + 1.5*texel*tan
}
