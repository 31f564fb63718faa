package render

import (
	"sync"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// Big realistic frames borrow their per-pixel scratch: renderers keep none of it between
// frames, several drawing at once get the same bytes as one alone, and a small frame keeps
// its own.
func TestBigFramesBorrowTheirScratch(t *testing.T) {
	sc, st := realBenchScene(t)
	cam := benchCamera(400, 300) // 120,000 pixels
	cam.Lens = Lens{Model: PlumbBob, K1: -0.1}
	cam.Film = &Film{ReadNoise: 1, ShotNoise: 2, ShutterS: 1.0 / 60}
	cam.Motion = Motion{Linear: mgl64.Vec3{0, 0.5, 0}, Angular: mgl64.Vec3{0, 0, 1}}
	want := render(t, cam, st, sc.dyn, Options{Workers: 1})

	const n = 6
	rs := make([]*Renderer, n)
	frames := make([]*Frame, n)
	var wg sync.WaitGroup
	for i := range n {
		rs[i] = NewRenderer(Options{Workers: 2, MinPixelsPerWorker: 1})
		defer rs[i].Close()
		frames[i] = NewFrame(cam.Width, cam.Height, true, true)
		wg.Go(func() {
			for range 2 {
				if err := rs[i].Render(frames[i], cam, st, sc.dyn); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	for i, r := range rs {
		if string(frames[i].RGB) != string(want.RGB) {
			t.Errorf("renderer %d of %d drawing at once: other bytes than one alone", i, n)
		}
		if kept := cap(r.zbuf) + cap(r.fs.real.lin) + cap(r.fs.real.blurred) + cap(r.fs.real.rowTmp); kept != 0 {
			t.Errorf("renderer %d keeps %d values of a big frame's scratch", i, kept)
		}
	}
	// Nor for a frame without depth.
	r0 := NewRenderer(Options{Workers: 1})
	defer r0.Close()
	if err := r0.Render(NewFrame(cam.Width, cam.Height, true, false), cam, st, sc.dyn); err != nil {
		t.Fatal(err)
	}
	if kept := cap(r0.zbuf) + cap(r0.fs.real.lin); kept != 0 {
		t.Errorf("an RGB-only big frame's renderer keeps %d values of scratch", kept)
	}
	small := benchCamera(84, 84)
	small.Film = cam.Film
	r := NewRenderer(Options{Workers: 1})
	defer r.Close()
	if err := r.Render(NewFrame(84, 84, true, false), small, st, sc.dyn); err != nil {
		t.Fatal(err)
	}
	if cap(r.fs.real.lin) < 84*84 {
		t.Errorf("a small frame's renderer keeps %d values of its drawing, want its own", cap(r.fs.real.lin))
	}
}

// A renderer keeps its newest lens map and, past it, no more than lensCacheBytes of others:
// lenses randomized per episode would otherwise pile up in every renderer.
func TestLensCacheIsBounded(t *testing.T) {
	sc, err := newBenchScene()
	if err != nil {
		t.Fatal(err)
	}
	st := mustStatic(t, corridorLayout(), nil)
	r := NewRenderer(Options{Workers: 1})
	defer r.Close()
	f := NewFrame(640, 480, true, false)
	for i := range 5 {
		cam := benchCamera(640, 480)
		cam.Lens = Lens{Model: PlumbBob, K1: -0.05 - 0.01*float64(i)}
		if err := r.Render(f, cam, st, sc.dyn); err != nil {
			t.Fatal(err)
		}
		if m := r.lenses.maps[0]; m.key.lens != cam.Lens {
			t.Fatalf("frame %d: the newest map is not the frame's lens", i)
		}
	}
	past := 0
	for _, m := range r.lenses.maps[1:] {
		past += m.bytes()
	}
	// Four 640×480 maps of 2.5 MB: the newest and three past it fit.
	if one := r.lenses.maps[0].bytes(); past > lensCacheBytes || len(r.lenses.maps) != 4 || one < 1<<20 {
		t.Errorf("%d maps kept, %d bytes past the newest (%d each): want some, at most %d", len(r.lenses.maps), past, one, lensCacheBytes)
	}
}
