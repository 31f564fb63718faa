package render

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// TestMotionBlurIsThePastExposure compares a motion-blurred frame with the average, in linear
// light, of sharp frames over its exposure: the camera at the frame's pose and at those it
// had during the shutter time before it. The blur must match that average, and not the
// average over the same time after the frame (blur gathered the wrong way looks like that),
// turning at the KS0223's top yaw rate and driving straight ahead.
func TestMotionBlurIsThePastExposure(t *testing.T) {
	sc, st := realBenchScene(t)
	const T, sharp = 0.03, 32
	for _, c := range []struct {
		name string
		m    Motion
	}{
		{"turning", Motion{Angular: mgl64.Vec3{0, 0, 6.6}}},
		{"driving", Motion{Linear: mgl64.Vec3{0, 2, 0}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cam := benchCamera(160, 120)
			cam.Film = &Film{}
			// average is the linear mean of sharp frames with the camera s·T later, s from
			// from to from+1.
			average := func(from float64) []float64 {
				sum := make([]float64, 3*cam.Width*cam.Height)
				for i := range sharp {
					s := from + (float64(i)+0.5)/sharp
					at := cam
					at.Pose.Yaw += c.m.Angular[2] * s * T
					at.Pose.X += c.m.Linear[0] * s * T
					at.Pose.Y += c.m.Linear[1] * s * T
					f := render(t, at, st, sc.dyn, Options{Workers: 1})
					for k, v := range f.RGB {
						sum[k] += srgbToLinear(float64(v)/255) / sharp
					}
				}
				return sum
			}
			blurred := cam
			blurred.Film = &Film{ShutterS: T}
			blurred.Motion = c.m
			f := render(t, blurred, st, sc.dyn, Options{Workers: 1})
			// errTo is the mean linear difference from ref away from the frame's edges, where
			// the blur gathers in what the frame shows of what moves in from outside it.
			const margin = 24
			errTo := func(ref []float64) float64 {
				e, n := 0.0, 0
				for y := margin; y < cam.Height-margin; y++ {
					for k := 3 * (y*cam.Width + margin); k < 3*(y*cam.Width+cam.Width-margin); k++ {
						e += math.Abs(srgbToLinear(float64(f.RGB[k])/255) - ref[k])
						n++
					}
				}
				return e / float64(n)
			}
			still := render(t, cam, st, sc.dyn, Options{Workers: 1})
			stillLin := make([]float64, len(still.RGB))
			for k, v := range still.RGB {
				stillLin[k] = srgbToLinear(float64(v) / 255)
			}
			past, future, none := errTo(average(-1)), errTo(average(0)), errTo(stillLin)
			t.Logf("mean linear error: %.4f against the exposure, %.4f against the time after it, %.4f against the sharp frame", past, future, none)
			if !(past < 0.5*future) || !(past < 0.6*none) {
				t.Errorf("the blurred frame is %.4f from the average over its exposure, %.4f from the average over the time after it and %.4f from the sharp frame: want under half the first and 0.6 of the second", past, future, none)
			}
		})
	}
}
