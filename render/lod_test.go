package render

import (
	"math"
	"testing"

	"simgui/plugins"
)

// TestVehicleLevelsOfDetail checks the levels NewVehicleMesh builds: fewer triangles and a
// larger chord gap each, the full mesh close up and the coarsest far away.
func TestVehicleLevelsOfDetail(t *testing.T) {
	for _, shape := range []string{"ks0223", "car", "drone"} {
		m, err := NewVehicleMesh(VehicleSpec{Shape: shape})
		if err != nil {
			t.Fatal(err)
		}
		if len(m.lods) == 0 {
			t.Fatalf("%s: no coarser levels", shape)
		}
		prev := m
		for _, l := range m.lods {
			if len(l.tris) >= len(prev.tris) || !(l.chord > prev.chord) {
				t.Errorf("%s: level of %d triangles, chord %.4f m after %d, %.4f m: want fewer and coarser",
					shape, len(l.tris), l.chord, len(prev.tris), prev.chord)
			}
			prev = l
		}
		if got := m.forScale(1e4); got != m {
			t.Errorf("%s at 10,000 px/m: %d triangles, want the full %d", shape, len(got.tris), len(m.tris))
		}
		if got := m.forScale(1); got != prev {
			t.Errorf("%s at 1 px/m: %d triangles, want the coarsest %d", shape, len(got.tris), len(prev.tris))
		}
		for _, ppm := range []float64{30, 100, 300} {
			if l := m.forScale(ppm); l.chord*ppm > lodPixels && l != m {
				t.Errorf("%s at %g px/m: chord %.4f m is %.2f px, want at most %g", shape, ppm, l.chord, l.chord*ppm, lodPixels)
			}
		}
	}
}

// TestFarVehicleLooksTheSame draws KS0223s at 1.5 to 5.7 m, where a frame takes their coarser
// levels, and the same at full detail: the frames may differ only in a few pixels along the
// round parts' edges, in both looks.
func TestFarVehicleLooksTheSame(t *testing.T) {
	m, err := NewVehicleMesh(VehicleSpec{Shape: "ks0223"})
	if err != nil {
		t.Fatal(err)
	}
	full := *m
	full.lods = nil
	var objs, fulls []Object
	for i := range 8 {
		d := 1.5 + 0.6*float64(i)
		o := Object{Mesh: m, Pose: Pose{X: d, Y: 0.3 * d * math.Sin(2*float64(i)), Yaw: float64(i)}}
		objs = append(objs, o)
		o.Mesh = &full
		fulls = append(fulls, o)
	}
	cam := Camera{Pose: Pose{Z: 0.8, Pitch: 0.25}, FovYDeg: 68, Near: 0.05, Far: 20, Width: 320, Height: 240}
	r := NewRenderer(Options{Workers: 1})
	defer r.Close()
	if l := r.withLOD(&cam, objs); l[len(l)-1].Mesh != m.lods[len(m.lods)-1] {
		t.Fatal("the farthest KS0223 is not drawn at the coarsest level: the test would see no change")
	}
	for _, look := range []Environment{DefaultEnvironment(), RealisticEnvironment()} {
		s := mustStatic(t, &plugins.Layout{Floor: plugins.Floor{X: 3, Length: 10, Width: 10, Color: "#c8c8c8"}}, &look)
		a := render(t, cam, s, objs, Options{Workers: 1})
		b := render(t, cam, s, fulls, Options{Workers: 1})
		empty := render(t, cam, s, nil, Options{Workers: 1})
		vehicle, differ := 0, 0
		for i := 0; i < len(a.RGB); i += 3 {
			if b.RGB[i] != empty.RGB[i] || b.RGB[i+1] != empty.RGB[i+1] || b.RGB[i+2] != empty.RGB[i+2] {
				vehicle++
			}
			d := 0
			for c := range 3 {
				d = max(d, abs(int(a.RGB[i+c])-int(b.RGB[i+c])))
			}
			if d > 24 {
				differ++
			}
		}
		if vehicle < 300 || differ*25 > vehicle {
			t.Errorf("realistic %v: %d of the %d pixels the vehicles change differ by more than 24 levels: want at most 4 %%",
				look.Realistic, differ, vehicle)
		}
		t.Logf("realistic %v: %d of %d vehicle pixels differ", look.Realistic, differ, vehicle)
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
