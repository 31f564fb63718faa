package camera_test

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"image"
	"image/jpeg"
	"image/png"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"simgui/app/markers"
	"simgui/app/sensors"
	"simgui/app/sensors/sensortest"
	_ "simgui/app/sensors/standard"
	"simgui/app/transport/msgs"
	"simgui/app/world"
	"simgui/plugins"
	"simgui/render"
)

const w, h = 64, 48

// ks0223Mount is the KS0223's camera mount: 0.12 m ahead of the centre, 0.09 m up, pitched 6°
// down, vertical field of view 68°, clipping at 0.03 and 30 m.
var ks0223Mount = plugins.Pose3{X: 0.12, Z: 0.09, PitchDeg: 6}

// rig is a KS0223 carrying a camera (in the flat look, whose colours these tests work out by
// hand) and a depth camera at the same mount.
func rig(pose plugins.Pose3, format string) []sensortest.Sensor {
	lens := map[string]float64{"fovDeg": 68, "near": 0.03, "far": 30}
	flat := map[string]float64{"fovDeg": 68, "near": 0.03, "far": 30, "realistic": 0}
	return []sensortest.Sensor{
		{Mount: plugins.SensorMount{ID: "cam", Kind: "camera", Pose: pose, Params: flat},
			Contract: plugins.SensorDescriptor{ID: "cam", SensorType: "camera", Format: format, Shape: []int{h, w, 3}, RateHz: 10}},
		{Mount: plugins.SensorMount{ID: "depth", Kind: "depth", Pose: pose, Params: lens},
			Contract: plugins.SensorDescriptor{ID: "depth", SensorType: "depth", Format: "float32", Shape: []int{h, w}, RateHz: 10}},
	}
}

// shoot builds a world of layout with the rig on "ego" at the origin facing +x, steps once and
// returns the published colour frame and depth image.
func shoot(t *testing.T, layout *plugins.Layout, pose plugins.Pose3) (*msgs.Image, []float32) {
	t.Helper()
	v := sensortest.KS0223(t, rig(pose, "raw")...)
	env := sensortest.New(t, layout, []world.AgentSpec{{Name: "ego", Vehicle: v, Spawn: &world.Pose{}}}, sensors.Options{})
	cam := env.Subscribe("ego", "cam", sensors.TopicImage)
	dep := env.Subscribe("ego", "depth", sensors.TopicDepthImage)
	env.Step(1)
	img := env.Last(cam).Msg.(*msgs.Image)
	d := env.Last(dep).Msg.(*msgs.Image)
	if img.GetWidth() != w || img.GetHeight() != h || img.GetPixelFormatType() != msgs.PixelFormatType_RGB_INT8 || img.GetStep() != 3*w {
		t.Fatalf("image %dx%d %v step %d", img.GetWidth(), img.GetHeight(), img.GetPixelFormatType(), img.GetStep())
	}
	if d.GetPixelFormatType() != msgs.PixelFormatType_R_FLOAT32 || len(d.GetData()) != 4*w*h {
		t.Fatalf("depth image %v with %d bytes", d.GetPixelFormatType(), len(d.GetData()))
	}
	depth := make([]float32, w*h)
	for i := range depth {
		depth[i] = math.Float32frombits(binary.LittleEndian.Uint32(d.GetData()[4*i:]))
	}
	return img, depth
}

func pixel(img *msgs.Image, col, row int) render.RGB {
	i := row*int(img.GetStep()) + 3*col
	return render.RGB{R: img.Data[i], G: img.Data[i+1], B: img.Data[i+2]}
}

// lit is the colour the renderer gives a face of colour c with outward normal n under the
// default light: c·(Ambient + Diffuse·max(0, n·L)), rounded.
func lit(c render.RGB, n mgl64.Vec3) render.RGB {
	env := render.DefaultEnvironment()
	return c.Scale(env.Ambient + env.Diffuse*max(0, n.Dot(env.LightDir.Normalize())))
}

// Facing a red wall 1.00 m away (level camera), the centre pixel is the wall's colour and the
// depth there is 1.00 m.
func TestRedWallAhead(t *testing.T) {
	const mountX, dist, thick = 0.12, 1.00, 0.1
	layout := &plugins.Layout{Elements: []plugins.Element{{Kind: plugins.ElementWall, Name: "red",
		X: mountX + dist + thick/2, Y: 0, Length: 6, Width: thick, Height: 2, YawDeg: 90, Color: "#ff0000"}}}
	img, depth := shoot(t, layout, plugins.Pose3{X: mountX, Z: 0.09})
	want := lit(render.RGB{R: 255}, mgl64.Vec3{-1, 0, 0})
	for _, p := range [][2]int{{w / 2, h / 2}, {w/2 - 1, h/2 - 1}} {
		if got := pixel(img, p[0], p[1]); got != want {
			t.Errorf("pixel %v is %v, want the lit wall colour %v", p, got, want)
		}
		if d := depth[p[1]*w+p[0]]; math.Abs(float64(d)-dist) > 0.01*dist {
			t.Errorf("depth at %v is %.4f m, want %.2f m within 1%%", p, d, dist)
		}
	}
}

// Pressed against a wall, the KS0223's camera sees the wall, 6 mm away, not what lies behind
// it: its 3 cm near clip reaches past the bumper, and is pulled in before the wall.
func TestWallTouchingTheBumper(t *testing.T) {
	const mountX, gap, thick = 0.12, 0.006, 0.02
	layout := &plugins.Layout{Elements: []plugins.Element{
		{Kind: plugins.ElementWall, Name: "red", X: mountX + gap + thick/2, Length: 6, Width: thick, Height: 2, YawDeg: 90, Color: "#ff0000"},
		{Kind: plugins.ElementWall, Name: "blue", X: 1, Length: 6, Width: 0.1, Height: 2, YawDeg: 90, Color: "#0000ff"},
	}}
	img, depth := shoot(t, layout, plugins.Pose3{X: mountX, Z: 0.09})
	want := lit(render.RGB{R: 255}, mgl64.Vec3{-1, 0, 0})
	for _, p := range [][2]int{{w / 2, h / 2}, {0, h / 2}, {w - 1, h / 2}, {w / 2, 0}} {
		if got := pixel(img, p[0], p[1]); got != want {
			t.Errorf("pixel %v is %v, want the touching red wall %v", p, got, want)
		}
	}
	if d := depth[h/2*w+w/2]; math.Abs(float64(d)-gap) > 0.001 {
		t.Errorf("depth at the centre %.4f m, want the wall at %.3f m", d, gap)
	}

	// Pushed into the wall, the body takes the camera into it, or to a hair's breadth of its
	// face: the camera stays before the face and shows the wall, not the blue one behind it.
	for _, into := range []float64{0.003, 0, -0.0005} {
		layout.Elements[0].X = mountX - into + thick/2
		img, depth = shoot(t, layout, plugins.Pose3{X: mountX, Z: 0.09})
		for _, p := range [][2]int{{w / 2, h / 2}, {0, h / 2}, {w - 1, h / 2}} {
			if got := pixel(img, p[0], p[1]); got != want {
				t.Errorf("camera %.4f m into the wall: pixel %v is %v, want the red wall %v", into, p, got, want)
			}
		}
		if d := depth[h/2*w+w/2]; d > 0.005 {
			t.Errorf("camera %.4f m into the wall: depth at the centre %.4f m, want the wall's face within 5 mm", into, d)
		}
	}
}

// The horizon is the row where the camera's height, pitch and field of view put it: with the
// KS0223 camera (6° down, vertical FOV 68°, 0.09 m up, far 30 m) over an empty plane,
// row_h = H/2 − f·tan 6° with f = (H/2)/tan 34°; above it the sky (depth +Inf), below it the
// ground plane, in every column.
func TestHorizonRow(t *testing.T) {
	img, depth := shoot(t, &plugins.Layout{}, ks0223Mount)
	f := float64(h) / 2 / math.Tan(34*math.Pi/180)
	horizon := float64(h)/2 - f*math.Tan(6*math.Pi/180)
	// First row whose centre is below the horizon and whose ground point lies within far.
	first := -1
	for row := range h {
		alpha := math.Atan((float64(row) + 0.5 - float64(h)/2) / f) // below the optical axis
		theta := 6*math.Pi/180 + alpha                              // below the horizontal
		if theta > 0 && 0.09/math.Sin(theta)*math.Cos(alpha) <= 30 {
			first = row
			break
		}
	}
	if first < 0 || math.Abs(float64(first)-horizon) > 1.5 {
		t.Fatalf("test geometry: first ground row %d, horizon %.2f", first, horizon)
	}
	ground := lit(render.DefaultEnvironment().Ground, mgl64.Vec3{0, 0, 1})
	for col := range w {
		for _, row := range []int{first - 2, first - 1} {
			if !math.IsInf(float64(depth[row*w+col]), 1) || pixel(img, col, row) == ground {
				t.Fatalf("column %d row %d (above the horizon at %.2f): depth %g, colour %v; want sky", col, row, horizon, depth[row*w+col], pixel(img, col, row))
			}
		}
		for _, row := range []int{first, first + 1} {
			if got := pixel(img, col, row); got != ground || math.IsInf(float64(depth[row*w+col]), 0) {
				t.Fatalf("column %d row %d (below the horizon at %.2f): colour %v depth %g; want ground %v", col, row, horizon, got, depth[row*w+col], ground)
			}
		}
	}
	t.Logf("horizon at row %.2f: rows < %d sky, rows >= %d ground", horizon, first, first)
}

// A box to the left of the camera's axis appears in the left half of the image, and only
// there.
func TestBoxOnTheLeft(t *testing.T) {
	layout := &plugins.Layout{Elements: []plugins.Element{{Kind: plugins.ElementBox, Name: "blue",
		X: 1.2, Y: 0.35, Length: 0.2, Width: 0.2, Height: 0.3, Color: "#0000ff"}}}
	img, _ := shoot(t, layout, ks0223Mount)
	left, right := 0, 0
	for row := range h {
		for col := range w {
			c := pixel(img, col, row)
			if c.B > 80 && c.R < 10 && c.G < 10 { // the box's lit faces: blue only
				if col < w/2 {
					left++
				} else {
					right++
				}
			}
		}
	}
	if left < 10 || right != 0 {
		t.Fatalf("box pixels: %d in the left half, %d in the right; want all on the left", left, right)
	}
}

// Other vehicles are drawn unless peers are hidden for the observer.
func TestPeerVisibility(t *testing.T) {
	v := sensortest.KS0223(t, rig(ks0223Mount, "raw")...)
	peer := sensortest.KS0223(t)
	peer.Visual.Color = "#00ff00"
	env := sensortest.New(t, &plugins.Layout{}, []world.AgentSpec{
		{Name: "ego", Vehicle: v, Spawn: &world.Pose{}},
		{Name: "other", Vehicle: peer, Spawn: &world.Pose{X: 0.8}},
	}, sensors.Options{})
	sub := env.Subscribe("ego", "cam", sensors.TopicImage)
	greens := func() int {
		img := env.Last(sub).Msg.(*msgs.Image)
		n := 0
		for row := range h {
			for col := range w {
				if c := pixel(img, col, row); c.G > 100 && c.R < 60 && c.B < 60 {
					n++
				}
			}
		}
		return n
	}
	env.Step(1)
	if n := greens(); n < 5 {
		t.Fatalf("the green peer ahead covers %d pixels; want it seen", n)
	}
	env.System.SetPeerVisibility("ego", false)
	env.Step(20) // the next 10 Hz frame
	if n := greens(); n != 0 {
		t.Fatalf("peer hidden, yet %d green pixels", n)
	}
}

// Frame renders the current view synchronously in the contract's format: raw equals the
// published frame of the same step; png and jpeg_base64 decode to the same picture.
func TestFrameFormats(t *testing.T) {
	layout := &plugins.Layout{Floor: plugins.Floor{Length: 4, Width: 4, Texture: "checker"},
		Elements: []plugins.Element{{Kind: plugins.ElementWall, X: 1.5, Length: 4, Width: 0.05, Height: 0.4, YawDeg: 90, Color: "#c04020"}}}
	for _, format := range []string{"raw", "png", "jpeg_base64"} {
		t.Run(format, func(t *testing.T) {
			v := sensortest.KS0223(t, rig(ks0223Mount, format)...)
			env := sensortest.New(t, layout, []world.AgentSpec{{Name: "ego", Vehicle: v, Spawn: &world.Pose{}}}, sensors.Options{})
			sub := env.Subscribe("ego", "cam", sensors.TopicImage)
			env.Step(1)
			pub := env.Last(sub).Msg.(*msgs.Image)
			var im sensors.Image
			if err := env.System.Frame("ego", "cam", &im); err != nil {
				t.Fatal(err)
			}
			if im.Width != w || im.Height != h || im.Format != format || !bytes.Equal(im.Pixels, pub.Data) {
				t.Fatalf("Frame %dx%d %q; pixels equal to the published frame: %v", im.Width, im.Height, im.Format, bytes.Equal(im.Pixels, pub.Data))
			}
			var dec image.Image
			var err error
			switch format {
			case "raw":
				if !bytes.Equal(im.Data, pub.Data) {
					t.Fatal("raw data differs from the pixels")
				}
				return
			case "png":
				dec, err = png.Decode(bytes.NewReader(im.Data))
			case "jpeg_base64":
				var raw []byte
				if raw, err = base64.StdEncoding.DecodeString(string(im.Data)); err == nil {
					dec, err = jpeg.Decode(bytes.NewReader(raw))
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			if b := dec.Bounds(); b.Dx() != w || b.Dy() != h {
				t.Fatalf("decoded %v", b)
			}
			var sum float64
			for row := range h {
				for col := range w {
					r, g, b, _ := dec.At(col, row).RGBA()
					p := pixel(pub, col, row)
					sum += math.Abs(float64(r>>8)-float64(p.R)) + math.Abs(float64(g>>8)-float64(p.G)) + math.Abs(float64(b>>8)-float64(p.B))
				}
			}
			mean := sum / (3 * w * h)
			if limit := map[string]float64{"png": 0, "jpeg_base64": 8}[format]; mean > limit {
				t.Fatalf("decoded frame differs from the pixels by %.2f on average (limit %g)", mean, limit)
			}
		})
	}
	var im sensors.Image
	v := sensortest.KS0223(t, rig(ks0223Mount, "raw")...)
	env := sensortest.New(t, layout, []world.AgentSpec{{Name: "ego", Vehicle: v, Spawn: &world.Pose{}}}, sensors.Options{})
	if err := env.System.Frame("ego", "speed", &im); err == nil {
		t.Fatal("Frame of a sensor that does not exist succeeded")
	}
	if err := env.System.Frame("ego", "depth", &im); err != nil || len(im.Depth) != w*h || len(im.Data) != 4*w*h {
		t.Fatalf("depth Frame: %v, %d depths, %d bytes", err, len(im.Depth), len(im.Data))
	}
}

// Markers of the control service (a box, a sphere and a line) appear in camera frames, and go
// when they are removed.
func TestMarkersAreDrawn(t *testing.T) {
	store := markers.NewStore(nil)
	v := sensortest.KS0223(t, rig(ks0223Mount, "raw")...)
	env := sensortest.New(t, &plugins.Layout{}, []world.AgentSpec{{Name: "ego", Vehicle: v, Spawn: &world.Pose{}}},
		sensors.Options{Markers: store.Set})
	_, magenta, err := markers.LookupColor("Magenta")
	if err != nil {
		t.Fatal(err)
	}
	err = store.Add([]markers.Marker{
		{Group: "goal", ID: 0, Kind: "Box", Color: "Magenta", RGBA: magenta, Size: 0.2, Point: markers.Vec3{X: 1.5, Y: 0.3, Z: 0.1}},
		{Group: "goal", ID: 1, Kind: "Sphere", Color: "Magenta", RGBA: magenta, Size: 0.2, Point: markers.Vec3{X: 1.5, Y: -0.3, Z: 0.1}},
		{Group: "path", ID: 0, Kind: "Line", Color: "Magenta", RGBA: magenta, Size: 0.03, Point: markers.Vec3{X: 0.6, Z: 0.01}, End: markers.Vec3{X: 3, Z: 0.01}},
	})
	if err != nil {
		t.Fatal(err)
	}
	sub := env.Subscribe("ego", "cam", sensors.TopicImage)
	count := func() (left, centre, right int) {
		img := env.Last(sub).Msg.(*msgs.Image)
		for row := range h {
			for col := range w {
				if c := pixel(img, col, row); c.R > 100 && c.B > 100 && c.G < 40 {
					switch {
					case col < w*2/5:
						left++
					case col < w*3/5:
						centre++
					default:
						right++
					}
				}
			}
		}
		return
	}
	env.Step(1)
	if l, c, r := count(); l < 10 || c < 5 || r < 10 {
		t.Fatalf("magenta pixels left %d (box), centre %d (line), right %d (sphere); want all three", l, c, r)
	}
	if _, err := store.Remove([]string{markers.Name("goal", 0, "Box"), markers.Name("goal", 1, "Sphere"), markers.Name("path", 0, "Line")}); err != nil {
		t.Fatal(err)
	}
	env.Step(20)
	if l, c, r := count(); l+c+r != 0 {
		t.Fatalf("markers removed, yet %d magenta pixels", l+c+r)
	}
}

// A camera with image gains (System.SetImageGains) gives an RGB camera's pixels mapped
// through the table, after the contract noise as before (the renderer draws them in when there
// is no noise), both the frames it publishes (the window's, the bridge's) and those Frame
// draws (the training faces'), and leaves a grey camera's alone.
func TestImageGains(t *testing.T) {
	layout := &plugins.Layout{Floor: plugins.Floor{Length: 4, Width: 4, Texture: "plywood"},
		Elements: []plugins.Element{{Kind: plugins.ElementWall, X: 1.5, Length: 4, Width: 0.05, Height: 0.4, YawDeg: 90, Color: "#c04020"}}}
	gains := render.NewGainTable([3]float64{1.2, 0.9, 0.7})
	for _, c := range []struct {
		name     string
		channels int
		noise    *plugins.Noise
	}{{"rgb", 3, nil}, {"rgb+noise", 3, &plugins.Noise{Stddev: 6}}, {"grey", 1, nil}} {
		t.Run(c.name, func(t *testing.T) {
			// frames returns the frame published at the first step and one drawn on request.
			frames := func(g *render.GainTable) (published, drawn []byte) {
				s := rig(ks0223Mount, "raw")[:1]
				s[0].Contract.Shape = []int{h, w, c.channels}
				s[0].Contract.Noise = c.noise
				v := sensortest.KS0223(t, s...)
				env := sensortest.New(t, layout, []world.AgentSpec{{Name: "ego", Vehicle: v, Spawn: &world.Pose{}}}, sensors.Options{})
				env.System.SetImageGains("ego", "cam", g)
				sub := env.Subscribe("ego", "cam", sensors.TopicImage)
				env.Step(1)
				published = bytes.Clone(env.Last(sub).Msg.(*msgs.Image).Data)
				var im sensors.Image
				if err := env.System.Frame("ego", "cam", &im); err != nil {
					t.Fatal(err)
				}
				if len(im.Pixels) != w*h*c.channels || len(published) != w*h*c.channels {
					t.Fatalf("%d and %d bytes of pixels, want %d", len(published), len(im.Pixels), w*h*c.channels)
				}
				return published, bytes.Clone(im.Pixels)
			}
			plainPub, plain := frames(nil)
			gotPub, got := frames(gains)
			for _, f := range []struct {
				name       string
				plain, got []byte
			}{{"published", plainPub, gotPub}, {"drawn", plain, got}} {
				want := bytes.Clone(f.plain)
				if c.channels == 3 {
					gains.Apply(want)
				}
				if !bytes.Equal(f.got, want) {
					t.Fatalf("%s: pixels with gains differ from the frame mapped afterwards (%d of %d bytes)", f.name, diffCount(f.got, want), len(want))
				}
				if c.channels == 3 && bytes.Equal(f.got, f.plain) {
					t.Fatalf("%s: the gains changed nothing", f.name)
				}
			}
		})
	}
}

func diffCount(a, b []byte) int {
	n := 0
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			n++
		}
	}
	return n
}
