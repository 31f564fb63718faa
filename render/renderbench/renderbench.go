// Package renderbench holds the renderer's speed claims, registered for `simgui bench` and
// run by `go test -bench` too. Each render case is compared with filling the same buffers once
// (the memory-bound floor of any renderer), and the parallel case with the serial one.
package renderbench

import (
	"fmt"

	"simgui/app/bench"
	"simgui/render"
)

func init() {
	for _, s := range [][2]int{{84, 84}, {320, 180}, {640, 480}} {
		w, h := s[0], s[1]
		fill := fmt.Sprintf("render/fill/%dx%d", w, h)
		serial := fmt.Sprintf("render/rgb/%dx%d/serial", w, h)
		bench.Register(bench.Case{Name: fill, F: benchFill(w, h),
			Doc: fmt.Sprintf("clearing a %dx%d RGB frame and depth buffer once", w, h)})
		bench.Register(bench.Case{Name: serial, Baseline: fill, F: benchRender(w, h, 1, true, false),
			Doc: fmt.Sprintf("one %dx%d RGB frame of the KS0223 corridor scene on one core", w, h)})
		bench.Register(bench.Case{Name: fmt.Sprintf("render/rgb/%dx%d/parallel", w, h), Baseline: serial,
			F:   benchRender(w, h, 0, true, false),
			Doc: fmt.Sprintf("one %dx%d RGB frame of the corridor scene over GOMAXPROCS workers", w, h)})
	}
	bench.Register(bench.Case{Name: "render/rgbd/640x480/serial", Baseline: "render/rgb/640x480/serial",
		F: benchRender(640, 480, 1, true, true), Doc: "one 640x480 RGB and depth frame on one core"})
	bench.Register(bench.Case{Name: "render/depth/640x480/serial", Baseline: "render/rgb/640x480/serial",
		F: benchRender(640, 480, 1, false, true), Doc: "one 640x480 depth-only frame on one core"})
}

// benchRender renders the bench scene at w×h with the given workers (0 = GOMAXPROCS),
// reporting frames/s.
func benchRender(w, h, workers int, rgb, depth bool) func(bench.B) {
	return func(b bench.B) {
		static, objects, err := render.BenchScene()
		if err != nil {
			b.Fatal(err)
		}
		r := render.NewRenderer(render.Options{Workers: workers})
		defer r.Close()
		f := render.NewFrame(w, h, rgb, depth)
		cam := render.BenchCamera(w, h)
		b.ReportAllocs()
		ops := 0
		for b.Loop() {
			if err := r.Render(f, cam, static, objects); err != nil {
				b.Fatal(err)
			}
			ops++
		}
		b.ReportMetric(float64(ops)/b.Elapsed().Seconds(), "frames/s")
	}
}

// benchFill clears a frame's RGB bytes and depth values once per op: the memory-bound floor
// under any renderer.
func benchFill(w, h int) func(bench.B) {
	return func(b bench.B) {
		f := render.NewFrame(w, h, true, true)
		ops := 0
		for b.Loop() {
			clear(f.RGB)
			clear(f.Depth)
			ops++
		}
		b.ReportMetric(float64(ops)/b.Elapsed().Seconds(), "frames/s")
	}
}
