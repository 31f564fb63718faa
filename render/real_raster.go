package render

import "math"

// Fixed-point walkers start from int64(x·2^16), truncated rather than floored: the
// difference is one 2^-16th of a texel, and math.Floor is not an instruction on amd64 v1.

// chunkPx is how many pixels of a span share one perspective division: texture and light
// coordinates are exact at both ends of a chunk and linear in between (the error is a small
// fraction of a texel), and the mip level is chosen per chunk.
const chunkPx = 8

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
// offset from the triangle's top vertex.
func (fs *frameState) realSpan(t *rtriR, zr []float32, px []uint64, zv, fx0, dy float64) {
	rf := &fs.real
	n := len(zr)
	tex := t.flags&triTextured != 0
	foot := tex && t.flags&triWallFoot != 0
	sm, dm := t.staticMap, t.dynMap
	srgb := srgbLUT()
	var uq, vq, sq, tq, dq float64
	if tex {
		uq, vq = t.u.at(fx0, dy), t.v.at(fx0, dy)
	}
	if sm || dm {
		sq, tq, dq = t.s.at(fx0, dy), t.t.at(fx0, dy), t.d.at(fx0, dy)
	}
	var smap []float32
	var sw, shh int64
	if sm {
		m := rf.scene.shadow
		smap, sw, shh = m.depth, int64(m.w), int64(m.h)
	}
	d := &rf.dyn
	bias := float32(t.bias)
	amb, sun := t.amb, t.sun
	za := zv
	ia := 1 / za
	for i0 := 0; i0 < n; i0 += chunkPx {
		m := min(chunkPx, n-i0)
		fa, fb := float64(i0), float64(i0+m)
		zb := zv + fb*t.zx
		ib := 1 / zb
		invM := 1 / float64(m)

		var lv *texLevel
		var U, V, dU, dV int64
		var sh uint
		var mask int64
		if tex {
			ua, ub := (uq+fa*t.u.ax)*ia, (uq+fb*t.u.ax)*ib
			va, vb := (vq+fa*t.v.ax)*ia, (vq+fb*t.v.ax)*ib
			du, dv := (ub-ua)*invM, (vb-va)*invM
			dudy, dvdy := (t.u.ay-ua*t.zy)*ia, (t.v.ay-va*t.zy)*ia
			fp := max(math.Abs(du)+math.Abs(dv), math.Abs(dudy)+math.Abs(dvdy)) * 0.75 / t.texel
			var scale float64
			lv, scale = t.tex.level(fp)
			k := 65536 / t.texel * scale
			U, V = int64(ua*k), int64(va*k)
			dU, dV = int64(du*k), int64(dv*k)
			sh = lv.shift
			mask = int64(1)<<sh - 1
		}
		var A, dA int32 = 256 << 8, 0 // contact shadow, 256 = none, <<8 for stepping
		if foot {
			va, vb := (vq+fa*t.v.ax)*ia, (vq+fb*t.v.ax)*ib
			ha, hb := aoIndex(va-float64(t.voff)), aoIndex(vb-float64(t.voff))
			A = rf.lt.aoWall[ha] << 8
			dA = int32(float64((rf.lt.aoWall[hb]-rf.lt.aoWall[ha])<<8) * invM)
		}
		var S, T, dS, dT int64
		var D, dD float32
		if sm || dm {
			sa, sb := (sq+fa*t.s.ax)*ia, (sq+fb*t.s.ax)*ib
			ta, tb := (tq+fa*t.t.ax)*ia, (tq+fb*t.t.ax)*ib
			da, db := (dq+fa*t.d.ax)*ia, (dq+fb*t.d.ax)*ib
			S, T = int64(sa*65536), int64(ta*65536)
			dS, dT = int64((sb-sa)*invM*65536), int64((tb-ta)*invM*65536)
			D, dD = float32(da)-bias, float32((db-da)*invM)
		}
		zc := zr[i0 : i0+m]
		pc := px[i0 : i0+m]
		zq := za
		if !sm && !dm {
			// Nothing to test for shadow: the loop without the shadow maps' coordinates,
			// which left too few registers for the rest (the same arithmetic).
			pc = pc[:len(zc)]
			for i := range zc {
				if z := float32(zq); z > zc[i] {
					zc[i] = z
					ao := A >> 8
					r0, g0, b0 := amb[0]*ao>>8+sun[0], amb[1]*ao>>8+sun[1], amb[2]*ao>>8+sun[2]
					if tex {
						r0, g0, b0 = reflected(srgb, lv.texels[((V>>16)&mask)<<sh|(U>>16)&mask], r0, g0, b0)
					}
					pc[i] = packLight(r0, g0, b0)
				}
				zq += t.zx
				U, V, A = U+dU, V+dV, A+dA
			}
			za, ia = zb, ib
			continue
		}
		for i := range zc {
			if z := float32(zq); z > zc[i] {
				zc[i] = z
				f := int32(32) // the sun's share in 32nds
				if sm {
					si, ti := S>>16, T>>16
					if uint64(si) < uint64(sw) && uint64(ti) < uint64(shh) && D > smap[ti*sw+si] {
						f = 0
					}
				}
				if dm && f != 0 {
					if t.casters&d.soft != 0 {
						f = d.sunWeight(t.casters, S, T, D)
					} else if d.shadowed(t.casters, S, T, D) {
						f = 0
					}
				}
				ao := A >> 8
				r0, g0, b0 := amb[0]*ao>>8+sun[0]*f>>5, amb[1]*ao>>8+sun[1]*f>>5, amb[2]*ao>>8+sun[2]*f>>5
				if tex {
					r0, g0, b0 = reflected(srgb, lv.texels[((V>>16)&mask)<<sh|(U>>16)&mask], r0, g0, b0)
				}
				pc[i] = packLight(r0, g0, b0)
			}
			zq += t.zx
			U, V, S, T, D, A = U+dU, V+dV, S+dS, T+dT, D+dD, A+dA
		}
		za, ia = zb, ib
	}
}

// aoIndex converts a height above the floor (metres) to an index of the wall contact-shadow
// table (millimetres, clamped).
func aoIndex(h float64) int {
	mm := int(h * 1000)
	return max(0, min(255, mm))
}
