package render

import (
	"math"
	"math/bits"

	"github.com/go-gl/mathgl/mgl64"
)

// dynMap is a frame's shadow maps of moving casters (vehicles, pushable boxes): one per caster
// whose shadow may be in view, each over the light-space rectangle around it, with texels
// sized to how large it looks (about a pixel at its distance, 4 to 32 mm) as a power of two
// times the static map's, so that a static-map coordinate S (static texels, 16 fractional
// bits) is texel S >> sh − o of a caster's map.
type dynMap struct {
	on   bool
	soft uint8 // the maps whose texels look larger than a pixel: filter their lookups (sunWeight)
	maps []casterMap
}

type casterMap struct {
	sh             uint  // S >> sh is this map's texel (sh = 16 − log2(static texel / texel))
	ox, oy         int64 // origin, this map's texels
	w, h           int
	depth          []float32
	s0, t0, s1, t1 float64 // rectangle, static texels
	texel          float64 // metres
	near           float64 // the caster's least depth along the sun (metres), about
}

// Caster map limits: at most maxCasters maps a frame (the nearest casters), texels of
// minDynTexel to maxDynTexel metres, at most maxDynSide texels a side.
const (
	maxCasters  = 8
	minDynTexel = 0.004
	maxDynTexel = 0.032
	maxDynSide  = 256
)

// caster is an object whose shadow the frame draws.
type caster struct {
	o              *Object
	rot            mgl64.Mat3
	s0, t0, s1, t1 float64 // light-space rectangle, static texels
	near           float64 // least depth along the sun of its bounding box
	dist           float64 // from the camera
}

// setupDynShadows builds the frame's caster maps from the objects whose shadow on the floor is
// in view.
func (r *Renderer) setupDynShadows(dyn []Object, sc *realScene) {
	rf := &r.fs.real
	d := &rf.dyn
	d.on = false
	if !sc.hasShadow || sc.sunUp <= 0.02 {
		return
	}
	v := &r.fs.view
	m := sc.shadow
	r.casters = r.casters[:0]
	for i := range dyn {
		o := &dyn[i]
		if o.Mesh == nil || o.NoShadow || len(o.Mesh.tris) == 0 {
			continue
		}
		rot := o.Rotation()
		lo, hi := o.Mesh.Bounds()
		s0, t0, s1, t1, near := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1), math.Inf(1)
		// The box of the shadow on the floor (what it casts on other things lies between it
		// and the caster, which is drawn only if the floor shadow is in view: a shadow seen
		// on a vehicle but not on the floor next to it is rare, and skipping unseen casters
		// keeps the cost to what the frame shows).
		flo, fhi := mgl64.Vec3{math.Inf(1), math.Inf(1), 0}, mgl64.Vec3{math.Inf(-1), math.Inf(-1), 0.02}
		for k := range 8 {
			c := mgl64.Vec3{pickBit(lo[0], hi[0], k&1), pickBit(lo[1], hi[1], k&2), pickBit(lo[2], hi[2], k&4)}
			p := o.Pos().Add(rot.Mul3x1(c))
			f := p // where this corner's shadow lands on the floor
			if m.ld[2] < 0 && p[2] > 0 {
				f = p.Sub(m.ld.Mul(p[2] / m.ld[2]))
			}
			for _, q := range [2]mgl64.Vec3{p, f} {
				flo[0], fhi[0] = min(flo[0], q[0]), max(fhi[0], q[0])
				flo[1], fhi[1] = min(flo[1], q[1]), max(fhi[1], q[1])
			}
			a, b, d := rf.lightSpace(p)
			s0, s1, t0, t1, near = min(s0, a), max(s1, a), min(t0, b), max(t1, b), min(near, d)
		}
		if !finiteVec(flo) || !finiteVec(fhi) || v.boxOutside(flo, fhi) {
			continue
		}
		centre := o.Pos().Add(rot.Mul3x1(lo.Add(hi).Mul(0.5)))
		r.casters = append(r.casters, caster{o: o, rot: rot, s0: s0, t0: t0, s1: s1, t1: t1, near: near, dist: centre.Sub(v.pos).Len()})
	}
	if len(r.casters) == 0 {
		return
	}
	if len(r.casters) > maxCasters { // keep the nearest, in their order
		sortByDist(r.casters)
		r.casters = r.casters[:maxCasters]
	}
	d.maps = d.maps[:0]
	d.soft = 0
	pixel := 1 / max(v.fx, v.fy) // radians a pixel spans, about
	for _, c := range r.casters {
		want := clampTo(c.dist*pixel, minDynTexel, maxDynTexel)
		k := int(math.Round(math.Log2(m.texel / want))) // texels per static texel, log2
		k = max(-4, min(8, k))
		for k > -4 && (c.s1-c.s0)*math.Exp2(float64(k)) > maxDynSide-4 || k > -4 && (c.t1-c.t0)*math.Exp2(float64(k)) > maxDynSide-4 {
			k--
		}
		scale := math.Exp2(float64(k))
		var cm casterMap
		if len(d.maps) < cap(d.maps) {
			cm = d.maps[:len(d.maps)+1][len(d.maps)]
		}
		cm.sh = uint(16 - k)
		cm.ox, cm.oy = int64(math.Floor(c.s0*scale))-1, int64(math.Floor(c.t0*scale))-1
		cm.w = min(maxDynSide, int(math.Ceil(c.s1*scale))-int(cm.ox)+2)
		cm.h = min(maxDynSide, int(math.Ceil(c.t1*scale))-int(cm.oy)+2)
		n := cm.w * cm.h
		if cap(cm.depth) < n {
			cm.depth = make([]float32, n)
		}
		cm.depth = cm.depth[:n]
		for i := range cm.depth {
			cm.depth[i] = inf32
		}
		cm.texel = m.texel / scale
		cm.near = c.near
		// Where a texel spans more than a pixel and a half, one lookup would show its shadow's
		// edge as steps.
		if cm.texel > 1.5*c.dist*pixel {
			d.soft |= 1 << len(d.maps)
		}
		cm.s0, cm.t0 = float64(cm.ox)/scale, float64(cm.oy)/scale
		cm.s1, cm.t1 = float64(cm.ox+int64(cm.w))/scale, float64(cm.oy+int64(cm.h))/scale
		r.drawCaster(&cm, c, m, scale)
		d.maps = append(d.maps, cm)
	}
	d.on = true
}

func sortByDist(cs []caster) {
	for i := 1; i < len(cs); i++ { // insertion sort: a handful, and stable
		for j := i; j > 0 && cs[j].dist < cs[j-1].dist; j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
}

func pickBit(lo, hi float64, bit int) float64 {
	if bit != 0 {
		return hi
	}
	return lo
}

// overlaps returns as a bit set the caster maps that may shadow what lies in the light-space
// rectangle (static texels) no deeper along the sun than far: those meeting the rectangle
// whose caster reaches nearer the sun than far.
func (d *dynMap) overlaps(s0, t0, s1, t1, far float64) uint8 {
	if !d.on {
		return 0
	}
	var set uint8
	for i := range d.maps {
		m := &d.maps[i]
		if s1 >= m.s0 && s0 <= m.s1 && t1 >= m.t0 && t0 <= m.t1 && m.near < far {
			set |= 1 << i
		}
	}
	return set
}

// coarsest returns the largest texel (metres) of the caster maps in set.
func (d *dynMap) coarsest(set uint8) float64 {
	t := 0.0
	for ; set != 0; set &= set - 1 {
		t = max(t, d.maps[bits.TrailingZeros8(set)].texel)
	}
	return t
}

// shadowed reports whether static-map coordinates S, T (16 fractional bits) at depth D (bias
// taken off) are in the shadow of a caster in set: one lookup in each map.
func (d *dynMap) shadowed(set uint8, S, T int64, D float32) bool {
	for ; set != 0; set &= set - 1 {
		if d.maps[bits.TrailingZeros8(set)].shadows(S, T, D) {
			return true
		}
	}
	return false
}

// shadows reports whether the texel of m at S, T is nearer the sun than depth D.
func (m *casterMap) shadows(S, T int64, D float32) bool {
	si, ti := S>>m.sh-m.ox, T>>m.sh-m.oy
	return uint64(si) < uint64(m.w) && uint64(ti) < uint64(m.h) && D > m.depth[ti*int64(m.w)+si]
}

// sunWeight returns how much of the sun reaches S, T at depth D past the casters in set, in
// 32nds, for a set with a soft map (for the others shadowed says it, inlined): in a soft map
// the four texels around the point, lit or not, blended bilinearly (percentage-closer
// filtering), in the others one lookup, and the darkest map's share.
func (d *dynMap) sunWeight(set uint8, S, T int64, D float32) int32 {
	w := int32(32)
	for ; set != 0; set &= set - 1 {
		k := bits.TrailingZeros8(set)
		m := &d.maps[k]
		if d.soft&(1<<k) == 0 {
			if m.shadows(S, T, D) {
				return 0
			}
			continue
		}
		// Map texels in 32nds (sh >= 8), less half a texel: the taps' texel centres.
		u, v := S>>(m.sh-5)-m.ox<<5-16, T>>(m.sh-5)-m.oy<<5-16
		i, j := u>>5, v>>5
		if i < -1 || j < -1 || i >= int64(m.w) || j >= int64(m.h) {
			continue
		}
		fx, fy := int32(u&31), int32(v&31)
		mw := int64(m.w)
		var l00, l10, l01, l11 int32 // 1: the tap is lit (the map's border is)
		if i >= 0 && j >= 0 && i+1 < mw && j+1 < int64(m.h) {
			a := m.depth[j*mw+i:][:mw+2]
			l00, l10, l01, l11 = b2i(D <= a[0]), b2i(D <= a[1]), b2i(D <= a[mw]), b2i(D <= a[mw+1])
		} else {
			at := func(i, j int64) int32 {
				return b2i(uint64(i) >= uint64(mw) || uint64(j) >= uint64(m.h) || D <= m.depth[j*mw+i])
			}
			l00, l10, l01, l11 = at(i, j), at(i+1, j), at(i, j+1), at(i+1, j+1)
		}
		if n := l00 + l10 + l01 + l11; n == 4 {
			continue
		} else if n == 0 {
			return 0
		}
		top := l00*(32-fx) + l10*fx
		bot := l01*(32-fx) + l11*fx
		w = min(w, (top*(32-fy)+bot*fy+16)>>5)
		if w == 0 {
			break
		}
	}
	return w
}

// b2i is 1 for true and 0 for false.
func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// lvert is a caster's vertex in its map: texel coordinates and depth along the sun (metres).
type lvert struct{ x, y, d float32 }

// drawCaster draws caster c's triangles that face the sun into its map cm, whose texels are
// the static map's (m) divided by scale. Vertices go to the map once each.
func (r *Renderer) drawCaster(cm *casterMap, c caster, m *shadowMap, scale float64) {
	mesh := c.o.Mesh
	pos := c.o.Pos()
	k := scale / m.texel
	// Map coordinates are linear in the mesh frame's: x = ax·v + cx and so on.
	ax, ay, ad := c.rot.Transpose().Mul3x1(m.e1).Mul(k), c.rot.Transpose().Mul3x1(m.e2).Mul(k), c.rot.Transpose().Mul3x1(m.ld)
	cx := (pos.Dot(m.e1)-m.s0)*k - float64(cm.ox)
	cy := (pos.Dot(m.e2)-m.t0)*k - float64(cm.oy)
	cd := pos.Dot(m.ld)
	if cap(r.lverts) < len(mesh.verts) {
		r.lverts = make([]lvert, len(mesh.verts))
	}
	lv := r.lverts[:len(mesh.verts)]
	for i, v := range mesh.verts {
		x, y, z := float64(v[0]), float64(v[1]), float64(v[2])
		lv[i] = lvert{
			x: float32(ax[0]*x + ax[1]*y + ax[2]*z + cx),
			y: float32(ay[0]*x + ay[1]*y + ay[2]*z + cy),
			d: float32(ad[0]*x + ad[1]*y + ad[2]*z + cd),
		}
	}
	// The light's direction in the mesh frame (towards the sun): the near side casts.
	l := ad.Mul(-1)
	l0, l1, l2 := float32(l[0]), float32(l[1]), float32(l[2])
	for i := range mesh.tris {
		t := &mesh.tris[i]
		if t.n[0]*l0+t.n[1]*l1+t.n[2]*l2 <= 0 {
			continue
		}
		casterTri(cm.depth, cm.w, cm.h, &lv[t.v[0]], &lv[t.v[1]], &lv[t.v[2]])
	}
}

// casterTri writes a triangle into a depth map (w × h, keeping minima) at every texel whose
// centre it covers, edges included, as drawLightTri does: row by row, each row's texels from
// its two edges' crossings, the depth a plane over the map.
func casterTri(depth []float32, w, h int, a, b, c *lvert) {
	area := (b.x-a.x)*(c.y-a.y) - (c.x-a.x)*(b.y-a.y)
	if !(area > 0 || area < 0) {
		return
	}
	// Depth is the plane through the three: d = a.d + Dx·(x − a.x) + Dy·(y − a.y).
	inv := 1 / area
	Dx := ((b.d-a.d)*(c.y-a.y) - (c.d-a.d)*(b.y-a.y)) * inv
	Dy := ((c.d-a.d)*(b.x-a.x) - (b.d-a.d)*(c.x-a.x)) * inv
	// Top to bottom: a, b, c.
	if b.y < a.y {
		a, b = b, a
	}
	if c.y < b.y {
		b, c = c, b
	}
	if b.y < a.y {
		a, b = b, a
	}
	y0 := max(0, int(math.Ceil(float64(a.y-0.5))))
	y1 := min(h-1, int(math.Floor(float64(c.y-0.5))))
	if y0 > y1 {
		return
	}
	kLong := (c.x - a.x) / (c.y - a.y) // a.y < c.y: the area is not 0
	var kTop, kBot float32
	if b.y > a.y {
		kTop = (b.x - a.x) / (b.y - a.y)
	}
	if c.y > b.y {
		kBot = (c.x - b.x) / (c.y - b.y)
	}
	for y := y0; y <= y1; y++ {
		py := float32(y) + 0.5
		xl := a.x + (py-a.y)*kLong
		var xs float32
		switch {
		case py < b.y:
			xs = a.x + (py-a.y)*kTop
		case py > b.y || c.y > b.y:
			xs = b.x + (py-b.y)*kBot
		default: // a flat bottom edge from b to c, the row on it
			xs = b.x
		}
		if xs < xl {
			xl, xs = xs, xl
		}
		x0 := max(0, int(math.Ceil(float64(xl-0.5))))
		x1 := min(w-1, int(math.Floor(float64(xs-0.5))))
		if x0 > x1 {
			continue
		}
		d := a.d + Dx*(float32(x0)+0.5-a.x) + Dy*(py-a.y)
		row := depth[y*w+x0 : y*w+x1+1]
		for i := range row {
			if d < row[i] {
				row[i] = d
			}
			d += Dx
		}
	}
}
