// Package jpegbench holds the JPEG encoders' benchmarks for `simgui bench` and `go test
// -bench`: libturbojpeg against Go's image/jpeg on the same frame (jpegenc.Scene) at the
// camera sensor's default quality.
package jpegbench

import (
	"fmt"

	"simgui/app/bench"
	"simgui/app/sensors/jpegenc"
	"simgui/plugins"
)

func init() {
	q := cameraQuality()
	for _, sz := range [][2]int{{640, 480}, {84, 84}} {
		w, h := sz[0], sz[1]
		goName := fmt.Sprintf("jpeg/go/%dx%d", w, h)
		bench.Register(bench.Case{
			Name: goName,
			Doc:  fmt.Sprintf("image/jpeg encode of a %dx%d RGB scene at q%d, 4:2:0", w, h, q),
			F:    benchEncode(func() (jpegenc.Encoder, error) { return jpegenc.NewStdlib(), nil }, w, h, q),
		})
		bench.Register(bench.Case{
			Name:     fmt.Sprintf("jpeg/turbo/%dx%d", w, h),
			Baseline: goName,
			Doc:      fmt.Sprintf("libturbojpeg (purego) encode of a %dx%d RGB scene at q%d, 4:2:0", w, h, q),
			F:        benchEncode(func() (jpegenc.Encoder, error) { return jpegenc.NewTurbo("") }, w, h, q),
		})
	}
}

// cameraQuality is the camera sensor's default jpegQuality.
func cameraQuality() int {
	specs, err := plugins.SensorParams("camera")
	if err != nil {
		panic(err) // the built-in kind: a programming error found at init
	}
	for _, s := range specs {
		if s.Name == "jpegQuality" {
			return int(s.Default)
		}
	}
	panic("jpegbench: the camera has no jpegQuality parameter")
}

// benchEncode returns a benchmark that encodes a w×h jpegenc.Scene with the encoder from
// newEnc at quality q into a reused buffer, reporting allocations and the JPEG size. It skips
// when newEnc fails (libturbojpeg missing, or the headless build).
func benchEncode(newEnc func() (jpegenc.Encoder, error), w, h, q int) func(bench.B) {
	return func(b bench.B) {
		enc, err := newEnc()
		if err != nil {
			b.Skip(err)
		}
		if c, ok := enc.(interface{ Close() error }); ok {
			defer c.Close()
		}
		pix := jpegenc.Scene(w, h)
		dst, err := enc.Encode(nil, pix, w, h, 3*w, q)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		b.SetBytes(int64(3 * w * h))
		for b.Loop() {
			dst, err = enc.Encode(dst[:0], pix, w, h, 3*w, q)
			if err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(dst)), "jpeg-bytes")
	}
}
