package render

import (
	"math"

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

// padded returns src (w × h) with a border repeating its edges.
func padded(src []uint64, w, h int) []uint64 {
	stride := w + 2
	dst := make([]uint64, stride*(h+2))
	for j := -1; j <= h; j++ {
		row := src[max(0, min(h-1, j))*w:][:w]
		d := dst[(j+1)*stride:][:stride]
		d[0], d[stride-1] = row[0], row[w-1]
		copy(d[1:], row)
	}
	return dst
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
	srgb := srgbLUT()
	var alb *texLevel
	if sc.floorTex != nil {
		alb = &sc.floorTex.levels[min(k, len(sc.floorTex.levels)-1)]
	}
	lf := &litFloor{texel: texel}
	l0 := litLevel{w: w, h: h, sun: make([]uint64, w*h), amb: make([]uint64, w*h)}
	for j := range h {
		for i := range w {
			code := uint8(0xff)
			if lm != nil {
				code = lm.idx[j*w+i]
			}
			l0.sun[j*w+i] = floorTexel(alb, srgb, &lut[code], i, j)
			l0.amb[j*w+i] = floorTexel(alb, srgb, &lut[code&0xf0], i, j)
		}
	}
	for prev := l0; ; {
		lf.levels = append(lf.levels, litLevel{w: prev.w, h: prev.h, sun: padded(prev.sun, prev.w, prev.h), amb: padded(prev.amb, prev.w, prev.h)})
		if prev.w == 1 && prev.h == 1 {
			break
		}
		next := litLevel{w: (prev.w + 1) / 2, h: (prev.h + 1) / 2}
		next.sun, next.amb = boxHalf(prev.sun, prev.w, prev.h), boxHalf(prev.amb, prev.w, prev.h)
		prev = next
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

// boxHalf averages src (w × h packed pixels) over 2 × 2 blocks into a level half the size
// (rounded up; a last odd row or column repeats).
func boxHalf(src []uint64, w, h int) []uint64 {
	nw, nh := (w+1)/2, (h+1)/2
	dst := make([]uint64, nw*nh)
	const two = 2 | 2<<laneShift | 2<<(2*laneShift) // rounding of the sum of four
	for j := range nh {
		j0, j1 := 2*j, min(2*j+1, h-1)
		for i := range nw {
			i0, i1 := 2*i, min(2*i+1, w-1)
			s := src[j0*w+i0] + src[j0*w+i1] + src[j1*w+i0] + src[j1*w+i1]
			dst[j*nw+i] = (s + two) >> 2 & lanesLin
		}
	}
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
// bilinear blend of level 0's four nearest texels; a moving caster's shadow takes the
// pyramid without the sun.
func (fs *frameState) litFloorSpan(rd mgl64.Vec3, xa, xb int, zr []float32, px []uint64) {
	bg := &fs.background
	rf := &fs.real
	sc := rf.scene
	lf := sc.litFloor
	f := bg.floor
	n := xb - xa
	chunk := n
	if !bg.rollFree {
		chunk = chunkPx
	}
	d := &rf.dyn
	var dynBias float32
	if d.on {
		dynBias = float32(slopeBias(sc.sunUp, sc.shadow.texel)) // the floor casts nothing itself
	}
	ground := rf.lt.ground
	Lq, Wq := int64(f.length*floorOne), int64(f.width*floorOne)
	for i0 := 0; i0 < n; i0 += chunk {
		m := min(chunk, n-i0)
		fw := bg.floorWalk(rd, xa+i0, m)
		X, Y, dX, dY, dzi := fw.X, fw.Y, fw.dX, fw.dY, fw.dzi
		// The footprint as the texture's.
		foot := math.Sqrt(fw.fh*fw.fv) / lf.texel
		smooth := foot < 1
		lv, texel := lf.level(foot)
		k := int64(math.Round(65536 / texel))
		dyn, S, T, dS, dT, D, dD := d.rowSpan(rf, fw.pa, fw.pb, fw.invM, dynBias)
		iz := fw.iz
		zc := zr[i0 : i0+m]
		pc := px[i0 : i0+m]
		ls := litSpan{lv: lv, X: X, Y: Y, dX: dX, dY: dY, Lq: Lq, Wq: Wq, k: k, ground: ground}
		if dyn == 0 {
			ls.draw(zc, pc, iz, dzi, smooth, fs.depth)
			continue
		}
		// Some caster's map meets the chunk's walk through light space: pieces of it that
		// meet none take the loop without the shadow test (every pixel's test would fail: a
		// map's rectangle holds its texels). A piece's S and T are exact at its ends, and iz
		// and D are stepped as the loop steps them.
		for j0 := 0; j0 < m; j0 += dynPiece {
			j1 := min(m, j0+dynPiece)
			last := int64(j1 - j0 - 1)
			sa, sb, ta, tb := S, S+last*dS, T, T+last*dT
			set := dyn & d.overlaps(float64(min(sa, sb))/65536, float64(min(ta, tb))/65536,
				float64(max(sa, sb))/65536, float64(max(ta, tb))/65536)
			if set == 0 {
				ls.X, ls.Y = X, Y
				iz = ls.draw(zc[j0:j1], pc[j0:j1], iz, dzi, smooth, fs.depth)
				for range j1 - j0 {
					D += dD
				}
				X, Y, S, T = X+(last+1)*dX, Y+(last+1)*dY, S+(last+1)*dS, T+(last+1)*dT
				continue
			}
			iz, X, Y, S, T, D = fs.litShadowed(&ls, set, zc[j0:j1], pc[j0:j1], iz, dzi, X, Y, S, T, D, dS, dT, dD, smooth)
		}
	}
}

// dynPiece is how many pixels of a floor row share one test against the caster maps.
const dynPiece = 32

// litShadowed is litFloorSpan's loop over pixels some caster map in set may shadow, from
// 1/depth iz, floor position X, Y (ls's steps) and light-space S, T, D; it returns them
// stepped past the last pixel.
func (fs *frameState) litShadowed(ls *litSpan, set uint8, zc []float32, pc []uint64, iz, dzi float64,
	X, Y, S, T int64, D float32, dS, dT int64, dD float32, smooth bool) (float64, int64, int64, int64, int64, float32) {
	const half = 16 | 16<<laneShift | 16<<(2*laneShift) // rounding of a blend in 32nds
	d := &fs.real.dyn
	lv := ls.lv
	lw, lh := int64(lv.w), int64(lv.h)
	stride := lw + 2
	dX, dY, Lq, Wq, k, ground := ls.dX, ls.dY, ls.Lq, ls.Wq, ls.k, ls.ground
	pc = pc[:len(zc)]
	for i, z := range zc {
		iz32 := float32(iz)
		if iz32 > z {
			if uint64(X) < uint64(Lq) && uint64(Y) < uint64(Wq) {
				// The texel (nearest, or the top left of the bilinear taps) and the weights.
				var o int64
				var fx, fy uint64
				if smooth {
					// Texel centres: u, v in texels with 16 fractional bits, less a half; the
					// taps from texel (i, j) (−1 to w−1: the border) to (i+1, j+1).
					u, v := (X*k)>>floorFrac-1<<15, (Y*k)>>floorFrac-1<<15
					ti, tj := max(-1, min(lw-1, u>>16)), max(-1, min(lh-1, v>>16))
					fx, fy = uint64(u>>11)&31, uint64(v>>11)&31
					o = (tj+1)*stride + ti + 1
				} else {
					li, lj := min(lw-1, (X*k)>>(16+floorFrac)), min(lh-1, (Y*k)>>(16+floorFrac))
					o = (lj+1)*stride + li + 1
				}
				// The sun's share past the casters: the lit and the shadowed floor blended
				// where a shadow's edge passes.
				f := uint64(32)
				if set&d.soft != 0 {
					f = uint64(d.sunWeight(set, S, T, D))
				} else if d.shadowed(set, S, T, D) {
					f = 0
				}
				var sun, amb uint64
				if f != 0 {
					sun = sample(lv.sun, o, stride, fx, fy, smooth)
				}
				if f != 32 {
					amb = sample(lv.amb, o, stride, fx, fy, smooth)
				}
				pc[i] = (sun*f + amb*(32-f) + half) >> 5 & lanesLin
			} else {
				pc[i] = ground
			}
			if fs.depth {
				zc[i] = 1 / iz32
			}
		} else if fs.depth {
			zc[i] = metres(z)
		}
		iz += dzi
		X, Y, S, T, D = X+dX, Y+dY, S+dS, T+dT, D+dD
	}
	return iz, X, Y, S, T, D
}

// sample is litShadowed's sampling of level texels tx at texel o (row stride): the texel
// itself, or where smooth the bilinear blend of it, the one to its right and the two below
// by weights fx, fy in 32nds (litSpan.draw writes this out: as a call it cost 3 % more).
func sample(tx []uint64, o, stride int64, fx, fy uint64, smooth bool) uint64 {
	const half = 16 | 16<<laneShift | 16<<(2*laneShift)
	if !smooth {
		return tx[o]
	}
	a := tx[o:][:stride+2]
	top := (a[0]*(32-fx) + a[1]*fx + half) >> 5 & lanesLin
	bot := (a[stride]*(32-fx) + a[stride+1]*fx + half) >> 5 & lanesLin
	return (top*(32-fy) + bot*fy + half) >> 5 & lanesLin
}

// litSpan is a piece of a floor row that no moving caster's shadow reaches: litFloorSpan's
// loop without the shadow maps' coordinates, which left too few registers for the rest.
type litSpan struct {
	lv                      *litLevel
	X, Y, dX, dY, Lq, Wq, k int64
	ground                  uint64
}

// draw is litFloorSpan's loop over the chunk's depths zc and pixels pc, 1/depth iz stepping
// dzi, with the same arithmetic; it returns iz stepped past the last pixel.
func (ls *litSpan) draw(zc []float32, pc []uint64, iz, dzi float64, smooth, depth bool) float64 {
	const half = 16 | 16<<laneShift | 16<<(2*laneShift) // rounding of a blend in 32nds
	tx := ls.lv.sun
	lw, lh := int64(ls.lv.w), int64(ls.lv.h)
	stride := lw + 2
	X, Y, dX, dY, Lq, Wq, k := ls.X, ls.Y, ls.dX, ls.dY, ls.Lq, ls.Wq, ls.k
	pc = pc[:len(zc)]
	for i, z := range zc {
		iz32 := float32(iz)
		if iz32 > z {
			switch {
			case uint64(X) >= uint64(Lq) || uint64(Y) >= uint64(Wq):
				pc[i] = ls.ground
			case smooth:
				// Texel centres: u, v in texels with 16 fractional bits, less a half; the
				// taps from texel (i, j) (−1 to w−1: the border) to (i+1, j+1).
				u, v := (X*k)>>floorFrac-1<<15, (Y*k)>>floorFrac-1<<15
				ti, tj := max(-1, min(lw-1, u>>16)), max(-1, min(lh-1, v>>16))
				fx, fy := uint64(u>>11)&31, uint64(v>>11)&31
				a := tx[(tj+1)*stride+ti+1:][:stride+2]
				top := (a[0]*(32-fx) + a[1]*fx + half) >> 5 & lanesLin
				bot := (a[stride]*(32-fx) + a[stride+1]*fx + half) >> 5 & lanesLin
				pc[i] = (top*(32-fy) + bot*fy + half) >> 5 & lanesLin
			default:
				li, lj := min(lw-1, (X*k)>>(16+floorFrac)), min(lh-1, (Y*k)>>(16+floorFrac))
				pc[i] = tx[(lj+1)*stride+li+1]
			}
			if depth {
				zc[i] = 1 / iz32
			}
		} else if depth {
			zc[i] = metres(z)
		}
		iz += dzi
		X, Y = X+dX, Y+dY
	}
	return iz
}
