package api

import (
	"fmt"
	"testing"
)

// visualFlags switches the camera's visual randomization on through the reset's flags, as a
// trainer would (randomization.<group>.<param>; the dynamics' defaults are switched off so that
// only the look changes).
const visualFlags = `"flags": [
  {"key": "randomization.enabled", "value": "true"},
  {"key": "randomization.vehicle.mass", "value": "0"}, {"key": "randomization.vehicle.linear_damping", "value": "0"},
  {"key": "randomization.vehicle.angular_damping", "value": "0"}, {"key": "randomization.vehicle.motor_gain_left", "value": "0"},
  {"key": "randomization.vehicle.motor_gain_right", "value": "0"}, {"key": "randomization.sensors.camera_pitch_deg", "value": "0"},
  {"key": "randomization.visual.textures", "value": "1"}, {"key": "randomization.visual.color_jitter", "value": "0.2"},
  {"key": "randomization.visual.sun_azimuth_deg", "value": "180"}, {"key": "randomization.visual.sun_elevation_deg", "value": "-20,20"},
  {"key": "randomization.visual.ambient", "value": "0.3"}, {"key": "randomization.visual.distractors", "value": "2,8"},
  {"key": "randomization.sensors.exposure", "value": "0.6,1.4"}, {"key": "randomization.sensors.read_noise", "value": "0,2"}]`

// TestVisualRandomizationThroughResetFlags: a reset with the same seed gives the same frame
// bytes; another seed gives another look — different pixels — with the robot where it was.
func TestVisualRandomizationThroughResetFlags(t *testing.T) {
	s := startServer(t, Options{Scenario: randomizedScenario(t), Now: fixedClock})
	reset := func(seed int) *StepResult {
		res, _ := s.ok("/reset", fmt.Sprintf(`{"seed": %d, "vehicleParams": [{"key": "camera.width", "value": "96"},
			{"key": "camera.height", "value": "72"}], %s}`, seed, visualFlags))
		return res
	}
	a, again, b := reset(5), reset(5), reset(6)
	if a.Frame.DataBase64 != again.Frame.DataBase64 {
		t.Fatal("the same seed gave different frames")
	}
	if a.Frame.DataBase64 == b.Frame.DataBase64 {
		t.Fatal("seeds 5 and 6 gave the same frame")
	}
	if a.State.Pose != b.State.Pose {
		t.Fatalf("the robot is at %+v with seed 5 and %+v with seed 6: the look must not move it", a.State.Pose, b.State.Pose)
	}
	fa, fb := decodeFrame(t, a.Frame), decodeFrame(t, b.Frame)
	if n := changedPixels(fa, fb, 12); n < 96*72/4 {
		t.Fatalf("%d of %d pixels changed between seeds 5 and 6: want a different look", n, 96*72)
	}
	drew := false
	for _, kv := range a.Info {
		if kv.Key == "randomization.ego.sensor.camera.front.rgb.lookSeed" {
			drew = true
		}
	}
	if !drew {
		t.Errorf("the reply's info lacks the look seed drawn: %v", keys(a.Info))
	}
}

// TestCalibratedCameraAtAnotherSize resets a camera calibrated at its contract's 640×480
// (principal point, focal length) with a 160×120 frame: the intrinsics scale with the frame,
// and the reset gives a frame of that size (it once failed with the principal point outside).
func TestCalibratedCameraAtAnotherSize(t *testing.T) {
	s := startServer(t, Options{})
	res, _ := s.ok("/reset", `{"seed": 1, "vehicleParams": [
		{"key": "sensor.camera.front.rgb.realistic", "value": "1"},
		{"key": "sensor.camera.front.rgb.fx", "value": "500"}, {"key": "sensor.camera.front.rgb.cx", "value": "600"},
		{"key": "sensor.camera.front.rgb.cy", "value": "239.5"},
		{"key": "camera.width", "value": "160"}, {"key": "camera.height", "value": "120"}]}`)
	if f := decodeFrame(t, res.Frame); f.Bounds().Dx() != 160 || f.Bounds().Dy() != 120 {
		t.Fatalf("frame %v, want 160×120", f.Bounds())
	}
}
