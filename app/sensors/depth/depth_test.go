package depth_test

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/png"
	"math"
	"testing"

	"simgui/app/sensors"
	"simgui/app/sensors/sensortest"
	_ "simgui/app/sensors/standard"
	"simgui/app/world"
	"simgui/plugins"
)

func depthRig(format string, stddev float64) sensortest.Sensor {
	s := sensortest.Sensor{
		Mount: plugins.SensorMount{ID: "depth", Kind: "depth", Pose: plugins.Pose3{X: 0.1, Z: 0.2},
			Params: map[string]float64{"fovDeg": 58, "near": 0.1, "far": 8}},
		Contract: plugins.SensorDescriptor{ID: "depth", SensorType: "depth", Format: format, Unit: "m", Shape: []int{30, 40}, RateHz: 15},
	}
	if stddev > 0 {
		s.Contract.Noise = &plugins.Noise{Stddev: stddev}
	}
	return s
}

// A wall 2 m ahead of a level depth camera: the upper rows see the sky (+Inf, noise or not),
// the wall reads 2 m plus the noise, and the png format holds millimetres.
func TestWallSkyAndNoise(t *testing.T) {
	layout := &plugins.Layout{Elements: []plugins.Element{{Kind: plugins.ElementWall, X: 0.1 + 2 + 0.05, Length: 0.1, Width: 10, Height: 0.5}}}
	for _, c := range []struct {
		format string
		stddev float64
	}{{"float32", 0}, {"float32", 0.01}, {"png", 0}} {
		v := sensortest.KS0223(t, depthRig(c.format, c.stddev))
		env := sensortest.New(t, layout, []world.AgentSpec{{Name: "ego", Vehicle: v, Spawn: &world.Pose{}}}, sensors.Options{})
		env.Step(1)
		var im sensors.Image
		if err := env.System.Frame("ego", "depth", &im); err != nil {
			t.Fatal(err)
		}
		// Row 0 looks 29° up: over the 0.5 m wall (0.3 m above the lens at 2 m is 8.5°).
		for col := range 40 {
			if d := im.Depth[col]; !math.IsInf(float64(d), 1) {
				t.Fatalf("%s σ=%g: top row column %d reads %g, want +Inf", c.format, c.stddev, col, d)
			}
		}
		var sum, sum2 float64
		n := 0
		for row := 12; row < 18; row++ { // near the axis: the wall (lower rows meet the floor first)
			for col := range 40 {
				e := float64(im.Depth[row*40+col]) - 2
				sum, sum2, n = sum+e, sum2+e*e, n+1
			}
		}
		mean, sd := sum/float64(n), math.Sqrt(sum2/float64(n)-(sum/float64(n))*(sum/float64(n)))
		if math.Abs(mean) > 0.002 || math.Abs(sd-c.stddev) > 0.2*c.stddev+1e-5 {
			t.Fatalf("%s σ=%g: wall reads 2 m %+.4f ± %.4f", c.format, c.stddev, mean, sd)
		}
		switch c.format {
		case "float32":
			if len(im.Data) != 4*40*30 || math.Float32frombits(binary.LittleEndian.Uint32(im.Data[4*(20*40+3):])) != im.Depth[20*40+3] {
				t.Fatalf("float32 data: %d bytes", len(im.Data))
			}
		case "png":
			img, err := png.Decode(bytes.NewReader(im.Data))
			if err != nil {
				t.Fatal(err)
			}
			g := img.(*image.Gray16)
			if top, wall := g.Gray16At(5, 0).Y, g.Gray16At(20, 20).Y; top != 0 || math.Abs(float64(wall)-1000*float64(im.Depth[20*40+20])) > 0.5 {
				t.Fatalf("png: sky %d mm, wall %d mm (depth %g m)", top, wall, im.Depth[20*40+20])
			}
		}
	}
}
