package sensors

import (
	"fmt"

	"simgui/app/sensors/raycast"
	"simgui/app/world"
	"simgui/plugins"
)

// rays keeps a raycast.Caster in step with the world: the static grid of the current layout
// (rebuilt when World.LayoutVersion changes) and the vehicles and pushable boxes of the current
// step (set on the first query of each step). Loop goroutine only.
type rays struct {
	version uint64
	caster  *raycast.Caster
	err     error
	boxes   []*plugins.Element

	step   uint64
	fresh  bool
	shapes []raycast.Shape
}

// get returns the caster for the world as it is after this step.
func (r *rays) get(w *world.World) (*raycast.Caster, error) {
	if r.caster == nil || r.version != w.LayoutVersion() {
		r.version, r.fresh, r.err = w.LayoutVersion(), false, nil
		shapes, err := raycast.LayoutShapes(w.Layout())
		if err != nil {
			r.err = fmt.Errorf("ray scene: %w", err)
			return nil, r.err
		}
		if r.caster == nil {
			r.caster = raycast.NewCaster(raycast.NewStatic(shapes))
		} else {
			r.caster.SetStatic(raycast.NewStatic(shapes))
		}
		r.boxes = movableBoxes(w.Layout())
	}
	if r.err != nil {
		return nil, r.err
	}
	if !r.fresh || r.step != w.StepCount() {
		r.step, r.fresh = w.StepCount(), true
		r.shapes = r.shapes[:0]
		for _, m := range w.Models() {
			r.shapes = append(r.shapes, BodyShape(m))
		}
		for i, b := range w.Boxes() {
			if i >= len(r.boxes) {
				break
			}
			p, e := b.Pose(), r.boxes[i]
			r.shapes = append(r.shapes, raycast.Shape{Kind: raycast.Box, X: p.X, Y: p.Y, Yaw: p.Yaw,
				HalfL: e.Length / 2, HalfW: e.Width / 2, ZMin: b.Base, ZMax: b.Top(), ID: b.ID})
		}
		r.caster.SetDynamic(r.shapes)
	}
	return r.caster, nil
}

// BodyShape returns a vehicle's collision shape for ray queries: its body box or circle at its
// pose, from the base of the body to its top.
func BodyShape(m *world.Model) raycast.Shape {
	b, p := m.Body, m.Body.Pose()
	s := raycast.Shape{Kind: raycast.Box, X: p.X, Y: p.Y, Yaw: p.Yaw, ZMin: b.Base, ZMax: b.Top(), ID: b.ID}
	if d := m.Vehicle.Body; d != nil {
		if d.Shape == "circle" {
			s.Kind, s.Radius = raycast.Circle, d.Radius
		} else {
			s.HalfL, s.HalfW = d.Length/2, d.Width/2
		}
	}
	return s
}
