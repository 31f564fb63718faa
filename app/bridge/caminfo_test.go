package bridge

import (
	"log/slog"
	"maps"
	"math"
	"slices"
	"testing"

	"google.golang.org/protobuf/proto"

	"simgui/app/transport/msgs"
	"simgui/plugins"
)

// withCameraParams is testCar with its camera mount's parameters set to params.
func withCameraParams(params map[string]float64) *plugins.VehicleDescriptor {
	v := *testCar
	v.Sensors = slices.Clone(testCar.Sensors)
	for i := range v.Sensors {
		if v.Sensors[i].ID == "camera.front" {
			p := maps.Clone(v.Sensors[i].Params)
			maps.Copy(p, params)
			v.Sensors[i].Params = p
		}
	}
	return &v
}

// TestCameraInfoCarriesTheLens: a camera's calibration reaches cloisim_ros as it reads it —
// fx through the horizontal field of view, plumb_bob's coefficients in the distortion — and a
// lens the message cannot carry (here a principal point off the centre) is logged once.
func TestCameraInfoCarriesTheLens(t *testing.T) {
	rec := &logRecorder{}
	tw := startWorldOpts(t, withCameraParams(map[string]float64{"fx": 40, "k1": -0.12, "k2": 0.03, "p1": 0.001, "cxShift": 0.1}),
		Config{Logger: slog.New(rec)})
	var cs msgs.CameraSensor
	for range 2 {
		if err := proto.Unmarshal(tw.info(t, "car0camera_frontInfo", reqCameraInfo, anyString("")), &cs); err != nil {
			t.Fatal(err)
		}
	}
	const w = 64 // the contract's size, 64×48
	if fx := w / (2 * math.Tan(cs.GetHorizontalFov()/2)); math.Abs(fx-40) > 1e-9 {
		t.Errorf("cloisim_ros's fx from hfov %.6f: %.6f, want 40", cs.GetHorizontalFov(), fx)
	}
	d := cs.GetDistortion()
	if d.GetK1() != -0.12 || d.GetK2() != 0.03 || d.GetK3() != 0 || d.GetP1() != 0.001 || d.GetP2() != 0 {
		t.Errorf("distortion %v", d)
	}
	if line, ok := rec.find("cannot carry this lens", "principal point", "sensor=camera.front"); !ok {
		t.Errorf("no warning of the off-centre principal point")
	} else if n := rec.count("cannot carry this lens"); n != 1 {
		t.Errorf("%d warnings (%s), want 1", n, line)
	}

	// A pinhole of the mount's field of view: no distortion, and no warning.
	rec2 := &logRecorder{}
	tw2 := startWorldOpts(t, testCar, Config{Logger: slog.New(rec2)})
	var plain msgs.CameraSensor
	proto.Unmarshal(tw2.info(t, "car0camera_frontInfo", reqCameraInfo, anyString("")), &plain)
	if plain.GetDistortion() != nil {
		t.Errorf("a pinhole's distortion %v", plain.GetDistortion())
	}
	if _, ok := rec2.find("cannot carry this lens"); ok {
		t.Error("a pinhole warned")
	}
}
