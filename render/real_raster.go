package render

import (
	"math"
	"math/bits"
)

// Fixed-point walkers start from int64(x·2^16), truncated rather than floored: the
// difference is one 2^-16th of a texel, and math.Floor is not an instruction on amd64 v1.

// chunkPx is how many pixels of a span share one perspective division: texture and light
// coordinates are exact at both ends of a chunk and linear in between (the error is a small
// fraction of a texel), and the mip level is chosen per chunk.
const chunkPx = 16

// rasterReal scans rows [y0, y1) of t into the depth and linear buffers.
func (fs *frameState) rasterReal(t *rtriR, y0, y1 int) {
	w := fs.w
	lin := fs.real.lin
	plain := t.flags&(triTextured|triWallFoot) == 0 && !t.staticMap && !t.dynMap
	for y := y0; y < y1; y++ {
		xa, xb, yc := t.span(y, w)
		if xa >= xb {
			continue
		}
		dy := yc - t.yt
		fx0 := float64(xa) + 0.5 - t.xt
		zv := t.zt + fx0*t.zx + dy*t.zy
		fs.cover[y].add(xa, xb)
		o := y*w + xa
		zr := fs.z[o : xb+y*w]
		px := lin[o : o+len(zr)]
		if plain {
			c := t.constant
			for i := range zr {
				if z := float32(zv); z > zr[i] {
					zr[i] = z
					px[i] = c
				}
				zv += t.zx
			}
			continue
		}
		fs.realSpan(t, zr, px, zv, fx0, dy)
	}
}

// realSpan draws one span of a textured, shadowed or contact-shadowed triangle: zr and px are
// the span's depth and linear pixels, zv its first pixel's 1/depth, (fx0, dy) that pixel's
// offset from the triangle's top vertex. Each chunk of chunkPx pixels is drawn in passes,
// each with few enough values live to stay in registers: the depth test, which says which
// pixels to draw; the sun's share past the shadow maps; then light, texture and colour.
func (fs *frameState) realSpan(t *rtriR, zr []float32, px []uint64, zv, fx0, dy float64) {
	n := len(zr)
	tex := t.flags&triTextured != 0
	foot := tex && t.flags&triWallFoot != 0
	shadowed := t.staticMap || t.dynMap
	var c chunkWalk
	if tex {
		c.u, c.v = t.u.at(fx0, dy), t.v.at(fx0, dy)
	}
	if shadowed {
		c.s, c.t, c.d = t.s.at(fx0, dy), t.t.at(fx0, dy), t.d.at(fx0, dy)
	}
	za := zv
	ia := 1 / za
	for i0 := 0; i0 < n; i0 += chunkPx {
		m := min(chunkPx, n-i0)
		zb := zv + float64(i0+m)*t.zx
		ib := 1 / zb
		zc, pc := zr[i0:i0+m], px[i0:i0+m]
		// Which pixels the triangle is nearest at.
		var vis uint32
		zq := za
		for i := range zc {
			if z := float32(zq); z > zc[i] {
				zc[i] = z
				vis |= 1 << i
			}
			zq += t.zx
		}
		if vis != 0 {
			fs.chunkReal(t, &c, zc, pc, vis, float64(i0), float64(i0+m), ia, ib, tex, foot, shadowed)
		}
		za, ia = zb, ib
	}
}

// chunkWalk is a span's attribute planes at its first pixel (value·(1/depth)): texture u, v
// and light space s, t, d.
type chunkWalk struct{ u, v, s, t, d float64 }

// chunkReal draws the pixels vis says of a chunk from fa to fb pixels into its span (its
// depths zc are drawn), 1/depth ia and ib at its ends.
func (fs *frameState) chunkReal(t *rtriR, c *chunkWalk, zc []float32, pc []uint64, vis uint32, fa, fb, ia, ib float64, tex, foot, shadowed bool) {
	rf := &fs.real
	m := len(pc)
	invM := chunkInv[m]
	// The sun's share per pixel, in 32nds; uniform: the same at every pixel.
	var sunf [chunkPx]int32
	uniform := true
	if shadowed {
		sa, sb := (c.s+fa*t.s.ax)*ia, (c.s+fb*t.s.ax)*ib
		ta, tb := (c.t+fa*t.t.ax)*ia, (c.t+fb*t.t.ax)*ib
		da, db := (c.d+fa*t.d.ax)*ia, (c.d+fb*t.d.ax)*ib
		S, T := int64(sa*65536), int64(ta*65536)
		dS, dT := int64((sb-sa)*invM*65536), int64((tb-ta)*invM*65536)
		D, dD := float32(da)-t.bias, float32((db-da)*invM)
		// What the chunk's light-space box says before any pixel is looked up.
		s0, s1, t0, t1 := min(sa, sb), max(sa, sb), min(ta, tb), max(ta, tb)
		d0, d1 := min(float32(da), float32(db))-t.bias, max(float32(da), float32(db))-t.bias
		static := runLit
		if t.staticMap {
			static = rf.scene.shadow.tilesVerdict(s0, t0, s1, t1, d0, d1)
		}
		var casters uint8
		if t.dynMap && static != runDark {
			casters = t.casters & rf.dyn.overlaps(s0, t0, s1, t1, float64(d1+t.bias))
		}
		if static == runMixed || casters != 0 {
			rf.sunShares(t, &sunf, vis, static == runMixed, casters, S, T, dS, dT, D, dD)
			uniform = false
		} else {
			f := int32(32)
			if static == runDark {
				f = 0
			}
			for i := range m {
				sunf[i] = f
			}
		}
	} else {
		for i := range m {
			sunf[i] = 32
		}
	}
	amb, sun := t.amb, t.sun
	if !tex {
		for ; vis != 0; vis &= vis - 1 {
			i := bits.TrailingZeros32(vis) & (chunkPx - 1)
			f := sunf[i]
			pc[i] = packLight(amb[0]+sun[0]*f>>5, amb[1]+sun[1]*f>>5, amb[2]+sun[2]*f>>5)
		}
		return
	}
	ua, ub := (c.u+fa*t.u.ax)*ia, (c.u+fb*t.u.ax)*ib
	va, vb := (c.v+fa*t.v.ax)*ia, (c.v+fb*t.v.ax)*ib
	du, dv := (ub-ua)*invM, (vb-va)*invM
	dudy, dvdy := (t.u.ay-ua*t.zy)*ia, (t.v.ay-va*t.zy)*ia
	fp := max(math.Abs(du)+math.Abs(dv), math.Abs(dudy)+math.Abs(dvdy)) * 0.75 / t.texel
	lv, scale := t.tex.level(fp)
	k := 65536 / t.texel * scale
	U, V := int64(ua*k), int64(va*k)
	dU, dV := int64(du*k), int64(dv*k)
	sh := lv.shift
	mask := int64(1)<<sh - 1
	// Magnified, a texel spans pixels: blended from its neighbours rather than drawn as a
	// block (a wall a few centimetres from the camera).
	mag := fp < magnified
	if vm := t.vis; vm != nil { // the static shadows baked: the least of both shares
		VU, VV, dVU, dVV := vm.walk(ua, va, du, dv)
		if f, ok := vm.uniform(VU, VV, VU+int64(m-1)*dVU, VV+int64(m-1)*dVV); ok {
			for i := range m {
				sunf[i] = min(sunf[i], f)
			}
			uniform = uniform && (f == 32 || f == 0)
		} else {
			for v := vis; v != 0; v &= v - 1 {
				i := bits.TrailingZeros32(v) & (chunkPx - 1)
				sunf[i] = min(sunf[i], vm.share(VU+int64(i)*dVU, VV+int64(i)*dVV))
			}
			uniform = false
		}
	}
	A, dA := int32(256<<8), int32(0) // contact shadow, 256 = none, <<8 for stepping
	if foot {
		ha, hb := aoIndex(va-float64(t.voff)), aoIndex(vb-float64(t.voff))
		A = rf.lt.aoWall[ha] << 8
		dA = int32(float64((rf.lt.aoWall[hb]-rf.lt.aoWall[ha])<<8) * invM)
	}
	texels := lv.texels
	if la, ls := t.ambLUT, t.sunLUT; la != nil {
		// The light's tables: the ambient term times the contact shadow, plus the sun's
		// times its share (both products leave each lane within its budget).
		if f := sunf[0]; uniform && (f == 0 || f == 32) && vis == 1<<m-1 {
			if f == 0 {
				ls = &zeroLUT
			} else if lit := t.litLUT; lit != nil && !foot {
				// Fully lit, no contact shadow (A stays 256<<8): amb + sun in one table.
				for i := range pc {
					texel := texels[((V>>16)&mask)<<sh|(U>>16)&mask]
					if mag {
						texel = bilerpTexel(texels, sh, mask, U, V)
					}
					pc[i] = lit.reflect(texel)
					U, V = U+dU, V+dV
				}
				return
			}
			for i := range pc {
				texel := texels[((V>>16)&mask)<<sh|(U>>16)&mask]
				if mag {
					texel = bilerpTexel(texels, sh, mask, U, V)
				}
				pc[i] = la.reflect(texel)*uint64(A>>8)>>8&ambLaneMask + ls.reflect(texel)
				U, V, A = U+dU, V+dV, A+dA
			}
			return
		}
		for ; vis != 0; vis &= vis - 1 {
			i := bits.TrailingZeros32(vis) & (chunkPx - 1)
			u, v := U+int64(i)*dU, V+int64(i)*dV
			texel := texels[((v>>16)&mask)<<sh|(u>>16)&mask]
			if mag {
				texel = bilerpTexel(texels, sh, mask, u, v)
			}
			pc[i] = la.reflect(texel)*uint64((A+int32(i)*dA)>>8)>>8&ambLaneMask + ls.reflect(texel)*uint64(sunf[i])>>5&lanesLin
		}
		return
	}
	srgb := srgbTable
	for ; vis != 0; vis &= vis - 1 {
		i := bits.TrailingZeros32(vis) & (chunkPx - 1)
		f, ao := sunf[i], (A+int32(i)*dA)>>8
		u, v := U+int64(i)*dU, V+int64(i)*dV
		texel := texels[((v>>16)&mask)<<sh|(u>>16)&mask]
		if mag {
			texel = bilerpTexel(texels, sh, mask, u, v)
		}
		r0, g0, b0 := amb[0]*ao>>8+sun[0]*f>>5, amb[1]*ao>>8+sun[1]*f>>5, amb[2]*ao>>8+sun[2]*f>>5
		pc[i] = packLight(reflected(srgb, texel, r0, g0, b0))
	}
}

// magnified is the footprint (level-0 texels a pixel, see chunkReal) below which a texel spans
// about three pixels or more and is blended from its neighbours: blocks that large show, and
// blending smaller ones cost a 640×480 frame of the corridor a tenth more for little to see.
const magnified = 0.25

// bilerpTexel is the bilinear blend of the four texels around (U, V) (texels with 16
// fractional bits; texel centres at halves) of a level 2^sh texels a side, repeating.
func bilerpTexel(texels []RGB, sh uint, mask, U, V int64) RGB {
	u, v := U-1<<15, V-1<<15
	i0, j0 := (u>>16)&mask, (v>>16)&mask
	i1, j1 := (i0+1)&mask, (j0+1)&mask
	fx, fy := uint32(u>>11)&31, uint32(v>>11)&31
	a, b := texels[j0<<sh|i0], texels[j0<<sh|i1]
	c, d := texels[j1<<sh|i0], texels[j1<<sh|i1]
	mix := func(a, b, c, d uint8) uint8 {
		top := uint32(a)*(32-fx) + uint32(b)*fx
		bot := uint32(c)*(32-fx) + uint32(d)*fx
		return uint8((top*(32-fy) + bot*fy + 512) >> 10)
	}
	return RGB{mix(a.R, b.R, c.R, d.R), mix(a.G, b.G, c.G, d.G), mix(a.B, b.B, c.B, d.B)}
}

// zeroLUT reflects no light.
var zeroLUT reflectLUT

// chunkInv is 1/m for the chunk lengths m.
var chunkInv = func() (t [chunkPx + 1]float64) {
	for m := 1; m <= chunkPx; m++ {
		t[m] = 1 / float64(m)
	}
	return t
}()

// sunShares fills f with the sun's share at each pixel vis says of a chunk (32: lit), from
// light-space S, T (static shadow-map texels, 16 fractional bits) and depth D less the bias,
// stepping dS, dT, dD a pixel: past the static map if static, and the caster maps in casters.
func (rf *realFrame) sunShares(t *rtriR, f *[chunkPx]int32, vis uint32, static bool, casters uint8, S, T, dS, dT int64, D, dD float32) {
	for i := range f {
		f[i] = 32
	}
	if static {
		m := rf.scene.shadow
		smap, sw, sh := m.depth, int64(m.w), int64(m.h)
		for v := vis; v != 0; v &= v - 1 {
			i := bits.TrailingZeros32(v)
			si, ti := (S+int64(i)*dS)>>16, (T+int64(i)*dT)>>16
			if uint64(si) < uint64(sw) && uint64(ti) < uint64(sh) && D+float32(i)*dD > smap[ti*sw+si] {
				f[i&(chunkPx-1)] = 0
			}
		}
	}
	if casters != 0 {
		d := &rf.dyn
		soft := casters&d.soft != 0
		for v := vis; v != 0; v &= v - 1 {
			i := bits.TrailingZeros32(v) & (chunkPx - 1)
			if f[i] == 0 {
				continue
			}
			s, tt, dd := S+int64(i)*dS, T+int64(i)*dT, D+float32(i)*dD
			if soft {
				f[i] = d.sunWeight(casters, s, tt, dd)
			} else if d.shadowed(casters, s, tt, dd) {
				f[i] = 0
			}
		}
	}
}

// aoIndex converts a height above the floor (metres) to an index of the wall contact-shadow
// table (millimetres, clamped).
func aoIndex(h float64) int {
	mm := int(h * 1000)
	return max(0, min(255, mm))
}
