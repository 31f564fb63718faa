package render

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"simgui/plugins"
)

// realEnv is the realistic environment with a sun of the given azimuth and elevation.
func realEnv(az, el float64) Environment {
	e := RealisticEnvironment()
	e.LightDir = SunDirection(az, el)
	return e
}

// stats returns the mean and standard deviation of one channel over a rectangle.
func stats(f *Frame, x0, y0, x1, y1, ch int) (mean, sd float64) {
	n := 0.0
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			v := float64(f.RGB[3*(y*f.Width+x)+ch])
			mean += v
			sd += v * v
			n++
		}
	}
	mean /= n
	return mean, math.Sqrt(math.Max(0, sd/n-mean*mean))
}

// TestTexturedWallHasVariance looks at a cardboard wall filling the frame: flat, every pixel
// is the same; realistic, the frame has the variance of the cardboard texture itself.
func TestTexturedWallHasVariance(t *testing.T) {
	layout := &plugins.Layout{Elements: []plugins.Element{{
		Kind: plugins.ElementWall, X: 0, Y: 0.6, Length: 4, Width: 0.02, Height: 2, Color: "#b8966a", Material: "cardboard",
	}}}
	cam := Camera{Pose: Pose{Z: 0.3, Yaw: math.Pi / 2}, FovYDeg: 40, Near: 0.03, Far: 10, Width: 96, Height: 96}
	flat := render(t, cam, mustStatic(t, layout, nil), nil, Options{Workers: 1})
	if _, sd := stats(flat, 0, 0, 96, 96, 0); sd != 0 {
		t.Fatalf("flat wall: red standard deviation %g, want 0", sd)
	}
	env := realEnv(270, 40) // the sun behind the camera, on the wall
	env.Shadows, env.ContactShadow = false, 0
	real := render(t, cam, mustStatic(t, layout, &env), nil, Options{Workers: 1})
	_, sd := stats(real, 0, 0, 96, 96, 0)
	// The texture's own spread, in the same 8-bit sRGB units, over the area the frame sees.
	tex, err := NewMaterialTexture("cardboard", "#b8966a", 0)
	if err != nil {
		t.Fatal(err)
	}
	var m, s2 float64
	lv := tex.levels[0]
	for _, c := range lv.texels {
		m += float64(c.R)
		s2 += float64(c.R) * float64(c.R)
	}
	m /= float64(len(lv.texels))
	texSD := math.Sqrt(s2/float64(len(lv.texels)) - m*m)
	// Lighting scales the texture (about 0.6..1.2 here), and mip levels average a little.
	if !(sd > 0.4*texSD && sd < 1.6*texSD) {
		t.Fatalf("realistic wall: red standard deviation %.2f, the texture's %.2f: want within 0.4..1.6 of it", sd, texSD)
	}
	t.Logf("wall red sd %.2f (texture %.2f)", sd, texSD)
}

// TestShadowLengthFromTheWest has a sun low in the west light a box on a plain floor: its
// shadow falls east, as long as height/tan(elevation) beyond its east face within 5 %, for a
// box of the track (static shadow map) and for a pushable one (the frame's map of moving
// casters).
func TestShadowLengthFromTheWest(t *testing.T) {
	const h, side, elev = 0.3, 0.2, 35.0
	want := h / math.Tan(elev*math.Pi/180)
	box := plugins.Element{Kind: plugins.ElementBox, Length: side, Width: side, Height: h, Color: "#c04040"}
	floor := plugins.Floor{X: 0.5, Length: 3, Width: 2, Color: "#c8c8c8"}
	// Straight down from 3 m, image right = east, about 1.6 mm per pixel.
	cam := Camera{Pose: Pose{X: 0.4, Z: 3, Yaw: math.Pi / 2, Pitch: math.Pi / 2}, FovYDeg: 16, Near: 0.1, Far: 10, Width: 640, Height: 480}
	env := realEnv(180, elev)
	env.ContactShadow = 0
	mov := box
	mov.Movable, mov.Mass = true, 1
	movMesh, err := NewElementMesh(nil, &mov)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		layout *plugins.Layout
		dyn    []Object
	}{
		{"track box", &plugins.Layout{Floor: floor, Elements: []plugins.Element{box}}, nil},
		{"pushable box", &plugins.Layout{Floor: floor}, []Object{{Mesh: movMesh}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := render(t, cam, mustStatic(t, c.layout, &env), c.dyn, Options{Workers: 1})
			// Walk east along the row through the box's centre from its east face.
			col0, row, _, _ := cam.Project(mgl64.Vec3{side / 2, 0, 0})
			y := int(row)
			lit := f.At(630, y) // far east: lit floor
			east := -1
			for x := int(col0) + 2; x < 640; x++ {
				if c := f.At(x, y); int(c.G) > int(lit.G)-8 {
					east = x
					break
				}
			}
			if east < 0 {
				t.Fatal("no lit floor east of the box")
			}
			shadowed := f.At(int(col0)+5, y)
			if int(shadowed.G) > int(lit.G)-30 {
				t.Fatalf("floor just east of the box %v, lit floor %v: want clearly darker", shadowed, lit)
			}
			// Pixel x covers [x, x+1): the edge lies between east-1 and east.
			colEnd, _, _, _ := cam.Project(mgl64.Vec3{side/2 + want, 0, 0})
			got := (float64(east) - col0) / (colEnd - col0) * want
			if math.Abs(got-want) > 0.05*want {
				t.Fatalf("shadow %.3f m long east of the box, want %.3f m (h/tan %g°) within 5 %%", got, want, elev)
			}
			// Nothing west of the box is in shadow.
			colW, _, _, _ := cam.Project(mgl64.Vec3{-side/2 - 0.15, 0, 0}) // clear of the box top
			if c := f.At(int(colW), y); int(c.G) < int(lit.G)-8 {
				t.Fatalf("floor west of the box %v, lit %v: want lit (the sun is in the west)", c, lit)
			}
			t.Logf("shadow %.4f m, want %.4f m", got, want)
		})
	}
}

// TestContactShadow checks that the floor darkens towards the foot of a wall.
func TestContactShadow(t *testing.T) {
	layout := &plugins.Layout{Floor: plugins.Floor{Length: 4, Width: 4, Color: "#c8c8c8"}, Elements: []plugins.Element{{
		Kind: plugins.ElementWall, X: 0, Y: 1, Length: 4, Width: 0.02, Height: 0.3, Color: "#b8966a",
	}}}
	env := realEnv(270, 60)
	env.Shadows = false
	s := mustStatic(t, layout, &env)
	near := s.real.floorLit.at(0, 1-0.012)
	far := s.real.floorLit.at(0, 1-0.3)
	if near>>4 >= far>>4 || far>>4 != 15 {
		t.Fatalf("sky light 1 cm from the wall %d/15, 30 cm away %d/15: want darker near and full away", near>>4, far>>4)
	}
}

// TestRealisticWorkersAndSeeds renders the corridor through every stage (shadows, a lens,
// noise, vignetting, motion blur) with one and four workers: the same bytes. The same seeds
// give the same bytes again; another environment seed changes the textures and colours,
// another noise seed the noise only.
func TestRealisticWorkersAndSeeds(t *testing.T) {
	sc, err := newBenchScene()
	if err != nil {
		t.Fatal(err)
	}
	env := RealisticEnvironment()
	env.Seed, env.TextureSwap, env.ColorJitter, env.Distractors = 1, 1, 0.2, 6
	s1 := mustStatic(t, corridorLayout(), &env)
	env.Seed = 2
	s2 := mustStatic(t, corridorLayout(), &env)
	cam := benchCamera(160, 120)
	cam.Lens = Lens{Model: PlumbBob, K1: -0.12, K2: 0.02, P1: 0.001, P2: -0.0008}
	film := Film{Exposure: 1.1, WhiteBalance: [3]float64{1.04, 1, 0.94}, Vignette: 0.35, ReadNoise: 1.2, ShotNoise: 3, ShutterS: 1.0 / 60}
	cam.Film = &film
	cam.Motion = Motion{Linear: mgl64.Vec3{0, 0.7, 0}, Angular: mgl64.Vec3{0, 0, 1}}
	cam.Seed = 7
	a := render(t, cam, s1, sc.dyn, Options{Workers: 1})
	b := render(t, cam, s1, sc.dyn, Options{Workers: 4, MinPixelsPerWorker: 1})
	if string(a.RGB) != string(b.RGB) {
		t.Fatal("1 and 4 workers give different bytes")
	}
	for i := range a.Depth {
		if math.Float32bits(a.Depth[i]) != math.Float32bits(b.Depth[i]) {
			t.Fatalf("depth differs at %d", i)
		}
	}
	again := render(t, cam, mustStatic(t, corridorLayout(), func() *Environment { e := env; e.Seed = 1; return &e }()), sc.dyn, Options{Workers: 1})
	if string(a.RGB) != string(again.RGB) {
		t.Fatal("the same seeds give different bytes")
	}
	other := render(t, cam, s2, sc.dyn, Options{Workers: 1})
	if diff := meanAbsDiff(a, other); diff < 3 {
		t.Fatalf("environment seeds 1 and 2 differ by %.2f per channel on average: want a different look", diff)
	}
	cam.Seed = 8
	noise := render(t, cam, s1, sc.dyn, Options{Workers: 1})
	if diff := meanAbsDiff(a, noise); diff == 0 || diff > 3 {
		t.Fatalf("noise seeds 7 and 8 differ by %.2f per channel on average: want a little (the noise only)", diff)
	}
}

func meanAbsDiff(a, b *Frame) float64 {
	s := 0
	for i := range a.RGB {
		d := int(a.RGB[i]) - int(b.RGB[i])
		s += max(d, -d)
	}
	return float64(s) / float64(len(a.RGB))
}

// TestFilmNoiseIsLinear checks the film's noise in linear light: a uniformly lit white card
// decoded back to linear has the standard deviation √(read² + shot²·s).
func TestFilmNoiseIsLinear(t *testing.T) {
	env := RealisticEnvironment()
	env.SkyZenith, env.SkyHorizon = RGB{128, 128, 128}, RGB{128, 128, 128}
	env.SkyIntensity = 1
	s := mustStatic(t, nil, &env)
	cam := Camera{Pose: Pose{Z: 1, Pitch: -math.Pi / 2}, FovYDeg: 20, Near: 0.1, Far: 10, Width: 200, Height: 200,
		Film: &Film{ReadNoise: 2, ShotNoise: 6}, Seed: 3}
	f := render(t, cam, s, nil, Options{Workers: 1})
	var sum, sum2 float64
	for _, v := range f.RGB {
		l := srgbToLinear(float64(v)/255) * 255
		sum += l
		sum2 += l * l
	}
	n := float64(len(f.RGB))
	mean := sum / n
	sd := math.Sqrt(sum2/n - mean*mean)
	sig := srgbToLinear(128.0 / 255)
	want := math.Sqrt(2*2 + 6*6*sig)
	// 8-bit quantization adds about 1/√12 of a step in sRGB, more in linear near mid grey.
	if math.Abs(mean-sig*255) > 1 || math.Abs(sd-want) > 0.15*want {
		t.Fatalf("linear mean %.2f sd %.2f; want mean %.2f, sd %.2f within 15 %%", mean, sd, sig*255, want)
	}
}

// TestTrackMaterialPNG draws a wall in a track's own material: a PNG of red and blue stripes
// (resampled from 100 px to 64), 0.2 m a repeat, shows both colours on the wall; a PNG that is
// too large or not square is refused.
func TestTrackMaterialPNG(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 100, 100))
	for y := range 100 {
		for x := range 100 {
			c := color.NRGBA{220, 30, 30, 255}
			if x >= 50 {
				c = color.NRGBA{30, 30, 220, 255}
			}
			img.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	layout := &plugins.Layout{
		Materials: []plugins.Material{{Name: "stripes", Textures: []string{"assets/s.png"}, SizeM: 0.2, Images: [][]byte{buf.Bytes()}}},
		Elements:  []plugins.Element{{Kind: plugins.ElementWall, X: 0, Y: 1, Length: 4, Width: 0.02, Height: 2, Material: "stripes"}},
	}
	env := realEnv(270, 40)
	env.Shadows, env.ContactShadow = false, 0
	cam := Camera{Pose: Pose{Z: 0.5, Yaw: math.Pi / 2}, FovYDeg: 40, Near: 0.03, Far: 10, Width: 96, Height: 96}
	f := render(t, cam, mustStatic(t, layout, &env), nil, Options{Workers: 1})
	red, blue := 0, 0
	for i := range 96 * 96 {
		c := f.At(i%96, i/96)
		switch {
		case c.R > 2*c.B:
			red++
		case c.B > 2*c.R:
			blue++
		}
	}
	if red < 2000 || blue < 2000 {
		t.Fatalf("%d red and %d blue pixels of %d: want the stripes on the wall", red, blue, 96*96)
	}
	if _, err := DecodePNGTexture(append(buf.Bytes(), make([]byte, plugins.MaxMaterialPNGBytes)...), 1); err == nil {
		t.Error("an oversized PNG was taken")
	}
	var tall bytes.Buffer
	if err := png.Encode(&tall, image.NewGray(image.Rect(0, 0, 64, 32))); err != nil {
		t.Fatal(err)
	}
	if _, err := DecodePNGTexture(tall.Bytes(), 1); err == nil || !strings.Contains(err.Error(), "square") {
		t.Errorf("a 64×32 PNG: %v", err)
	}
}

// TestShadowsOnEachOther has a low sun in the west behind a tall wall: the tops of a box of the
// track and of a pushable box east of it are in the wall's shadow (the static map on a static
// and on a moving receiver), and the pushable box shadows the top of another track box east
// of it (a caster map on a static receiver); the same boxes out of the shadows are lit.
func TestShadowsOnEachOther(t *testing.T) {
	const elev = 30.0
	box := func(x, y, h float64) plugins.Element {
		return plugins.Element{Kind: plugins.ElementBox, X: x, Y: y, Length: 0.16, Width: 0.16, Height: h, Color: "#e0a040"}
	}
	wall := plugins.Element{Kind: plugins.ElementWall, X: 0, Y: 0, Length: 0.04, Width: 1.0, Height: 0.6, Color: "#808080"}
	layout := &plugins.Layout{Floor: plugins.Floor{X: 0.8, Length: 3, Width: 3, Color: "#c8c8c8"}, Elements: []plugins.Element{
		wall,
		box(0.4, 0.2, 0.2),  // in the wall's shadow (0.6/tan 30° = 1.04 m long)
		box(1.6, 0.2, 0.2),  // beyond it: lit
		box(0.7, -0.8, 0.1), // east of the pushable box, low: in its shadow
		box(1.6, -0.8, 0.1), // lit
	}}
	mov := box(0, 0, 0.3)
	mov.Movable, mov.Mass = true, 1
	m, err := NewElementMesh(nil, &mov)
	if err != nil {
		t.Fatal(err)
	}
	dyn := []Object{
		{Mesh: m, Pose: Pose{X: 0.4, Y: -0.2}}, // in the wall's shadow: its top is dark
		{Mesh: m, Pose: Pose{X: 0.5, Y: -0.8}}, // casts on the low box at 0.7
		{Mesh: m, Pose: Pose{X: 1.6, Y: -0.2}}, // lit
	}
	env := realEnv(180, elev)
	env.ContactShadow = 0
	cam := Camera{Pose: Pose{X: 0.9, Y: -0.3, Z: 4, Yaw: math.Pi / 2, Pitch: math.Pi / 2}, FovYDeg: 30, Near: 0.1, Far: 10, Width: 480, Height: 480}
	f := render(t, cam, mustStatic(t, layout, &env), dyn, Options{Workers: 1})
	writePNG(t, f.Image(), "shadows-on-each-other.png", t.TempDir(), previewDir)
	top := func(x, y, h float64) RGB {
		col, row, _, _ := cam.Project(mgl64.Vec3{x, y, h})
		return f.At(int(col), int(row))
	}
	for _, c := range []struct {
		what      string
		dark, lit RGB
	}{
		{"track box in the wall's shadow", top(0.4, 0.2, 0.2), top(1.6, 0.2, 0.2)},
		{"pushable box in the wall's shadow", top(0.4, -0.2, 0.3), top(1.6, -0.2, 0.3)},
		{"track box in the pushable box's shadow", top(0.7, -0.8, 0.1), top(1.6, -0.8, 0.1)},
	} {
		if int(c.dark.G) > int(c.lit.G)-30 || c.lit.R < c.lit.B+40 {
			t.Errorf("%s: %v; the same out of shadow %v: want clearly darker, both the box's orange", c.what, c.dark, c.lit)
		}
	}
}

// TestFloorWithNothingOnIt builds realistic scenes whose floor has nothing standing on it
// (the contact shadow's distances are all infinite) or nothing at all.
func TestFloorWithNothingOnIt(t *testing.T) {
	env := RealisticEnvironment()
	for _, l := range []*plugins.Layout{
		{Floor: plugins.Floor{X: -10, Y: -10, Length: 4, Width: 4}},
		{Floor: plugins.Floor{Length: 4, Width: 4}, Elements: []plugins.Element{{Kind: plugins.ElementRoad, Width: 0.5, Points: [][2]float64{{-1, 0}, {1, 0}}}}},
		{Elements: []plugins.Element{{Kind: plugins.ElementMarker, X: 1, Length: 0.1}}},
		nil,
	} {
		s := mustStatic(t, l, &env)
		f := render(t, benchCamera(64, 48), s, nil, Options{Workers: 1})
		if c := f.At(32, 40); c == (RGB{}) {
			t.Errorf("layout %+v: black floor", l)
		}
	}
}

// TestFloorWalkKeepsItsLine walks the floor along a row of a wide frame: stepped column by
// column, the walk must end where the row's last ray meets the floor. Its steps are truncated
// to fixed point, and with too few fractional bits the drift reached a light-map texel over a
// 640-pixel row, so that a shadow's straight edge came out as a saw.
func TestFloorWalkKeepsItsLine(t *testing.T) {
	env := RealisticEnvironment()
	s := mustStatic(t, &plugins.Layout{Floor: plugins.Floor{X: -20, Y: -20, Length: 40, Width: 40}}, &env)
	for _, yaw := range []float64{0, 0.3, 1.1, 2.5} {
		cam := Camera{Pose: Pose{Z: 0.09, Yaw: yaw, Pitch: 0.1}, FovYDeg: 68, Width: 4096, Height: 480, Near: 0.01, Far: 50}
		v := newView(&cam)
		bg := newBackground(&v, s, nil)
		for _, y := range []int{260, 400, 479} {
			rd := bg.base.Add(bg.dy.Mul(float64(y)))
			w := cam.Width
			fw := bg.floorWalk(rd, 0, w)
			for k, got := range [2]int64{fw.X + int64(w)*fw.dX, fw.Y + int64(w)*fw.dY} {
				want := (fw.pb[k] - [2]float64{bg.floor.x0, bg.floor.y0}[k])
				if d := math.Abs(float64(got)/floorOne - want); d > 5e-5 {
					t.Errorf("yaw %g, row %d, axis %d: the walk ends %.3f mm off the last column's floor point", yaw, y, k, d*1000)
				}
			}
		}
	}
}

// TestMovingShadowEdgeIsSoft looks straight down at a pushable box's shadow from close up: the
// shadow's slanted edges must pass from dark to lit through intermediate levels (its mask has
// 16 samples a pixel), not as a staircase of whole pixels or of shadow-map texels.
func TestMovingShadowEdgeIsSoft(t *testing.T) {
	mov := plugins.Element{Kind: plugins.ElementBox, Length: 0.2, Width: 0.2, Height: 0.3, Color: "#c04040", Movable: true, Mass: 1}
	m, err := NewElementMesh(nil, &mov)
	if err != nil {
		t.Fatal(err)
	}
	env := realEnv(180, 35)
	env.ContactShadow = 0
	// About 1.6 mm a pixel.
	cam := Camera{Pose: Pose{X: 0.4, Z: 3, Yaw: math.Pi / 2, Pitch: math.Pi / 2}, FovYDeg: 16, Near: 0.1, Far: 10, Width: 640, Height: 480}
	s := mustStatic(t, &plugins.Layout{Floor: plugins.Floor{X: 0.5, Length: 3, Width: 2, Color: "#c8c8c8"}}, &env)
	f := render(t, cam, s, []Object{{Mesh: m, Pose: Pose{Yaw: 0.4}}}, Options{Workers: 1})
	writePNG(t, f.Image(), "moving-shadow-edge.png", t.TempDir(), previewDir)
	// The plain floor, lit east of everything and in the shadow east of the box; the box
	// itself (red, its green far below the shadow's) counts as neither.
	lit, dark := int(f.At(630, 240).G), int(f.At(250, 240).G)
	if dark > lit-30 {
		t.Fatalf("floor in the box's shadow G %d, lit %d: want clearly darker", dark, lit)
	}
	between := 0
	for y := range f.Height {
		for x := 170; x < f.Width; x++ {
			if g := int(f.At(x, y).G); g > dark+4 && g < lit-4 {
				between++
			}
		}
	}
	// The shadow's outline is about 700 pixels long here; filtered, it is 2 pixels wide or so.
	if between < 300 {
		t.Fatalf("%d floor pixels between the shadow's level and the lit floor's: want 300 or more (a soft edge)", between)
	}
	t.Logf("%d pixels on the shadow's soft edge", between)
}

// TestMagnifiedFloorEdges draws the floor close up through narrow lenses, where a floor
// texel spans several pixels and many rows' walks leave the floor rectangle: an empty piece
// of a row on the rectangle used to index before its start (a panic that took the process
// down).
func TestMagnifiedFloorEdges(t *testing.T) {
	var ls litSpan
	ls.bilinearSparse(nil, nil, nil, 2, nil) // the empty piece itself
	env := RealisticEnvironment()
	s := mustStatic(t, &plugins.Layout{Floor: plugins.Floor{X: -0.3, Y: -0.3, Length: 0.6, Width: 0.6}}, &env)
	for _, fov := range []float64{4, 10, 12, 20} {
		for _, yaw := range []float64{0, 0.4, 2} {
			cam := Camera{Pose: Pose{Z: 0.09, Yaw: yaw, Pitch: 0.1}, FovYDeg: fov, Width: 640, Height: 480, Near: 0.03, Far: 20}
			f := render(t, cam, s, nil, Options{Workers: 1})
			if c := f.At(320, 470); c == (RGB{}) {
				t.Errorf("fov %g, yaw %g: black floor below the centre", fov, yaw)
			}
		}
	}
}

// TestMagnifiedWallIsBlended looks at a cardboard wall from 4 cm away, where one texel spans
// several pixels: neighbouring pixels must change gradually, not stay equal across a texel and
// then jump (blocks a policy could learn to see).
func TestMagnifiedWallIsBlended(t *testing.T) {
	layout := &plugins.Layout{Elements: []plugins.Element{{
		Kind: plugins.ElementWall, X: 0, Y: 0.05, Length: 4, Width: 0.02, Height: 2, Color: "#b8966a", Material: "cardboard",
	}}}
	env := realEnv(270, 40)
	env.Shadows, env.ContactShadow = false, 0
	cam := Camera{Pose: Pose{Z: 0.3, Yaw: math.Pi / 2}, FovYDeg: 40, Near: 0.01, Far: 10, Width: 96, Height: 96}
	f := render(t, cam, mustStatic(t, layout, &env), nil, Options{Workers: 1})
	writePNG(t, f.Image(), "magnified-wall.png", t.TempDir(), previewDir)
	same, pairs := 0, 0
	for y := 8; y < 88; y++ {
		for x := 8; x < 87; x++ {
			pairs++
			if f.At(x, y) == f.At(x+1, y) {
				same++
			}
		}
	}
	// Drawn as blocks about 5 pixels wide, four pairs in five are equal.
	if share := float64(same) / float64(pairs); share > 0.35 {
		t.Fatalf("%.0f %% of neighbouring pixels are equal: the magnified texture is drawn in blocks", 100*share)
	}
}

// TestTrackMaterialOnTheFloor textures the floor with the track's own (red) material: both
// looks draw it, the flat one too (which once refused it as an unknown texture).
func TestTrackMaterialOnTheFloor(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 32, 32))
	for i := range img.Pix {
		img.Pix[i] = []uint8{220, 30, 30, 255}[i%4]
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	layout := &plugins.Layout{
		Materials: []plugins.Material{{Name: "red_floor", Textures: []string{"assets/r.png"}, SizeM: 0.5, Images: [][]byte{buf.Bytes()}}},
		Floor:     plugins.Floor{X: 1, Length: 4, Width: 4, Texture: "red_floor"},
	}
	cam := Camera{Pose: Pose{Z: 0.5, Pitch: 0.6}, FovYDeg: 50, Near: 0.03, Far: 10, Width: 64, Height: 48}
	real := RealisticEnvironment()
	for name, env := range map[string]*Environment{"flat": nil, "realistic": &real} {
		f := render(t, cam, mustStatic(t, layout, env), nil, Options{Workers: 1})
		if c := f.At(32, 40); !(int(c.R) > 2*int(c.G) && int(c.R) > 2*int(c.B)) {
			t.Errorf("%s look: the floor is %v, want the track's red material", name, c)
		}
	}
}
