package render

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// A frame of a large fleet (a training world of thousands of robots) sees a few of them: the
// rest are culled one test at a time further down (a robot's parts, its shadow's box on the
// floor), each after its rotation and eight corners are worked out, some 1.2 µs a robot and
// frame in the realistic look. inView drops those first, with two sphere tests each, so that
// what a camera costs follows what it sees rather than the fleet's size.

// inView returns the objects of dyn that may show in the frame the view is set up for, or cast
// a shadow on the floor in it when ld, the sun's direction into the scene, is given (nil
// without shadows). It keeps dyn's order and returns dyn itself when it drops none; otherwise a slice
// of the Renderer's, valid until the next frame. What it drops, the later tests would have
// dropped too: each of its spheres holds what the test it stands in for looks at.
func (r *Renderer) inView(dyn []Object, ld *mgl64.Vec3) []Object {
	v := &r.fs.view
	shadows := ld != nil
	fall := 0.0 // how far a shadow lands from its caster per metre of height
	if shadows && ld[2] < 0 {
		fall = 1 / -ld[2]
	}
	out, copied := dyn, false
	for i := range dyn {
		o := &dyn[i]
		keep := o.Mesh == nil || !o.far(v, shadows, fall)
		switch {
		case keep && copied:
			out = append(out, *o)
		case !keep && !copied:
			r.nearObjs = append(r.nearObjs[:0], dyn[:i]...)
			out, copied = r.nearObjs, true
		}
	}
	if copied {
		r.nearObjs = out
	}
	return out
}

// far says whether object o shows nowhere in view v, nor casts a shadow there on the floor
// (with shadows, fall metres from it per metre of height).
//
// Every point of o's mesh box lies within rm (the mesh's reach) of o's position: the sphere
// eachVisibleObjectPart tests first (the box's centre placed, the box's half diagonal) lies
// inside that of radius rm about the position. A caster's floor shadow box (setupDynShadows: its corners and where
// they fall, over z 0..0.02) lies within rxy of the position across, as its corners are at
// most rm higher than it, and within rxy·√2 + 0.01 of the point 0.01 above the floor below it.
// A sphere outside a plane of the view holds only points outside it.
func (o *Object) far(v *view, shadows bool, fall float64) bool {
	rm := o.Mesh.reach
	pos := o.Pos()
	if !v.sphereOutside(pos, rm) {
		return false
	}
	if !shadows || o.NoShadow {
		return true
	}
	rxy := rm + max(0, pos[2]+rm)*fall
	return v.sphereOutside(mgl64.Vec3{pos[0], pos[1], 0.01}, rxy*math.Sqrt2+0.01)
}
