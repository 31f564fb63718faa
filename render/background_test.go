package render

import "testing"

// TestColourWithoutDepth checks that a frame drawn without a depth buffer has the colours of
// one drawn with it: the background passes over drawn pixels by a path of their own when no
// depth is to be converted. Odd widths and poses looking along, across and up the corridor put
// the runs of drawn and empty pixels at every offset of that path's four-pixel steps.
func TestColourWithoutDepth(t *testing.T) {
	statics, dyn := flatStatics(t)
	r := NewRenderer(Options{Workers: 1})
	defer r.Close()
	compared := 0
	for name, s := range statics {
		for _, size := range [][2]int{{84, 84}, {97, 61}, {33, 7}} {
			for _, yaw := range []float64{0, 0.4, 1.3, 2.6, -0.9} {
				for _, pitch := range []float64{-0.3, 0.1, 0.5} {
					cam := BenchCamera(size[0], size[1])
					cam.Yaw, cam.Pitch = yaw, pitch
					both := NewFrame(cam.Width, cam.Height, true, true)
					colour := NewFrame(cam.Width, cam.Height, true, false)
					if err := r.Render(both, cam, s, dyn); err != nil {
						t.Fatal(err)
					}
					if err := r.Render(colour, cam, s, dyn); err != nil {
						t.Fatal(err)
					}
					if i := firstDiff(colour.RGB, both.RGB); i >= 0 {
						t.Fatalf("%s %v yaw %g pitch %g: byte %d (pixel %d, %d) is %d without depth, %d with", name, size,
							yaw, pitch, i, i/3%cam.Width, i/3/cam.Width, colour.RGB[i], both.RGB[i])
					}
					compared++
				}
			}
		}
	}
	if compared != 90 {
		t.Fatalf("compared %d frames, want 90", compared)
	}
}

// flatStatics returns the bench corridor's static scene in the flat look with its textured
// floor and with a plain one, by name, and the bench's objects.
func flatStatics(t *testing.T) (map[string]*Static, []Object) {
	t.Helper()
	st, dyn, err := BenchScene()
	if err != nil {
		t.Fatal(err)
	}
	plain := corridorLayout()
	plain.Floor.Texture, plain.Floor.Color = "", "#806040"
	return map[string]*Static{"textured": st, "plain": mustStatic(t, plain, nil)}, dyn
}
