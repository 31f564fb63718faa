// Package camerabench holds the camera's speed claims, registered for `simgui bench` (run it
// with GOMAXPROCS=1 for the per-core figures) and run by go test -bench too: one camera of the
// default scenario (the KS0223 at its spawn point in the cardboard corridor) rendering frames
// through the sensor path — capture of the world, render, noise, encoding — compared with the
// renderer alone on the same number of workers; JPEG output compared with raw frames, and Go's
// encoder with libturbojpeg.
package camerabench

import (
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	"simgui/app/bench"
	"simgui/app/sensors"
	"simgui/app/sensors/jpegenc"
	"simgui/app/sensors/sensortest"
	_ "simgui/app/sensors/standard" // the sensor kinds the KS0223 carries
	"simgui/app/transport"
	"simgui/app/world"
	"simgui/plugins"
	"simgui/render"
)

func init() {
	bench.Register(bench.Case{Name: "sensors/camera/84x84/rgb/4-cameras", Baseline: "sensors/camera/84x84/rgb",
		F:   benchCameras(84, 84, 4),
		Doc: "four KS0223s whose 84x84 cameras fire every step, rendered by their workers and published (frames/s in all)"})
	for _, s := range [][2]int{{84, 84}, {640, 480}} {
		w, h := s[0], s[1]
		rgb := fmt.Sprintf("sensors/camera/%dx%d/rgb", w, h)
		turbo := fmt.Sprintf("sensors/camera/%dx%d/jpeg_base64/turbo", w, h)
		only := fmt.Sprintf("sensors/camera/%dx%d/render-only", w, h)
		bench.Register(bench.Case{Name: only, F: benchRenderOnly(w, h),
			Doc: fmt.Sprintf("the renderer alone drawing the same %dx%d view (captured once), GOMAXPROCS workers", w, h)})
		bench.Register(bench.Case{Name: rgb, Baseline: only,
			F:   benchFrame(w, h, sensors.FormatRaw, nil),
			Doc: fmt.Sprintf("a %dx%d RGB frame of the default scenario's camera through the sensor path (System.Frame)", w, h)})
		bench.Register(bench.Case{Name: turbo, Baseline: rgb,
			F:   benchFrame(w, h, sensors.FormatJPEGBase64, func() (jpegenc.Encoder, error) { return jpegenc.NewTurbo("") }),
			Doc: fmt.Sprintf("a %dx%d frame as base64 JPEG (q84) encoded by libturbojpeg", w, h)})
		bench.Register(bench.Case{Name: fmt.Sprintf("sensors/camera/%dx%d/jpeg_base64/go", w, h), Baseline: turbo,
			F:   benchFrame(w, h, sensors.FormatJPEGBase64, func() (jpegenc.Encoder, error) { return jpegenc.NewStdlib(), nil }),
			Doc: fmt.Sprintf("a %dx%d frame as base64 JPEG (q84) encoded by Go's image/jpeg", w, h)})
	}
}

// benchEnv is the default scenario with the KS0223's camera producing w×h frames in format.
func benchEnv(b bench.B, w, h int, format string, opts sensors.Options) *sensortest.Env {
	v := sensortest.KS0223(b)
	for i := range v.Contract.Sensors {
		if s := &v.Contract.Sensors[i]; s.ID == "camera.front.rgb" {
			s.Shape, s.Format = []int{h, w, 3}, format
		}
	}
	env := sensortest.Default(b, v, opts)
	env.Step(1)
	return env
}

// benchRenderOnly renders the view the camera benchmark renders — captured once, at the
// camera's pose, with a renderer of GOMAXPROCS workers as the sensors use — without the sensor
// path around it: the baseline of the sensor overhead.
func benchRenderOnly(w, h int) func(bench.B) {
	return func(b bench.B) {
		env := benchEnv(b, w, h, sensors.FormatRaw, sensors.Options{})
		view, err := env.System.View("ego", nil)
		if err != nil {
			b.Fatal(err)
		}
		ego := env.World.Model("ego")
		var mount plugins.SensorMount
		for _, m := range ego.Vehicle.Sensors {
			if m.ID == "camera.front.rgb" {
				mount = m
			}
		}
		cam := render.Camera{Pose: sensors.BodyPose(ego).Compose(render.PoseFromPose3(mount.Pose)),
			FovYDeg: mount.Params["fovDeg"], Near: mount.Params["near"], Far: mount.Params["far"], Width: w, Height: h}
		r := render.NewRenderer(render.Options{})
		defer r.Close()
		f := render.NewFrame(w, h, true, false)
		b.ReportAllocs()
		ops := 0
		for b.Loop() {
			if err := r.Render(f, cam, view.Static, view.Objects); err != nil {
				b.Fatal(err)
			}
			ops++
		}
		b.ReportMetric(float64(ops)/b.Elapsed().Seconds(), "frames/s")
	}
}

// benchFrame returns a benchmark rendering w×h frames in format from the default scenario's
// KS0223 camera through System.Frame, one frame per op, reporting frames/s. newEnc chooses the
// JPEG encoder (nil: the default); the benchmark skips when it fails (libturbojpeg missing).
func benchFrame(w, h int, format string, newEnc func() (jpegenc.Encoder, error)) func(bench.B) {
	return func(b bench.B) {
		var opts sensors.Options
		if newEnc != nil {
			enc, err := newEnc()
			if err != nil {
				b.Skip(err)
			}
			if c, ok := enc.(interface{ Close() error }); ok {
				defer c.Close()
			}
			opts.Encoder = enc
		}
		env := benchEnv(b, w, h, format, opts)
		var im sensors.Image
		if err := env.System.Frame("ego", "camera.front.rgb", &im); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		ops := 0
		for b.Loop() {
			if err := env.System.Frame("ego", "camera.front.rgb", &im); err != nil {
				b.Fatal(err)
			}
			ops++
		}
		b.ReportMetric(float64(ops)/b.Elapsed().Seconds(), "frames/s")
		b.ReportMetric(float64(len(im.Data)), "bytes/frame")
	}
}

// benchCameras steps the default scenario with n KS0223s whose w×h cameras fire every
// step, each rendered on its sensor's worker goroutine and published to a subscriber (lossless:
// the loop waits for the workers). One op is one step; frames/s counts all cameras' frames.
func benchCameras(w, h, n int) func(bench.B) {
	return func(b bench.B) {
		v := sensortest.KS0223(b)
		for i := range v.Contract.Sensors {
			if s := &v.Contract.Sensors[i]; s.ID == "camera.front.rgb" {
				s.Shape, s.Format, s.RateHz = []int{h, w, 3}, sensors.FormatRaw, 1000
			}
		}
		env := sensortest.Default(b, v, sensors.Options{Lossless: true})
		for i := 1; i < n; i++ {
			env.Spawn(fmt.Sprintf("car%d", i), v, world.Pose{X: 0.05 * float64(i), Y: -0.85 + 0.2*float64(i), Yaw: math.Pi / 2})
		}
		var frames atomic.Int64
		var wg sync.WaitGroup
		subs := make([]*transport.Subscription, n)
		for i := range n {
			name := "ego"
			if i > 0 {
				name = fmt.Sprintf("car%d", i)
			}
			sub := env.Bus.Subscribe(sensors.Topic(name, "camera.front.rgb", sensors.TopicImage))
			defer sub.Close()
			subs[i] = sub
			wg.Go(func() {
				for range sub.C() {
					frames.Add(1)
				}
			})
		}
		env.Step(1)
		env.System.Flush()
		b.ReportAllocs()
		steps := 0
		for b.Loop() {
			env.World.Step()
			steps++
		}
		env.System.Flush()
		b.ReportMetric(float64(n*steps)/b.Elapsed().Seconds(), "frames/s")
		// Every frame published is either read or dropped by a subscriber queue that a reader
		// starved of CPU let fill: the drops depend on load and are reported, but a frame
		// missing altogether is a bug (the loop waits for the workers).
		var dropped uint64
		for _, sub := range subs {
			sub.Close() // what is queued can still be read
		}
		wg.Wait()
		for _, sub := range subs {
			dropped += sub.Dropped()
		}
		b.ReportMetric(float64(dropped), "dropped")
		if got := uint64(frames.Load()) + dropped; got < uint64(n*steps) {
			b.Fatalf("%d frames published for %d steps of %d cameras", got, steps, n)
		}
	}
}
