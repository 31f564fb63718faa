package editor

import (
	"errors"
	"fmt"
	"image"
	"image/draw"
	"math"
	"strings"
	"sync"

	"simgui/plugins"
	"simgui/plugins/trackgen"
	"simgui/render"
)

// The preview renders, off the game goroutine, what a plugin looks like in simgui: for a
// vehicle, the view of its first camera (or depth camera) and a 3D view of the vehicle, both
// standing at the start of the built-in cardboard corridor (sized to the vehicle); for a track, the view from its first
// spawn point and an overview. Requests replace each other: only the newest is rendered.

// previewW and previewH are the size of the rendered views, pixels.
const previewW, previewH = 320, 240

// previewArena is the track vehicles are previewed on.
const previewArena = "track.cardboard_corridor.v1"

type previewReq struct {
	gen     uint64
	vehicle *plugins.VehicleDescriptor
	track   *plugins.TrackDescriptor
}

// previewOut is one rendered preview.
type previewOut struct {
	gen     uint64
	vehicle *plugins.VehicleDescriptor
	layout  *plugins.Layout // the track's layout (nil for a vehicle)
	views   [2]previewView
	note    string // what went wrong or was left out, for the panel
}

type previewView struct {
	label string
	img   *image.RGBA // nil when it could not be rendered
}

type previewer struct {
	mu      sync.Mutex
	pending *previewReq
	out     *previewOut
	wake    chan struct{}
	stop    chan struct{}
	done    chan struct{}

	// worker state
	r           *render.Renderer
	arena       *render.Static
	arenaLayout *plugins.Layout
	arenaWidth  float64 // the corridor width the arena was built for
	arenaErr    error
	// look is the arena in the environment of the previewed camera's look parameters.
	look    *render.Static
	lookEnv render.Environment
	// lastTrack is the latest preview of a track whose geometry had no problems, and the id
	// it was for: shown while a field being typed breaks the geometry, so that the view (and
	// the dragging on it) stays.
	lastTrack   *previewOut
	lastTrackID string
}

func newPreviewer() *previewer {
	p := &previewer{wake: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go p.run()
	return p
}

// request asks for a preview of a vehicle or a track, replacing any request not yet started.
// The descriptors are the caller's no more.
func (p *previewer) request(req previewReq) {
	p.mu.Lock()
	p.pending = &req
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// latest returns the newest finished preview, or nil.
func (p *previewer) latest() *previewOut {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out
}

func (p *previewer) close() {
	close(p.stop)
	<-p.done
}

func (p *previewer) run() {
	defer close(p.done)
	p.r = newRenderer()
	defer p.r.Close()
	for {
		select {
		case <-p.stop:
			return
		case <-p.wake:
		}
		p.mu.Lock()
		req := p.pending
		p.pending = nil
		p.mu.Unlock()
		if req == nil {
			continue
		}
		out := &previewOut{gen: req.gen, vehicle: req.vehicle}
		if err := p.draw(out, req); err != nil {
			out.note = err.Error()
		}
		p.mu.Lock()
		p.out = out
		p.mu.Unlock()
	}
}

// draw renders the preview of req into out. A panic in it (a descriptor being typed that trips
// a bug in laying out a track or meshing a body) is the preview's error, not the editor's end.
func (p *previewer) draw(out *previewOut, req *previewReq) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the preview failed: internal error (%v)", r)
		}
	}()
	if req.track != nil {
		return p.track(out, req.track)
	}
	if req.vehicle != nil {
		return p.vehicle(out, req.vehicle)
	}
	return nil
}

// newRenderer makes the preview's renderer: one goroutine, leaving the other cores to the
// window and the simulation.
func newRenderer() *render.Renderer { return render.NewRenderer(render.Options{Workers: 1}) }

// vehicle renders v standing at the arena's first spawn point.
func (p *previewer) vehicle(out *previewOut, v *plugins.VehicleDescriptor) error {
	var outOfRange error
	if b := v.Body; b != nil && b.Check() != nil {
		// A size out of range (a height of 1e308) is drawn as the shape's own, as one that
		// is not positive is (vehicleMesh), not as a tower that fills the views.
		c, sized := *v, *b
		sized.Length, sized.Width, sized.Height, sized.Radius = 0, 0, 0, 0
		c.Body, v = &sized, &c
		outOfRange = errors.New("preview: a body size out of range")
	}
	// A corridor two and a half vehicles wide.
	length, height := bodySize(v)
	width := math.Round(min(max(2.5*bodyWidth(v), 0.6), 2)*10) / 10
	if p.arena == nil || p.arenaWidth != width {
		p.arenaWidth, p.look = width, nil
		p.arena, p.arenaLayout, p.arenaErr = buildArena(width, max(2, min(20, 4*width+4*length)))
	}
	if p.arenaErr != nil {
		return p.arenaErr
	}
	mesh, err := vehicleMesh(v)
	err = errors.Join(err, outOfRange)
	pose := render.Pose{}
	if sp := p.arenaLayout.SpawnPoints; len(sp) > 0 {
		pose = render.Pose{X: sp[0].X, Y: sp[0].Y, Yaw: rad(sp[0].YawDeg)}
	}
	if v.Drive != nil && v.Drive.Model == "quadcopter" {
		pose.Z = driveParam(v, "startAltitude")
	}
	var objs []render.Object
	if mesh != nil {
		objs = append(objs, render.Object{Mesh: mesh, Pose: pose})
	}
	if m, s := firstCamera(v); m != nil {
		w, h := fitShape(s)
		cam := render.Camera{Pose: pose.Compose(render.PoseFromPose3(m.Pose)), Width: w, Height: h,
			FovYDeg: mountParam(m, "fovDeg"), Near: mountParam(m, "near"), Far: mountParam(m, "far")}
		scene := p.arena
		if m.Kind == plugins.SensorCamera {
			// As the camera sensor draws it: its lens, film and look (render.MountCamera).
			cw, ch := contractSize(s, w, h)
			if c, env, err := render.MountCamera(validParams(m), cw, ch, nil); err == nil {
				cam = c.Resized(w, h)
				cam.Pose = pose.Compose(render.PoseFromPose3(m.Pose))
				scene = p.lookScene(env)
			}
		}
		label := "camera " + m.ID + " (" + m.Kind + ")"
		if _, _, ok := s.FrameSize(); s != nil && len(s.Shape) >= 2 && !ok {
			label = fmt.Sprintf("camera %s: shape out of range, drawn %d×%d", m.ID, w, h)
		}
		out.views[0] = p.shoot(label, cam, scene, objs, m.Kind == "depth")
	} else {
		// No camera: look at the vehicle from the front.
		d := max(0.8, 3*length)
		cam := render.Camera{Pose: pose.Compose(render.Pose{X: d, Z: height + d*0.35, Yaw: math.Pi, Pitch: math.Atan2(d*0.35, d)}),
			FovYDeg: 50, Near: 0.02, Far: 100, Width: previewW, Height: previewH}
		out.views[0] = p.shoot("no camera mounted: the front", cam, p.arena, objs, false)
	}
	d := max(0.4, 2*length)
	chase := render.Camera{Pose: pose.Compose(render.Pose{X: -d, Y: d * 0.45, Z: height/2 + d*0.8, Yaw: -0.42, Pitch: math.Atan2(d*0.8, d*1.1)}),
		FovYDeg: 50, Near: 0.02, Far: 100, Width: previewW, Height: previewH}
	out.views[1] = p.shoot("3D view (cardboard corridor)", chase, p.arena, objs, false)
	if err != nil {
		// The drawing's own limits (a size of 0 is the shape's default) are not the plugin's:
		// Validate's problems are what to fix.
		return errors.New("drawn with defaults where the fields have problems: Validate lists them")
	}
	return nil
}

// track renders t's layout (built by its generator with default parameters and seed 1).
func (p *previewer) track(out *previewOut, t *plugins.TrackDescriptor) error {
	layout, err := trackgen.Build(t, nil, 1)
	note := ""
	if err != nil && t.ParametersSchemaJSON != "" {
		// Parameters the schema requires (or a schema being typed) should not stop the
		// preview: lay the track out as if it took none.
		free := t.Clone()
		free.ParametersSchemaJSON = ""
		if l, err2 := trackgen.Build(free, nil, 1); err2 == nil {
			layout, note = l, "previewed without parameters ("+oneLineErr(err)+")"
			err = nil
		}
	}
	if pe := (*plugins.ParamError)(nil); errors.As(err, &pe) && pe.Prefix == "world.params" {
		// The layout check a scenario's parameters answer to: here it is the track's own
		// geometry, which Problems lists field by field.
		if last := p.lastTrack; last != nil && p.lastTrackID == t.ID {
			out.layout, out.views = last.layout, last.views
			return errors.New("the geometry has problems (Validate lists them): shown as it last had none")
		}
		return errors.New("no preview while the geometry has problems: Validate lists them")
	}
	defer func() {
		if out.layout != nil && out.views[0].img != nil {
			p.lastTrack, p.lastTrackID = out, t.ID
		}
	}()
	if err != nil {
		return fmt.Errorf("layout: %w", err)
	}
	out.layout = layout
	var movable []plugins.Element
	static := *layout
	static.Elements = nil
	for _, e := range layout.Elements {
		if e.Movable {
			movable = append(movable, e)
		} else {
			static.Elements = append(static.Elements, e)
		}
	}
	scene, texNote, err := newStatic(&static)
	if err != nil {
		return fmt.Errorf("scene: %w", err)
	}
	out.note = strings.TrimPrefix(note+"; "+texNote, "; ")
	out.note = strings.TrimSuffix(out.note, "; ")
	var objs []render.Object
	for i := range movable {
		e := &movable[i]
		if m, err := render.NewElementMesh(layout, e); err == nil {
			objs = append(objs, render.Object{Mesh: m, Pose: render.Pose{X: e.X, Y: e.Y, Z: e.Z, Yaw: rad(e.YawDeg)}})
		}
	}
	f := layout.Floor
	start, label := render.Pose{X: f.X, Y: f.Y - f.Width*0.4, Yaw: math.Pi / 2}, "from the floor's south edge"
	if sp := layout.SpawnPoints; len(sp) > 0 {
		start, label = render.Pose{X: sp[0].X, Y: sp[0].Y, Yaw: rad(sp[0].YawDeg)}, "from spawn point "+sp[0].Name
	}
	eye := render.Camera{Pose: start.Compose(render.Pose{Z: 0.25, Pitch: rad(8)}), FovYDeg: 68, Near: 0.03, Far: 200,
		Width: previewW, Height: previewH}
	out.views[0] = p.shoot(label, eye, scene, objs, false)
	d := max(f.Length, f.Width, 2)
	over := render.Camera{Pose: render.Pose{X: f.X, Y: f.Y - 0.8*d, Z: 0.65 * d, Yaw: math.Pi / 2, Pitch: math.Atan2(0.65, 0.8)},
		FovYDeg: 60, Near: 0.05, Far: 10 * d, Width: previewW, Height: previewH}
	out.views[1] = p.shoot("overview from the south", over, scene, objs, false)
	return nil
}

// previewEnv is the look previews show a track in: the realistic look with the camera kind's
// defaults (what a camera with realistic: 1 sees), so that materials and shadows show while
// they are edited. A vehicle's camera view shows its mount's own look (lookScene).
var previewEnv = render.RealisticEnvironment()

// lookScene returns the arena in env, built on first use per environment.
func (p *previewer) lookScene(env render.Environment) *render.Static {
	if env == previewEnv {
		return p.arena
	}
	if p.look == nil || p.lookEnv != env {
		s, _, err := newStaticIn(p.arenaLayout, &env)
		if err != nil {
			return p.arena
		}
		p.look, p.lookEnv = s, env
	}
	return p.look
}

// newStatic builds a layout's scene in the preview's look, leaving out what does not load as
// cameras leave it out (render.StaticLeavingOut), with a note saying so.
func newStatic(l *plugins.Layout) (*render.Static, string, error) { return newStaticIn(l, &previewEnv) }

func newStaticIn(l *plugins.Layout, env *render.Environment) (*render.Static, string, error) {
	s, left, err := render.StaticLeavingOut(l, func(l *plugins.Layout) (*render.Static, error) { return render.NewStatic(l, env) })
	if s == nil {
		return nil, "", err
	}
	if left != nil {
		return s, fmt.Sprintf("%v: the preview leaves out %s", err, strings.Join(left, ", ")), nil
	}
	return s, "", nil
}

// contractSize returns the frame size of a contract sensor (w × h when it has none, or one out
// of range).
func contractSize(s *plugins.SensorDescriptor, w, h int) (int, int) {
	if sw, sh, ok := s.FrameSize(); ok {
		return sw, sh
	}
	return w, h
}

// validParams returns a mount's parameters that are in range (the others take their defaults,
// as mountParam does).
func validParams(m *plugins.SensorMount) map[string]float64 {
	specs, _ := plugins.SensorParams(m.Kind)
	out := map[string]float64{}
	for _, s := range specs {
		if x, ok := m.Params[s.Name]; ok && s.Accepts(x) {
			out[s.Name] = x
		}
	}
	return out
}

// shoot renders one view; an error becomes the view's label.
func (p *previewer) shoot(label string, cam render.Camera, scene *render.Static, objs []render.Object, depth bool) previewView {
	frame := render.NewFrame(cam.Width, cam.Height, !depth, depth)
	if err := p.r.Render(frame, cam, scene, objs); err != nil {
		return previewView{label: label + ": " + err.Error()}
	}
	if depth {
		g := frame.DepthImage(math.Min(cam.Far, 5))
		img := image.NewRGBA(g.Bounds())
		draw.Draw(img, img.Bounds(), g, image.Point{}, draw.Src)
		return previewView{label: label + " (depth, white = 5 m)", img: img}
	}
	return previewView{label: label, img: frame.Image()}
}

// buildArena builds the corridor vehicles are previewed in.
func buildArena(width, length float64) (*render.Static, *plugins.Layout, error) {
	t, err := plugins.Builtin().Track(previewArena)
	if err != nil {
		return nil, nil, err
	}
	l, err := trackgen.Build(t, map[string]any{"width": width, "length": length}, 1)
	if err != nil {
		return nil, nil, err
	}
	s, _, err := newStatic(l)
	return s, l, err
}

// vehicleMesh builds v's mesh; a colour or shape the renderer does not take falls back to the
// shape's defaults (or a box) and is reported.
func vehicleMesh(v *plugins.VehicleDescriptor) (*render.Mesh, error) {
	spec := render.VehicleSpecFor(v)
	// A size that is not positive (a field with a problem) draws nothing: the shape's own
	// stands in, as the caption says.
	var sized error
	for _, x := range []*float64{&spec.Length, &spec.Width, &spec.Height} {
		if *x < 0 || math.IsNaN(*x) || math.IsInf(*x, 0) {
			*x, sized = 0, errors.New("preview: a body size that is not positive")
		}
	}
	m, err := render.NewVehicleMesh(spec)
	if err == nil {
		return m, sized
	}
	// Less and less of the look: without its materials (an image that does not decode), in the
	// shape's colours, as a box.
	var err2 error
	for _, less := range []func(){
		func() { spec.Material, spec.AccentMaterial, spec.Own, spec.AccentOwn = "", "", nil, nil },
		func() { spec.Color, spec.Accent = "", "" },
		func() { spec.Shape = "box" },
	} {
		less()
		if m, err2 = render.NewVehicleMesh(spec); err2 == nil {
			return m, fmt.Errorf("preview: %w", err)
		}
	}
	return m, errors.Join(fmt.Errorf("preview: %w", err), err2)
}

// firstCamera returns the first mount that renders images (camera or depth) and its contract
// sensor.
func firstCamera(v *plugins.VehicleDescriptor) (*plugins.SensorMount, *plugins.SensorDescriptor) {
	for i := range v.Sensors {
		m := &v.Sensors[i]
		if m.Kind != "camera" && m.Kind != "depth" {
			continue
		}
		if v.Contract != nil {
			for j := range v.Contract.Sensors {
				if v.Contract.Sensors[j].ID == m.ID {
					return m, &v.Contract.Sensors[j]
				}
			}
		}
		return m, nil
	}
	return nil, nil
}

// fitShape returns the contract's image size scaled to fit previewW × previewH.
func fitShape(s *plugins.SensorDescriptor) (int, int) {
	sw, sh, ok := s.FrameSize()
	if !ok {
		return previewW, previewH
	}
	w, h := float64(sw), float64(sh)
	k := math.Min(previewW/w, previewH/h)
	return max(1, int(w*k)), max(1, int(h*k))
}

// mountParam returns a mount parameter or its kind's default; one out of range takes the
// default too, so that a half-typed value does not stop the preview.
func mountParam(m *plugins.SensorMount, name string) float64 {
	specs, _ := plugins.SensorParams(m.Kind)
	for _, s := range specs {
		if s.Name == name {
			if x, ok := m.Params[name]; ok && s.Accepts(x) {
				return x
			}
			return s.Default
		}
	}
	return 0
}

// driveParam returns a drive parameter or its model's default.
func driveParam(v *plugins.VehicleDescriptor, name string) float64 {
	if x, ok := v.Drive.Params[name]; ok {
		return x
	}
	specs, _ := plugins.DriveParams(v.Drive.Model)
	for _, s := range specs {
		if s.Name == name {
			return s.Default
		}
	}
	return 0
}

// bodyWidth returns a vehicle's width for sizing the preview corridor.
func bodyWidth(v *plugins.VehicleDescriptor) float64 {
	if b := v.Body; b != nil {
		if b.Shape == "circle" && b.Radius > 0 {
			return min(2*b.Radius, 20)
		}
		if b.Width > 0 {
			return min(b.Width, 20)
		}
	}
	return 0.2
}

// bodySize returns a vehicle's length and height for framing views, with sane floors.
func bodySize(v *plugins.VehicleDescriptor) (length, height float64) {
	length, height = 0.3, 0.15
	if b := v.Body; b != nil {
		if b.Shape == "circle" && b.Radius > 0 {
			length = 2 * b.Radius
		} else if b.Length > 0 {
			length = b.Length
		}
		if b.Height > 0 {
			height = b.Height
		}
	}
	return min(length, 20), min(height, 20)
}

// oneLineErr shortens an error to its first line.
func oneLineErr(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}

func rad(deg float64) float64 { return deg * math.Pi / 180 }
