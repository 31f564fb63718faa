package render

import (
	"testing"

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
