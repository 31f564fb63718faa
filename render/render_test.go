package render

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"simgui/plugins"
)

// flatLight lights from straight above: vertical faces get Ambient only, upward faces
// Ambient + Diffuse. Tests use it so expected colours can be worked out by hand.
var flatLight = Environment{
	SkyZenith: RGB{0, 0, 255}, SkyHorizon: RGB{0, 0, 255}, Ground: RGB{100, 100, 100},
	LightDir: mgl64.Vec3{0, 0, 1}, Ambient: 0.6, Diffuse: 0.4,
}

func mustStatic(t *testing.T, l *plugins.Layout, env *Environment) *Static {
	t.Helper()
	s, err := NewStatic(l, env)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// realBenchScene is the bench scene (newBenchScene) with its static part built in the
// realistic look's default environment.
func realBenchScene(t *testing.T) (*benchScene, *Static) {
	t.Helper()
	sc, err := newBenchScene()
	if err != nil {
		t.Fatal(err)
	}
	env := RealisticEnvironment()
	return sc, mustStatic(t, corridorLayout(), &env)
}

func render(t *testing.T, cam Camera, s *Static, dyn []Object, opts Options) *Frame {
	t.Helper()
	r := NewRenderer(opts)
	defer r.Close()
	f := NewFrame(cam.Width, cam.Height, true, true)
	if err := r.Render(f, cam, s, dyn); err != nil {
		t.Fatal(err)
	}
	return f
}

// redWall is a red wall whose near face is the plane y = 1, facing a camera at the origin.
func redWall(t *testing.T) (*Static, Camera) {
	s := mustStatic(t, &plugins.Layout{Elements: []plugins.Element{{
		Kind: plugins.ElementWall, X: 0, Y: 1.05, Z: -1, Length: 6, Width: 0.1, Height: 3, Color: "#ff0000",
	}}}, &flatLight)
	cam := Camera{Pose: Pose{Z: 0.5, Yaw: math.Pi / 2}, FovYDeg: 60, Near: 0.05, Far: 100, Width: 64, Height: 48}
	return s, cam
}

func TestWallAheadCentrePixel(t *testing.T) {
	s, cam := redWall(t)
	f := render(t, cam, s, nil, Options{Workers: 1})
	// The face looks along −y, perpendicular to the light: lit by Ambient only,
	// 255·0.6 = 153.
	want := RGB{153, 0, 0}
	if got := f.At(32, 24); got != want {
		t.Errorf("centre pixel %v, want %v", got, want)
	}
	if d := f.DepthAt(32, 24); math.Abs(float64(d)-1) > 0.01 {
		t.Errorf("centre depth %g m, want 1.00 ± 1%%", d)
	}
}

func TestDepthAgreesWithColour(t *testing.T) {
	s, cam := redWall(t)
	cam.Pose.Z = 0.3
	f := render(t, cam, s, nil, Options{Workers: 1})
	wall, ground, sky := 0, 0, 0
	for row := range cam.Height {
		for col := range cam.Width {
			c, d := f.At(col, row), float64(f.DepthAt(col, row))
			switch {
			case c == RGB{153, 0, 0}:
				wall++
				if math.Abs(d-1) > 1e-4 {
					t.Fatalf("pixel (%d,%d) shows the wall at depth %g, want 1", col, row, d)
				}
			case c == RGB{0, 0, 255}:
				sky++
				if !math.IsInf(d, 1) {
					t.Fatalf("pixel (%d,%d) shows sky at depth %g, want +Inf", col, row, d)
				}
			default:
				ground++
				if !(d < 1) { // the ground in front of the wall
					t.Fatalf("pixel (%d,%d) colour %v at depth %g: want ground nearer than the wall", col, row, c, d)
				}
			}
		}
	}
	if wall < 1000 || ground < 100 {
		t.Errorf("wall %d, ground %d, sky %d pixels: expected the wall to fill most of the view above the ground", wall, ground, sky)
	}
}

func TestHorizonRow(t *testing.T) {
	s := mustStatic(t, &plugins.Layout{Floor: plugins.Floor{Length: 4000, Width: 4000, Texture: "tile"}}, nil)
	for _, pitchDeg := range []float64{0, 10, -15, 25} {
		cam := Camera{Pose: Pose{Z: 0.4, Yaw: 0.7, Pitch: mgl64.DegToRad(pitchDeg)},
			FovYDeg: 60, Near: 0.01, Far: 1e5, Width: 160, Height: 120}
		f := render(t, cam, s, nil, Options{Workers: 1})
		// The horizon is the image of a horizontal ray: row = H/2 − f·tan(pitch).
		want := float64(cam.Height)/2 - cam.Focal()*math.Tan(cam.Pitch)
		for _, col := range []int{0, 80, 159} {
			first := -1
			for row := range cam.Height {
				if !math.IsInf(float64(f.DepthAt(col, row)), 1) {
					first = row
					break
				}
			}
			// Rows whose centre lies below the horizon see the floor: the first is at most one
			// pixel from the predicted row.
			if math.Abs(float64(first)-want) > 1 {
				t.Errorf("pitch %g°, column %d: first floor row %d, want %.2f ± 1", pitchDeg, col, first, want)
			}
		}
	}
}

func TestLeftIsLeft(t *testing.T) {
	for _, c := range []struct {
		name string
		x    float64 // camera looks along +y, so its left is −x
		left bool
	}{{"left", -0.6, true}, {"right", 0.6, false}} {
		t.Run(c.name, func(t *testing.T) {
			s := mustStatic(t, &plugins.Layout{Elements: []plugins.Element{{
				Kind: plugins.ElementBox, X: c.x, Y: 3, Length: 0.4, Width: 0.4, Height: 0.4, Color: "#00ff00"}}}, &flatLight)
			cam := Camera{Pose: Pose{Z: 0.3, Yaw: math.Pi / 2}, FovYDeg: 60, Near: 0.05, Far: 100, Width: 80, Height: 60}
			f := render(t, cam, s, nil, Options{Workers: 1})
			var l, r int
			for row := range cam.Height {
				for col := range cam.Width {
					if p := f.At(col, row); p.G > 100 && p.R == 0 && p.B == 0 {
						if col < cam.Width/2 {
							l++
						} else {
							r++
						}
					}
				}
			}
			if c.left && (l == 0 || r != 0) || !c.left && (r == 0 || l != 0) {
				t.Errorf("box at x=%g: %d green pixels left, %d right", c.x, l, r)
			}
		})
	}
}

// topDown looks straight down from height z over (x, y), image up = north, right = east.
func topDown(x, y, z float64, size int) Camera {
	return Camera{Pose: Pose{X: x, Y: y, Z: z, Yaw: math.Pi / 2, Pitch: math.Pi / 2},
		FovYDeg: 40, Near: 0.05, Far: 100, Width: size, Height: size}
}

// bbox returns the extent in pixels (columns, rows) of pixels nearer than maxDepth.
func bbox(f *Frame, maxDepth float32) (w, h int) {
	x0, y0, x1, y1 := f.Width, f.Height, -1, -1
	for row := range f.Height {
		for col := range f.Width {
			if f.DepthAt(col, row) < maxDepth {
				x0, y0, x1, y1 = min(x0, col), min(y0, row), max(x1, col), max(y1, row)
			}
		}
	}
	return x1 - x0 + 1, y1 - y0 + 1
}

func TestVehicleYawAndColour(t *testing.T) {
	s := mustStatic(t, nil, &Environment{Ground: RGB{90, 90, 90}, LightDir: mgl64.Vec3{0, 0, 1}, Ambient: 0.5, Diffuse: 0.5})
	main := RGB{224, 16, 16} // top faces are lit by 0.5 + 0.5 = 1: drawn exactly in this colour
	for _, shape := range ShapeNames() {
		t.Run(shape, func(t *testing.T) {
			m, err := NewVehicleMesh(VehicleSpec{Shape: shape, Length: 0.5, Width: 0.3, Height: 0.2, Color: main.String()})
			if err != nil {
				t.Fatal(err)
			}
			cam := topDown(0, 0, 2, 128)
			at := func(yaw float64) *Frame {
				return render(t, cam, s, []Object{{Mesh: m, Pose: Pose{Yaw: yaw}}}, Options{Workers: 1})
			}
			east, north, west := at(0), at(math.Pi/2), at(math.Pi)
			ew, eh := bbox(east, 1.99)
			nw, nh := bbox(north, 1.99)
			if !(ew > eh && nh > nw) {
				t.Errorf("silhouette facing east %dx%d px, facing north %dx%d: want long along the heading", ew, eh, nw, nh)
			}
			coloured := 0
			for i := range east.Width * east.Height {
				if east.At(i%east.Width, i/east.Width) == main {
					coloured++
				}
			}
			if coloured < 50 {
				t.Errorf("%d pixels in the vehicle's colour %v seen from above, want many", coloured, main)
			}
			if string(east.RGB) == string(west.RGB) {
				t.Error("facing east and west look the same from above: the heading does not show")
			}
		})
	}
}

func TestWorkersGiveIdenticalBytes(t *testing.T) {
	sc, err := newBenchScene()
	if err != nil {
		t.Fatal(err)
	}
	rolled := benchCamera(320, 240)
	rolled.Roll, rolled.Yaw = 0.4, 1.2
	for _, cam := range []Camera{benchCamera(640, 480), benchCamera(84, 84), rolled} {
		one := render(t, cam, sc.static, sc.dyn, Options{Workers: 1})
		four := render(t, cam, sc.static, sc.dyn, Options{Workers: 4, MinPixelsPerWorker: 1})
		if string(one.RGB) != string(four.RGB) {
			t.Errorf("%dx%d roll %g: RGB differs between 1 and 4 workers", cam.Width, cam.Height, cam.Roll)
		}
		for i := range one.Depth {
			if math.Float32bits(one.Depth[i]) != math.Float32bits(four.Depth[i]) {
				t.Errorf("%dx%d: depth differs at %d: %g vs %g", cam.Width, cam.Height, i, one.Depth[i], four.Depth[i])
				break
			}
		}
	}
}

// TestDepthIsPerspectiveCorrect checks every pixel of a wall seen at 50° against the exact
// intersection of the pixel's ray with the wall's plane.
func TestDepthIsPerspectiveCorrect(t *testing.T) {
	const yawDeg = 50
	s := mustStatic(t, &plugins.Layout{Elements: []plugins.Element{{
		Kind: plugins.ElementWall, X: 0.5, Y: 2, Z: -2, Length: 8, Width: 0.2, Height: 5, YawDeg: yawDeg, Color: "#808080"}}}, nil)
	cam := Camera{Pose: Pose{Z: 0.5, Yaw: 1.4, Pitch: 0.1}, FovYDeg: 70, Near: 0.05, Far: 100, Width: 96, Height: 72}
	f := render(t, cam, s, nil, Options{Workers: 1})
	// The wall's face towards the camera: normal n, through point p.
	sn, cn := math.Sincos(mgl64.DegToRad(yawDeg))
	n := mgl64.Vec3{sn, -cn, 0}
	p := mgl64.Vec3{0.5, 2, 0}.Add(n.Mul(0.1))
	r := cam.Rotation()
	checked := 0
	for row := range cam.Height {
		for col := range cam.Width {
			fc := cam.Focal()
			dir := r.Col(0).Add(r.Col(1).Mul((float64(cam.Width)/2 - float64(col) - 0.5) / fc)).
				Add(r.Col(2).Mul((float64(cam.Height)/2 - float64(row) - 0.5) / fc))
			want := p.Sub(cam.Pos()).Dot(n) / dir.Dot(n) // planar depth, as dir·fwd = 1
			hit := cam.Pos().Add(dir.Mul(want))
			along := hit.Sub(mgl64.Vec3{0.5, 2, 0}).Dot(mgl64.Vec3{cn, sn, 0})
			if want <= 0 || hit[2] < 0.05 || hit[2] > 2.9 || math.Abs(along) > 3.9 {
				continue // not on the wall's face above the floor
			}
			got := float64(f.DepthAt(col, row))
			if math.Abs(got-want) > 1e-4*want {
				t.Fatalf("pixel (%d,%d): depth %.6f, exact %.6f", col, row, got, want)
			}
			checked++
		}
	}
	if checked < 2000 {
		t.Fatalf("only %d wall pixels checked", checked)
	}
}

// TestFloorMapping checks that floor pixels show the checker square their ray hits, for a level
// camera row by row and for a rolled one pixel by pixel.
func TestFloorMapping(t *testing.T) {
	s := mustStatic(t, &plugins.Layout{Floor: plugins.Floor{X: 1, Y: 2, Length: 8, Width: 6, Texture: "checker", Color: "#c8c8c8"}}, &flatLight)
	light := RGB{200, 200, 200}
	dark := light.Scale(0.55)
	for _, roll := range []float64{0, 0.3} {
		cam := Camera{Pose: Pose{X: 0.2, Y: 0.3, Z: 1, Yaw: 0.8, Pitch: 0.5, Roll: roll},
			FovYDeg: 60, Near: 0.05, Far: 100, Width: 120, Height: 90}
		f := render(t, cam, s, nil, Options{Workers: 1})
		r, fc := cam.Rotation(), cam.Focal()
		checked := 0
		for row := range cam.Height {
			for col := range cam.Width {
				dir := r.Col(0).Add(r.Col(1).Mul((float64(cam.Width)/2 - float64(col) - 0.5) / fc)).
					Add(r.Col(2).Mul((float64(cam.Height)/2 - float64(row) - 0.5) / fc))
				if dir[2] >= 0 {
					continue
				}
				hit := cam.Pos().Add(dir.Mul(cam.Z / -dir[2]))
				u, v := hit[0]-(1-4), hit[1]-(2-3) // from the floor's corner
				if u < 0 || v < 0 || u >= 8 || v >= 6 {
					continue
				}
				fu, fv := math.Mod(u, 0.5), math.Mod(v, 0.5)
				if min(fu, 0.5-fu, fv, 0.5-fv) < 0.03 {
					continue // too near a square's edge to call
				}
				want := light
				if (math.Mod(u, 1) < 0.5) != (math.Mod(v, 1) < 0.5) {
					want = dark
				}
				if got := f.At(col, row); got != want {
					t.Fatalf("roll %g, pixel (%d,%d) hits floor (%.3f, %.3f): colour %v, want %v", roll, col, row, u, v, got, want)
				}
				checked++
			}
		}
		if checked < 2000 {
			t.Fatalf("roll %g: only %d floor pixels checked", roll, checked)
		}
	}
}

// TestAnyCameraStaysInRange renders the corridor from many poses — inside walls, straight
// down, straight up, rolled, under the floor — and checks every depth is +Inf or within
// [near, far].
func TestAnyCameraStaysInRange(t *testing.T) {
	sc, err := newBenchScene()
	if err != nil {
		t.Fatal(err)
	}
	r := NewRenderer(Options{Workers: 2, MinPixelsPerWorker: 1})
	defer r.Close()
	f := NewFrame(48, 36, true, true)
	poses := []Pose{
		{X: -0.31, Y: -0.5, Z: 0.1, Yaw: 0.3},       // inside the west wall
		{X: 0.91, Y: 0, Z: 0.125, Yaw: math.Pi},     // inside the end wall, at the marker
		{X: 0, Y: -0.85, Z: 0.05, Yaw: 1},           // inside the KS0223
		{X: 0.2, Y: -0.2, Z: 1, Pitch: math.Pi / 2}, // straight down
		{X: 0.2, Y: -0.2, Z: 0.1, Pitch: -math.Pi / 2},
		{X: 0.1, Y: -0.6, Z: 0.2, Yaw: 2, Pitch: 0.3, Roll: 1.2},
		{X: 0.1, Y: -0.6, Z: -0.2, Yaw: 2, Pitch: -0.3},  // under the floor
		{X: 0.1, Y: -0.6, Z: 0, Yaw: 2},                  // on the floor
		{X: 0.1, Y: -0.6, Z: 0.0005, Yaw: 2, Pitch: 0.2}, // below a road's height
	}
	for i := range 40 { // a deterministic spiral of further poses
		a := float64(i) * 0.7
		poses = append(poses, Pose{X: 0.3 + 0.8*math.Cos(a), Y: -0.4 + 0.8*math.Sin(a), Z: 0.02 + 0.05*float64(i%7),
			Yaw: a * 1.3, Pitch: math.Sin(a) * 1.5, Roll: math.Cos(a*0.7) * 0.5})
	}
	for _, p := range poses {
		cam := Camera{Pose: p, FovYDeg: 90, Near: 0.03, Far: 3, Width: 48, Height: 36}
		if err := r.Render(f, cam, sc.static, sc.dyn); err != nil {
			t.Fatal(err)
		}
		for i, d := range f.Depth {
			if !math.IsInf(float64(d), 1) && (d < 0.03*0.9999 || d > 3*1.0001) {
				t.Fatalf("pose %+v: depth[%d] = %g, want +Inf or within [0.03, 3]", p, i, d)
			}
		}
	}
}

// TestFloorNearerThanNearPlane looks down steeply from 2 cm over the floor, with the near plane
// at 5 cm: the bottom rows meet the floor nearer than the near plane, and must still see it (a
// wide lens low over the floor showed a band of sky there), in both looks and rolled or not,
// as a camera with a nearer near plane sees it, while their depth stays at the near plane.
func TestFloorNearerThanNearPlane(t *testing.T) {
	real := RealisticEnvironment()
	for _, env := range []*Environment{nil, &real} {
		s := mustStatic(t, &plugins.Layout{Floor: plugins.Floor{X: -5, Y: -5, Length: 10, Width: 10}}, env)
		for _, roll := range []float64{0, 0.2} {
			cam := Camera{Pose: Pose{Z: 0.02, Pitch: 0.5, Roll: roll}, FovYDeg: 90, Near: 0.05, Far: 50, Width: 64, Height: 48}
			f := render(t, cam, s, nil, Options{Workers: 1})
			close := cam
			close.Near = 0.001
			want := render(t, close, s, nil, Options{Workers: 1})
			v := newView(&cam)
			bg := newBackground(&v, s, nil)
			for _, y := range []int{40, 47} {
				for _, x := range []int{0, 32, 63} {
					d := bg.base.Add(bg.dx.Mul(float64(x))).Add(bg.dy.Mul(float64(y)))
					if floor := cam.Z / -d[2]; floor >= cam.Near {
						t.Fatalf("pixel (%d, %d) meets the floor at %.3f m, beyond the near plane: the test looks too far", x, y, floor)
					}
					if got, w := f.At(x, y), want.At(x, y); got != w {
						t.Errorf("realistic %t, roll %g, pixel (%d, %d): colour %v, want the floor's %v", env != nil, roll, x, y, got, w)
					}
					if got := f.DepthAt(x, y); got != float32(cam.Near) {
						t.Errorf("realistic %t, roll %g, pixel (%d, %d): depth %.4f m, want the near plane's %g", env != nil, roll, x, y, got, cam.Near)
					}
				}
			}
		}
	}
}
