package window

import (
	"math"
	"sync"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"simgui/app/world"
	"simgui/render"
)

// chaseView is the 3D view: simgui/render draws the scene from behind the selected robot, on a
// goroutine of its own, at half the window's resolution, as fast as it can up to 30 frames a
// second. The game hands it snapshots and shows the newest picture.
type chaseView struct {
	req  chan chaseReq
	done chan struct{}

	mu     sync.Mutex
	latest *frame
	spare  []byte
	err    string
	meter  rateMeter

	img *ebiten.Image // game goroutine
}

type chaseReq struct {
	snap   *world.Snapshot
	target string
	w, h   int
}

func newChaseView() *chaseView {
	c := &chaseView{req: make(chan chaseReq, 1), done: make(chan struct{})}
	go c.run()
	return c
}

// request asks for a picture of snap from behind target at w×h pixels. It never blocks: while
// a picture is being drawn, the newest request waits and older ones are dropped.
func (c *chaseView) request(snap *world.Snapshot, target string, w, h int) {
	r := chaseReq{snap: snap, target: target, w: max(w, 16), h: max(h, 16)}
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
	sc := newScene3d()
	var f *render.Frame
	const minPeriod = time.Second / 30
	last := time.Time{}
	for req := range c.req {
		if d := time.Since(last); d < minPeriod {
			time.Sleep(minPeriod - d)
		}
		last = time.Now()
		static, objs, err := sc.update(req.snap)
		if err != nil {
			c.setErr(err.Error())
			continue
		}
		if f == nil || f.Width != req.w || f.Height != req.h {
			f = render.NewFrame(req.w, req.h, true, false)
		}
		if err := r.Render(f, chaseCamera(req.snap, req.target, req.w, req.h), static, objs); err != nil {
			c.setErr(err.Error())
			continue
		}
		c.publish(f)
	}
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

func (c *chaseView) close() {
	close(c.req)
	<-c.done
	if c.img != nil {
		c.img.Deallocate()
	}
}

// chaseCamera is a camera behind and above the target robot looking down at it, its distance
// scaled to the robot's size; without a target it looks over the track from the south.
func chaseCamera(snap *world.Snapshot, target string, w, h int) render.Camera {
	cam := render.Camera{FovYDeg: 55, Near: 0.03, Far: 200, Width: w, Height: h}
	m, ok := snap.Model(target)
	if !ok {
		lo, hi, ok := layoutBounds(snap.Layout)
		cx, cy, span := 0.0, 0.0, 4.0
		if ok {
			cx, cy = (lo[0]+hi[0])/2, (lo[1]+hi[1])/2
			span = math.Max(hi[0]-lo[0], hi[1]-lo[1])
		}
		cam.Pose = render.Pose{X: cx, Y: cy - span*0.9, Z: span * 0.8, Yaw: math.Pi / 2, Pitch: 0.72}
		return cam
	}
	hl, _, _ := footprint(m.Vehicle)
	height := 0.1
	if m.Vehicle != nil && m.Vehicle.Body != nil && m.Vehicle.Body.Height > 0 {
		height = m.Vehicle.Body.Height
	}
	dist := math.Max(0.7, 6.5*hl)
	up := 0.5 * dist
	pitch := math.Atan2(up-0.5*height, dist) * 0.85
	body := render.Pose{X: m.Pose.X, Y: m.Pose.Y, Z: m.Pose.Z, Yaw: m.Pose.Yaw}
	cam.Pose = body.Compose(render.Pose{X: -dist, Z: up, Pitch: pitch})
	return cam
}
