package depth

import (
	"fmt"

	"simgui/app/sensors"
	"simgui/app/sensors/camera"
	"simgui/app/transport/msgs"
	"simgui/plugins"
	"simgui/render"
)

func init() {
	sensors.Register(sensors.Kind{
		Name: "depth", Topic: sensors.TopicDepthImage, New: New,
		Doc: "planar depth image in metres from the mount, +Inf where nothing is hit",
	})
}

// Depth is one mounted depth camera.
type Depth struct {
	spec          *sensors.Spec
	width, height int
	lens          render.Camera
	noise         *sensors.DepthNoise
	pipe          *sensors.Pipeline[*camera.Shot]

	buf  []float32
	objs []render.Object
}

// New builds a depth camera from its spec.
func New(spec *sensors.Spec) (sensors.Sensor, error) {
	w, h, ch, err := camera.FrameShape(spec.Contract.Shape)
	if len(spec.Contract.Shape) == 2 {
		ch = 1
	}
	if err != nil {
		return nil, err
	}
	if ch != 1 {
		return nil, fmt.Errorf("contract shape %v: a depth image has one channel", spec.Contract.Shape)
	}
	if spec.Contract.Format == "" {
		spec.Contract.Format = plugins.SensorFormats(plugins.SensorDepth)[0] // what an empty format means
	}
	if err := sensors.CheckDepthFormat(spec.Contract.Format); err != nil {
		return nil, err
	}
	p := spec.Params
	d := &Depth{
		spec: spec, width: w, height: h,
		lens:  render.Camera{FovYDeg: p.Get("fovDeg"), Near: p.Get("near"), Far: p.Get("far"), Width: w, Height: h},
		noise: sensors.NewDepthNoise(spec.Noise),
	}
	if err := d.lens.Validate(); err != nil {
		return nil, err
	}
	spec.Out.DepthRange = [2]float64{d.lens.Near, d.lens.Far}
	d.pipe = sensors.NewPipeline(spec, d.render, nil)
	return d, nil
}

// Fire captures the scene and hands the frame to the worker (see camera.Capture).
func (d *Depth) Fire(ctx *sensors.Context) {
	if shot, ok := camera.Capture(ctx, d.spec, d.lens, nil, d.noise != nil); ok {
		d.pipe.Submit(shot)
	}
}

func (d *Depth) render(r *render.Renderer, j *camera.Shot) {
	n := d.width * d.height
	if len(d.buf) != n {
		d.buf = make([]float32, n)
	}
	f := render.Frame{Width: d.width, Height: d.height, Depth: d.buf}
	if err := r.Render(&f, j.Cam, j.View.Static, j.View.Objects); err != nil {
		d.spec.Warn(err)
		return
	}
	d.noise.Apply(d.buf, j.Seed)
	d.spec.Out.Emit(sensors.Reading{Step: j.Step, Stamp: j.Stamp, Msg: &msgs.Image{
		Header: sensors.Header(j.Stamp), Width: uint32(d.width), Height: uint32(d.height),
		Step: uint32(4 * d.width), Data: sensors.AppendFloat32s(make([]byte, 0, 4*n), d.buf),
		PixelFormatType: msgs.PixelFormatType_R_FLOAT32,
	}})
}

// Snap renders the depth camera's view now into dst, in the contract's format, on the loop
// goroutine, with noise from the sensor's sync stream.
func (d *Depth) Snap(ctx *sensors.Context, dst *sensors.Image) error {
	var seed uint64
	if d.noise != nil {
		seed = d.spec.SyncRand.Uint64()
	}
	view, err := ctx.View(d.objs)
	if err != nil {
		return err
	}
	d.objs = view.Objects
	cam := d.lens
	cam.Pose = ctx.MountPose(d.spec.Mount.Pose)
	ctx.ClearNear(&cam)
	n := d.width * d.height
	if cap(dst.Depth) < n {
		dst.Depth = make([]float32, n)
	}
	dst.Depth = dst.Depth[:n]
	f := render.Frame{Width: d.width, Height: d.height, Depth: dst.Depth}
	if err := ctx.Renderer().Render(&f, cam, view.Static, view.Objects); err != nil {
		return err
	}
	d.noise.Apply(dst.Depth, seed)
	dst.Width, dst.Height, dst.Channels, dst.Format = d.width, d.height, 1, d.spec.Contract.Format
	dst.Pixels, dst.Step, dst.Stamp = nil, ctx.Step, ctx.Stamp
	return sensors.EncodeDepth(dst)
}

// Close renders what is queued and stops the worker.
func (d *Depth) Close() { d.pipe.Close() }
