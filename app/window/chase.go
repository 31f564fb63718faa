package window

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"simgui/app"
	"simgui/app/sensors"
	"simgui/app/world"
	"simgui/physics"
	"simgui/plugins"
	"simgui/render"
)

// chaseView is the 3D view: simgui/render draws the scene from behind the selected robot, on a
// goroutine of its own, at half the window's resolution, as fast as it can up to 30 frames a
// second. The scene is the one the robot's cameras see — the sensors system captures it on
// the loop goroutine (sensors.System.View) — so a person sees what a camera sees. The game
// hands it requests and shows the newest picture.
type chaseView struct {
	req  chan chaseReq
	done chan struct{}

	mu     sync.Mutex
	latest *frame
	spare  []byte
	err    string
	meter  rateMeter
	frames uint64 // pictures drawn

	img *ebiten.Image // game goroutine
}

type chaseReq struct {
	sim    *app.Sim
	target string
	w, h   int
	orbit  chaseOrbit
}

// chaseOrbit is how the person moved the chase camera: turned about the robot (yaw, radians,
// counter-clockwise from behind it) and wheel steps out (steps; 0, the zero value, is the
// usual distance, each step 15 % farther, within the limits below).
type chaseOrbit struct{ yaw, steps float64 }

// Wheel steps the chase camera goes in and out: 0.43 to 4 times the usual distance.
const minChaseSteps, maxChaseSteps = -6, 10

// zoom is the multiple of the usual distance the camera is at.
func (o chaseOrbit) zoom() float64 { return math.Pow(1.15, o.steps) }

// wheel moves the camera dy wheel steps in (dy > 0) or out.
func (o *chaseOrbit) wheel(dy float64) {
	o.steps = max(minChaseSteps, min(maxChaseSteps, o.steps-dy)) // a touchpad's are fractions
}

func newChaseView() *chaseView {
	c := &chaseView{req: make(chan chaseReq, 1), done: make(chan struct{})}
	go c.run()
	return c
}

// request asks for a picture of sim from behind target at w×h pixels. It never blocks: while
// a picture is being drawn, the newest request waits and older ones are dropped.
func (c *chaseView) request(sim *app.Sim, target string, w, h int, orbit chaseOrbit) {
	r := chaseReq{sim: sim, target: target, w: max(w, 16), h: max(h, 16), orbit: orbit}
	select {
	case c.req <- r:
	default:
		select {
		case <-c.req:
		default:
		}
		select {
		case c.req <- r:
		default:
		}
	}
}

func (c *chaseView) run() {
	defer close(c.done)
	r := render.NewRenderer(render.Options{})
	defer r.Close()
	var f *render.Frame
	var mark floorMark
	const minPeriod = time.Second / 30
	last := time.Time{}
	reach := 1.0
	for req := range c.req {
		if d := time.Since(last); d < minPeriod {
			time.Sleep(minPeriod - d)
		}
		dt := min(time.Since(last), time.Second).Seconds()
		last = time.Now()
		view, cam, clear, err := capture(req, reach, &mark)
		// Pull in at once when something comes between the camera and the robot; back out
		// gently once the way is clear.
		reach = min(clear, reach+chaseEaseOut*dt)
		if err != nil {
			c.setErr(err.Error())
			continue
		}
		if f == nil || f.Width != req.w || f.Height != req.h {
			f = render.NewFrame(req.w, req.h, true, false)
		}
		if err := r.Render(f, cam, view.Static, view.Objects); err != nil {
			c.setErr(err.Error())
			continue
		}
		c.publish(f)
	}
}

// capture asks the loop for the scene the target's cameras see and a chase camera behind it,
// reach of the way out (see chaseCamera), with mark on the floor under a flying target. It
// also returns how far out the camera could be with nothing between it and the robot: the
// track's walls, boxes and solids are in the way, other robots are not (they come and go).
func capture(req chaseReq, reach float64, mark *floorMark) (sensors.View, render.Camera, float64, error) {
	var view sensors.View
	var cam render.Camera
	clear := 1.0
	if req.target == "" {
		return view, cam, clear, errors.New("select a robot to follow (Tab)")
	}
	if req.sim.Sensors == nil {
		return view, cam, clear, errors.New("the simulation has no sensors system")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	err := req.sim.Loop.Call(ctx, func(w *world.World) error {
		m := w.Model(req.target)
		if m == nil {
			return fmt.Errorf("no robot %q", req.target)
		}
		body := sensors.BodyPose(m)
		body.Yaw += req.orbit.yaw // the camera goes round with it
		zoom := req.orbit.zoom()
		clear = chaseClearance(w, m.Vehicle, body, zoom)
		cam = chaseCamera(m.Vehicle, body, min(reach, clear), zoom, req.w, req.h)
		target, _, _ := chaseLine(m.Vehicle, body, zoom)
		var err error
		view, err = req.sim.Sensors.ViewHiding(req.target, func(o *world.Model) bool { return occludes(o, cam.Pose, target) }, nil)
		if err == nil && flies(m.Vehicle) {
			hl, hw, _ := footprint(m.Vehicle)
			view.Objects = append(view.Objects, mark.object(max(hl, hw), body))
		}
		return err
	})
	return view, cam, clear, err
}

// occludes reports whether robot o stands in the line of sight from a chase camera at from to
// the point to on the robot it follows: the camera pulls in before the track, but another
// robot there is left out of the picture instead (robots come and go, and the camera would
// jump in and out as they pass).
func occludes(o *world.Model, from, to render.Pose) bool {
	p := sensors.BodyPose(o)
	hl, hw, _ := footprint(o.Vehicle)
	r := math.Hypot(hl, hw)
	dx, dy := to.X-from.X, to.Y-from.Y
	t := 0.0
	if n2 := dx*dx + dy*dy; n2 > 0 {
		t = max(0, min(1, ((p.X-from.X)*dx+(p.Y-from.Y)*dy)/n2))
	}
	if math.Hypot(p.X-(from.X+t*dx), p.Y-(from.Y+t*dy)) > r {
		return false
	}
	// The line passes between its base and its top (or just over the top).
	z := from.Z + t*(to.Z-from.Z)
	return z > o.Body.Base && z < o.Body.Base+o.Body.Height+0.02
}

// chaseEaseOut is how fast the chase camera moves back out, in fractions of its full distance
// per second.
const chaseEaseOut = 0.8

// chaseClearance is the reach (see chaseCamera) at which the chase camera of a robot at body
// has nothing of the track between it and the robot, a few centimetres short of the first
// obstacle; 1 when the way is clear. Loop goroutine.
func chaseClearance(w *world.World, v *plugins.VehicleDescriptor, body render.Pose, zoom float64) float64 {
	target, full, dist := chaseLine(v, body, zoom)
	alpha := w.Space().SightLine(target.X, target.Y, target.Z, full.X, full.Y, full.Z,
		func(b *physics.Body) bool { return b.Kind == physics.KindVehicle })
	if alpha >= 1 {
		return 1
	}
	hl, _, _ := footprint(v)
	const margin = 0.06 // m in front of the obstacle: more than the camera's near clip
	return max((alpha*dist-margin)/dist, (hl+0.05)/dist)
}

// chaseGeometry is the chase camera's placement for a robot: dist metres behind the point it
// looks at (the middle of the robot) and up metres above it. The distance is scaled by the
// robot's size alone, so that every robot fills about the same share of the picture whatever
// its size and altitude: a flying robot's camera goes up with it rather than back (backing
// away by its altitude made a drone 6.5 m up some 30 px across in a 1280-px view). The
// altitude shows in how far down the camera looks (chaseCamera) and in the floor far below.
func chaseGeometry(v *plugins.VehicleDescriptor, zoom float64) (dist, up, mid float64) {
	hl, _, _ := footprint(v)
	height := 0.1
	if v != nil && v.Body != nil && v.Body.Height > 0 {
		height = v.Body.Height
	}
	dist = math.Max(0.7, 6.5*hl) * zoom
	return dist, 0.5*dist - 0.5*height, 0.5 * height
}

// chaseFovY is the chase camera's vertical field of view, degrees.
const chaseFovY = 55.0

// chaseLine returns the point the chase camera looks at, where the camera is at full reach,
// and the distance between them.
func chaseLine(v *plugins.VehicleDescriptor, body render.Pose, zoom float64) (target, full render.Pose, dist float64) {
	d, up, mid := chaseGeometry(v, zoom)
	target = body.Compose(render.Pose{Z: mid})
	full = body.Compose(render.Pose{X: -d, Z: mid + up})
	return target, full, math.Hypot(d, up)
}

func (c *chaseView) setErr(s string) {
	c.mu.Lock()
	c.err = s
	c.mu.Unlock()
}

// publish converts f to RGBA for the game.
func (c *chaseView) publish(f *render.Frame) {
	c.mu.Lock()
	buf := c.spare
	c.spare = nil
	if c.latest != nil {
		buf = c.latest.Pix
		c.latest = nil
	}
	c.mu.Unlock()
	if len(buf) != 4*f.Width*f.Height {
		buf = make([]byte, 4*f.Width*f.Height)
	}
	for i, j := 0, 0; i < len(f.RGB); i, j = i+3, j+4 {
		buf[j], buf[j+1], buf[j+2], buf[j+3] = f.RGB[i], f.RGB[i+1], f.RGB[i+2], 255
	}
	c.mu.Lock()
	c.latest = &frame{W: f.Width, H: f.Height, Pix: buf}
	c.err = ""
	c.frames++
	c.meter.add(time.Now())
	c.mu.Unlock()
}

// update uploads the newest picture. Game goroutine.
func (c *chaseView) update() {
	c.mu.Lock()
	fr := c.latest
	c.latest = nil
	c.mu.Unlock()
	if fr == nil {
		return
	}
	if c.img == nil || c.img.Bounds().Dx() != fr.W || c.img.Bounds().Dy() != fr.H {
		if c.img != nil {
			c.img.Deallocate()
		}
		c.img = ebiten.NewImage(fr.W, fr.H)
	}
	c.img.WritePixels(fr.Pix)
	c.mu.Lock()
	c.spare = fr.Pix
	c.mu.Unlock()
}

// draw scales the newest picture over w×h pixels of dst; msg (a rendering error) is shown in
// the middle when there is no picture.
func (c *chaseView) draw(dst *ebiten.Image, w, h int, msg string) {
	if c.img == nil {
		if msg == "" {
			msg = "3D view: rendering…"
		}
		drawText(dst, msg, (float32(w)-textWidth(msg))/2, float32(h)/2, dimColor)
		return
	}
	op := &ebiten.DrawImageOptions{Filter: ebiten.FilterLinear}
	op.GeoM.Scale(float64(w)/float64(c.img.Bounds().Dx()), float64(h)/float64(c.img.Bounds().Dy()))
	dst.DrawImage(c.img, op)
}

// status returns the achieved rendering rate and the last error.
func (c *chaseView) status() (float64, string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.meter.rate(time.Now()), c.err
}

// count returns how many pictures were drawn.
func (c *chaseView) count() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.frames
}

func (c *chaseView) close() {
	close(c.req)
	<-c.done
	if c.img != nil {
		c.img.Deallocate()
	}
}

// chaseCamera is a camera behind and above a robot at body looking down at it, its distance
// scaled to the robot's size; reach in (0, 1] brings it that fraction of the way in along the
// line to the middle of the robot, keeping the angle it looks down at. Over a flying robot it
// looks down far enough that the floor under the robot is 5° inside the picture's bottom edge
// (at full reach), but never so far that the robot leaves the top of the picture
// (chaseTopMargin): higher up, it keeps the robot near the top with the floor far below.
// Under a robot on the floor the floor is never lower than the usual pitch.
func chaseCamera(v *plugins.VehicleDescriptor, body render.Pose, reach, zoom float64, w, h int) render.Camera {
	dist, up, mid := chaseGeometry(v, zoom)
	half := chaseFovY / 2 * math.Pi / 180
	robot := math.Atan2(up, dist)            // how far down the camera sees the robot's middle
	floor := math.Atan2(body.Z+mid+up, dist) // how far down the camera sees the floor under the robot
	pitch := max(robot*0.85, floor-(half-5*math.Pi/180))
	pitch = min(pitch, robot+half-chaseTopMargin)
	return render.Camera{Pose: body.Compose(render.Pose{X: -reach * dist, Z: mid + reach*up, Pitch: pitch}),
		FovYDeg: chaseFovY, Near: 0.03, Far: 200, Width: w, Height: h}
}

// chaseTopMargin is how far below the picture's top edge the middle of a flying robot stays
// at least, radians: room for the robot itself (at its chase distance it spans about 16°).
const chaseTopMargin = 10 * math.Pi / 180

// floorMark is the disc the chase view draws on the floor under a flying robot: a dark spot
// in a pale rim, as wide as the robot, so that how far the robot is above it shows (a cue
// for people only: cameras do not see it). Its mesh is kept while the robot's size stays.
// Chase goroutine.
type floorMark struct {
	r    float64
	mesh *render.Mesh
}

// floorMarkLift is the mark's height above the floor, m: above the track's roads and flat
// markers, so that it shows on them.
const floorMarkLift = 0.004

// object returns the mark for a robot of footprint radius r at body.
func (f *floorMark) object(r float64, body render.Pose) render.Object {
	if f.mesh == nil || f.r != r {
		disc := func(radius float64) [][2]float64 {
			pts := make([][2]float64, 32)
			for i := range pts {
				s, c := math.Sincos(2 * math.Pi * float64(i) / float64(len(pts)))
				pts[i] = [2]float64{radius * c, radius * s}
			}
			return pts
		}
		var b render.MeshBuilder
		// Neither polygon can fail to triangulate: they are regular.
		_ = b.FlatPolygon(disc(r), 0, render.RGB{R: 215, G: 215, B: 220})
		_ = b.FlatPolygon(disc(0.8*r), 0.001, render.RGB{R: 22, G: 22, B: 26})
		f.r, f.mesh = r, b.Mesh()
	}
	return render.Object{Mesh: f.mesh, Pose: render.Pose{X: body.X, Y: body.Y, Z: floorMarkLift}, NoShadow: true}
}
