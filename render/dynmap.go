package render

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// dynMap is a frame's shadow map of moving casters (vehicles, pushable boxes), over the
// light-space rectangle around those whose shadow may be seen. Its texels are the static map's
// divided by 2^shift, and its origin a whole number of them, so that a static-map coordinate
// x (in static texels) is dynamic texel x·2^shift − ox.
type dynMap struct {
	on     bool
	shift  uint
	ox, oy int64 // origin in dynamic texels of the static map's frame
	w, h   int
	depth  []float32
	// rect of the map in static texels, for overlap tests
	s0, t0, s1, t1 float64
}

// Dynamic map limits: texels of about dynTexel metres (the static map's divided by a power of
// two up to 2^4) and at most maxDynSide a side; a map that would be larger gets coarser.
const (
	dynTexel   = 0.004
	maxDynSide = 320
)

// caster is an object whose shadow the frame draws.
type caster struct {
	o              *Object
	rot            mgl64.Mat3
	s0, t0, s1, t1 float64 // light-space rectangle, static texels
}

// setupDynShadows builds the frame's dynamic shadow map from the objects whose shadow volume
// (their box swept along the light to the floor) is in view.
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
	S0, T0, S1, T1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for i := range dyn {
		o := &dyn[i]
		if o.Mesh == nil || o.NoShadow || len(o.Mesh.tris) == 0 {
			continue
		}
		rot := o.Rotation()
		lo, hi := o.Mesh.Bounds()
		s0, t0, s1, t1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
		wlo, whi := mgl64.Vec3{math.Inf(1), math.Inf(1), math.Inf(1)}, mgl64.Vec3{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
		for k := range 8 {
			c := mgl64.Vec3{pickBit(lo[0], hi[0], k&1), pickBit(lo[1], hi[1], k&2), pickBit(lo[2], hi[2], k&4)}
			p := o.Pos().Add(rot.Mul3x1(c))
			// Where this corner's shadow lands on the floor.
			f := p
			if m.ld[2] < 0 && p[2] > 0 {
				f = p.Sub(m.ld.Mul(p[2] / m.ld[2]))
			}
			for _, q := range [2]mgl64.Vec3{p, f} {
				for a := range 3 {
					wlo[a], whi[a] = math.Min(wlo[a], q[a]), math.Max(whi[a], q[a])
				}
			}
			a, b, _ := rf.lightSpace(p)
			s0, s1, t0, t1 = math.Min(s0, a), math.Max(s1, a), math.Min(t0, b), math.Max(t1, b)
		}
		if !finiteVec(wlo) || !finiteVec(whi) || v.boxOutside(wlo, whi) {
			continue
		}
		r.casters = append(r.casters, caster{o: o, rot: rot, s0: s0, t0: t0, s1: s1, t1: t1})
		S0, T0, S1, T1 = math.Min(S0, s0), math.Min(T0, t0), math.Max(S1, s1), math.Max(T1, t1)
	}
	if len(r.casters) == 0 {
		return
	}
	shift := uint(0)
	for shift < 4 && m.texel/float64(uint(1)<<(shift+1)) >= dynTexel*0.99 {
		shift++
	}
	for shift > 0 && (S1-S0)*float64(uint(1)<<shift) > maxDynSide-4 || shift > 0 && (T1-T0)*float64(uint(1)<<shift) > maxDynSide-4 {
		shift--
	}
	k := float64(uint(1) << shift)
	d.shift = shift
	d.ox, d.oy = int64(math.Floor(S0*k))-1, int64(math.Floor(T0*k))-1
	d.w = min(maxDynSide, int(math.Ceil(S1*k))-int(d.ox)+2)
	d.h = min(maxDynSide, int(math.Ceil(T1*k))-int(d.oy)+2)
	n := d.w * d.h
	if cap(d.depth) < n {
		d.depth = make([]float32, n)
	}
	d.depth = d.depth[:n]
	for i := range d.depth {
		d.depth[i] = inf32
	}
	d.s0, d.t0 = float64(d.ox)/k, float64(d.oy)/k
	d.s1, d.t1 = float64(d.ox+int64(d.w))/k, float64(d.oy+int64(d.h))/k
	l := m.ld.Mul(-1)
	for _, c := range r.casters {
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
				q[j] = [3]float64{a*k - float64(d.ox), b*k - float64(d.oy), dd}
			}
			drawLightTri(d.depth, d.w, d.h, q[0], q[1], q[2])
		}
	}
	d.on = true
}

func pickBit(lo, hi float64, bit int) float64 {
	if bit != 0 {
		return hi
	}
	return lo
}

// overlaps reports whether the light-space rectangle (static texels) meets the map.
func (d *dynMap) overlaps(s0, t0, s1, t1 float64) bool {
	return d.on && s1 >= d.s0 && s0 <= d.s1 && t1 >= d.t0 && t0 <= d.t1
}
