package render

import (
	"github.com/go-gl/mathgl/mgl32"
	"github.com/go-gl/mathgl/mgl64"
)

// setupRealStatic queues the visible static triangles for the realistic pipeline.
func (r *Renderer) setupRealStatic(s *Static) {
	lp := r.fs.real.lightPlacing(nil, mgl64.Vec3{})
	r.eachVisiblePart(s, func(c *chunk, cv []cvert, t0, t1 int32) {
		r.setupRealTris(c.mesh, cv, t0, t1, c.rl, &lp, mgl64.Vec3{})
	})
}

// setupRealObject queues an object's visible triangles for the realistic pipeline.
func (r *Renderer) setupRealObject(o *Object, s *Static) {
	var lp lightPlace
	placed := false
	r.eachVisibleObjectPart(o, s, func(cv []cvert, t0, t1 int32, rot mgl64.Mat3, pos, lightObj mgl64.Vec3) {
		if !placed {
			lp, placed = r.fs.real.lightPlacing(&rot, pos), true
		}
		r.setupRealTris(o.Mesh, cv, t0, t1, nil, &lp, lightObj)
	})
}

// lightPlace takes a mesh's vertices to light space (static shadow-map texels and depth along
// the sun): the mesh's placement, the light frame and the texel scale in one affine map, so
// that a vertex costs nine products.
type lightPlace struct {
	a [3]mgl64.Vec3 // rows
	c mgl64.Vec3
}

// lightPlacing returns the map for a mesh placed by rot and pos (static meshes: rot nil), or
// the zero map when the frame has no shadows.
func (rf *realFrame) lightPlacing(rot *mgl64.Mat3, pos mgl64.Vec3) lightPlace {
	m := rf.scene.shadow
	if !rf.scene.hasShadow && !rf.dyn.on {
		return lightPlace{}
	}
	k := 1 / m.texel
	rows := [3]mgl64.Vec3{m.e1.Mul(k), m.e2.Mul(k), m.ld}
	lp := lightPlace{a: rows, c: mgl64.Vec3{-m.s0 * k, -m.t0 * k, 0}}
	if rot != nil {
		rt := rot.Transpose() // row·(R·p + pos) = (Rᵀ·row)·p + row·pos
		for i, r := range rows {
			lp.a[i] = rt.Mul3x1(r)
			lp.c[i] += r.Dot(pos)
		}
	}
	return lp
}

// at returns vertex p in light space.
func (lp *lightPlace) at(p mgl32.Vec3) (s, t, d float64) {
	x, y, z := float64(p[0]), float64(p[1]), float64(p[2])
	a := &lp.a
	return a[0][0]*x + a[0][1]*y + a[0][2]*z + lp.c[0],
		a[1][0]*x + a[1][1]*y + a[1][2]*z + lp.c[1],
		a[2][0]*x + a[2][1]*y + a[2][2]*z + lp.c[2]
}

// setupRealTris culls, lights, clips and queues triangles t0..t1-1 of m, whose vertices lp
// takes to light space. Static meshes come with their baked data rl; objects with the light
// in their own frame.
func (r *Renderer) setupRealTris(m *Mesh, cv []cvert, t0, t1 int32, rl []triReal, lp *lightPlace, lightObj mgl64.Vec3) {
	rf := &r.fs.real
	sc := rf.scene
	lin := srgbTable
	for i := t0; i < t1; i++ {
		t := &m.tris[i]
		a, b, c := &cv[t.v[0]], &cv[t.v[1]], &cv[t.v[2]]
		if a.code&b.code&c.code != 0 {
			continue
		}
		e1d, e1l, e1u := b.d-a.d, b.l-a.l, b.u-a.u
		e2d, e2l, e2u := c.d-a.d, c.l-a.l, c.u-a.u
		nd := e1l*e2u - e1u*e2l
		nl := e1u*e2d - e1d*e2u
		nu := e1d*e2l - e1l*e2d
		if nd*a.d+nl*a.l+nu*a.u >= 0 {
			continue
		}
		// Not clipped, its projection is known: one that covers no pixel centre (most of a
		// far vehicle's) goes before it is lit.
		if (a.code|b.code|c.code)&outClip == 0 && !r.fs.coversPixels(a, b, c) {
			continue
		}
		// The triangle is made in its slot at the queue's end (some 300 bytes: made in a
		// local and copied in, it cost a tenth of a vehicle's setup), and taken off again if
		// it is clipped or covers no pixel after all.
		rf.tris = append(rf.tris, rtriR{})
		q := &rf.tris[len(rf.tris)-1]
		var alb [3]float32
		var cos float64
		if rl != nil {
			x := &rl[i]
			alb, cos, q.flags, q.voff, q.bias = x.alb, float64(x.cos), x.flags, x.voff, x.bias
			q.staticMap = x.flags&triShadowTest != 0 && sc.hasShadow && x.cos > 0
			if q.staticMap && x.vis != nil && sc.lit {
				q.vis, q.staticMap = x.vis, false
			}
			q.ambLUT, q.sunLUT, q.litLUT = x.ambLUT, x.sunLUT, x.litLUT
		} else {
			cos = max(0, float64(t.n[0])*lightObj[0]+float64(t.n[1])*lightObj[1]+float64(t.n[2])*lightObj[2])
			col := t.col
			if !sc.lit { // a flat Static: the object as the flat look lights it
				col = col.Scale(r.fs.static.env.shadeFactor(vec64(t.n), lightObj))
			}
			alb = [3]float32{float32(lin[col.R]) / linOne, float32(lin[col.G]) / linOne, float32(lin[col.B]) / linOne}
			if t.tex != nil {
				alb, q.flags = [3]float32{1, 1, 1}, triTextured
			}
			if sc.hasShadow && cos > 0 {
				q.staticMap = true
				q.bias = float32(slopeBias(cos, sc.shadow.texel))
			}
		}
		if !sc.lit {
			q.flags &^= triTextured | triWallFoot
			q.staticMap = false
		}
		rf.realLight(q, alb, cos)
		if q.flags&triTextured == 0 {
			q.ambLUT, q.sunLUT, q.litLUT = nil, nil, nil
		}
		shadowed := q.staticMap || rf.dyn.on && cos > 0
		var rv [3]realVertex
		for k, cp := range [3]*cvert{a, b, c} {
			rv[k].cvert = *cp
			if q.flags&triTextured != 0 {
				rv[k].tu, rv[k].tv = float64(t.uv[k][0]), float64(t.uv[k][1])
			}
			if shadowed {
				rv[k].ls, rv[k].lt, rv[k].ld = lp.at(m.verts[t.v[k]])
			}
		}
		if shadowed && rf.dyn.on && cos > 0 {
			s0, s1 := min(rv[0].ls, rv[1].ls, rv[2].ls), max(rv[0].ls, rv[1].ls, rv[2].ls)
			u0, u1 := min(rv[0].lt, rv[1].lt, rv[2].lt), max(rv[0].lt, rv[1].lt, rv[2].lt)
			q.casters = rf.dyn.overlaps(s0, u0, s1, u1, max(rv[0].ld, rv[1].ld, rv[2].ld))
			q.dynMap = q.casters != 0
			if q.dynMap {
				q.bias = float32(max(float64(q.bias), slopeBias(cos, rf.dyn.coarsest(q.casters))))
			}
		}
		if q.flags&triTextured != 0 {
			q.tex = t.tex
			q.texel = t.tex.period / float64(t.tex.Size())
		}
		if (a.code|b.code|c.code)&outClip == 0 {
			if !r.fs.finishReal(&rv[0], &rv[1], &rv[2], q) {
				rf.tris = rf.tris[:len(rf.tris)-1]
			}
		} else {
			tq := *q
			rf.tris = rf.tris[:len(rf.tris)-1]
			r.clipEmitReal(rv, &tq)
		}
	}
}

// coversPixels reports whether the box of the projected triangle holds a pixel centre of the
// image (if not, the triangle covers none).
func (fs *frameState) coversPixels(a, b, c *cvert) bool {
	x0, x1 := max(0, ceilHalf(min(a.sx, b.sx, c.sx))), min(fs.w, ceilHalf(max(a.sx, b.sx, c.sx)))
	y0, y1 := max(0, ceilHalf(min(a.sy, b.sy, c.sy))), min(fs.h, ceilHalf(max(a.sy, b.sy, c.sy)))
	return x0 < x1 && y0 < y1
}

// clipEmitReal clips a triangle with its attributes to near <= d <= far and queues the pieces.
func (r *Renderer) clipEmitReal(in3 [3]realVertex, q *rtriR) {
	v := &r.fs.view
	var buf0, buf1 [8]realVertex
	in := append(buf0[:0], in3[:]...)
	out := buf1[:0]
	for _, pl := range [2]struct {
		sign, off float64
	}{{1, -v.near}, {-1, v.far}} {
		out = out[:0]
		dist := func(p *realVertex) float64 { return pl.sign*p.cvert.d + pl.off }
		for i := range in {
			p, o := &in[i], &in[(i+1)%len(in)]
			dp, dq := dist(p), dist(o)
			if dp >= 0 {
				out = append(out, *p)
			}
			if (dp >= 0) != (dq >= 0) {
				s := dp / (dp - dq)
				lerp := func(a, b float64) float64 { return a + (b-a)*s }
				out = append(out, realVertex{
					cvert: cvert{d: lerp(p.cvert.d, o.cvert.d), l: lerp(p.l, o.l), u: lerp(p.cvert.u, o.cvert.u)},
					tu:    lerp(p.tu, o.tu), tv: lerp(p.tv, o.tv), ls: lerp(p.ls, o.ls), lt: lerp(p.lt, o.lt), ld: lerp(p.ld, o.ld),
				})
			}
		}
		if len(out) < 3 {
			return
		}
		in, out = out, in
	}
	for i := range in {
		p := &in[i]
		p.iz = 1 / p.cvert.d
		p.sx = v.cx - v.fx*p.l*p.iz
		p.sy = v.cy - v.fy*p.cvert.u*p.iz
	}
	for i := 1; i+1 < len(in); i++ {
		r.fs.emitReal(&in[0], &in[i], &in[i+1], q)
	}
}

// emitReal queues a projected realistic triangle, or drops it when it covers no pixel centre.
func (fs *frameState) emitReal(p0, p1, p2 *realVertex, q *rtriR) {
	rf := &fs.real
	rf.tris = append(rf.tris, *q)
	if !fs.finishReal(p0, p1, p2, &rf.tris[len(rf.tris)-1]) {
		rf.tris = rf.tris[:len(rf.tris)-1]
	}
}

// finishReal makes t, lit but not yet placed, the scan of the projected triangle p0, p1, p2,
// in place; false, when it covers no pixel centre.
func (fs *frameState) finishReal(p0, p1, p2 *realVertex, t *rtriR) bool {
	if p1.sy < p0.sy {
		p0, p1 = p1, p0
	}
	if p2.sy < p1.sy {
		p1, p2 = p2, p1
	}
	if p1.sy < p0.sy {
		p0, p1 = p1, p0
	}
	det, ok := t.rtri.setup(&p0.cvert, &p1.cvert, &p2.cvert, fs.h)
	if !ok {
		return false
	}
	z0, z1, z2 := p0.iz, p1.iz, p2.iz
	c0, c1, c2 := &p0.cvert, &p1.cvert, &p2.cvert
	if t.flags&triTextured != 0 {
		t.u = newAPlane(c0, c1, c2, p0.tu*z0, p1.tu*z1, p2.tu*z2, det)
		t.v = newAPlane(c0, c1, c2, p0.tv*z0, p1.tv*z1, p2.tv*z2, det)
	}
	if t.staticMap || t.dynMap {
		t.s = newAPlane(c0, c1, c2, p0.ls*z0, p1.ls*z1, p2.ls*z2, det)
		t.t = newAPlane(c0, c1, c2, p0.lt*z0, p1.lt*z1, p2.lt*z2, det)
		t.d = newAPlane(c0, c1, c2, p0.ld*z0, p1.ld*z1, p2.ld*z2, det)
	}
	return true
}
