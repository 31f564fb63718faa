package render

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"simgui/plugins"
)

// TestMountTakesEveryValueItsTableTakes sets each camera parameter, one at a time, to the
// ends of its range in the plugin table, a point near its low end and its middle (and 0
// where the table takes it): what a plugin,
// a scenario or a reset passes the checks with must make a camera that draws.
func TestMountTakesEveryValueItsTableTakes(t *testing.T) {
	specs, err := plugins.SensorParams("camera")
	if err != nil {
		t.Fatal(err)
	}
	env := RealisticEnvironment()
	s := mustStatic(t, &plugins.Layout{Floor: plugins.Floor{X: 1, Length: 4, Width: 4}}, &env)
	r := NewRenderer(Options{Workers: 1})
	defer r.Close()
	f := NewFrame(64, 48, true, false)
	for _, sp := range specs {
		values := []float64{sp.Min, sp.Min + 0.01*(sp.Max-sp.Min), (sp.Min + sp.Max) / 2, sp.Max}
		if sp.Integer {
			values = []float64{sp.Min, sp.Max}
		}
		if sp.Name == "cx" || sp.Name == "cy" { // in the frame's pixels: plugin checks hold them to it
			values = []float64{0, 1, 47}
		}
		if sp.ZeroOff {
			values = append(values, 0)
		}
		for _, v := range values {
			cam, _, err := MountCamera(map[string]float64{sp.Name: v, "realistic": 1}, 64, 48, nil)
			if err != nil {
				t.Errorf("%s = %g (table %s): %v", sp.Name, v, sp.Range(), err)
				continue
			}
			cam.Pose = Pose{Z: 0.1}
			if err := r.Render(f, cam, s, nil); err != nil {
				t.Errorf("%s = %g: %v", sp.Name, v, err)
			}
		}
	}
}

// TestWhiteBalanceZeroIsBlack sets every white balance gain to 0: the frame is black, as one
// gain of 0 takes its channel away (not the default balance Film's zero value stands for).
func TestWhiteBalanceZeroIsBlack(t *testing.T) {
	env := RealisticEnvironment()
	s := mustStatic(t, &plugins.Layout{Floor: plugins.Floor{X: 1, Length: 4, Width: 4}}, &env)
	cam, _, err := MountCamera(map[string]float64{"realistic": 1, "wbR": 0, "wbG": 0, "wbB": 0, "readNoise": 0, "shotNoise": 0}, 32, 24, nil)
	if err != nil {
		t.Fatal(err)
	}
	cam.Pose = Pose{Z: 0.3, Pitch: 0.3}
	f := render(t, cam, s, nil, Options{Workers: 1})
	for i, b := range f.RGB {
		if b > 2 {
			t.Fatalf("byte %d is %d: want a black frame", i, b)
		}
	}
}

// MountView says how far a camera sees across its frame as it draws it: from fovDeg alone
// only without intrinsics; from fx and cx, a lens's distortion and its drawn limit otherwise
// (a fan drawn from fovDeg showed a calibrated or fisheye camera's field wrongly).
func TestMountViewIsWhatTheCameraDraws(t *testing.T) {
	deg := func(r float64) float64 { return r * 180 / math.Pi }
	for _, c := range []struct {
		name        string
		params      map[string]float64
		w, h        int
		left, right float64 // degrees; 0: checked by projection instead
	}{
		{"fovDeg only", map[string]float64{"fovDeg": 60}, 320, 240, deg(math.Atan(math.Tan(math.Pi/6) * 4 / 3)), deg(math.Atan(math.Tan(math.Pi/6) * 4 / 3))},
		{"fx given, fovDeg unused", map[string]float64{"fovDeg": 68, "fx": 300}, 320, 240, deg(math.Atan(160.0 / 300)), deg(math.Atan(160.0 / 300))},
		{"principal point off centre", map[string]float64{"fx": 300, "cx": 100}, 320, 240, deg(math.Atan(100.5 / 300)), deg(math.Atan(219.5 / 300))},
		{"barrel plumb_bob", map[string]float64{"fx": 300, "k1": -0.25, "k2": 0.05}, 320, 240, 0, 0},
		{"fisheye", map[string]float64{"lensModel": 1, "fx": 70, "k1": 0.05, "k2": -0.01}, 160, 120, 0, 0},
		{"fisheye past the drawn limit", map[string]float64{"lensModel": 1, "fx": 40}, 160, 120, MaxLensAngleDeg, MaxLensAngleDeg},
	} {
		l, r, ok := MountView(c.params, c.w, c.h)
		if !ok {
			t.Errorf("%s: no camera", c.name)
			continue
		}
		if c.left != 0 {
			if math.Abs(deg(l)-c.left) > 1e-6 || math.Abs(deg(r)-c.right) > 1e-6 {
				t.Errorf("%s: sees %.3f° left and %.3f° right, want %.3f° and %.3f°", c.name, deg(l), deg(r), c.left, c.right)
			}
			continue
		}
		// A point straight out at each angle lands on the frame's edge: column 0 (left) and
		// column w (right) in Project's edge coordinates.
		cam, _, err := MountCamera(c.params, c.w, c.h, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range []struct {
			angle, col float64
		}{{l, 0}, {-r, float64(c.w)}} {
			col, _, _, ok := cam.Project(mgl64.Vec3{math.Cos(e.angle), math.Sin(e.angle), 0})
			if !ok || math.Abs(col-e.col) > 1e-6 {
				t.Errorf("%s: the direction %.3f° lands at column %.6f, want the edge %g", c.name, deg(e.angle), col, e.col)
			}
		}
		if pinhole := math.Atan(float64(c.w) / 2 / c.params["fx"]); !(r > pinhole+0.01) {
			t.Errorf("%s: sees %.2f° to the right, no wider than a pinhole's %.2f°", c.name, deg(r), deg(pinhole))
		}
	}
	if _, _, ok := MountView(map[string]float64{"near": 5, "far": 1}, 320, 240); ok {
		t.Error("a camera that Validate refuses has a view")
	}
}
