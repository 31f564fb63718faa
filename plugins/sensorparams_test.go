package plugins

import (
	"maps"
	"math"
	"strings"
	"testing"
)

// ks0223CameraWith returns the KS0223's files with params set on its camera mount.
func ks0223CameraWith(t *testing.T, params map[string]any) map[string][]byte {
	t.Helper()
	return edited(t, builtinFiles(t, "vehicle.ks0223.v1"), "descriptor.json", func(m map[string]any) {
		for _, s := range m["sensors"].([]any) {
			if s := s.(map[string]any); s["kind"] == "camera" {
				p, _ := s["params"].(map[string]any)
				if p == nil {
					p = map[string]any{}
				}
				maps.Copy(p, params)
				s["params"] = p
			}
		}
	})
}

// TestPrincipalPointInsideTheFrame holds a camera's cx and cy to its contract's frame (the
// KS0223's 640×480): the last pixel's outer edge passes, past it is refused at its path.
func TestPrincipalPointInsideTheFrame(t *testing.T) {
	for _, c := range []struct {
		params map[string]any
		path   string
	}{
		{map[string]any{"cx": 639.5, "cy": 479.5}, ""},
		{map[string]any{"cx": 640}, "descriptor.sensors[0].params.cx"},
		{map[string]any{"cy": 480}, "descriptor.sensors[0].params.cy"},
	} {
		files := ks0223CameraWith(t, c.params)
		_, ps := ReadPlugin(files)
		var got []string
		for _, p := range ps.Errors() {
			got = append(got, p.Path)
		}
		if strings.Join(got, " ") != c.path {
			t.Errorf("%v: errors at %v, want at %q (%v)", c.params, got, c.path, ps)
		}
	}
}

// TestFocalLengthWithinTheWidestView refuses a focal length so short that the frame would
// span more than fovDeg's widest view (170°): 28 px across the KS0223's 640 columns passes,
// 27.9 px (and fx 0.001, a 180° view) is refused at its path, naming the least it takes.
func TestFocalLengthWithinTheWidestView(t *testing.T) {
	for _, c := range []struct {
		params map[string]any
		path   string
	}{
		{map[string]any{"fx": 28, "fy": 21}, ""},
		{map[string]any{"fx": 27.9}, "descriptor.sensors[0].params.fx"},
		{map[string]any{"fx": 0.001, "fy": 400}, "descriptor.sensors[0].params.fx"},
		{map[string]any{"fy": 20.9}, "descriptor.sensors[0].params.fy"},
	} {
		_, ps := ReadPlugin(ks0223CameraWith(t, c.params))
		var got []string
		for _, p := range ps.Errors() {
			got = append(got, p.Path)
			if !strings.Contains(p.Message, "more than 170°") || !strings.Contains(p.Message, "want at least") {
				t.Errorf("%v: %q does not say why or what it takes", c.params, p.Message)
			}
		}
		if strings.Join(got, " ") != c.path {
			t.Errorf("%v: errors at %v, want at %q (%v)", c.params, got, c.path, ps)
		}
	}
}

// A distortion coefficient the lens model does not use is a warning at its path, not an
// error: k4 under plumb_bob, p1 and p2 under the equidistant model.
func TestUnusedLensCoefficientsWarn(t *testing.T) {
	for _, c := range []struct {
		params map[string]any
		paths  string
	}{
		{map[string]any{"k1": -0.1, "k2": 0.01, "p1": 0.001, "p2": 0.001, "k3": 0.001}, ""},
		{map[string]any{"k1": -0.1, "k4": 0.01}, "descriptor.sensors[0].params.k4"},
		{map[string]any{"lensModel": 1, "k1": 0.1, "k3": 0.01, "k4": 0.01}, ""},
		{map[string]any{"lensModel": 1, "k1": 0.1, "p1": 0.01, "p2": 0.01}, "descriptor.sensors[0].params.p1 descriptor.sensors[0].params.p2"},
	} {
		files := ks0223CameraWith(t, c.params)
		_, ps := ReadPlugin(files)
		var got []string
		for _, p := range ps.Warnings() {
			if strings.Contains(p.Message, "which leaves it unused") {
				got = append(got, p.Path)
			}
		}
		if strings.Join(got, " ") != c.paths || len(ps.Errors()) > 0 {
			t.Errorf("%v: warnings at %v, want at %q (%v)", c.params, got, c.paths, ps)
		}
	}
}

// TestFrameSizeScalesIntrinsics draws a calibrated 640×480 camera at 160×120, as a training
// reset's camera.width and camera.height do: its intrinsics scale with the frame (pixel
// centres stay centres), a focal length that followed the other keeps the pixels square, and
// the vehicle stays valid.
func TestFrameSizeScalesIntrinsics(t *testing.T) {
	v, err := Builtin().Vehicle("vehicle.ks0223.v1")
	if err != nil {
		t.Fatal(err)
	}
	v, err = ApplyVehicleConfig(v, map[string]any{"sensor.camera.front.rgb.fx": 500.0, "sensor.camera.front.rgb.cx": 319.5, "sensor.camera.front.rgb.cy": 239.5})
	if err != nil {
		t.Fatal(err)
	}
	c := v.Clone()
	if c.SetFrameSize(160, 120) == nil {
		t.Fatal("no camera")
	}
	m, _, _ := c.firstCamera()
	want := map[string]float64{"fx": 125, "fy": 125, "cx": 79.5, "cy": 59.5}
	for k, x := range want {
		if got := m.Params[k]; got != x {
			t.Errorf("%s = %g at 160×120, want %g", k, got, x)
		}
	}
	if om, _, _ := v.firstCamera(); om.Params["cx"] != 319.5 {
		t.Errorf("the original's cx became %g: SetFrameSize changed a map it shares", om.Params["cx"])
	}
	if ps := ValidateVehicle(nil, c); len(ps.Errors()) != 0 {
		t.Fatalf("the resized vehicle is invalid: %v", ps)
	}
}

// TestFrameSizeKeepsTheVerticalView redraws a calibrated 640×480 camera (fx, fy, cx, cy given)
// for frames of another aspect ratio, as a training reset's frame size and camera.profile do:
// like a camera given by its fovDeg, it keeps the vertical field of view and square pixels, and
// the old view is centred on the new frame. The focal lengths once scaled by each side's own
// ratio, which squeezed the whole width into an 84×84 training frame (the real car's frames
// are cropped to their centre square), and camera.profile, camera.width and camera.height left
// them in the contract frame's pixels (a principal point near the left of a wider preset frame).
func TestFrameSizeKeepsTheVerticalView(t *testing.T) {
	v, err := Builtin().Vehicle("vehicle.ks0223.v1")
	if err != nil {
		t.Fatal(err)
	}
	f := 240 / math.Tan(34*math.Pi/180) // what the KS0223's 68° gives at 480 px
	v, err = ApplyVehicleConfig(v, map[string]any{"sensor.camera.front.rgb.fx": f, "sensor.camera.front.rgb.cx": 330.0, "sensor.camera.front.rgb.cy": 250.0})
	if err != nil {
		t.Fatal(err)
	}
	profiled, err := ApplyVehicleConfig(v, map[string]any{"camera.profile": "performance"}) // 640×360
	if err != nil {
		t.Fatal(err)
	}
	narrowed, err := ApplyVehicleConfig(v, map[string]any{"camera.width": 480})
	if err != nil {
		t.Fatal(err)
	}
	resized := v.Clone()
	resized.SetFrameSize(84, 84)
	for _, c := range []struct {
		name string
		v    *VehicleDescriptor
		want map[string]float64
	}{
		// k = 84/480; cx: (330.5·k) + (84 − 640·k)/2 − 0.5; cy: 250.5·k − 0.5.
		{"84×84", resized, map[string]float64{"fx": 42 / math.Tan(34*math.Pi/180), "fy": 42 / math.Tan(34*math.Pi/180), "cx": 43.3375, "cy": 43.3375}},
		// k = 0.75; cx: 330.5·k + (640 − 480)/2 − 0.5; cy: 250.5·k − 0.5.
		// The height stays: the focal lengths too, and the view loses 80 px each side.
		{"camera.width 480", narrowed, map[string]float64{"fx": f, "fy": f, "cx": 250, "cy": 250}},
		{"camera.profile performance", profiled, map[string]float64{"fx": 0.75 * f, "fy": 0.75 * f, "cx": 327.375, "cy": 187.375}},
	} {
		m, _, _ := c.v.firstCamera()
		for k, x := range c.want {
			if got := m.Params[k]; math.Abs(got-x) > 1e-9 {
				t.Errorf("%s: %s = %.6f, want %.6f", c.name, k, got, x)
			}
		}
		if ps := ValidateVehicle(nil, c.v); len(ps.Errors()) != 0 {
			t.Errorf("%s: the resized vehicle is invalid: %v", c.name, ps.Errors())
		}
	}
}

// TestFrameSizeKeepsIntrinsicsValid draws extreme but valid intrinsics at far smaller and
// larger frames: the principal point at the frame's edge stays inside, and a long lens drawn
// larger stops at the focal length's limit; the vehicle stays valid either way.
func TestFrameSizeKeepsIntrinsicsValid(t *testing.T) {
	v, err := Builtin().Vehicle("vehicle.ks0223.v1")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		params map[string]any
		w, h   int
	}{
		{map[string]any{"sensor.camera.front.rgb.cx": 639.5, "sensor.camera.front.rgb.cy": 479.5}, 16, 16},
		{map[string]any{"sensor.camera.front.rgb.cx": 639, "sensor.camera.front.rgb.cy": 1}, 16, 16},
		{map[string]any{"sensor.camera.front.rgb.fx": 60000.0}, 1920, 1080},
		{map[string]any{"sensor.camera.front.rgb.fx": 100000.0, "sensor.camera.front.rgb.fy": 50}, 4096, 16},
	} {
		cv, err := ApplyVehicleConfig(v, c.params)
		if err != nil {
			t.Fatal(err)
		}
		cv = cv.Clone()
		cv.SetFrameSize(c.w, c.h)
		if ps := ValidateVehicle(nil, cv); len(ps.Errors()) != 0 {
			t.Errorf("%v at %dx%d: %v", c.params, c.w, c.h, ps.Errors())
		}
	}
}

// TestFrameSizeKeepsTheEdge sweeps every frame side from 16 to 1024 px for a principal point at
// the contract frame's outer edge: scaled, it stays inside (rounding once pushed it one step
// past, and the world failed to start).
func TestFrameSizeKeepsTheEdge(t *testing.T) {
	v, err := Builtin().Vehicle("vehicle.ks0223.v1")
	if err != nil {
		t.Fatal(err)
	}
	v, err = ApplyVehicleConfig(v, map[string]any{"sensor.camera.front.rgb.cx": 639.5, "sensor.camera.front.rgb.cy": 479.5})
	if err != nil {
		t.Fatal(err)
	}
	for side := 16; side <= 1024; side++ {
		c := v.Clone()
		c.SetFrameSize(side, side)
		if ps := ValidateVehicle(nil, c); len(ps.Errors()) != 0 {
			t.Fatalf("%d×%d: %v", side, side, ps.Errors())
		}
	}
}

// TestMountWarningsNameWhatIsUnused: what a camera is given but does not use is warned of at
// sensor.<id>.<param>: a coefficient of the other lens model, and a film or look parameter of
// a camera in the flat look (with the way to turn the realistic look on, unless realistic: 0
// is given), and a fovDeg that a focal length in pixels replaces. Defaults, the lens and a
// realistic camera's film draw no warning.
func TestMountWarningsNameWhatIsUnused(t *testing.T) {
	cam := func(params map[string]float64) SensorMount {
		return SensorMount{ID: "front.rgb", Kind: SensorCamera, Params: params}
	}
	for _, tc := range []struct {
		params map[string]float64
		want   []string // "path: part of the message", one per warning, in order
	}{
		{map[string]float64{"exposure": 3, "shutterS": 0.1, "vignette": 0.2, "k1": -0.1},
			[]string{"sensor.front.rgb.exposure: add realistic: 1", "sensor.front.rgb.shutterS: add realistic: 1"}},
		{map[string]float64{"realistic": 0, "sunAzimuthDeg": 90},
			[]string{"sensor.front.rgb.sunAzimuthDeg: which realistic: 0 turns off"}},
		{map[string]float64{"realistic": 1, "exposure": 3, "readNoise": 9, "distractors": 4}, nil},
		{map[string]float64{"lensModel": 1, "p1": 0.2, "k4": 0.1},
			[]string{"sensor.front.rgb.p1: not a coefficient of the equidistant model"}},
		{map[string]float64{"k4": 0.1, "realistic": 1}, []string{"sensor.front.rgb.k4: not a coefficient of plumb_bob"}},
		{map[string]float64{"fovDeg": 50, "fy": 300}, []string{"sensor.front.rgb.fovDeg: fovDeg is unused: fx or fy gives the focal length"}},
		{map[string]float64{"fx": 300}, nil},
		{map[string]float64{"fovDeg": 50, "cx": 100}, nil},
		{nil, nil},
	} {
		got := MountWarnings(cam(tc.params))
		if len(got) != len(tc.want) {
			t.Errorf("%v: %d warnings %v, want %d", tc.params, len(got), got, len(tc.want))
			continue
		}
		for i, w := range tc.want {
			path, part, _ := strings.Cut(w, ": ")
			if got[i].Path != path || !strings.Contains(got[i].Message, part) || !got[i].Warning {
				t.Errorf("%v: warning %d is %+v, want %s", tc.params, i, got[i], w)
			}
		}
	}
	// A mount with errors is refused elsewhere: no warnings on top.
	if got := MountWarnings(cam(map[string]float64{"exposure": 3, "fovDeg": 500})); len(got) != 0 {
		t.Errorf("a mount with an error has warnings %v", got)
	}
}

// TestNoFrameNoPrincipalPointError: a contract frame of no pixels is the contract's error
// alone; the camera's principal point is not also refused against it.
func TestNoFrameNoPrincipalPointError(t *testing.T) {
	files := edited(t, builtinFiles(t, "vehicle.ks0223.v1"), "device-contract.json", func(m map[string]any) {
		for _, s := range m["sensors"].([]any) {
			if s := s.(map[string]any); s["sensorType"] == "camera" {
				s["shape"] = []any{480, 0, 3}
			}
		}
	})
	_, ps := ReadPlugin(files)
	if len(ps.Errors()) == 0 {
		t.Fatal("a frame 0 pixels wide was accepted")
	}
	for _, p := range ps.Errors() {
		if strings.Contains(p.Path, ".params.c") {
			t.Errorf("a follow-on error at %s: %s", p.Path, p.Message)
		}
	}
}
