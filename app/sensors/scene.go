package sensors

import (
	"fmt"
	"slices"
	"strings"

	"github.com/go-gl/mathgl/mgl64"

	"simgui/app/markers"
	"simgui/app/world"
	"simgui/plugins"
	"simgui/render"
)

// View is what a camera needs to draw one frame, captured on the loop goroutine: the static
// scene and the dynamic objects at their poses of that step. It shares only immutable data
// (Static, Meshes, and a camera shot's Objects with the step's other shots) with the world,
// so it may be rendered on any goroutine.
type View struct {
	Static  *render.Static
	Objects []render.Object
}

// scene keeps what cameras draw, built from the world and cached: the render.Static of the
// current layout in each environment cameras ask for (rebuilt when World.LayoutVersion
// changes), one mesh per vehicle look (render.VehicleSpecFor: a training reset's new
// descriptor of the same vehicle keeps its mesh), one per pushable box, one for the current
// marker set, and the objects of the current step. Loop goroutine only.
type scene struct {
	sys *System

	version uint64
	static  *render.Static // in the system's base environment
	err     error
	boxes   []*render.Mesh // meshes of World.Boxes(), in order
	// looks are the layout's Statics in the environments cameras see it in (their look
	// parameters), oldest first.
	looks []look

	vehicles map[render.VehicleSpec]*render.Mesh

	markerSet  *markers.Set
	markerMesh *render.Mesh

	// Objects of the step stepObjs was captured at: one per model (in world order), then
	// boxes and markers.
	step    uint64
	fresh   bool
	models  []*world.Model
	objs    []render.Object
	nModels int
	// shared is a copy of objs made for the cameras that see every vehicle, handed to all of
	// this step's captures and never written again (nil until one asks for it this step).
	shared []render.Object
}

// movableBoxes returns the layout elements World.Boxes() were built from, in order: boxes
// marked movable with a height (physics.Space.AddElement makes a pushable body of exactly those).
func movableBoxes(l *plugins.Layout) []*plugins.Element {
	var out []*plugins.Element
	for i := range l.Elements {
		e := &l.Elements[i]
		if e.Kind == plugins.ElementBox && e.Movable && e.Height > 0 {
			out = append(out, e)
		}
	}
	return out
}

// update rebuilds the static scene when the layout changed.
func (sc *scene) update(w *world.World) error {
	if sc.static != nil && sc.version == w.LayoutVersion() || sc.err != nil && sc.version == w.LayoutVersion() {
		return sc.err
	}
	sc.version, sc.static, sc.err, sc.boxes, sc.fresh = w.LayoutVersion(), nil, nil, nil, false
	sc.looks = sc.looks[:0]
	st, err := sc.newStatic(w.Layout(), sc.sys.baseEnvironment())
	if err != nil {
		sc.err = fmt.Errorf("camera scene: %w", err)
		return sc.err
	}
	for _, e := range movableBoxes(w.Layout()) {
		m, err := render.NewElementMesh(w.Layout(), e)
		if err != nil {
			sc.err = fmt.Errorf("camera scene: %w", err)
			return sc.err
		}
		sc.boxes = append(sc.boxes, m)
	}
	sc.static = st
	return nil
}

// look is a Static of the current layout in one environment.
type look struct {
	env    render.Environment
	static *render.Static
}

// maxLooks bounds the environments kept per layout: one per camera in practice (each
// randomized agent has its own look), bounded anyway.
const maxLooks = 32

// newStatic builds the layout's Static in env, leaving out what does not load
// (render.StaticLeavingOut) with a warning.
func (sc *scene) newStatic(l *plugins.Layout, env *render.Environment) (*render.Static, error) {
	st, left, err := render.StaticLeavingOut(l, func(l *plugins.Layout) (*render.Static, error) { return render.SharedStatic(l, env) })
	if st == nil {
		return nil, err
	}
	if left != nil {
		sc.sys.warnOnce("materials "+err.Error(), "camera scene: "+strings.Join(left, ", ")+" left out: drawn in the default look", err)
	}
	return st, nil
}

// staticIn returns the current layout's Static in env (nil: the system's base environment).
func (sc *scene) staticIn(w *world.World, env *render.Environment) (*render.Static, error) {
	if err := sc.update(w); err != nil {
		return nil, err
	}
	if env == nil || *env == *sc.sys.baseEnvironment() {
		return sc.static, nil
	}
	for _, lk := range sc.looks {
		if lk.env == *env {
			return lk.static, nil
		}
	}
	st, err := sc.newStatic(w.Layout(), env)
	if err != nil {
		return nil, fmt.Errorf("camera scene: %w", err)
	}
	if len(sc.looks) >= maxLooks {
		sc.looks = append(sc.looks[:0], sc.looks[1:]...)
	}
	sc.looks = append(sc.looks, look{env: *env, static: st})
	return st, nil
}

// maxVehicleMeshes bounds the vehicle meshes kept: a few looks in practice, bounded anyway.
const maxVehicleMeshes = 64

// vehicleMesh returns the mesh of a vehicle descriptor's look, built on first use. A look the
// renderer cannot build is drawn with less of it, with a warning: without its materials (a
// name it does not know), then as a box, then as a box in the default colours.
func (sc *scene) vehicleMesh(v *plugins.VehicleDescriptor) *render.Mesh {
	key := render.VehicleSpecFor(v)
	if m, ok := sc.vehicles[key]; ok {
		return m
	}
	spec := key
	m, why := render.NewVehicleMesh(spec)
	for _, less := range vehicleFallbacks {
		if m != nil {
			break
		}
		less.drop(&spec)
		if m, _ = render.NewVehicleMesh(spec); m != nil {
			sc.sys.warnOnce("mesh "+v.ID, "vehicle drawn "+less.as, why)
		}
	}
	if sc.vehicles == nil || len(sc.vehicles) >= maxVehicleMeshes {
		sc.vehicles = map[render.VehicleSpec]*render.Mesh{}
	}
	sc.vehicles[key] = m
	return m
}

// vehicleFallbacks are what vehicleMesh leaves out of a look it cannot build, in turn.
var vehicleFallbacks = []struct {
	as   string
	drop func(*render.VehicleSpec)
}{
	{"without its materials", func(s *render.VehicleSpec) {
		s.Material, s.AccentMaterial, s.Own, s.AccentOwn = "", "", nil, nil
	}},
	{"as a box", func(s *render.VehicleSpec) { s.Shape = "box" }},
	{"as a box in the default colours", func(s *render.VehicleSpec) { s.Color, s.Accent = "", "" }},
}

// markers returns the mesh of the current markers (nil when there are none).
func (sc *scene) markers() *render.Mesh {
	if sc.sys.opts.Markers == nil {
		return nil
	}
	set := sc.sys.opts.Markers()
	if set == sc.markerSet {
		return sc.markerMesh
	}
	sc.markerSet, sc.markerMesh = set, markerMesh(set)
	return sc.markerMesh
}

// markerMesh draws boxes, spheres and lines of a marker set in the world frame; text markers
// are for the window and are not drawn.
func markerMesh(set *markers.Set) *render.Mesh {
	if set.Len() == 0 {
		return nil
	}
	var b render.MeshBuilder
	n := 0
	for m := range set.All() {
		c := m.RGBA.NRGBA()
		col := render.RGB{R: c.R, G: c.G, B: c.B}
		p := mgl64.Vec3{m.Point.X, m.Point.Y, m.Point.Z}
		if !(m.Size > 0) {
			continue
		}
		switch m.Kind {
		case "Box":
			b.Box(p, mgl64.Vec3{m.Size, m.Size, m.Size}, 0, col)
		case "Sphere":
			b.Sphere(p, m.Size/2, col)
		case "Line":
			b.Segment(p, mgl64.Vec3{m.End.X, m.End.Y, m.End.Z}, m.Size, col)
		default:
			continue
		}
		n++
	}
	if n == 0 {
		return nil
	}
	return b.Mesh()
}

// BodyPose returns a model's pose for rendering: its centre on the ground, the altitude of its
// base and its yaw.
func BodyPose(m *world.Model) render.Pose {
	p := m.Body.Pose()
	return render.Pose{X: p.X, Y: p.Y, Z: m.Body.Base, Yaw: p.Yaw}
}

// capture fills the objects of the current step once per step.
func (sc *scene) capture(w *world.World) {
	if sc.fresh && sc.step == w.StepCount() {
		return
	}
	sc.step, sc.fresh = w.StepCount(), true
	sc.shared = nil // the shots that hold the last one keep it
	sc.models = append(sc.models[:0], w.Models()...)
	sc.objs = sc.objs[:0]
	for _, m := range sc.models {
		sc.objs = append(sc.objs, render.Object{Mesh: sc.vehicleMesh(m.Vehicle), Pose: BodyPose(m)})
	}
	sc.nModels = len(sc.models)
	for i, b := range w.Boxes() {
		if i >= len(sc.boxes) {
			break
		}
		p := b.Pose()
		sc.objs = append(sc.objs, render.Object{Mesh: sc.boxes[i], Pose: render.Pose{X: p.X, Y: p.Y, Z: b.Base, Yaw: p.Yaw}})
	}
	if mm := sc.markers(); mm != nil {
		sc.objs = append(sc.objs, render.Object{Mesh: mm, NoShadow: true})
	}
}

// view returns what a camera on observer sees in env (nil: the base environment): its own
// vehicle, the other vehicles when peers are visible, pushable boxes and markers, appended to
// dst[:0].
func (sc *scene) view(w *world.World, observer *world.Model, peers bool, env *render.Environment, dst []render.Object) (View, error) {
	return sc.viewHiding(w, observer, peers, nil, env, dst)
}

// sharedView is view for a shot rendered later on a worker: when the camera sees every
// vehicle, its objects are this step's scene, one slice shared by every shot taken in the
// step, which nobody may modify or append to. A copy per shot made a fleet's queued frames
// hold N objects each: 3,000 recorded cameras, four shots queued apiece, held 1.9 GB of them.
func (sc *scene) sharedView(w *world.World, observer *world.Model, peers bool, env *render.Environment) (View, error) {
	if !peers {
		return sc.view(w, observer, false, env, nil) // the observer alone: a few objects
	}
	st, err := sc.staticIn(w, env)
	if err != nil {
		return View{}, err
	}
	sc.capture(w)
	if sc.shared == nil {
		sc.shared = slices.Clip(slices.Clone(sc.objs))
	}
	return View{Static: st, Objects: sc.shared}, nil
}

// viewHiding is view without the peers hide reports (nil: none).
func (sc *scene) viewHiding(w *world.World, observer *world.Model, peers bool, hide func(*world.Model) bool, env *render.Environment, dst []render.Object) (View, error) {
	st, err := sc.staticIn(w, env)
	if err != nil {
		return View{}, err
	}
	sc.capture(w)
	dst = dst[:0]
	for i, m := range sc.models {
		if m == observer || peers && (hide == nil || !hide(m)) {
			dst = append(dst, sc.objs[i])
		}
	}
	dst = append(dst, sc.objs[sc.nModels:]...)
	return View{Static: st, Objects: dst}, nil
}
