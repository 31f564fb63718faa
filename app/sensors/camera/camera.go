package camera

import (
	"fmt"
	"time"

	"simgui/app/sensors"
	"simgui/app/transport/msgs"
	"simgui/plugins"
	"simgui/render"
)

func init() {
	sensors.Register(sensors.Kind{
		Name: "camera", Topic: sensors.TopicImage, New: New,
		Doc: "RGB or grey image from the mount, rendered in software (raw, png, jpeg_base64)",
	})
}

// MaxSide is the largest frame width or height accepted, in pixels: plugins.MaxFrameSide,
// which plugin validation applies to contract shapes.
const MaxSide = plugins.MaxFrameSide

// Camera is one mounted camera.
type Camera struct {
	spec                    *sensors.Spec
	width, height, channels int
	quality                 int
	lens                    render.Camera      // intrinsics, lens and film; the pose is set per frame
	env                     render.Environment // the look the camera sees the scene in
	noise                   *sensors.PixelNoise
	pipe                    *sensors.Pipeline[*Shot]

	objs []render.Object // Snap's scratch
}

// Shot is one frame captured on the loop goroutine, to be rendered on a worker.
type Shot struct {
	Step  uint64
	Stamp time.Duration
	Cam   render.Camera
	View  sensors.View
	// Seed seeds the frame's noise.
	Seed uint64
	// Gains maps an RGB frame's pixels after the noise (Spec.ImageGains; nil: none).
	Gains *render.GainTable
}

// Capture takes a shot for lens at the sensor's mount, of the scene in env (nil: the base
// environment). The noise seed is drawn whether or not anyone wants the frame, so the stream
// does not depend on subscribers; ok is false when nobody wants it (or the scene could not be
// captured, which is reported). The film's noise is seeded from the same seed.
func Capture(ctx *sensors.Context, spec *sensors.Spec, lens render.Camera, env *render.Environment, noisy bool) (shot *Shot, ok bool) {
	var seed uint64
	if noisy {
		seed = spec.Rand.Uint64()
	}
	if !spec.Out.Wanted() {
		return nil, false
	}
	view, err := ctx.SharedViewIn(env) // read-only on the worker: the step's scene, shared
	if err != nil {
		spec.Warn(err)
		return nil, false
	}
	lens.Pose = ctx.MountPose(spec.Mount.Pose)
	ctx.ClearNear(&lens)
	lens.Motion = ctx.MountMotion(spec.Mount.Pose)
	lens.Seed = filmSeed(seed)
	return &Shot{Step: ctx.Step, Stamp: ctx.Stamp, Cam: lens, View: view, Seed: seed}, true
}

// filmSeed derives the film's noise seed from a frame's seed, apart from the contract noise's.
func filmSeed(seed uint64) uint64 { return (seed ^ 0x6a09e667f3bcc909) * 0x9e3779b97f4a7c15 }

// noisy reports whether frames draw a noise seed: contract noise or film noise.
func (c *Camera) noisy() bool {
	f := c.lens.Film
	return c.noise != nil || f != nil && (f.ReadNoise > 0 || f.ShotNoise > 0)
}

// FrameShape reads a contract shape [H, W, C] or [H, W] (C = 3) and checks it.
func FrameShape(shape []int) (w, h, c int, err error) {
	switch len(shape) {
	case 2:
		h, w, c = shape[0], shape[1], 3
	case 3:
		h, w, c = shape[0], shape[1], shape[2]
	default:
		return 0, 0, 0, fmt.Errorf("contract shape %v: want [H, W, C] or [H, W]", shape)
	}
	if w < 1 || h < 1 || w > MaxSide || h > MaxSide {
		return 0, 0, 0, fmt.Errorf("contract shape %v: frame %dx%d is outside 1..%d pixels a side", shape, w, h, MaxSide)
	}
	if c != 1 && c != 3 {
		return 0, 0, 0, fmt.Errorf("contract shape %v: %d channels; want 3 (RGB) or 1 (grey)", shape, c)
	}
	return w, h, c, nil
}

// New builds a camera from its spec.
func New(spec *sensors.Spec) (sensors.Sensor, error) {
	w, h, ch, err := FrameShape(spec.Contract.Shape)
	if err != nil {
		return nil, err
	}
	if spec.Contract.Format == "" {
		spec.Contract.Format = plugins.SensorFormats(plugins.SensorCamera)[0] // what an empty format means
	}
	if err := sensors.CheckCameraFormat(spec.Contract.Format); err != nil {
		return nil, err
	}
	p := spec.Params
	lens, env, err := render.MountCamera(p, w, h, spec.BaseEnvironment())
	if err != nil {
		return nil, err
	}
	c := &Camera{
		spec: spec, width: w, height: h, channels: ch, quality: p.Int("jpegQuality"),
		lens: lens, env: env, noise: sensors.NewPixelNoise(spec.Noise),
	}
	c.pipe = sensors.NewPipeline(spec, c.render, nil)
	return c, nil
}

// Fire captures the scene for a frame and hands it to the worker.
func (c *Camera) Fire(ctx *sensors.Context) {
	if shot, ok := Capture(ctx, c.spec, c.lens, &c.env, c.noisy()); ok {
		shot.Gains = c.gains()
		c.pipe.Submit(shot)
	}
}

// render draws a frame with r on the worker goroutine and emits it.
func (c *Camera) render(r *render.Renderer, j *Shot) {
	n := c.width * c.height
	pix := make([]byte, 3*n) // the message keeps it
	f := render.Frame{Width: c.width, Height: c.height, RGB: pix}
	cam := j.Cam
	gains := c.foldGains(&cam, j.Gains)
	if err := r.Render(&f, cam, j.View.Static, j.View.Objects); err != nil {
		c.spec.Warn(err)
		return
	}
	c.noise.Apply(pix, j.Seed)
	gains.Apply(pix)
	format := msgs.PixelFormatType_RGB_INT8
	if c.channels == 1 {
		pix, format = sensors.Gray(pix, n), msgs.PixelFormatType_L_INT8
	}
	c.spec.Out.Emit(sensors.Reading{Step: j.Step, Stamp: j.Stamp, Msg: &msgs.Image{
		Header: sensors.Header(j.Stamp), Width: uint32(c.width), Height: uint32(c.height),
		Step: uint32(c.width * c.channels), Data: pix, PixelFormatType: format,
	}})
}

// gains returns the gain table of the camera's frames: the model's image gains for an RGB
// camera (a grey one is drawn without them). Loop goroutine only.
func (c *Camera) gains() *render.GainTable {
	if c.channels != 3 {
		return nil
	}
	return c.spec.ImageGains()
}

// foldGains hands g to the renderer when the frame has no contract noise, and returns what is
// left to apply after the noise: the gains follow the contract noise.
func (c *Camera) foldGains(cam *render.Camera, g *render.GainTable) *render.GainTable {
	if c.noise == nil {
		cam.Gains = g
		return nil
	}
	return g
}

// Snap renders the camera's view of the world now into dst, in the contract's format, on the
// loop goroutine. Its noise comes from the sensor's sync stream.
func (c *Camera) Snap(ctx *sensors.Context, dst *sensors.Image) error {
	var seed uint64
	if c.noisy() {
		seed = c.spec.SyncRand.Uint64()
	}
	view, err := ctx.ViewIn(&c.env, c.objs)
	if err != nil {
		return err
	}
	c.objs = view.Objects
	cam := c.lens
	cam.Pose = ctx.MountPose(c.spec.Mount.Pose)
	ctx.ClearNear(&cam)
	cam.Motion = ctx.MountMotion(c.spec.Mount.Pose)
	cam.Seed = filmSeed(seed)
	gains := c.foldGains(&cam, c.gains())
	n := c.width * c.height
	if cap(dst.Pixels) < 3*n {
		dst.Pixels = make([]byte, 3*n)
	}
	dst.Pixels = dst.Pixels[:3*n]
	f := render.Frame{Width: c.width, Height: c.height, RGB: dst.Pixels}
	if err := ctx.Renderer().Render(&f, cam, view.Static, view.Objects); err != nil {
		return err
	}
	c.noise.Apply(dst.Pixels, seed)
	gains.Apply(dst.Pixels)
	if c.channels == 1 {
		dst.Pixels = sensors.Gray(dst.Pixels, n)
	}
	dst.Width, dst.Height, dst.Channels, dst.Format = c.width, c.height, c.channels, c.spec.Contract.Format
	dst.Depth, dst.Step, dst.Stamp = nil, ctx.Step, ctx.Stamp
	return sensors.EncodeCamera(dst, c.quality, c.spec.Encoder())
}

// Close renders what is queued and stops the worker.
func (c *Camera) Close() { c.pipe.Close() }
