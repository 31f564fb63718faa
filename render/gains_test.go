package render

import (
	"bytes"
	"math"
	"slices"
	"testing"
)

func TestNewGainTable(t *testing.T) {
	if g := NewGainTable([3]float64{1, 1, 1}); g != nil {
		t.Fatal("gains of 1 give a table; want nil")
	}
	g := NewGainTable([3]float64{1.5, 0.5, 0})
	for _, c := range []struct {
		ch      int
		in, out byte
	}{{0, 100, 150}, {0, 200, 255}, {0, 1, 2}, {1, 3, 2}, {1, 255, 128}, {2, 200, 0}} {
		if got := g[c.ch][c.in]; got != c.out {
			t.Errorf("channel %d: %d → %d, want %d", c.ch, c.in, got, c.out)
		}
	}
	pix := []byte{100, 3, 200, 1, 255, 9, 7}
	g.Apply(pix)
	if want := []byte{150, 2, 0, 2, 128, 0, 7}; !bytes.Equal(pix, want) {
		t.Errorf("Apply: %v, want %v (a trailing partial pixel untouched)", pix, want)
	}
	var none *GainTable
	none.Apply(pix) // a nil table leaves pixels as they are
}

// TestGainsDrawnIn checks that a camera with Gains draws exactly the bytes of drawing without
// and applying the table afterwards, over the flat look's paths (textured and plain floor,
// ground, sky, triangles, a rolled camera, depth alongside) and the realistic one's.
func TestGainsDrawnIn(t *testing.T) {
	statics, dyn := flatStatics(t)
	real := RealisticEnvironment()
	statics["realistic"] = mustStatic(t, corridorLayout(), &real)
	g := NewGainTable([3]float64{1.3, 0.8, 1.05})
	r := NewRenderer(Options{Workers: 1})
	defer r.Close()
	for name, s := range statics {
		for _, c := range []struct {
			name string
			edit func(*Camera)
		}{
			{"level", func(*Camera) {}},
			{"rolled", func(c *Camera) { c.Roll = 0.2 }},
			{"above", func(c *Camera) { c.Z, c.Pitch = 3, 1.2 }},
			{"film", func(c *Camera) { c.Film = &Film{Vignette: 0.3, ReadNoise: 2}; c.Seed = 7 }},
		} {
			cam := BenchCamera(84, 60)
			c.edit(&cam)
			want := NewFrame(cam.Width, cam.Height, true, true)
			if err := r.Render(want, cam, s, dyn); err != nil {
				t.Fatal(err)
			}
			plainRGB := slices.Clone(want.RGB)
			g.Apply(want.RGB)
			cam.Gains = g
			got := NewFrame(cam.Width, cam.Height, true, true)
			if err := r.Render(got, cam, s, dyn); err != nil {
				t.Fatal(err)
			}
			if bytes.Equal(want.RGB, plainRGB) {
				t.Fatalf("%s/%s: the gains change nothing; the test proves nothing", name, c.name)
			}
			if i := firstDiff(got.RGB, want.RGB); i >= 0 {
				t.Errorf("%s/%s: byte %d (pixel %d, %d) is %d with Gains, %d drawn then mapped", name, c.name,
					i, i/3%cam.Width, i/3/cam.Width, got.RGB[i], want.RGB[i])
			}
			for i := range got.Depth {
				if math.Float32bits(got.Depth[i]) != math.Float32bits(want.Depth[i]) {
					t.Fatalf("%s/%s: depth %d is %g with Gains, %g without", name, c.name, i, got.Depth[i], want.Depth[i])
				}
			}
		}
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

// BenchmarkGains maps an 84×84 RGB frame through the brightness and colour gains of domain
// randomization, the pass a Camera with Gains saves.
func BenchmarkGains(b *testing.B) {
	pix := make([]byte, 84*84*3)
	for i := range pix {
		pix[i] = byte(i * 7)
	}
	t := NewGainTable([3]float64{1.1, 0.9, 1.05})
	b.SetBytes(int64(len(pix)))
	for b.Loop() {
		t.Apply(pix)
	}
}
