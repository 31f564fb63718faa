package camera

import (
	"fmt"
	"testing"

	"simgui/app/bench"
	"simgui/app/sensors"
	"simgui/app/sensors/jpegenc"
	"simgui/app/sensors/sensortest"
)

// The camera's speed claims, registered for `simgui bench` (run it with GOMAXPROCS=1 for the
// per-core figures) and run by go test -bench too: one camera of the default scenario (the
// KS0223 at its spawn point in the cardboard corridor) rendering frames through the sensor
// path — capture of the world, render, noise, encoding — compared with the renderer alone on
// the same number of workers; JPEG output compared with raw frames, and Go's encoder with
// libturbojpeg.
func init() {
	for _, s := range [][2]int{{84, 84}, {640, 480}} {
		w, h := s[0], s[1]
		rgb := fmt.Sprintf("sensors/camera/%dx%d/rgb", w, h)
		turbo := fmt.Sprintf("sensors/camera/%dx%d/jpeg_base64/turbo", w, h)
		bench.Register(bench.Case{Name: rgb, Baseline: fmt.Sprintf("render/rgb/%dx%d/parallel", w, h),
			F:   Benchmark(w, h, sensors.FormatRaw, nil),
			Doc: fmt.Sprintf("a %dx%d RGB frame of the default scenario's camera through the sensor path (System.Frame)", w, h)})
		bench.Register(bench.Case{Name: turbo, Baseline: rgb,
			F:   Benchmark(w, h, sensors.FormatJPEGBase64, func() (jpegenc.Encoder, error) { return jpegenc.NewTurbo("") }),
			Doc: fmt.Sprintf("a %dx%d frame as base64 JPEG (q84) encoded by libturbojpeg", w, h)})
		bench.Register(bench.Case{Name: fmt.Sprintf("sensors/camera/%dx%d/jpeg_base64/go", w, h), Baseline: turbo,
			F:   Benchmark(w, h, sensors.FormatJPEGBase64, func() (jpegenc.Encoder, error) { return jpegenc.NewStdlib(), nil }),
			Doc: fmt.Sprintf("a %dx%d frame as base64 JPEG (q84) encoded by Go's image/jpeg", w, h)})
	}
}

// Benchmark returns a benchmark rendering w×h frames in format from the default scenario's
// KS0223 camera through System.Frame, one frame per op, reporting frames/s. newEnc chooses the
// JPEG encoder (nil: the default); the benchmark skips when it fails (libturbojpeg missing).
func Benchmark(w, h int, format string, newEnc func() (jpegenc.Encoder, error)) func(*testing.B) {
	return func(b *testing.B) {
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
		v := sensortest.KS0223(b)
		for i := range v.Contract.Sensors {
			if s := &v.Contract.Sensors[i]; s.ID == "camera.front.rgb" {
				s.Shape, s.Format = []int{h, w, 3}, format
			}
		}
		env := sensortest.Default(b, v, opts)
		env.Step(1)
		var im sensors.Image
		if err := env.System.Frame("ego", "camera.front.rgb", &im); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if err := env.System.Frame("ego", "camera.front.rgb", &im); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "frames/s")
		b.ReportMetric(float64(len(im.Data)), "bytes/frame")
	}
}
