package render

import "math"

// Levels of detail: a vehicle's round parts (wheels, sensor eyes) take many facets, and a
// far vehicle is a few pixels across, where most of its triangles cover no pixel centre yet
// each costs its setup. NewVehicleMesh builds coarser versions of the shape with fewer facets,
// and a frame draws each object with the coarsest whose facets lie within lodPixels of the
// round shape on screen (and casts its shadow with it), so that a change of level does not
// show.

// lodPixels is the largest gap on screen between a round part and its facets that a level of
// detail may have.
const lodPixels = 0.4

// lodDetails are the facet scales of the coarser levels NewVehicleMesh builds.
var lodDetails = [...]float64{0.6, 0.4}

// minFacets is the fewest facets a round primitive takes at a coarser level.
const minFacets = 4

// facets returns how many facets a round primitive asked for with n (at least 3) takes at the
// builder's detail, and notes its chord gap.
func (b *MeshBuilder) facets(n int, radius float64) int {
	n = max(n, 3)
	if b.detail > 0 && b.detail < 1 {
		n = min(n, max(minFacets, int(math.Round(float64(n)*b.detail))))
	}
	b.chord = max(b.chord, radius*(1-math.Cos(math.Pi/float64(n))))
	return n
}

// withLevels returns m with the coarser levels that build(detail) makes, keeping those with
// fewer triangles than the level before them.
func withLevels(m *Mesh, build func(detail float64) *Mesh) *Mesh {
	prev := m
	for _, d := range lodDetails {
		if l := build(d); len(l.tris) < len(prev.tris) {
			m.lods = append(m.lods, l)
			prev = l
		}
	}
	return m
}

// forScale returns the level of m to draw where a metre spans ppm pixels at the mesh's
// nearest point: the coarsest whose chord gap is at most lodPixels there.
func (m *Mesh) forScale(ppm float64) *Mesh {
	best := m
	for _, l := range m.lods {
		if l.chord*ppm > lodPixels {
			break
		}
		best = l
	}
	return best
}

// withLOD returns dyn with each object's mesh replaced by the level cam draws it at (dyn
// itself when none changes); the slice is the Renderer's, valid until the next frame.
func (r *Renderer) withLOD(cam *Camera, dyn []Object) []Object {
	fx, fy, _, _ := cam.Intrinsics()
	f := max(fx, fy)
	eye := cam.Pose.Pos()
	out, copied := dyn, false
	for i := range dyn {
		o := &dyn[i]
		if o.Mesh == nil || len(o.Mesh.lods) == 0 {
			continue
		}
		lo, hi := o.Mesh.Bounds()
		centre := o.Pos().Add(o.Rotation().Mul3x1(lo.Add(hi).Mul(0.5)))
		d := centre.Sub(eye).Len() - hi.Sub(lo).Len()/2 // to the nearest point of its sphere
		if !(d > 0) {
			continue // NaN, or the camera is inside: full detail
		}
		l := o.Mesh.forScale(f / d)
		if l == o.Mesh {
			continue
		}
		if !copied {
			r.lodObjs = append(r.lodObjs[:0], dyn...)
			out, copied = r.lodObjs, true
		}
		out[i].Mesh = l
	}
	return out
}
