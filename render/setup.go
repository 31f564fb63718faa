package render

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// frameState is everything the bands of one frame read: set up serially by Render, then
// read-only while bands are drawn (each band writes only its own rows of rgb and z).
type frameState struct {
	w, h       int
	rgb        []byte
	z          []float32  // 1/depth per pixel, 0 = nothing yet
	cover      []rowCover // per row, the columns triangles reached (flat look)
	depth      bool       // z is the caller's Depth buffer: convert it at the end
	view       view
	static     *Static
	background background
	gains      *GainTable // every colour drawn goes through it (nil: none)
	tris       []rtri
	tiles      int32
	phase      func(fs *frameState, y0, y1 int) // what drawTiles does with a band
	phaseRows  int
	real       realFrame
	blur       blurState
	film       filmState
	post       postState
}

// view is a camera prepared for a frame.
type view struct {
	pos       mgl64.Vec3
	fwd, left mgl64.Vec3 // camera axes in the world frame
	up        mgl64.Vec3
	rt        mgl64.Mat3 // world → camera frame (d, l, u) = rt·(p − pos)
	fx, fy    float64    // focal lengths, pixels
	cx, cy    float64    // principal point, continuous pixel coordinates
	// tl, tr, tt, tb are the tangents of the half fields of view to the left, right, top and
	// bottom edges.
	tl, tr, tt, tb float64
	near, far      float64
	planes         [6]plane // inward, unit normals, in the world frame
}

// plane is {p : n·p + c >= 0}.
type plane struct {
	n mgl64.Vec3
	c float64
}

func newView(cam *Camera) view {
	r := cam.Rotation()
	fx, fy, cx, cy := cam.Intrinsics()
	v := view{
		pos: cam.Pos(), fwd: r.Col(0), left: r.Col(1), up: r.Col(2), rt: r.Transpose(),
		fx: fx, fy: fy, cx: cx + 0.5, cy: cy + 0.5,
		near: cam.Near, far: cam.Far,
	}
	v.tl, v.tr = v.cx/v.fx, (float64(cam.Width)-v.cx)/v.fx
	v.tt, v.tb = v.cy/v.fy, (float64(cam.Height)-v.cy)/v.fy
	ns := [6]mgl64.Vec3{
		v.fwd, v.fwd.Mul(-1),
		v.fwd.Mul(v.tl).Sub(v.left), v.fwd.Mul(v.tr).Add(v.left),
		v.fwd.Mul(v.tt).Sub(v.up), v.fwd.Mul(v.tb).Add(v.up),
	}
	cs := [6]float64{-cam.Near, cam.Far, 0, 0, 0, 0}
	for i, n := range ns {
		l := n.Len()
		c := cs[i] - n.Dot(v.pos)
		if i == 1 {
			c = cs[i] + v.fwd.Dot(v.pos)
		}
		v.planes[i] = plane{n: n.Mul(1 / l), c: c / l}
	}
	return v
}

// boxOutside reports whether the world box lo..hi lies wholly outside one frustum plane.
func (v *view) boxOutside(lo, hi mgl64.Vec3) bool {
	for _, p := range v.planes {
		q := lo
		for k := range 3 {
			if p.n[k] > 0 {
				q[k] = hi[k]
			}
		}
		if p.n.Dot(q)+p.c < 0 {
			return true
		}
	}
	return false
}

// sphereOutside reports whether the sphere lies wholly outside one frustum plane.
func (v *view) sphereOutside(c mgl64.Vec3, r float64) bool {
	for _, p := range v.planes {
		if p.n.Dot(c)+p.c < -r {
			return true
		}
	}
	return false
}

// partOutside reports whether mesh part p, placed by rotation rot and position pos, lies
// wholly outside one frustum plane, by its sphere: sphereOutside(pos + rot·p.mid, p.radius)
// in scalars, the same operations in the same order. Through mgl64's arrays the temporaries
// went by the stack, and culling a vehicle's parts cost as much as transforming them.
func (v *view) partOutside(rot *mgl64.Mat3, pos *mgl64.Vec3, p *meshPart) bool {
	m0, m1, m2 := p.mid[0], p.mid[1], p.mid[2]
	c0 := pos[0] + (rot[0]*m0 + rot[3]*m1 + rot[6]*m2)
	c1 := pos[1] + (rot[1]*m0 + rot[4]*m1 + rot[7]*m2)
	c2 := pos[2] + (rot[2]*m0 + rot[5]*m1 + rot[8]*m2)
	for i := range v.planes {
		pl := &v.planes[i]
		if pl.n[0]*c0+pl.n[1]*c1+pl.n[2]*c2+pl.c < -p.radius {
			return true
		}
	}
	return false
}

// Vertex outcodes against the view frustum in the camera frame.
const (
	outNear = 1 << iota
	outFar
	outLeft
	outRight
	outTop
	outBottom
	outClip = outNear | outFar // planes triangles are clipped against; the others only cull
)

// outcode returns a camera-frame point's outcodes against the frustum.
func (v *view) outcode(d, l, u float64) uint8 {
	var code uint8
	if d < v.near {
		code |= outNear
	}
	if d > v.far {
		code |= outFar
	}
	if l > d*v.tl {
		code |= outLeft
	}
	if -l > d*v.tr {
		code |= outRight
	}
	if u > d*v.tt {
		code |= outTop
	}
	if -u > d*v.tb {
		code |= outBottom
	}
	return code
}

// cvert is a vertex in the camera frame (d forward = planar depth, l left, u up) with its
// projection (valid when d >= near).
type cvert struct {
	d, l, u float64
	sx, sy  float64
	iz      float64 // 1/d
	code    uint8
}

// rtri is a triangle ready to scan: vertices sorted top to bottom (t, m, b), edge slopes in
// pixels of x per row, and 1/depth as a plane over the screen. Each edge's x at a row is
// computed from its upper vertex and slope, so an edge shared by two triangles gives both the
// same x: no cracks, no double coverage.
type rtri struct {
	rowStart, rowEnd  int32 // rows [rowStart, rowEnd), clamped to the image
	midLeft           bool  // the middle vertex is left of the long (top to bottom) edge
	col               RGB
	xt, yt, xm, ym    float64
	kLong, kTop, kBot float64
	zt, zx, zy        float64 // 1/depth at (xt, yt) and its change per pixel right and down
}

// transform puts vertices v0..v1-1 of m into the camera frame via a (mesh → camera rotation)
// and t (mesh origin in the camera frame), with outcodes and projections.
func (r *Renderer) transform(m *Mesh, cv []cvert, v0, v1 int32, a mgl64.Mat3, t mgl64.Vec3) {
	v := &r.fs.view
	a00, a01, a02 := a[0], a[3], a[6]
	a10, a11, a12 := a[1], a[4], a[7]
	a20, a21, a22 := a[2], a[5], a[8]
	for i := v0; i < v1; i++ {
		p := m.verts[i]
		x, y, z := float64(p[0]), float64(p[1]), float64(p[2])
		d := a00*x + a01*y + a02*z + t[0]
		l := a10*x + a11*y + a12*z + t[1]
		u := a20*x + a21*y + a22*z + t[2]
		code := v.outcode(d, l, u)
		c := cvert{d: d, l: l, u: u, code: code}
		if code&outNear == 0 {
			c.iz = 1 / d
			c.sx = v.cx - v.fx*l*c.iz
			c.sy = v.cy - v.fy*u*c.iz
		}
		cv[i] = c
	}
}

// scratch returns the camera-frame vertex buffer for a mesh of n vertices.
func (r *Renderer) scratch(n int) []cvert {
	if cap(r.cv) < n {
		r.cv = make([]cvert, n*2)
	}
	return r.cv[:n]
}

func (r *Renderer) setupStatic(s *Static) {
	r.eachVisiblePart(s, func(c *chunk, cv []cvert, t0, t1 int32) {
		r.setupTris(c.mesh, cv, t0, t1, c.cols, mgl64.Vec3{}, s)
	})
}

// eachVisiblePart brings the vertices of each part of s's chunks the view may see into the
// camera frame and hands them to queue with the part's triangle range [t0, t1): the culling
// and transform the flat and realistic pipelines share.
func (r *Renderer) eachVisiblePart(s *Static, queue func(c *chunk, cv []cvert, t0, t1 int32)) {
	v := &r.fs.view
	t := v.rt.Mul3x1(v.pos).Mul(-1)
	for i := range s.chunks {
		c := &s.chunks[i]
		if v.boxOutside(c.lo, c.hi) {
			continue
		}
		cv := r.scratch(len(c.mesh.verts))
		for _, p := range c.mesh.parts {
			if len(c.mesh.parts) > 1 && v.boxOutside(vec64(p.lo), vec64(p.hi)) {
				continue
			}
			r.transform(c.mesh, cv, p.v0, p.v1, v.rt, t)
			queue(c, cv, p.t0, p.t1)
		}
	}
}

func (r *Renderer) setupObject(o *Object, s *Static) {
	r.eachVisibleObjectPart(o, s, func(cv []cvert, t0, t1 int32, _ mgl64.Mat3, _, lightObj mgl64.Vec3) {
		r.setupTris(o.Mesh, cv, t0, t1, nil, lightObj, s)
	})
}

// eachVisibleObjectPart brings the vertices of each part of o's mesh the view may see into
// the camera frame and hands them to queue with the part's triangle range [t0, t1), o's
// rotation and position, and the light in the mesh frame (n·l is the same there): the
// culling and transform the flat and realistic pipelines share.
func (r *Renderer) eachVisibleObjectPart(o *Object, s *Static, queue func(cv []cvert, t0, t1 int32, rot mgl64.Mat3, pos, lightObj mgl64.Vec3)) {
	v := &r.fs.view
	rot := o.Rotation()
	pos := o.Pos()
	lo, hi := o.Mesh.Bounds()
	centre := pos.Add(rot.Mul3x1(lo.Add(hi).Mul(0.5)))
	if math.IsNaN(centre.Len()) || math.IsInf(centre.Len(), 0) || v.sphereOutside(centre, hi.Sub(lo).Len()/2) {
		return
	}
	a, t := v.rt.Mul3(rot), v.rt.Mul3x1(pos.Sub(v.pos))
	lightObj := rot.Transpose().Mul3x1(s.light)
	cv := r.scratch(len(o.Mesh.verts))
	for i := range o.Mesh.parts {
		p := &o.Mesh.parts[i]
		if v.partOutside(&rot, &pos, p) {
			continue
		}
		r.transform(o.Mesh, cv, p.v0, p.v1, a, t)
		queue(cv, p.t0, p.t1, rot, pos, lightObj)
	}
}

// setupTris culls, clips and queues triangles t0..t1-1 of m. Colours come from lit (static
// meshes) or are lit here by the light direction in the mesh frame, light.
func (r *Renderer) setupTris(m *Mesh, cv []cvert, t0, t1 int32, lit []RGB, light mgl64.Vec3, s *Static) {
	for i := t0; i < t1; i++ {
		t := &m.tris[i]
		a, b, c := &cv[t.v[0]], &cv[t.v[1]], &cv[t.v[2]]
		if a.code&b.code&c.code != 0 {
			continue // wholly outside one plane of the frustum
		}
		// Back face: the normal (camera frame) points away from the eye at the origin.
		e1d, e1l, e1u := b.d-a.d, b.l-a.l, b.u-a.u
		e2d, e2l, e2u := c.d-a.d, c.l-a.l, c.u-a.u
		nd := e1l*e2u - e1u*e2l
		nl := e1u*e2d - e1d*e2u
		nu := e1d*e2l - e1l*e2d
		if nd*a.d+nl*a.l+nu*a.u >= 0 {
			continue
		}
		var col RGB
		if lit != nil {
			col = lit[i]
		} else {
			col = t.col.Scale(s.env.shadeFactor(vec64(t.n), light))
		}
		col = r.fs.gains.rgb(col)
		if (a.code|b.code|c.code)&outClip == 0 {
			r.fs.emit(a, b, c, col)
		} else {
			r.clipEmit(a, b, c, col)
		}
	}
}

// clipEmit clips a triangle to near <= d <= far (Sutherland–Hodgman) and queues the pieces.
func (r *Renderer) clipEmit(a, b, c *cvert, col RGB) {
	v := &r.fs.view
	var buf0, buf1 [8]cvert // a triangle clipped by two planes has at most 5 corners
	in := v.clipDepth(append(buf0[:0], *a, *b, *c), buf1[:0])
	if len(in) < 3 {
		return
	}
	v.project(in)
	for i := 1; i+1 < len(in); i++ {
		r.fs.emit(&in[0], &in[i], &in[i+1], col)
	}
}

// clipDepth clips the convex polygon in (camera-frame corners) to near <= d <= far and
// returns what is left, in in's memory or out's (out is scratch, at least len(in)+2 long to
// stay where it is); fewer than 3 corners when nothing is.
func (v *view) clipDepth(in, out []cvert) []cvert {
	for _, pl := range [2]struct {
		sign, off float64
	}{{1, -v.near}, {-1, v.far}} {
		out = out[:0]
		for i := range in {
			p, q := &in[i], &in[(i+1)%len(in)]
			dp, dq := pl.sign*p.d+pl.off, pl.sign*q.d+pl.off
			if dp >= 0 {
				out = append(out, *p)
			}
			if (dp >= 0) != (dq >= 0) {
				s := dp / (dp - dq)
				out = append(out, cvert{d: p.d + (q.d-p.d)*s, l: p.l + (q.l-p.l)*s, u: p.u + (q.u-p.u)*s})
			}
		}
		if len(out) < 3 {
			return out
		}
		in, out = out, in
	}
	return in
}

// project sets the projection of camera-frame corners in front of the near plane.
func (v *view) project(ps []cvert) {
	for i := range ps {
		p := &ps[i]
		p.iz = 1 / p.d
		p.sx = v.cx - v.fx*p.l*p.iz
		p.sy = v.cy - v.fy*p.u*p.iz
	}
}

// emit queues a projected triangle for scanning, or drops it when it covers no pixel centre.
func (fs *frameState) emit(p0, p1, p2 *cvert, col RGB) {
	if p1.sy < p0.sy {
		p0, p1 = p1, p0
	}
	if p2.sy < p1.sy {
		p1, p2 = p2, p1
	}
	if p1.sy < p0.sy {
		p0, p1 = p1, p0
	}
	fs.tris = append(fs.tris, rtri{})
	t := &fs.tris[len(fs.tris)-1]
	if _, ok := t.setup(p0, p1, p2, fs.h); !ok {
		fs.tris = fs.tris[:len(fs.tris)-1]
		return
	}
	t.col = col
}

// setup makes t the scan of a projected triangle whose vertices are sorted top to bottom
// (p0.sy <= p1.sy <= p2.sy) on an image h rows high, in place (no copy of the triangle); it
// returns the screen determinant the realistic pipeline's attribute planes divide by, and
// false, leaving t as it was, when the triangle covers no pixel centre.
func (t *rtri) setup(p0, p1, p2 *cvert, h int) (det float64, ok bool) {
	rs := max(ceilHalf(p0.sy), 0)
	re := min(ceilHalf(p2.sy), h)
	if rs >= re {
		return 0, false
	}
	x0, y0, z0 := p0.sx, p0.sy, p0.iz
	x1, y1, z1 := p1.sx, p1.sy, p1.iz
	x2, y2, z2 := p2.sx, p2.sy, p2.iz
	det = (x1-x0)*(y2-y0) - (x2-x0)*(y1-y0)
	if det == 0 || math.IsNaN(det) {
		return 0, false
	}
	*t = rtri{
		rowStart: int32(rs), rowEnd: int32(re),
		xt: x0, yt: y0, xm: x1, ym: y1, zt: z0,
		kLong: (x2 - x0) / (y2 - y0),
		zx:    ((z1-z0)*(y2-y0) - (z2-z0)*(y1-y0)) / det,
		zy:    ((x1-x0)*(z2-z0) - (x2-x0)*(z1-z0)) / det,
	}
	if y1 > y0 {
		t.kTop = (x1 - x0) / (y1 - y0)
	}
	if y2 > y1 {
		t.kBot = (x2 - x1) / (y2 - y1)
	}
	t.midLeft = x1 < x0+(y1-y0)*t.kLong
	return det, true
}

// ceilHalf returns ceil(x − 0.5): the first pixel whose centre is at or right of (or below) x.
// Spans are [ceilHalf(left), ceilHalf(right)), the top-left rule for pixel centres.
func ceilHalf(x float64) int {
	t := x - 0.5
	i := int(t)
	if float64(i) < t {
		i++
	}
	return i
}
