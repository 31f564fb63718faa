package render

import (
	"math"
	"math/bits"

	"github.com/go-gl/mathgl/mgl64"
)

// litFloor is the floor rectangle with its static light baked in: per texel of the light map's
// grid, the floor's albedo (its texture's texel there, or its plain colour) times the light of
// that texel's light-map code, packed as the drawing buffer holds pixels, with mip levels. A
// minified floor pixel is then one texel, as a textured pixel of the flat look is. The twin
// pyramid amb is the same without the sun, for what a moving caster shadows.
type litFloor struct {
	texel  float64 // metres per level-0 texel
	levels []litLevel
}

// litLevel is one level: w × h texels stored with a border of one texel repeating the edge
// (stride w+2, texel (i, j) at (j+1)·stride + i+1), so that the bilinear taps of any point of
// the floor are in the slice without clamping each.
type litLevel struct {
	w, h     int
	sun, amb []uint64
}

// padBorder fills the border of p, a w × h level stored with one (stride w+2), with its edges.
func padBorder(p []uint64, w, h int) {
	stride := w + 2
	for j := 1; j <= h; j++ {
		row := p[j*stride:][:stride]
		row[0], row[stride-1] = row[1], row[w]
	}
	copy(p[:stride], p[stride:][:stride])
	copy(p[(h+1)*stride:][:stride], p[h*stride:][:stride])
}

// maxLitFloorTexels bounds the baked floor (16 bytes a texel and a third more for mips): a
// floor needing more (a large arena at light-map resolution) is drawn from its texture and
// light map.
const maxLitFloorTexels = 1 << 20

// floorGrid returns the floor light map's texel for a floor of extent ext (metres, its longer
// side) with texture tex (nil: plain): a power-of-two multiple of the texture's texel about
// minLightTexel or more, so that every light-map texel holds one texel of a mip level of the
// texture; a plain floor takes minLightTexel. Either way at most maxLightSide texels a side.
func floorGrid(ext float64, tex *Texture) (texel float64, level int) {
	want := math.Max(minLightTexel, ext/maxLightSide)
	if tex == nil {
		return want, 0
	}
	texel = tex.period / float64(tex.Size())
	for texel < 0.75*minLightTexel || texel < ext/maxLightSide {
		texel *= 2
		level++
	}
	return texel, level
}

// newLitFloor bakes the floor of sc (its rectangle f) on the grid of its light map, or of
// floorGrid without one; nil when that is larger than maxLitFloorTexels.
func newLitFloor(sc *realScene, f *floorRect) *litFloor {
	texel, k := floorGrid(math.Max(f.length, f.width), sc.floorTex)
	w, h := int(math.Ceil(f.length/texel)), int(math.Ceil(f.width/texel))
	lm := sc.floorLit
	if lm != nil {
		texel, w, h = lm.texel, lm.w, lm.h
	}
	if w*h > maxLitFloorTexels || w < 1 || h < 1 {
		return nil
	}
	lut := &sc.light.floorLUT
	srgb := srgbTable
	var alb *texLevel
	if sc.floorTex != nil {
		alb = &sc.floorTex.levels[min(k, len(sc.floorTex.levels)-1)]
	}
	lf := &litFloor{texel: texel}
	// Level 0 is written straight into its bordered layout, each level after from the last.
	stride := w + 2
	l0 := litLevel{w: w, h: h, sun: make([]uint64, stride*(h+2)), amb: make([]uint64, stride*(h+2))}
	for j := range h {
		sun, amb := l0.sun[(j+1)*stride+1:][:w], l0.amb[(j+1)*stride+1:][:w]
		for i := range w {
			code := uint8(0xff)
			if lm != nil {
				code = lm.idx[j*w+i]
			}
			sun[i] = floorTexel(alb, srgb, &lut[code], i, j)
			amb[i] = floorTexel(alb, srgb, &lut[code&0xf0], i, j)
		}
	}
	padBorder(l0.sun, w, h)
	padBorder(l0.amb, w, h)
	for prev := l0; ; {
		lf.levels = append(lf.levels, prev)
		if prev.w == 1 && prev.h == 1 {
			break
		}
		prev = litLevel{w: (prev.w + 1) / 2, h: (prev.h + 1) / 2,
			sun: boxHalf(prev.sun, prev.w, prev.h), amb: boxHalf(prev.amb, prev.w, prev.h)}
	}
	return lf
}

// floorTexel is the packed light of texel (i, j) of the floor under light L: the texture's
// texel there times L, or L itself on a plain floor (as floorSpanReal draws a texel).
func floorTexel(alb *texLevel, srgb *[256]uint16, L *[3]int32, i, j int) uint64 {
	if alb == nil {
		return packLight(L[0], L[1], L[2])
	}
	mask := 1<<alb.shift - 1
	return packLight(reflected(srgb, alb.texels[(j&mask)<<alb.shift|i&mask], L[0], L[1], L[2]))
}

// boxHalf averages src (w × h packed pixels, bordered as a litLevel's) over 2 × 2 blocks
// into a bordered level half the size (rounded up; a last odd row or column repeats).
func boxHalf(src []uint64, w, h int) []uint64 {
	nw, nh := (w+1)/2, (h+1)/2
	ss, ds := w+2, nw+2 // strides
	dst := make([]uint64, ds*(nh+2))
	const two = 2 | 2<<laneShift | 2<<(2*laneShift) // rounding of the sum of four
	for j := range nh {
		r0, r1 := src[(2*j+1)*ss+1:][:w], src[(min(2*j+1, h-1)+1)*ss+1:][:w]
		d := dst[(j+1)*ds+1:][:nw]
		for i := range d {
			i0, i1 := 2*i, min(2*i+1, w-1)
			s := r0[i0] + r0[i1] + r1[i0] + r1[i1]
			d[i] = (s + two) >> 2 & lanesLin
		}
	}
	padBorder(dst, nw, nh)
	return dst
}

// level returns the level for a footprint of foot level-0 texels and its texel in metres.
func (lf *litFloor) level(foot float64) (*litLevel, float64) {
	l, texel := 0, lf.texel
	for foot >= 2 && l < len(lf.levels)-1 {
		foot /= 2
		texel *= 2
		l++
	}
	return &lf.levels[l], texel
}

// litFloorSpan is floorSpanReal for a floor with its light baked (sc.litFloor): a floor pixel
// is one texel of the level its footprint matches, or where the floor is magnified the
// bilinear blend of level 0's four nearest texels; where a caster's shadow falls (shade, nil
// when none does) the pyramid without the sun.
func (fs *frameState) litFloorSpan(rd mgl64.Vec3, y, xa, xb int, zr []float32, px []uint64, shade []uint16) {
	bg := &fs.background
	rf := &fs.real
	tmp := rf.rowTmp[y/tileRows*fs.w:][:fs.w] // the band's
	lf := rf.scene.litFloor
	f := bg.floor
	n := xb - xa
	chunk := n
	if !bg.rollFree {
		chunk = chunkPx
	}
	shaded := shade != nil
	if !shaded {
		shade = rf.noShade[:n]
	}
	// Columns of the span triangles reached (the others are empty) and the mask is set in.
	zlo, zhi := fs.cover[y].within(xa, xb)
	slo, shi := rf.shadeCover[y].within(xa, xb)
	Lq, Wq := int64(f.length*floorOne), int64(f.width*floorOne)
	for i0 := 0; i0 < n; i0 += chunk {
		m := min(chunk, n-i0)
		fw := bg.floorWalk(rd, xa+i0, m)
		zc, pc, sc := zr[i0:i0+m], px[i0:i0+m], shade[i0:i0+m]
		// Columns [a, b) of the chunk are on the floor rectangle; the others see the ground.
		a, b := walkRange(fw.X, fw.dX, Lq, m)
		a2, b2 := walkRange(fw.Y, fw.dY, Wq, m)
		a, b = max(a, a2), min(b, b2)
		if a >= b {
			a, b = m, m
		}
		iz := fw.iz
		iz = groundSpan(zc[:a], pc[:a], iz, fw.dzi, rf.lt.ground, fs.depth)
		foot := math.Sqrt(fw.fh*fw.fv) / lf.texel
		lv, texel := lf.level(foot)
		ls := litSpan{lv: lv, X: fw.X + int64(a)*fw.dX, Y: fw.Y + int64(a)*fw.dY, dX: fw.dX, dY: fw.dY,
			k: int64(math.Round(65536 / texel)), iz: iz, dzi: fw.dzi, depth: fs.depth, shaded: shaded,
			zlo: clampCount(zlo-i0-a, b-a), zhi: clampCount(zhi-i0-a, b-a), slo: clampCount(slo-i0-a, b-a), shi: clampCount(shi-i0-a, b-a)}
		switch {
		case foot < 1.0/8: // a texel spans 8 pixels or more: a sample every 8th
			ls.bilinearSparse(zc[a:b], pc[a:b], sc[a:b], 8, tmp)
		case foot < 1.0/4: // 4 or more: every 4th
			ls.bilinearSparse(zc[a:b], pc[a:b], sc[a:b], 4, tmp)
		case foot < 1.0/2: // 2 or more: every 2nd
			ls.bilinearSparse(zc[a:b], pc[a:b], sc[a:b], 2, tmp)
		case foot < 1:
			ls.bilinear(zc[a:b], pc[a:b], sc[a:b])
		default:
			ls.nearest(zc[a:b], pc[a:b], sc[a:b])
		}
		groundSpan(zc[b:], pc[b:], ls.iz, fw.dzi, rf.lt.ground, fs.depth)
	}
}

// walkRange returns the steps [lo, hi) of 0..m−1 at which a walk from x by dx a step is in
// [0, l).
func walkRange(x, dx, l int64, m int) (lo, hi int) {
	// first returns the first step from which x + i·dx >= c holds for good (dx > 0), or
	// x + i·dx < c does (dx < 0).
	first := func(c int64) int64 {
		switch {
		case dx > 0 && x >= c, dx < 0 && x < c:
			return 0
		case dx > 0:
			return (c - x + dx - 1) / dx
		default:
			return (x-c)/-dx + 1
		}
	}
	var a, b int64
	switch {
	case dx == 0:
		if x < 0 || x >= l {
			return 0, 0
		}
		return 0, m
	case dx > 0:
		a, b = first(0), first(l)
	default:
		a, b = first(l), first(0)
	}
	lo, hi = int(min(a, int64(m))), int(min(b, int64(m)))
	return lo, max(lo, hi)
}

// groundSpan draws the plane beyond the floor, plain, where it is nearer than what is drawn,
// from 1/depth iz stepping dzi; it returns iz stepped past the span.
func groundSpan(zc []float32, pc []uint64, iz, dzi float64, ground uint64, depth bool) float64 {
	pc = pc[:len(zc)]
	for i, z := range zc {
		if iz32 := float32(iz); iz32 > z {
			pc[i] = ground
			if depth {
				zc[i] = 1 / iz32
			}
		} else if depth {
			zc[i] = metres(z)
		}
		iz += dzi
	}
	return iz
}

// litSpan is a piece of a floor row on the floor rectangle: the level it samples, where the
// walk starts (X, Y, floorOne units) and its steps, the level's texels a metre (16 fractional
// bits), 1/depth and its step.
type litSpan struct {
	lv           *litLevel
	X, Y, dX, dY int64
	k            int64
	iz, dzi      float64
	depth        bool
	shaded       bool // some caster's shadow falls on the row: its mask is not all 0
	// Pixels [zlo, zhi) of the span may have a triangle drawn (the others are empty), and
	// [slo, shi) a sample of the shadow mask set.
	zlo, zhi, slo, shi int
}

// nearest draws the span's pixels zc, pc where the floor is nearer, each one texel of the
// level, from the pyramid without the sun where a caster's shadow falls (shade); ls.iz is left
// past the span. Every point of the rectangle has its texel within the level's border (its
// side covers the floor), so no index needs a clamp.
func (ls *litSpan) nearest(zc []float32, pc []uint64, shade []uint16) {
	lv := ls.lv
	stride := int64(lv.w + 2)
	sun, amb := lv.sun, lv.amb
	X, Y, dX, dY, k := ls.X, ls.Y, ls.dX, ls.dY, ls.k
	iz, dzi := ls.iz, ls.dzi
	pc, shade = pc[:len(zc)], shade[:len(zc)]
	for i, z := range zc {
		if iz32 := float32(iz); iz32 > z {
			o := ((Y*k)>>(16+floorFrac)+1)*stride + (X*k)>>(16+floorFrac) + 1
			switch m := shade[i]; m {
			case 0:
				pc[i] = sun[o]
			case 1<<16 - 1:
				pc[i] = amb[o]
			default:
				pc[i] = shadeBlend(sun[o], amb[o], m)
			}
			if ls.depth {
				zc[i] = 1 / iz32
			}
		} else if ls.depth {
			zc[i] = metres(z)
		}
		iz += dzi
		X, Y = X+dX, Y+dY
	}
	ls.iz = iz
}

// shadeBlend is the floor where shadow mask m covers part of the pixel: lit and shadowed
// blended by the share of its samples in shadow.
func shadeBlend(lit, dark uint64, m uint16) uint64 {
	const half = 16 | 16<<laneShift | 16<<(2*laneShift)
	f := uint64(bits.OnesCount16(m)) * 2 // 32nds in shadow
	return (lit*(32-f) + dark*f + half) >> 5 & lanesLin
}

// bilinear is nearest where the floor is magnified: each pixel blends the four texels of
// level 0 around it (texel centres), in 32nds.
func (ls *litSpan) bilinear(zc []float32, pc []uint64, shade []uint16) {
	lv := ls.lv
	stride := int64(lv.w + 2)
	sun, amb := lv.sun, lv.amb
	X, Y, dX, dY, k := ls.X, ls.Y, ls.dX, ls.dY, ls.k
	iz, dzi := ls.iz, ls.dzi
	pc, shade = pc[:len(zc)], shade[:len(zc)]
	for i, z := range zc {
		if iz32 := float32(iz); iz32 > z {
			// u, v in texels with 16 fractional bits, less a half: the taps from texel
			// (i, j) (−1 to w−1: the border) to (i+1, j+1).
			u, v := (X*k)>>floorFrac-1<<15, (Y*k)>>floorFrac-1<<15
			o := (v>>16+1)*stride + u>>16 + 1
			fx, fy := uint64(u>>11)&31, uint64(v>>11)&31
			switch m := shade[i]; m {
			case 0:
				pc[i] = bilerp(sun[o:][:stride+2], fx, fy)
			case 1<<16 - 1:
				pc[i] = bilerp(amb[o:][:stride+2], fx, fy)
			default:
				pc[i] = shadeBlend(bilerp(sun[o:][:stride+2], fx, fy), bilerp(amb[o:][:stride+2], fx, fy), m)
			}
			if ls.depth {
				zc[i] = 1 / iz32
			}
		} else if ls.depth {
			zc[i] = metres(z)
		}
		iz += dzi
		X, Y = X+dX, Y+dY
	}
	ls.iz = iz
}

// bilinearSparse is bilinear where a texel spans a step or more: every step-th
// pixel (2, 4, 8) is sampled, and those between are interpolated linearly. Along a row the
// bilinear blend is linear between texel centres, at least a step apart, so the two differ
// only in a step with a texel centre in it, where the interpolation cuts its corner: it never
// leaves the range the blend takes over the step (no overshoot, no new edge). Where the shadow
// mask differs between two samples, or covers part of either, the pixels between are
// sampled; so is the tail the steps do not reach. tmp holds the row (at least len(zc) long).
func (ls *litSpan) bilinearSparse(zc []float32, pc []uint64, shade []uint16, step int, tmp []uint64) {
	const half = 16 | 16<<laneShift | 16<<(2*laneShift) // rounding of a blend in 32nds
	n := len(zc)
	if n == 0 { // a row that misses the rectangle (its walk's range is empty)
		return
	}
	// Whole steps cover pixels [0, full]: samples at 0, step, ..., full.
	full := (n - 1) &^ (step - 1)
	tmp, shade = tmp[:n], shade[:n]
	X, Y := ls.X, ls.Y
	sdX, sdY := ls.dX*int64(step), ls.dY*int64(step)
	sun, k := ls.lv.sun, ls.k
	stride := int64(ls.lv.w + 2)
	for i := 0; i <= full; i += step {
		if m := shade[i]; m != 0 {
			tmp[i] = ls.sample(X, Y, m)
		} else { // sample's, written out for the lit floor
			u, v := (X*k)>>floorFrac-1<<15, (Y*k)>>floorFrac-1<<15
			o := (v>>16+1)*stride + u>>16 + 1
			fx, fy := uint64(u>>11)&31, uint64(v>>11)&31
			top, bot := sun[o:o+2:o+2], sun[o+stride:o+stride+2:o+stride+2]
			t := (top[0]*(32-fx) + top[1]*fx + half) >> 5 & lanesLin
			b := (bot[0]*(32-fx) + bot[1]*fx + half) >> 5 & lanesLin
			tmp[i] = (t*(32-fy) + b*fy + half) >> 5 & lanesLin
		}
		X, Y = X+sdX, Y+sdY
	}
	const one = 1 | 1<<laneShift | 1<<(2*laneShift)
	if step == 2 {
		for j := 0; j < full; j += 2 {
			t := tmp[j : j+3 : j+3]
			t[1] = (t[0] + t[2] + one) >> 1 & lanesLin
		}
	} else if step == 4 {
		for j := 0; j < full; j += 4 {
			t := tmp[j : j+5 : j+5]
			a, b := t[0], t[4]
			t[1] = (3*a + b + 2*one) >> 2 & lanesLin
			t[2] = (a + b + one) >> 1 & lanesLin
			t[3] = (a + 3*b + 2*one) >> 2 & lanesLin
		}
	} else {
		for j := 0; j < full; j += 8 {
			t := tmp[j : j+9 : j+9]
			a, b := t[0], t[8]
			for i := uint64(1); i < 8; i++ {
				t[i] = (a*(8-i) + b*i + 4*one) >> 3 & lanesLin
			}
		}
	}
	for i := full + 1; i < n; i++ {
		tmp[i] = ls.sample(ls.X+int64(i)*ls.dX, ls.Y+int64(i)*ls.dY, shade[i])
	}
	if ls.shaded && ls.slo < ls.shi {
		for j := max(0, ls.slo-step) &^ (step - 1); j < min(full, ls.shi); j += step {
			m := shade[j]
			same := m == 0 || m == 1<<16-1
			for _, o := range shade[j+1 : j+step+1] {
				same = same && o == m
			}
			if !same {
				for i := j + 1; i < j+step; i++ {
					tmp[i] = ls.sample(ls.X+int64(i)*ls.dX, ls.Y+int64(i)*ls.dY, shade[i])
				}
			}
		}
	}
	iz, dzi := ls.iz, ls.dzi
	pc = pc[:n]
	if !ls.depth && ls.zlo < ls.zhi {
		// Outside [zlo, zhi) nothing is drawn, and the floor is everywhere.
		copy(pc[:ls.zlo], tmp)
		copy(pc[ls.zhi:], tmp[ls.zhi:])
		iz += float64(ls.zlo) * dzi
		for i := ls.zlo; i < ls.zhi; i++ {
			if float32(iz) > zc[i] {
				pc[i] = tmp[i]
			}
			iz += dzi
		}
		ls.iz = ls.iz + float64(n)*dzi
		return
	}
	if !ls.depth {
		copy(pc, tmp)
		ls.iz = iz + float64(n)*dzi
		return
	}
	for i, z := range zc {
		if iz32 := float32(iz); iz32 > z {
			pc[i] = tmp[i]
			zc[i] = 1 / iz32
		} else {
			zc[i] = metres(z)
		}
		iz += dzi
	}
	ls.iz = iz
}

// clampCount clamps column i of a span to 0..n, its length.
func clampCount(i, n int) int { return max(0, min(i, n)) }

// sample is the bilinear blend of level 0 at walk position X, Y with shadow mask m.
func (ls *litSpan) sample(X, Y int64, m uint16) uint64 {
	stride := int64(ls.lv.w + 2)
	u, v := (X*ls.k)>>floorFrac-1<<15, (Y*ls.k)>>floorFrac-1<<15
	o := (v>>16+1)*stride + u>>16 + 1
	fx, fy := uint64(u>>11)&31, uint64(v>>11)&31
	switch m {
	case 0:
		return bilerp(ls.lv.sun[o:][:stride+2], fx, fy)
	case 1<<16 - 1:
		return bilerp(ls.lv.amb[o:][:stride+2], fx, fy)
	}
	return shadeBlend(bilerp(ls.lv.sun[o:][:stride+2], fx, fy), bilerp(ls.lv.amb[o:][:stride+2], fx, fy), m)
}

// bilerp blends the texels a[0], a[1] (top) and a[stride], a[stride+1] (bottom), stride =
// len(a) − 2, by fx, fy in 32nds.
func bilerp(a []uint64, fx, fy uint64) uint64 {
	const half = 16 | 16<<laneShift | 16<<(2*laneShift) // rounding of a blend in 32nds
	stride := len(a) - 2
	top := (a[0]*(32-fx) + a[1]*fx + half) >> 5 & lanesLin
	bot := (a[stride]*(32-fx) + a[stride+1]*fx + half) >> 5 & lanesLin
	return (top*(32-fy) + bot*fy + half) >> 5 & lanesLin
}
