package render

import (
	"errors"
	"fmt"
	"math"
	"simgui/plugins"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/go-gl/mathgl/mgl64"
)

// Mesh is a closed-or-open triangle mesh in its own frame (metres) with a flat colour per
// triangle and, for the realistic look, a texture mapped in metres (MeshBuilder.SetTexture). Triangles are single-sided: they are seen from the side their counter-clockwise
// winding faces (the builder orients every face outwards). A Mesh is immutable once built and
// may be shared by any number of Objects, Renderers and goroutines.
type Mesh struct {
	verts    []mgl32.Vec3
	tris     []meshTri
	parts    []meshPart
	min, max mgl32.Vec3 // bounding box of verts
	// reach is the radius about the mesh's origin that holds its bounding box's sphere (the
	// box's centre's distance plus its half diagonal), which inView tests.
	reach float64
	// chord is how far (metres) the mesh's round parts lie inside the round shapes they
	// approximate, at most; lods are coarser builds of the same shape, coarsest last (see
	// forScale).
	chord float64
	lods  []*Mesh
}

// meshPart is what one builder primitive added: a run of triangles using a run of vertices,
// with their bounding box, so that the renderer can cull a vehicle's parts one by one (most of
// the vehicle carrying a camera is behind it).
type meshPart struct {
	v0, v1, t0, t1 int32
	lo, hi         mgl32.Vec3
	// convex: the part is a convex solid or a flat convex piece (a cuboid, cylinder, sphere,
	// triangle), so its shadow on the floor is the convex hull of its vertices' shadows.
	convex bool
	// mid and radius are the sphere around the box lo..hi the renderer culls the part by,
	// made with the mesh rather than for every object every frame.
	mid    mgl64.Vec3
	radius float64
}

type meshTri struct {
	v   [3]int32
	n   mgl32.Vec3 // unit normal in the mesh frame
	col RGB        // unlit colour (the flat look, and the realistic look without a texture)
	// tex is the realistic look's texture (nil: the plain colour col), sampled at uv, metres
	// along the face (see faceUV).
	tex *Texture
	uv  [3][2]float32
}

// Triangles returns the number of triangles of m.
func (m *Mesh) Triangles() int { return len(m.tris) }

// Bounds returns the corners of the axis-aligned bounding box of m in its own frame.
func (m *Mesh) Bounds() (lo, hi mgl64.Vec3) {
	return vec64(m.min), vec64(m.max)
}

func vec64(v mgl32.Vec3) mgl64.Vec3 { return mgl64.Vec3{float64(v[0]), float64(v[1]), float64(v[2])} }
func vec32(v mgl64.Vec3) mgl32.Vec3 { return mgl32.Vec3{float32(v[0]), float32(v[1]), float32(v[2])} }

// MeshBuilder accumulates primitives into a Mesh. Every primitive is oriented so that its faces
// look outwards. The zero value is ready to use; a builder is for one goroutine.
type MeshBuilder struct {
	verts  []mgl32.Vec3
	tris   []meshTri
	marks  []int32 // triangle counts where primitives began
	convex []bool  // per mark: the primitive is convex (meshPart.convex)

	tex    *Texture
	texFor map[RGB]*Texture

	// detail scales the facets of round primitives (0 means 1: as asked); chord is the largest
	// gap so far between a round primitive and its facets (Mesh.chord).
	detail float64
	chord  float64
}

// SetTexture textures the triangles added from now on with t in the realistic look (nil: plain
// colour), mapped in metres along each face: on a vertical face u runs horizontally (to the
// right seen from outside) and v up from z = 0, on a horizontal face u along x and v along y.
// Their flat colour stays the one they are given.
func (b *MeshBuilder) SetTexture(t *Texture) { b.tex = t }

// SetTextureFor textures triangles added in colour c with t (vehicle shapes draw their parts in
// ShapeParams.Color and Accent; this puts the vehicle's materials on those parts). It takes
// precedence over SetTexture.
func (b *MeshBuilder) SetTextureFor(c RGB, t *Texture) {
	if b.texFor == nil {
		b.texFor = map[RGB]*Texture{}
	}
	b.texFor[c] = t
}

// mark starts a primitive (a part of the mesh).
func (b *MeshBuilder) mark() { b.markAs(false) }

// markConvex starts a primitive that is convex (meshPart.convex).
func (b *MeshBuilder) markConvex() { b.markAs(true) }

func (b *MeshBuilder) markAs(convex bool) {
	b.marks = append(b.marks, int32(len(b.tris)))
	b.convex = append(b.convex, convex)
}

// Mesh returns the mesh built so far. The builder may be reused afterwards; the returned Mesh
// does not share memory with it.
func (b *MeshBuilder) Mesh() *Mesh {
	m := &Mesh{
		verts: append([]mgl32.Vec3(nil), b.verts...),
		tris:  append([]meshTri(nil), b.tris...),
		chord: b.chord,
	}
	if len(m.verts) > 0 {
		m.min, m.max = bounds(m.verts)
		lo, hi := m.Bounds()
		m.reach = lo.Add(hi).Mul(0.5).Len() + hi.Sub(lo).Len()/2
	}
	// Primitive k's triangles run from marks[k] to the next mark; any before the first mark
	// make a part of their own.
	for k := -1; k < len(b.marks); k++ {
		t0, t1, convex := int32(0), int32(len(b.tris)), false
		if k >= 0 {
			t0, convex = b.marks[k], b.convex[k]
		}
		if k+1 < len(b.marks) {
			t1 = b.marks[k+1]
		}
		if t1 <= t0 {
			continue
		}
		p := meshPart{t0: t0, t1: t1, v0: math.MaxInt32, convex: convex}
		for _, t := range m.tris[t0:t1] {
			for _, v := range t.v {
				p.v0, p.v1 = min(p.v0, v), max(p.v1, v+1)
			}
		}
		p.lo, p.hi = bounds(m.verts[p.v0:p.v1])
		plo, phi := vec64(p.lo), vec64(p.hi)
		p.mid, p.radius = plo.Add(phi).Mul(0.5), phi.Sub(plo).Len()/2
		m.parts = append(m.parts, p)
	}
	return m
}

func bounds(vs []mgl32.Vec3) (lo, hi mgl32.Vec3) {
	lo, hi = vs[0], vs[0]
	for _, v := range vs[1:] {
		for k := range 3 {
			lo[k] = min(lo[k], v[k])
			hi[k] = max(hi[k], v[k])
		}
	}
	return lo, hi
}

func (b *MeshBuilder) vertex(p mgl64.Vec3) int32 {
	b.verts = append(b.verts, vec32(p))
	return int32(len(b.verts) - 1)
}

// tri adds the triangle (i0, i1, i2), swapping its winding if its normal points against out
// (a zero out keeps the given winding). Degenerate triangles are dropped.
func (b *MeshBuilder) tri(i0, i1, i2 int32, out mgl64.Vec3, c RGB) {
	p0, p1, p2 := vec64(b.verts[i0]), vec64(b.verts[i1]), vec64(b.verts[i2])
	n := p1.Sub(p0).Cross(p2.Sub(p0))
	l := n.Len()
	if l < 1e-12 {
		return
	}
	n = n.Mul(1 / l)
	if n.Dot(out) < 0 {
		i1, i2 = i2, i1
		n = n.Mul(-1)
	}
	t := meshTri{v: [3]int32{i0, i1, i2}, n: vec32(n), col: c, tex: b.tex}
	if tx, ok := b.texFor[c]; ok {
		t.tex = tx
	}
	if t.tex != nil {
		tu, tv := faceAxes(n)
		for k, i := range t.v {
			p := vec64(b.verts[i])
			t.uv[k] = [2]float32{float32(p.Dot(tu)), float32(p.Dot(tv))}
		}
	}
	b.tris = append(b.tris, t)
}

// faceAxes returns the texture axes of a face with unit normal n: on a vertical (or slanted)
// face u = up × n (to the right seen from outside) and v = n × u (up for a vertical face),
// on a horizontal face u = x and v = y (mirrored underneath, which nobody sees).
func faceAxes(n mgl64.Vec3) (u, v mgl64.Vec3) {
	if math.Abs(n[2]) > 0.999 {
		return mgl64.Vec3{1, 0, 0}, mgl64.Vec3{0, math.Copysign(1, n[2]), 0}
	}
	u = mgl64.Vec3{0, 0, 1}.Cross(n).Normalize()
	return u, n.Cross(u)
}

// quad adds the planar quad (i0, i1, i2, i3), given in cyclic order, facing out.
func (b *MeshBuilder) quad(i0, i1, i2, i3 int32, out mgl64.Vec3, c RGB) {
	b.tri(i0, i1, i2, out, c)
	b.tri(i0, i2, i3, out, c)
}

// Triangle adds one triangle seen from the side where p0, p1, p2 run counter-clockwise.
func (b *MeshBuilder) Triangle(p0, p1, p2 mgl64.Vec3, c RGB) {
	b.markConvex()
	b.tri(b.vertex(p0), b.vertex(p1), b.vertex(p2), mgl64.Vec3{}, c)
}

// Quad adds a planar quad seen from the side where p0..p3 run counter-clockwise.
func (b *MeshBuilder) Quad(p0, p1, p2, p3 mgl64.Vec3, c RGB) {
	b.mark()
	i0, i1, i2, i3 := b.vertex(p0), b.vertex(p1), b.vertex(p2), b.vertex(p3)
	b.tri(i0, i1, i2, mgl64.Vec3{}, c)
	b.tri(i0, i2, i3, mgl64.Vec3{}, c)
}

// Cuboid adds a box centred at centre whose edges run along the columns of axes (unit,
// orthogonal) with half-extents half along each.
func (b *MeshBuilder) Cuboid(centre mgl64.Vec3, axes mgl64.Mat3, half mgl64.Vec3, c RGB) {
	b.markConvex()
	ax := [3]mgl64.Vec3{axes.Col(0), axes.Col(1), axes.Col(2)}
	var idx [8]int32
	for i := range 8 {
		p := centre
		for k := range 3 {
			s := -half[k]
			if i>>k&1 == 1 {
				s = half[k]
			}
			p = p.Add(ax[k].Mul(s))
		}
		idx[i] = b.vertex(p)
	}
	// Corner i has bit k set when it lies on the + side of axis k.
	faces := [6][4]int{{1, 3, 7, 5}, {0, 2, 6, 4}, {2, 3, 7, 6}, {0, 1, 5, 4}, {4, 5, 7, 6}, {0, 1, 3, 2}}
	for f, q := range faces {
		out := ax[f/2]
		if f%2 == 1 {
			out = out.Mul(-1)
		}
		b.quad(idx[q[0]], idx[q[1]], idx[q[2]], idx[q[3]], out, c)
	}
}

// Box adds a box of size (length along the yawed x, width, height) centred at centre, turned by
// yaw radians counter-clockwise about +z.
func (b *MeshBuilder) Box(centre, size mgl64.Vec3, yaw float64, c RGB) {
	b.Cuboid(centre, mgl64.Rotate3DZ(yaw), size.Mul(0.5), c)
}

// Span adds a box from z0 to z1 over the rectangle x0..x1, y0..y1 (axis-aligned); shapes are
// mostly written this way.
func (b *MeshBuilder) Span(x0, x1, y0, y1, z0, z1 float64, c RGB) {
	b.Cuboid(mgl64.Vec3{(x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2}, mgl64.Ident3(),
		mgl64.Vec3{math.Abs(x1-x0) / 2, math.Abs(y1-y0) / 2, math.Abs(z1-z0) / 2}, c)
}

// Cylinder adds a closed cylinder of the given radius from the centre of its base cap to the
// centre of its top cap, its round side approximated by segments flat facets (at least 3).
func (b *MeshBuilder) Cylinder(base, top mgl64.Vec3, radius float64, segments int, c RGB) {
	b.markConvex()
	axis := top.Sub(base)
	if axis.Len() == 0 || radius <= 0 {
		return
	}
	segments = b.facets(segments, radius)
	an := axis.Normalize()
	u, v := perpendicular(an)
	bc, tc := b.vertex(base), b.vertex(top)
	first := int32(len(b.verts))
	for i := range segments {
		s, co := math.Sincos(2 * math.Pi * float64(i) / float64(segments))
		r := u.Mul(co * radius).Add(v.Mul(s * radius))
		b.vertex(base.Add(r))
		b.vertex(top.Add(r))
	}
	for i := range segments {
		j := (i + 1) % segments
		b0, t0 := first+int32(2*i), first+int32(2*i+1)
		b1, t1 := first+int32(2*j), first+int32(2*j+1)
		s, co := math.Sincos(2 * math.Pi * (float64(i) + 0.5) / float64(segments))
		out := u.Mul(co).Add(v.Mul(s))
		b.quad(b0, b1, t1, t0, out, c)
		b.tri(tc, t0, t1, an, c)
		b.tri(bc, b0, b1, an.Mul(-1), c)
	}
}

// perpendicular returns two unit vectors completing the unit vector n to an orthonormal basis.
func perpendicular(n mgl64.Vec3) (u, v mgl64.Vec3) {
	ref := mgl64.Vec3{0, 0, 1}
	if math.Abs(n[2]) > 0.9 {
		ref = mgl64.Vec3{1, 0, 0}
	}
	u = ref.Cross(n).Normalize()
	v = n.Cross(u)
	return u, v
}

// Sphere adds a sphere as a latitude-longitude mesh of 8 bands and 12 meridians.
func (b *MeshBuilder) Sphere(centre mgl64.Vec3, radius float64, c RGB) {
	b.markConvex()
	const stacks, slices = 8, 12
	if radius <= 0 {
		return
	}
	first := int32(len(b.verts))
	for i := 0; i <= stacks; i++ {
		st, ct := math.Sincos(math.Pi * float64(i) / stacks)
		for j := range slices {
			sp, cp := math.Sincos(2 * math.Pi * float64(j) / slices)
			b.vertex(centre.Add(mgl64.Vec3{st * cp, st * sp, ct}.Mul(radius)))
		}
	}
	at := func(i, j int) int32 { return first + int32(i*slices+j%slices) }
	for i := range stacks {
		for j := range slices {
			a, bb, cc, d := at(i, j), at(i, j+1), at(i+1, j+1), at(i+1, j)
			out := vec64(b.verts[a]).Add(vec64(b.verts[cc])).Mul(0.5).Sub(centre)
			b.quad(a, bb, cc, d, out, c) // degenerate triangles at the poles are dropped
		}
	}
}

// FlatPolygon adds the simple polygon pts (x, y in metres, either winding) at height z, facing
// up.
func (b *MeshBuilder) FlatPolygon(pts [][2]float64, z float64, c RGB) error {
	b.mark()
	ccw, tris, err := triangulate(pts)
	if err != nil {
		return err
	}
	first := int32(len(b.verts))
	for _, p := range ccw {
		b.vertex(mgl64.Vec3{p[0], p[1], z})
	}
	up := mgl64.Vec3{0, 0, 1}
	for _, t := range tris {
		b.tri(first+int32(t[0]), first+int32(t[1]), first+int32(t[2]), up, c)
	}
	return nil
}

// Prism adds the simple polygon pts (x, y in metres, either winding) extruded from z0 to z1:
// its side walls and top. The bottom is left out when z0 <= 0, as it could only be seen from
// under the floor.
func (b *MeshBuilder) Prism(pts [][2]float64, z0, z1 float64, c RGB) error {
	b.mark()
	ccw, tris, err := triangulate(pts)
	if err != nil {
		return err
	}
	n := len(ccw)
	first := int32(len(b.verts))
	for _, p := range ccw {
		b.vertex(mgl64.Vec3{p[0], p[1], z0})
		b.vertex(mgl64.Vec3{p[0], p[1], z1})
	}
	for i := range n {
		j := (i + 1) % n
		out := mgl64.Vec3{ccw[j][1] - ccw[i][1], ccw[i][0] - ccw[j][0], 0}
		b.quad(first+int32(2*i), first+int32(2*j), first+int32(2*j+1), first+int32(2*i+1), out, c)
	}
	for _, t := range tris {
		b.tri(first+int32(2*t[0]+1), first+int32(2*t[1]+1), first+int32(2*t[2]+1), mgl64.Vec3{0, 0, 1}, c)
		if z0 > 0 {
			b.tri(first+int32(2*t[0]), first+int32(2*t[1]), first+int32(2*t[2]), mgl64.Vec3{0, 0, -1}, c)
		}
	}
	return nil
}

var errPolygon = errors.New("polygon is not simple (it crosses itself) or has fewer than 3 distinct points")

// triangulate splits a simple polygon into triangles by ear clipping. It returns the points in
// counter-clockwise order (without a repeated closing point) and index triples into them.
func triangulate(pts [][2]float64) ([][2]float64, [][3]int, error) {
	p, area := plugins.PolygonOutline(pts)
	if len(p) < 3 {
		return nil, nil, fmt.Errorf("triangulate %d points: %w", len(pts), errPolygon)
	}
	if area == 0 {
		return nil, nil, fmt.Errorf("triangulate: zero area: %w", errPolygon)
	}
	if area < 0 {
		for i, j := 0, len(p)-1; i < j; i, j = i+1, j-1 {
			p[i], p[j] = p[j], p[i]
		}
	}
	idx := make([]int, len(p))
	for i := range idx {
		idx[i] = i
	}
	var out [][3]int
	for len(idx) > 3 {
		found := false
		for k := range idx {
			a, bb, c := idx[(k+len(idx)-1)%len(idx)], idx[k], idx[(k+1)%len(idx)]
			if cross2(p[a], p[bb], p[c]) <= 0 {
				continue // reflex or flat corner
			}
			ear := true
			for _, o := range idx {
				if o != a && o != bb && o != c && inTriangle(p[o], p[a], p[bb], p[c]) {
					ear = false
					break
				}
			}
			if ear {
				out = append(out, [3]int{a, bb, c})
				idx = append(idx[:k], idx[k+1:]...)
				found = true
				break
			}
		}
		if !found {
			// Only flat corners remain (collinear points) or the polygon crosses itself.
			for k := range idx {
				a, bb, c := idx[(k+len(idx)-1)%len(idx)], idx[k], idx[(k+1)%len(idx)]
				if cross2(p[a], p[bb], p[c]) == 0 {
					idx = append(idx[:k], idx[k+1:]...)
					found = true
					break
				}
			}
			if !found {
				return nil, nil, fmt.Errorf("triangulate %d points: %w", len(pts), errPolygon)
			}
		}
	}
	out = append(out, [3]int{idx[0], idx[1], idx[2]})
	return p, out, nil
}

func cross2(a, b, c [2]float64) float64 {
	return (b[0]-a[0])*(c[1]-a[1]) - (b[1]-a[1])*(c[0]-a[0])
}

// inTriangle reports whether p lies inside or on the counter-clockwise triangle abc.
func inTriangle(p, a, b, c [2]float64) bool {
	return cross2(a, b, p) >= 0 && cross2(b, c, p) >= 0 && cross2(c, a, p) >= 0
}

// Segment adds a line segment from a to b drawn as a square bar of the given thickness (for
// line markers). A zero-length segment adds nothing.
func (b *MeshBuilder) Segment(a, c mgl64.Vec3, thickness float64, col RGB) {
	d := c.Sub(a)
	l := d.Len()
	if l == 0 || thickness <= 0 {
		return
	}
	x := d.Mul(1 / l)
	y, z := perpendicular(x)
	b.Cuboid(a.Add(c).Mul(0.5), mgl64.Mat3FromCols(x, y, z), mgl64.Vec3{l / 2, thickness / 2, thickness / 2}, col)
}
