package render

import "math"

// sunVis is a static textured triangle's share of the sun past the static scene's shadows,
// baked on a grid over its texture coordinates (metres along the face, a shadow-map texel a
// grid texel) from the static shadow map and filtered over 3 × 3 grid texels, as soft as the
// floor's light map: a wall in some other element's shadow takes one lookup a pixel where the
// shadow map took a light-space walk, a depth compare and the tiles' verdicts.
type sunVis struct {
	u0, v0 float64 // texture coordinates of the grid's corner
	scale  float64 // grid texels a metre
	w, h   int
	f      []uint8 // the sun's share, 32nds
	// tiles holds, per tile of 8 × 8 texels (tw a row), the share all its texels have, or
	// mixedTile.
	tw    int
	tiles []uint8
}

// mixedTile marks a tile of a sunVis whose texels differ.
const mixedTile = 0xff

// Bounds of the baked grids: at most maxSunVisTexels a triangle and maxSunVisTotal a Static
// (a byte each); a triangle past them is looked up in the shadow map pixel by pixel.
const (
	maxSunVisTexels = 1 << 18
	maxSunVisTotal  = 1 << 22
)

// bakeSunVis bakes triangle t of mesh m (textured, facing the sun) against shadow map sm with
// depth bias, or returns nil when its grid would pass limit texels.
func bakeSunVis(m *Mesh, t *meshTri, sm *shadowMap, bias float64, limit int) *sunVis {
	p0 := vec64(m.verts[t.v[0]])
	tu, tv := faceAxes(vec64(t.n))
	u0, v0 := math.Inf(1), math.Inf(1)
	u1, v1 := math.Inf(-1), math.Inf(-1)
	for _, uv := range t.uv {
		u0, u1 = math.Min(u0, float64(uv[0])), math.Max(u1, float64(uv[0]))
		v0, v1 = math.Min(v0, float64(uv[1])), math.Max(v1, float64(uv[1]))
	}
	texel := sm.texel
	sv := &sunVis{u0: u0, v0: v0, scale: 1 / texel}
	sv.w, sv.h = int(math.Ceil((u1-u0)/texel))+1, int(math.Ceil((v1-v0)/texel))+1
	if !(sv.w > 0 && sv.h > 0) || sv.w*sv.h > min(limit, maxSunVisTexels) {
		return nil
	}
	sv.f = make([]uint8, sv.w*sv.h)
	// The face point of texture coordinates (u, v): p0 + (u − uv0)·tu + (v − uv0')·tv; its
	// shadow-map coordinates are affine in the grid's indexes.
	at := func(u, v float64) [3]float64 {
		return sm.toTexels(p0.Add(tu.Mul(u - float64(t.uv[0][0]))).Add(tv.Mul(v - float64(t.uv[0][1]))))
	}
	o := at(u0+0.5*texel, v0+0.5*texel)
	a, b := at(u0+1.5*texel, v0+0.5*texel), at(u0+0.5*texel, v0+1.5*texel)
	var di, dj [3]float64
	for c := range 3 {
		di[c], dj[c] = a[c]-o[c], b[c]-o[c]
	}
	// Lit or not at each texel's centre (one lookup), then the box filter over 3 × 3 grid
	// texels, a shadow-map texel each, as the floor's light map filters its lookups.
	lit := make([]uint8, sv.w*sv.h)
	for j := range sv.h {
		for i := range sv.w {
			fi, fj := float64(i), float64(j)
			x, y := int(math.Floor(o[0]+fi*di[0]+fj*dj[0])), int(math.Floor(o[1]+fi*di[1]+fj*dj[1]))
			d := o[2] + fi*di[2] + fj*dj[2] - bias
			if x < 0 || y < 0 || x >= sm.w || y >= sm.h || d <= float64(sm.depth[y*sm.w+x]) {
				lit[j*sv.w+i] = 1
			}
		}
	}
	boxShare3(sv.f, lit, sv.w, sv.h)
	sv.tw = (sv.w + 7) >> 3
	sv.tiles = make([]uint8, sv.tw*((sv.h+7)>>3))
	for k := range sv.tiles {
		sv.tiles[k] = mixedTile - 1 // not yet seen
	}
	for j := range sv.h {
		for i, f := range sv.f[j*sv.w : (j+1)*sv.w] {
			k := (j>>3)*sv.tw + i>>3
			switch sv.tiles[k] {
			case mixedTile - 1:
				sv.tiles[k] = f
			case f, mixedTile:
			default:
				sv.tiles[k] = mixedTile
			}
		}
	}
	return sv
}

// boxShare3 sets dst (w×h) to the share of lit texels (0 or 1 each) among each texel's 3 × 3
// (fewer at the edges), in 32nds rounded: separably, the lit texels of each row's 3, then
// those of 3 rows.
func boxShare3(dst, lit []uint8, w, h int) {
	across := make([]uint8, w*h)
	for j := range h {
		l, r := lit[j*w:(j+1)*w], across[j*w:(j+1)*w]
		for i := range l {
			s := l[i]
			if i > 0 {
				s += l[i-1]
			}
			if i < w-1 {
				s += l[i+1]
			}
			r[i] = s
		}
	}
	for j := range h {
		up, row, down := across[max(0, j-1)*w:][:w], across[j*w:][:w], across[min(h-1, j+1)*w:][:w]
		nj := 1 + min(j, 1) + min(h-1-j, 1)
		out := dst[j*w:][:w]
		for i := range w {
			sum := row[i]
			if j > 0 {
				sum += up[i]
			}
			if j < h-1 {
				sum += down[i]
			}
			out[i] = boxShares[nj*(1+min(i, 1)+min(w-1-i, 1))][sum]
		}
	}
}

// boxShares[n][s] is the share, in 32nds rounded, of s lit texels among n.
var boxShares = func() (t [10][10]uint8) {
	for n := 1; n < 10; n++ {
		for s := 0; s <= n; s++ {
			t[n][s] = uint8((32*s + n/2) / n)
		}
	}
	return t
}()

// walk returns where texture coordinates (u, v) fall on the grid and the step a pixel for
// steps (du, dv), in grid texels with 16 fractional bits.
func (sv *sunVis) walk(u, v, du, dv float64) (U, V, dU, dV int64) {
	k := sv.scale * 65536
	return int64((u - sv.u0) * k), int64((v - sv.v0) * k), int64(du * k), int64(dv * k)
}

// share returns the sun's share at grid position U, V (16 fractional bits), the nearest
// texel's, clamped to the grid (a pixel on the triangle's edge may sample just past it).
func (sv *sunVis) share(U, V int64) int32 {
	i := max(0, min(int64(sv.w-1), U>>16))
	j := max(0, min(int64(sv.h-1), V>>16))
	return int32(sv.f[j*int64(sv.w)+i])
}

// uniform reports the share all texels of the grid box with corners (U0, V0) and (U1, V1)
// (16 fractional bits, clamped to the grid) have, if they have one, by the tiles the box meets.
func (sv *sunVis) uniform(U0, V0, U1, V1 int64) (int32, bool) {
	i0, i1 := max(0, min(int64(sv.w-1), min(U0, U1)>>16))>>3, max(0, min(int64(sv.w-1), max(U0, U1)>>16))>>3
	j0, j1 := max(0, min(int64(sv.h-1), min(V0, V1)>>16))>>3, max(0, min(int64(sv.h-1), max(V0, V1)>>16))>>3
	tw := int64(sv.tw)
	f := sv.tiles[j0*tw+i0]
	if f == mixedTile {
		return 0, false
	}
	for j := j0; j <= j1; j++ {
		for _, g := range sv.tiles[j*tw+i0 : j*tw+i1+1] {
			if g != f {
				return 0, false
			}
		}
	}
	return int32(f), true
}
