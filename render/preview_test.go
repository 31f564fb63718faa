package render

import (
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"simgui/plugins"
)

// previewDir is where TestPreview also writes its images, for people to look at.
const previewDir = "/tmp/render-preview"

func writePNG(t *testing.T, img image.Image, name string, dirs ...string) {
	t.Helper()
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		f, err := os.Create(filepath.Join(d, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := png.Encode(f, img); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestPreview renders the default scene from the KS0223 camera and from a chase camera, saves
// the PNGs and checks they are neither blank nor garbled: sky at the top, floor at the bottom,
// walls in between.
func TestPreview(t *testing.T) {
	sc, err := newBenchScene()
	if err != nil {
		t.Fatal(err)
	}
	r := NewRenderer(Options{})
	defer r.Close()
	tmp := t.TempDir()
	chase := Camera{Pose: Pose{X: -0.9, Y: -1.9, Z: 1.2, Yaw: math.Atan2(1.5, 1.0), Pitch: 0.55},
		FovYDeg: 50, Near: 0.05, Far: 50, Width: 640, Height: 480}
	top := Camera{Pose: Pose{X: 0.3, Y: -0.4, Z: 2.6, Yaw: math.Pi / 2, Pitch: math.Pi / 2},
		FovYDeg: 50, Near: 0.05, Far: 50, Width: 480, Height: 480}
	rolled := benchCamera(640, 480)
	rolled.Roll = 0.35
	for _, c := range []struct {
		name string
		cam  Camera
	}{
		{"ks0223-640x480", benchCamera(640, 480)},
		{"ks0223-84x84", benchCamera(84, 84)},
		{"ks0223-rolled-640x480", rolled},
		{"chase-640x480", chase},
		{"top-480x480", top},
	} {
		f := NewFrame(c.cam.Width, c.cam.Height, true, true)
		if err := r.Render(f, c.cam, sc.static, sc.dyn); err != nil {
			t.Fatal(err)
		}
		writePNG(t, f.Image(), c.name+".png", tmp, previewDir)
		writePNG(t, f.DepthImage(3), c.name+"-depth.png", tmp, previewDir)
	}
	gallery(t, r, tmp)
	arena(t, r, tmp)
}

// arena is basic_arena-like: a carpet floor, a road with two bends, a polygon block, a
// cylinder, a floor marker and a car, seen by a chase camera.
func arena(t *testing.T, r *Renderer, tmp string) {
	s, err := NewStatic(&plugins.Layout{
		Floor: plugins.Floor{X: 3, Y: -1, Length: 20, Width: 20, Texture: "carpet"},
		Elements: []plugins.Element{
			{Kind: plugins.ElementRoad, Points: [][2]float64{{0, -8}, {0, -1}, {6, -1}, {6, 5}}, Width: 3},
			{Kind: plugins.ElementPolygon, Points: [][2]float64{{2, -6}, {4, -6}, {4, -4}, {3, -3}, {2, -4}}, Height: 0.8, Color: "#8a5a9a"},
			{Kind: plugins.ElementCylinder, X: -2.5, Y: -3, Radius: 0.5, Height: 1.2, Color: "#d08030"},
			{Kind: plugins.ElementMarker, X: 0, Y: -2.5, Length: 1, YawDeg: 90, Color: "#f0f0f0"},
			{Kind: plugins.ElementPolygon, Points: [][2]float64{{-1.5, -7}, {-1, -7}, {-1, -5}, {-1.5, -5}}, Color: "#e0e040"},
		},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	car, err := NewVehicleMesh(VehicleSpec{Shape: "car", Length: 1.6, Width: 0.9, Height: 0.6})
	if err != nil {
		t.Fatal(err)
	}
	body := Pose{X: 0, Y: -6, Yaw: math.Pi / 2}
	cam := Camera{Pose: body.Compose(Pose{X: -3, Z: 1.6, Pitch: 0.25}), FovYDeg: 55, Near: 0.05, Far: 60, Width: 800, Height: 450}
	f := NewFrame(cam.Width, cam.Height, true, false)
	if err := r.Render(f, cam, s, []Object{{Mesh: car, Pose: body}}); err != nil {
		t.Fatal(err)
	}
	writePNG(t, f.Image(), "arena-chase.png", tmp, previewDir)
}

// gallery draws every vehicle shape at its default size, and the marker primitives, on a
// tiled floor from a three-quarter view.
func gallery(t *testing.T, r *Renderer, tmp string) {
	s, err := NewStatic(&plugins.Layout{Floor: plugins.Floor{X: 0.6, Y: 0, Length: 3, Width: 2, Texture: "tile"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var dyn []Object
	for i, name := range ShapeNames() {
		m, err := NewVehicleMesh(VehicleSpec{Shape: name})
		if err != nil {
			t.Fatal(err)
		}
		dyn = append(dyn, Object{Mesh: m, Pose: Pose{X: float64(i) * 0.55, Yaw: 0.5}})
	}
	dyn[2].Z = 0.15 // the drone hovers
	var b MeshBuilder
	b.Sphere(mgl64.Vec3{0.2, 0.5, 0.1}, 0.08, RGB{255, 120, 0})
	b.Box(mgl64.Vec3{0.6, 0.5, 0.05}, mgl64.Vec3{0.1, 0.1, 0.1}, 0.3, RGB{0, 200, 120})
	b.Segment(mgl64.Vec3{0.9, 0.4, 0.02}, mgl64.Vec3{1.6, 0.6, 0.25}, 0.015, RGB{220, 0, 220})
	dyn = append(dyn, Object{Mesh: b.Mesh()})
	for _, c := range []struct {
		name string
		cam  Camera
	}{
		{"vehicles-side", Camera{Pose: Pose{X: 0.8, Y: -1.7, Z: 0.75, Yaw: math.Pi / 2, Pitch: 0.38}, FovYDeg: 40, Near: 0.05, Far: 50, Width: 800, Height: 400}},
		{"vehicles-front", Camera{Pose: Pose{X: 2.7, Y: 1.1, Z: 0.6, Yaw: math.Atan2(-1.1, -1.9), Pitch: 0.3}, FovYDeg: 40, Near: 0.05, Far: 50, Width: 800, Height: 400}},
		{"ks0223-closeup", Camera{Pose: Pose{X: 2.05, Y: 0.05, Z: 0.25, Yaw: math.Atan2(0.05, -0.4), Pitch: 0.45}, FovYDeg: 50, Near: 0.02, Far: 50, Width: 640, Height: 480}},
	} {
		f := NewFrame(c.cam.Width, c.cam.Height, true, false)
		if err := r.Render(f, c.cam, s, dyn); err != nil {
			t.Fatal(err)
		}
		writePNG(t, f.Image(), c.name+".png", tmp, previewDir)
	}
}
