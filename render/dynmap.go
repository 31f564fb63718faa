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
	maps []casterMap
}

type casterMap struct {
	sh             uint  // S >> sh is this map's texel (sh = 16 − log2(static texel / texel))
	ox, oy         int64 // origin, this map's texels
	w, h           int
	depth          []float32
	s0, t0, s1, t1 float64 // rectangle, static texels
	texel          float64 // metres
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
		s0, t0, s1, t1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
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
			a, b, _ := rf.lightSpace(p)
			s0, s1, t0, t1 = min(s0, a), max(s1, a), min(t0, b), max(t1, b)
		}
		if !finiteVec(flo) || !finiteVec(fhi) || v.boxOutside(flo, fhi) {
			continue
		}
		centre := o.Pos().Add(rot.Mul3x1(lo.Add(hi).Mul(0.5)))
		r.casters = append(r.casters, caster{o: o, rot: rot, s0: s0, t0: t0, s1: s1, t1: t1, dist: centre.Sub(v.pos).Len()})
	}
	if len(r.casters) == 0 {
		return
	}
	if len(r.casters) > maxCasters { // keep the nearest, in their order
		sortByDist(r.casters)
		r.casters = r.casters[:maxCasters]
	}
	d.maps = d.maps[:0]
	l := m.ld.Mul(-1)
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
		cm.s0, cm.t0 = float64(cm.ox)/scale, float64(cm.oy)/scale
		cm.s1, cm.t1 = float64(cm.ox+int64(cm.w))/scale, float64(cm.oy+int64(cm.h))/scale
		lightObj := c.rot.Transpose().Mul3x1(l)
		mesh := c.o.Mesh
		pos := c.o.Pos()
		for _, t := range mesh.tris {
			if float64(t.n[0])*lightObj[0]+float64(t.n[1])*lightObj[1]+float64(t.n[2])*lightObj[2] <= 0 {
				continue // faces away from the sun: the near side casts
			}
			var q [3][3]float64
			for j, vi := range t.v {
				p := pos.Add(c.rot.Mul3x1(vec64(mesh.verts[vi])))
				a, b, dd := rf.lightSpace(p)
				q[j] = [3]float64{a*scale - float64(cm.ox), b*scale - float64(cm.oy), dd}
			}
			drawLightTri(cm.depth, cm.w, cm.h, q[0], q[1], q[2])
		}
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

// overlaps returns the caster maps meeting the light-space rectangle (static texels) as a
// bit set.
func (d *dynMap) overlaps(s0, t0, s1, t1 float64) uint8 {
	if !d.on {
		return 0
	}
	var set uint8
	for i := range d.maps {
		m := &d.maps[i]
		if s1 >= m.s0 && s0 <= m.s1 && t1 >= m.t0 && t0 <= m.t1 {
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
// taken off) are in the shadow of a caster in set.
func (d *dynMap) shadowed(set uint8, S, T int64, D float32) bool {
	for ; set != 0; set &= set - 1 {
		m := &d.maps[bits.TrailingZeros8(set)]
		si, ti := S>>m.sh-m.ox, T>>m.sh-m.oy
		if uint64(si) < uint64(m.w) && uint64(ti) < uint64(m.h) && D > m.depth[ti*int64(m.w)+si] {
			return true
		}
	}
	return false
}
