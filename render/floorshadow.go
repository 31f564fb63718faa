package render

import "math"

// Moving casters' shadows on the floor are planar projected shadows (Blinn 1988): a caster's
// vertices are projected along the sun onto the plane z = 0, the shadow of each convex part
// (a cuboid, a cylinder, a sphere) is the convex hull of its vertices' shadows, and that of
// any other part is its sun-facing triangles' shadows. The frame rasterizes these convex
// polygons in screen space into a mask the floor reads: 16 samples a pixel (4 × 4), so that
// an edge passing through a pixel shades it by the share of it in shadow, as a pixel-sized
// filter would. The shadow is exact on the plane, its edges are as sharp as the geometry's,
// and a floor pixel wholly in or out of it costs one load more than one no shadow comes near.
// What a caster throws on other triangles (walls, vehicles) comes from its shadow map
// (dynMap).

// shadePoly is a convex polygon of the floor's shadow in screen space: its left and right
// chains of edges (shadeEdges[l0:l1], [r0:r1]), each top to bottom, and the rows it may reach.
type shadePoly struct {
	l0, l1, r0, r1   int32
	y0, y1           float64 // top and bottom
	rowStart, rowEnd int32   // pixel rows [rowStart, rowEnd), clamped to the image
}

// shadeEdge is an edge of a chain: from height y0 to y1, at x0 at the top, k more x a row.
type shadeEdge struct{ y0, y1, x0, k float64 }

// setupFloorShadows queues the screen-space polygons of the floor shadows of the frame's
// casters (r.casters, chosen by setupDynShadows).
func (r *Renderer) setupFloorShadows(sc *realScene) {
	rf := &r.fs.real
	rf.shadePolys, rf.shadeEdges = rf.shadePolys[:0], rf.shadeEdges[:0]
	if !rf.dyn.on {
		return
	}
	ld := sc.shadow.ld // from the sun into the scene; ld[2] < 0 while the sun is up
	for _, c := range r.casters {
		o := c.o
		mesh := o.Mesh
		// Mesh frame to the floor: (x, y) of P − ld·P_z/ld_z for P = rot·p + pos. The casters
		// stand on the floor, so no part of them is below it to be projected the wrong way.
		var m [2][4]float64
		pos := o.Pos()
		for i := range 2 {
			k := -ld[i] / ld[2]
			for j := range 3 {
				m[i][j] = c.rot.At(i, j) + k*c.rot.At(2, j)
			}
			m[i][3] = pos[i] + k*pos[2]
		}
		if cap(r.floorPts) < len(mesh.verts) {
			r.floorPts = make([][2]float64, len(mesh.verts))
		}
		pts := r.floorPts[:len(mesh.verts)]
		for i, v := range mesh.verts {
			x, y, z := float64(v[0]), float64(v[1]), float64(v[2])
			pts[i] = [2]float64{m[0][0]*x + m[0][1]*y + m[0][2]*z + m[0][3], m[1][0]*x + m[1][1]*y + m[1][2]*z + m[1][3]}
		}
		toSun := vec32(c.rot.Transpose().Mul3x1(ld.Mul(-1)))
		for _, p := range mesh.parts {
			if p.convex {
				r.hullIn = append(r.hullIn[:0], pts[p.v0:p.v1]...)
				r.hull = convexHull(r.hullIn, r.hull[:0])
				r.queueShade(r.hull)
				continue
			}
			for i := p.t0; i < p.t1; i++ {
				t := &mesh.tris[i]
				if t.n.Dot(toSun) > 0 {
					r.queueShade([][2]float64{pts[t.v[0]], pts[t.v[1]], pts[t.v[2]]})
				}
			}
		}
	}
}

// convexHull returns the convex hull of pts (sorted in place) counter-clockwise, by Andrew's
// monotone chain, appended to buf (which must not share pts's memory). Fewer than 3 points
// come back as they are.
func convexHull(pts, buf [][2]float64) [][2]float64 {
	if len(pts) < 3 {
		return append(buf, pts...)
	}
	// By x, then y: insertion sort, as a part has a few dozen points at most.
	for i := 1; i < len(pts); i++ {
		p := pts[i]
		j := i
		for ; j > 0 && (pts[j-1][0] > p[0] || pts[j-1][0] == p[0] && pts[j-1][1] > p[1]); j-- {
			pts[j] = pts[j-1]
		}
		pts[j] = p
	}
	// The lower chain, then the upper one, each kept turning left.
	h := buf[:0]
	for _, p := range pts {
		for len(h) >= 2 && cross2(h[len(h)-2], h[len(h)-1], p) <= 0 {
			h = h[:len(h)-1]
		}
		h = append(h, p)
	}
	lower := len(h) + 1
	for i := len(pts) - 2; i >= 0; i-- {
		p := pts[i]
		for len(h) >= lower && cross2(h[len(h)-2], h[len(h)-1], p) <= 0 {
			h = h[:len(h)-1]
		}
		h = append(h, p)
	}
	return h[:len(h)-1] // the last is the first again
}

// queueShade clips a convex polygon of the floor (world x, y at z = 0) to near <= depth <= far
// and queues its screen-space chains.
func (r *Renderer) queueShade(poly [][2]float64) {
	if len(poly) < 3 {
		return
	}
	v := &r.fs.view
	if cap(r.clipA) < len(poly) {
		r.clipA = make([]cvert, 0, 2*len(poly))
	}
	in := r.clipA[:len(poly)]
	all, any := uint8(0xff), uint8(0)
	// rt·(p − pos) for p on the floor, in scalars with mgl64's operations in their order:
	// through its arrays the temporaries went by the stack, two fifths of this function's time.
	rt, x0, y0, z0 := &v.rt, v.pos[0], v.pos[1], v.pos[2]
	for i, p := range poly {
		a, b, c := p[0]-x0, p[1]-y0, 0-z0
		d := rt[0]*a + rt[3]*b + rt[6]*c
		l := rt[1]*a + rt[4]*b + rt[7]*c
		u := rt[2]*a + rt[5]*b + rt[8]*c
		in[i] = cvert{d: d, l: l, u: u, code: v.outcode(d, l, u)}
		all &= in[i].code
		any |= in[i].code
	}
	r.clipA = in
	if all != 0 {
		return // wholly outside one plane of the frustum
	}
	if any&outClip != 0 {
		if cap(r.clipB) < len(in)+2 {
			r.clipB = make([]cvert, 0, 2*len(in)+2)
		}
		if in = v.clipDepth(in, r.clipB); len(in) < 3 {
			return
		}
	}
	v.project(in)
	r.fs.real.addShadePoly(in, r.fs.h)
}

// addShadePoly queues a convex polygon given by its projected vertices, in either order.
func (rf *realFrame) addShadePoly(ps []cvert, h int) {
	n := len(ps)
	top, bot := 0, 0
	area := 0.0
	for i := range ps {
		if ps[i].sy < ps[top].sy {
			top = i
		}
		if ps[i].sy > ps[bot].sy {
			bot = i
		}
		j := (i + 1) % n
		area += ps[i].sx*ps[j].sy - ps[j].sx*ps[i].sy
	}
	y0, y1 := ps[top].sy, ps[bot].sy
	if !(y1 > y0) || !(area > 0 || area < 0) { // no height or no area, or NaN
		return
	}
	// With a positive area (image coordinates, y down) the vertices after the top one run
	// down its right side.
	step := 1
	if area < 0 {
		step = n - 1
	}
	chain := func(step int) (int32, int32) {
		e0 := int32(len(rf.shadeEdges))
		for i := top; i != bot; {
			j := (i + step) % n
			a, b := &ps[i], &ps[j]
			if b.sy > a.sy {
				rf.shadeEdges = append(rf.shadeEdges, shadeEdge{y0: a.sy, y1: b.sy, x0: a.sx, k: (b.sx - a.sx) / (b.sy - a.sy)})
			}
			i = j
		}
		return e0, int32(len(rf.shadeEdges))
	}
	p := shadePoly{y0: y0, y1: y1}
	p.r0, p.r1 = chain(step)
	p.l0, p.l1 = chain(n - step)
	p.rowStart = int32(max(0, min(h, int(math.Floor(y0)))))
	p.rowEnd = int32(max(0, min(h, int(math.Ceil(y1)))))
	if p.rowStart < p.rowEnd && p.l0 < p.l1 && p.r0 < p.r1 {
		rf.shadePolys = append(rf.shadePolys, p)
	}
}

// shadeSub is how many samples a pixel's side has in the floor shadow mask.
const shadeSub = 4

// shadeBand fills rows y0..y1-1 of the floor shadow mask: per pixel, bit 4·j + i set when
// sample (i, j) (at ((i + 0.5)/4, (j + 0.5)/4) in the pixel) is in a caster's shadow on the
// plane.
func (fs *frameState) shadeBand(y0, y1 int) {
	w := fs.w
	rf := &fs.real
	mask := rf.shade[y0*w : y1*w]
	clear(mask)
	cover := rf.shadeCover[y0:y1]
	for i := range cover {
		cover[i] = rowCover{lo: int32(w)}
	}
	for i := range rf.shadePolys {
		p := &rf.shadePolys[i]
		if int(p.rowEnd) <= y0 || int(p.rowStart) >= y1 {
			continue
		}
		left, right := rf.shadeEdges[p.l0:p.l1], rf.shadeEdges[p.r0:p.r1]
		li, ri := 0, 0
		for y := max(int(p.rowStart), y0); y < min(int(p.rowEnd), y1); y++ {
			row := mask[(y-y0)*w : (y-y0+1)*w]
			for j := range shadeSub {
				ys := float64(y) + (float64(j)+0.5)/shadeSub
				if ys < p.y0 || ys >= p.y1 {
					continue
				}
				for li < len(left)-1 && ys >= left[li].y1 {
					li++
				}
				for ri < len(right)-1 && ys >= right[ri].y1 {
					ri++
				}
				l, r := &left[li], &right[ri]
				xl, xr := l.x0+(ys-l.y0)*l.k, r.x0+(ys-r.y0)*r.k
				// Samples at quarter columns q: x = (q + 0.5)/4, covered for xl <= x < xr.
				qa := max(0, ceilHalf(xl*shadeSub))
				qb := min(w*shadeSub, ceilHalf(xr*shadeSub))
				if qa < qb {
					fillSamples(row, qa, qb, uint(j)*shadeSub)
					cover[y-y0].add(qa/shadeSub, (qb-1)/shadeSub+1)
				}
			}
		}
	}
}

// fillSamples sets the samples of quarter columns [qa, qb) in the sub-row whose bits start at
// bit sh of each pixel's mask.
func fillSamples(row []uint16, qa, qb int, sh uint) {
	const nib = 1<<shadeSub - 1
	pa, pb := qa/shadeSub, (qb-1)/shadeSub // first and last pixel touched
	lo := uint16(nib&^(1<<(qa%shadeSub)-1)) << sh
	hi := uint16(nib>>(shadeSub-1-(qb-1)%shadeSub)) << sh
	if pa == pb {
		row[pa] |= lo & hi
		return
	}
	row[pa] |= lo
	full := uint16(nib) << sh
	for x := pa + 1; x < pb; x++ {
		row[x] |= full
	}
	row[pb] |= hi
}
