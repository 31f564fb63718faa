package render

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"testing"

	"simgui/plugins"
)

// A vehicle's own material (an image in its archive) covers the parts that name it, drawn as
// it is: a red box vehicle whose material is a blue PNG shows blue in the realistic look, and
// red without the material.
func TestVehicleOwnMaterial(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 32, 32))
	for i := range 32 * 32 {
		img.Set(i%32, i/32, color.NRGBA{30, 40, 220, 255})
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	v := &plugins.VehicleDescriptor{
		Body:      &plugins.Body{Shape: "box", Length: 0.6, Width: 0.6, Height: 0.4},
		Visual:    &plugins.Visual{Shape: "box", Color: "#dc2020", Accent: "#20c020", Material: "paint"},
		Materials: []plugins.Material{{Name: "paint", Textures: []string{"assets/paint.png"}, SizeM: 0.2, Images: [][]byte{buf.Bytes()}}},
	}
	env := realEnv(270, 50)
	env.Shadows, env.ContactShadow = false, 0
	st := mustStatic(t, &plugins.Layout{Floor: plugins.Floor{Length: 4, Width: 4, Color: "#c8c8c8"}}, &env)
	cam := Camera{Pose: Pose{X: -1.2, Z: 0.5, Pitch: -0.2}, FovYDeg: 50, Near: 0.03, Far: 10, Width: 64, Height: 64}
	count := func(spec VehicleSpec) (blue, red int) {
		m, err := NewVehicleMesh(spec)
		if err != nil {
			t.Fatal(err)
		}
		f := render(t, cam, st, []Object{{Mesh: m, Pose: Pose{}}}, Options{Workers: 1})
		for i := range 64 * 64 {
			c := f.At(i%64, i/64)
			switch {
			case float64(c.B) > 2*math.Max(float64(c.R), 1):
				blue++
			case float64(c.R) > 2*math.Max(float64(c.B), 1):
				red++
			}
		}
		return blue, red
	}
	spec := VehicleSpecFor(v)
	if spec.Own != &v.Materials[0] {
		t.Fatalf("VehicleSpecFor: own material %p, want the vehicle's %p", spec.Own, &v.Materials[0])
	}
	if blue, red := count(spec); blue < 300 || red > 0 {
		t.Fatalf("with its own material: %d blue and %d red pixels; want the box blue", blue, red)
	}
	spec.Material, spec.Own = "", nil
	if blue, red := count(spec); blue > 0 || red < 300 {
		t.Fatalf("without: %d blue and %d red pixels; want the box red", blue, red)
	}
}
