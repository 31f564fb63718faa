package render

import (
	"bytes"
	"strings"
	"testing"

	"simgui/plugins"
)

// TestBandFaultIsAnError has a band of a frame panic on a helper goroutine: the phase must
// still finish, and the panic come back as the frame's fault, naming where it happened,
// instead of taking the process down.
func TestBandFaultIsAnError(t *testing.T) {
	r := NewRenderer(Options{Workers: 2, MinPixelsPerWorker: 1})
	defer r.Close()
	for range 20 { // whichever goroutine draws the faulty band
		r.runPhase(128, 64, func(fs *frameState, y0, y1 int) {
			if y0 == 3*tileRows {
				panic("band 3 broke")
			}
		})
		f := r.fault.Swap(nil)
		if f == nil {
			t.Fatal("a band panicked and the frame has no fault")
		}
		if msg := (*f).Error(); !strings.Contains(msg, "band 3 broke") || !strings.Contains(msg, "TestBandFaultIsAnError") {
			t.Fatalf("fault %q: want the panic and where it happened", msg)
		}
	}
}

// TestRenderFaultIsAnError breaks a Static's baked floor so that drawing it panics: Render
// must return an error, and the next frame of a sound scene must be drawn as by a fresh
// renderer.
func TestRenderFaultIsAnError(t *testing.T) {
	env := RealisticEnvironment()
	layout := &plugins.Layout{Floor: plugins.Floor{X: -1, Y: -1, Length: 2, Width: 2}}
	cam := Camera{Pose: Pose{Z: 0.3, Pitch: 0.4}, FovYDeg: 60, Width: 96, Height: 64, Near: 0.03, Far: 20}
	for _, workers := range []int{1, 2} {
		r := NewRenderer(Options{Workers: workers, MinPixelsPerWorker: 1})
		broken := mustStatic(t, layout, &env)
		if broken.realPart().litFloor == nil {
			t.Fatal("the realistic floor is not baked: the test breaks nothing")
		}
		broken.realPart().litFloor.levels = nil
		f := NewFrame(cam.Width, cam.Height, true, false)
		err := r.Render(f, cam, broken, nil)
		if err == nil || !strings.Contains(err.Error(), "internal fault") {
			t.Fatalf("%d workers: Render of a broken scene returned %v, want an internal fault", workers, err)
		}
		sound := mustStatic(t, layout, &env)
		if err := r.Render(f, cam, sound, nil); err != nil {
			t.Fatalf("%d workers: the frame after a fault: %v", workers, err)
		}
		want := render(t, cam, sound, nil, Options{Workers: 1})
		if !bytes.Equal(f.RGB, want.RGB) {
			t.Errorf("%d workers: the frame after a fault differs from a fresh renderer's", workers)
		}
		r.Close()
	}
}
