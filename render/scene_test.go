package render

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"simgui/plugins"
)

func TestParseColor(t *testing.T) {
	for _, c := range []struct {
		in   string
		want RGB
		ok   bool
	}{
		{"#ff0000", RGB{255, 0, 0}, true},
		{"#0A1b2C", RGB{10, 27, 44}, true},
		{"ff0000", RGB{}, false},
		{"#ff00", RGB{}, false},
		{"#gg0000", RGB{}, false},
		{"", RGB{}, false},
	} {
		got, err := ParseColor(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ParseColor(%q) = %v, %v; want %v, ok=%v", c.in, got, err, c.want, c.ok)
		}
	}
}

func TestUnknownNamesListKnownOnes(t *testing.T) {
	_, err := NewStatic(&plugins.Layout{Floor: plugins.Floor{Length: 1, Width: 1, Texture: "marble"}}, nil)
	if err == nil || !strings.Contains(err.Error(), "plywood, tape, tile") {
		t.Errorf("unknown texture: %v", err)
	}
	_, err = NewStatic(&plugins.Layout{Elements: []plugins.Element{{Kind: "ramp", Name: "r1"}}}, nil)
	if err == nil || !strings.Contains(err.Error(), `"r1"`) || !strings.Contains(err.Error(), "box, cylinder, marker, polygon, road, wall") {
		t.Errorf("unknown element kind: %v", err)
	}
	_, err = NewVehicleMesh(VehicleSpec{Shape: "tank"})
	if err == nil || !strings.Contains(err.Error(), "box, car, drone, ks0223") {
		t.Errorf("unknown shape: %v", err)
	}
	_, err = NewStatic(&plugins.Layout{Elements: []plugins.Element{{Kind: "wall", Length: 1, Width: 0.1, Height: 0.2, Color: "red"}}}, nil)
	if err == nil || !strings.Contains(err.Error(), "#rrggbb") {
		t.Errorf("bad colour: %v", err)
	}
	_, err = NewStatic(&plugins.Layout{Elements: []plugins.Element{{Kind: "box", Length: 1, Width: 0.1}}}, nil)
	if err == nil || !strings.Contains(err.Error(), "height") {
		t.Errorf("zero height: %v", err)
	}
}

func TestRenderRejectsBadInput(t *testing.T) {
	s := mustStatic(t, nil, nil)
	r := NewRenderer(Options{Workers: 2})
	good := Camera{FovYDeg: 60, Near: 0.1, Far: 10, Width: 8, Height: 6}
	for name, c := range map[string]struct {
		cam Camera
		f   *Frame
		s   *Static
	}{
		"fov":    {Camera{FovYDeg: 180, Near: 0.1, Far: 10, Width: 8, Height: 6}, NewFrame(8, 6, true, false), s},
		"near":   {Camera{FovYDeg: 60, Near: 0, Far: 10, Width: 8, Height: 6}, NewFrame(8, 6, true, false), s},
		"far":    {Camera{FovYDeg: 60, Near: 1, Far: 1, Width: 8, Height: 6}, NewFrame(8, 6, true, false), s},
		"nan":    {Camera{Pose: Pose{Yaw: math.NaN()}, FovYDeg: 60, Near: 0.1, Far: 10, Width: 8, Height: 6}, NewFrame(8, 6, true, false), s},
		"size":   {good, NewFrame(6, 8, true, false), s},
		"static": {good, NewFrame(8, 6, true, false), nil},
	} {
		if err := r.Render(c.f, c.cam, c.s, nil); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	r.Close()
	if err := r.Render(NewFrame(8, 6, true, false), good, s, nil); !errors.Is(err, ErrClosed) {
		t.Errorf("after Close: %v, want ErrClosed", err)
	}
}

func TestPoseCompose(t *testing.T) {
	body := Pose{X: 1, Y: 2, Yaw: math.Pi / 2}
	mount := PoseFromPose3(plugins.Pose3{X: 0.12, Z: 0.09, PitchDeg: 6})
	got := body.Compose(mount)
	want := Pose{X: 1, Y: 2.12, Z: 0.09, Yaw: math.Pi / 2, Pitch: mgl64.DegToRad(6)}
	if !posesNear(got, want) {
		t.Errorf("camera on a vehicle facing north: %+v, want %+v", got, want)
	}
	// A general case: the composed rotation is the product of the two.
	a := Pose{X: 0.3, Y: -1, Z: 0.5, Yaw: 0.4, Pitch: -0.3, Roll: 0.2}
	b := Pose{X: 0.1, Y: 0.2, Z: 0.3, Yaw: -1.1, Pitch: 0.5, Roll: -0.7}
	c := a.Compose(b)
	if !c.Rotation().ApproxEqualThreshold(a.Rotation().Mul3(b.Rotation()), 1e-12) {
		t.Errorf("composed rotation %v", c)
	}
	// Straight down keeps the heading.
	d := Pose{Yaw: 0.5}.Compose(Pose{Pitch: math.Pi / 2})
	if !d.Rotation().ApproxEqualThreshold(Pose{Yaw: 0.5, Pitch: math.Pi / 2}.Rotation(), 1e-9) {
		t.Errorf("straight down: %+v", d)
	}
}

func posesNear(a, b Pose) bool {
	return a.Pos().ApproxEqualThreshold(b.Pos(), 1e-12) && a.Rotation().ApproxEqualThreshold(b.Rotation(), 1e-12)
}

func TestProjectMatchesImage(t *testing.T) {
	s, cam := redWall(t)
	cam.Pose = Pose{X: 0.1, Z: 1.8, Yaw: math.Pi/2 + 0.2, Pitch: 0.1}
	f := render(t, cam, s, nil, Options{Workers: 1})
	// A point on the wall's top edge as the camera sees it: the pixel just below is wall, just
	// above is sky.
	col, row, depth, ok := cam.Project(mgl64.Vec3{0.3, 1, 2})
	if !ok || depth <= 0 {
		t.Fatalf("corner not in front: %g %g %g", col, row, depth)
	}
	t.Logf("corner at (%.1f, %.1f)", col, row)
	if c, r := int(math.Floor(col)), int(math.Floor(row)); c >= 0 && r >= 1 && c < cam.Width {
		if f.At(c, r+1) != (RGB{153, 0, 0}) || f.At(c, r-1) != (RGB{0, 0, 255}) {
			t.Errorf("around the projected wall top at (%d,%d): below %v, above %v", c, r, f.At(c, r+1), f.At(c, r-1))
		}
	} else {
		t.Fatalf("projected top edge (%.1f, %.1f) outside the image", col, row)
	}
}

func TestTriangulate(t *testing.T) {
	// An L (area 3) in clockwise order with a repeated closing point and a collinear point.
	l := [][2]float64{{0, 0}, {0, 2}, {1, 2}, {1, 1}, {2, 1}, {2, 0}, {1, 0}, {0, 0}}
	p, tris, err := triangulate(l)
	if err != nil {
		t.Fatal(err)
	}
	area := 0.0
	for _, tr := range tris {
		a := cross2(p[tr[0]], p[tr[1]], p[tr[2]]) / 2
		if a < 0 {
			t.Errorf("triangle %v is clockwise", tr)
		}
		area += a
	}
	if math.Abs(area-3) > 1e-12 {
		t.Errorf("triangles cover %g, want 3", area)
	}
	if _, _, err := triangulate([][2]float64{{0, 0}, {1, 1}, {2, 2}}); err == nil {
		t.Error("collinear points: no error")
	}
	if _, _, err := triangulate([][2]float64{{0, 0}, {1, 1}, {1, 0}, {0, 1}}); err == nil {
		t.Error("bow tie: no error")
	}
}

// TestMovableBoxAsObject draws a box once as part of the Static and once as a movable box
// Object from NewElementMesh: the two images agree (up to a few edge pixels from float32
// rounding of the vertices).
func TestMovableBoxAsObject(t *testing.T) {
	e := plugins.Element{Kind: plugins.ElementBox, X: 0.4, Y: 2, Z: 0.1, Length: 0.6, Width: 0.3, Height: 0.4, YawDeg: 30, Color: "#3080f0"}
	cam := Camera{Pose: Pose{Z: 0.8, Yaw: 1.4, Pitch: 0.25}, FovYDeg: 60, Near: 0.05, Far: 50, Width: 160, Height: 120}
	fixed := render(t, cam, mustStatic(t, &plugins.Layout{Elements: []plugins.Element{e}}, nil), nil, Options{Workers: 1})
	e.Movable = true
	s := mustStatic(t, &plugins.Layout{Elements: []plugins.Element{e}}, nil)
	if s.Triangles() != 0 {
		t.Fatalf("movable box baked into the static scene (%d triangles)", s.Triangles())
	}
	m, err := NewElementMesh(nil, &e)
	if err != nil {
		t.Fatal(err)
	}
	moved := render(t, cam, s, []Object{{Mesh: m, Pose: Pose{X: e.X, Y: e.Y, Z: e.Z, Yaw: mgl64.DegToRad(e.YawDeg)}}}, Options{Workers: 1})
	diff, box := 0, 0
	for i := range cam.Width * cam.Height {
		c := fixed.At(i%cam.Width, i/cam.Width)
		if c.B > c.R+60 && c.B > c.G {
			box++
		}
		if c != moved.At(i%cam.Width, i/cam.Width) {
			diff++
		}
	}
	if box < 500 || diff > box/50 {
		t.Errorf("box covers %d pixels, %d differ between static and object", box, diff)
	}
}

// TestMovableBoxKeepsTheTracksMaterial draws a box in a material of the track's own (a
// magenta and green check) in the realistic look, once of the Static and once movable: the
// two agree, as a pushable box was drawn in the kind's cardboard instead.
func TestMovableBoxKeepsTheTracksMaterial(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 32, 32))
	for y := range 32 {
		for x := range 32 {
			c := color.NRGBA{230, 20, 230, 255}
			if (x/8+y/8)%2 == 1 {
				c = color.NRGBA{20, 230, 20, 255}
			}
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	mats := []plugins.Material{{Name: "poster", Textures: []string{"assets/poster.png"}, SizeM: 0.2, Images: [][]byte{b.Bytes()}}}
	e := plugins.Element{Kind: plugins.ElementBox, X: 0.4, Y: 2, Length: 0.6, Width: 0.3, Height: 0.4, YawDeg: 30, Material: "poster"}
	cam := Camera{Pose: Pose{Z: 0.8, Yaw: 1.4, Pitch: 0.25}, FovYDeg: 60, Near: 0.05, Far: 50, Width: 160, Height: 120}
	env := RealisticEnvironment()
	env.Shadows, env.ContactShadow = false, 0
	fixed := render(t, cam, mustStatic(t, &plugins.Layout{Elements: []plugins.Element{e}, Materials: mats}, &env), nil, Options{Workers: 1})
	e.Movable = true
	l := &plugins.Layout{Elements: []plugins.Element{e}, Materials: mats}
	m, err := NewElementMesh(l, &e)
	if err != nil {
		t.Fatal(err)
	}
	moved := render(t, cam, mustStatic(t, l, &env), []Object{{Mesh: m, Pose: Pose{X: e.X, Y: e.Y, Yaw: mgl64.DegToRad(e.YawDeg)}}}, Options{Workers: 1})
	// The check's phase follows the box's place in the static scene, not in the moving one:
	// count each colour, not equal pixels.
	count := func(f *Frame) (magenta, green int) {
		for i := range cam.Width * cam.Height {
			c := f.At(i%cam.Width, i/cam.Width)
			switch {
			case int(c.R) > int(c.G)+40 && int(c.B) > int(c.G)+40:
				magenta++
			case int(c.G) > int(c.R)+40 && int(c.G) > int(c.B)+40:
				green++
			}
		}
		return magenta, green
	}
	fm, fg := count(fixed)
	mm, mg := count(moved)
	if fm < 200 || fg < 200 {
		t.Fatalf("the track's box shows %d magenta and %d green pixels: the test would check nothing", fm, fg)
	}
	if mm < fm/2 || mg < fg/2 {
		t.Errorf("the pushable box shows %d magenta and %d green pixels, the track's %d and %d: want the track's material on both", mm, mg, fm, fg)
	}
}

// TestRoadAndMarker checks flat elements show over the floor: a road across the view and a
// marker on a wall.
func TestRoadAndMarker(t *testing.T) {
	l := &plugins.Layout{
		Floor: plugins.Floor{Length: 20, Width: 20, Color: "#808080"},
		Elements: []plugins.Element{
			{Kind: plugins.ElementRoad, Points: [][2]float64{{-3, 1.5}, {0, 1.5}, {3, 2.5}}, Width: 0.4, Color: "#ffff00"},
			{Kind: plugins.ElementWall, X: 0, Y: 4.05, Length: 4, Width: 0.1, Height: 1, Color: "#808080"},
			{Kind: plugins.ElementMarker, X: 0, Y: 4, Z: 0.5, Length: 0.4, YawDeg: -90, Color: "#ff00ff"},
		},
	}
	s := mustStatic(t, l, &flatLight)
	cam := Camera{Pose: Pose{Z: 0.6, Yaw: math.Pi / 2, Pitch: 0.1}, FovYDeg: 60, Near: 0.05, Far: 50, Width: 160, Height: 120}
	f := render(t, cam, s, nil, Options{Workers: 1})
	count := func(want RGB) int {
		n := 0
		for i := range cam.Width * cam.Height {
			if f.At(i%cam.Width, i/cam.Width) == want {
				n++
			}
		}
		return n
	}
	if n := count(RGB{255, 255, 0}); n < 200 { // flat, lit from above: 0.6 + 0.4
		t.Errorf("road: %d yellow pixels", n)
	}
	if n := count(RGB{153, 0, 153}); n < 50 { // upright, facing the camera: ambient 0.6
		t.Errorf("marker: %d magenta pixels", n)
	}
	// Seen from behind the wall, the marker is hidden.
	cam.Pose = Pose{Y: 8, Z: 0.6, Yaw: -math.Pi / 2}
	f = render(t, cam, s, nil, Options{Workers: 1})
	if n := count(RGB{153, 0, 153}); n != 0 {
		t.Errorf("marker seen through its wall: %d pixels", n)
	}
}

// TestTapeOverRoad checks that a flat element listed after another shows over it where they
// overlap, as the top-down views draw roads: a tape line crossing a road, seen from the
// KS0223's camera 9 cm above the floor, in both looks.
func TestTapeOverRoad(t *testing.T) {
	l := &plugins.Layout{
		Floor: plugins.Floor{Length: 8, Width: 8, Color: "#808080"},
		Elements: []plugins.Element{
			{Kind: plugins.ElementRoad, Name: "road.1", Points: [][2]float64{{0, -2.5}, {0, 2.5}}, Width: 0.4, Color: "#3e3e42"},
			{Kind: plugins.ElementRoad, Name: "tape.1", Points: [][2]float64{{-1.5, -1}, {-1.5, 1.5}, {1.5, 1.5}},
				Width: 0.05, Material: "tape", Color: "#e8c428"},
		},
	}
	cam := Camera{Pose: Pose{Y: 1.1, Z: 0.09, Yaw: math.Pi / 2, Pitch: mgl64.DegToRad(6)},
		FovYDeg: 68, Near: 0.03, Far: 50, Width: 640, Height: 480}
	real := RealisticEnvironment()
	for _, c := range []struct {
		look string
		env  *Environment
	}{{"flat", &flatLight}, {"realistic", &real}} {
		f := render(t, cam, mustStatic(t, l, c.env), nil, Options{Workers: 1})
		at := func(x, y float64) RGB {
			col, row, _, ok := cam.Project(mgl64.Vec3{x, y, 0})
			if !ok {
				t.Fatalf("(%g, %g) is not in view", x, y)
			}
			return f.At(int(col), int(row))
		}
		tape, road := at(0.3, 1.5), at(0, 1.3) // the tape beside the road, the road before it
		if tape == road {
			t.Fatalf("%s: the tape and the road are both %v", c.look, tape)
		}
		// Every pixel of the crossing, 5 mm in from its edges, is the tape's (give or take
		// its texture): yellow, where the road is grey.
		bad := 0
		for x := -0.195; x <= 0.195; x += 0.005 {
			for y := 1.48; y <= 1.52; y += 0.005 {
				if p := at(x, y); int(p.R)-int(p.B) < int(tape.R)-int(tape.B)-40 {
					bad++
				}
			}
		}
		if bad > 0 {
			t.Errorf("%s: %d of the crossing's points are not the tape's %v (the road is %v)", c.look, bad, tape, road)
		}
	}
}

// A road whose last point is its first closes its loop with a round corner, as its other
// corners are: seen from above, the corner's outer wedge is road, not floor.
func TestClosedRoadCorner(t *testing.T) {
	sq := [][2]float64{{0, 0}, {2, 0}, {2, 2}, {0, 2}, {0, 0}}
	s := mustStatic(t, &plugins.Layout{
		Floor:    plugins.Floor{Length: 10, Width: 10, Color: "#000000"},
		Elements: []plugins.Element{{Kind: plugins.ElementRoad, Points: sq, Width: 0.4, Color: "#ffff00"}},
	}, &flatLight)
	cam := topDown(1, 1, 5, 240)
	f := render(t, cam, s, nil, Options{Workers: 1})
	at := func(x, y float64) RGB { // the pixel over world point (x, y)
		sx, sy, _, ok := cam.Project(mgl64.Vec3{x, y, 0})
		if !ok {
			t.Fatalf("(%g, %g) is not in view", x, y)
		}
		return f.At(int(sx), int(sy))
	}
	closing, other := at(-0.13, -0.13), at(2.13, -0.13)
	if closing != other || closing == at(1, 1) {
		t.Errorf("the closing corner's wedge is %v, another corner's %v, the floor %v", closing, other, at(1, 1))
	}
}

// TestSolidsFromAbove checks the pixel area of a polygon prism's and a cylinder's tops seen
// straight down against their true areas, and that a prism is not inside out: the face seen
// is the near one.
func TestSolidsFromAbove(t *testing.T) {
	const h = 0.2
	l := [][2]float64{{0, 0}, {0, 1}, {0.5, 1}, {0.5, 0.5}, {1, 0.5}, {1, 0}} // an L of 0.75 m²
	s := mustStatic(t, &plugins.Layout{Elements: []plugins.Element{
		{Kind: plugins.ElementPolygon, Points: l, Height: h, Color: "#ff8000"},
		{Kind: plugins.ElementCylinder, X: -1, Y: 0.5, Radius: 0.3, Height: h, Color: "#00a0ff"},
	}}, &flatLight)
	cam := topDown(-0.25, 0.5, 5, 240)
	f := render(t, cam, s, nil, Options{Workers: 1})
	scale := cam.Focal() / (5 - h) // pixels per metre at the tops' height
	count := func(c RGB) int {
		n := 0
		for i := range cam.Width * cam.Height {
			if f.At(i%cam.Width, i/cam.Width) == c {
				n++
			}
		}
		return n
	}
	cylArea := 0.5 * 24 * 0.3 * 0.3 * math.Sin(2*math.Pi/24) // the 24-sided prism drawn
	for _, c := range []struct {
		name string
		col  RGB
		area float64
	}{{"polygon", RGB{255, 128, 0}, 0.75}, {"cylinder", RGB{0, 160, 255}, cylArea}} {
		want := c.area * scale * scale
		if got := float64(count(c.col)); math.Abs(got-want) > 0.03*want {
			t.Errorf("%s top covers %.0f pixels, want %.0f ± 3%%", c.name, got, want)
		}
	}
	// From the south at the prism's mid-height, the centre column sees its south face at
	// y = 0, 1 m away, not the far faces.
	side := Camera{Pose: Pose{X: 0.25, Y: -1, Z: h / 2, Yaw: math.Pi / 2}, FovYDeg: 40, Near: 0.05, Far: 50, Width: 64, Height: 48}
	g := render(t, side, s, nil, Options{Workers: 1})
	if d := g.DepthAt(32, 24); math.Abs(float64(d)-1) > 1e-4 {
		t.Errorf("prism seen from the south: depth %g, want 1 (its near face)", d)
	}
	if c := g.At(32, 24); c != (RGB{153, 77, 0}) {
		t.Errorf("prism's south face %v, want the ambient-lit colour {153 77 0}", c)
	}
}
