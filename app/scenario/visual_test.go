package scenario

import (
	"strings"
	"testing"

	"simgui/plugins"
)

// TestVisualDraws: the lens, film and look parameters land on the KS0223's camera as vehicle
// params that plugins accept, in their ranges, with a look seed; the same seed draws the same,
// another seed something else.
func TestVisualDraws(t *testing.T) {
	r := parseBlock(t, `randomization:
  sensors: {camera_position_m: 0.01, camera_yaw_deg: 2, camera_roll_deg: 2, camera_focal: 0.05, camera_principal: 0.01,
            distortion_k1: [-0.3, 0], distortion_k2: 0.05, distortion_k3: 0.01, distortion_p: 0.002,
            exposure: [0.7, 1.4], white_balance: 0.1, vignette: [0, 0.5], read_noise: [0, 2], shot_noise: [0, 4]}
  visual: {textures: [0.5, 1], color_jitter: 0.2, sun_azimuth_deg: 180, sun_elevation_deg: [-30, 20], sun_intensity: 0.3,
           sun_color: 0.1, ambient: 0.3, distractors: [0, 8]}
`)
	v, _ := ks0223(t)
	const cam = "sensor.camera.front.rgb."
	// The KS0223's camera mount: x 0.115, z 0.09.
	want := map[string][2]float64{
		cam + "x": {0.11, 0.13}, cam + "y": {-0.01, 0.01}, cam + "z": {0.08, 0.1}, cam + "yawDeg": {-2, 2}, cam + "rollDeg": {-2, 2},
		cam + "fxScale": {0.95, 1.05}, cam + "fyScale": {0.95, 1.05}, cam + "cxShift": {-0.01, 0.01}, cam + "cyShift": {-0.01, 0.01},
		cam + "k1": {-0.3, 0}, cam + "k2": {-0.05, 0.05}, cam + "k3": {-0.01, 0.01}, cam + "p1": {-0.002, 0.002}, cam + "p2": {-0.002, 0.002},
		cam + "exposure": {0.7, 1.4}, cam + "wbR": {0.9, 1.1}, cam + "wbG": {0.9, 1.1}, cam + "wbB": {0.9, 1.1},
		cam + "vignette": {0, 0.5}, cam + "readNoise": {0, 2}, cam + "shotNoise": {0, 4},
		cam + "textureSwap": {0.5, 1}, cam + "colorJitter": {0, 0.2}, cam + "sunAzimuthDeg": {-145, 215},
		cam + "sunElevationDeg": {20, 70}, cam + "sunIntensity": {0.85 * 0.7, 0.85 * 1.3},
		cam + "sunR": {0.9, 1.1}, cam + "sunG": {0.96 * 0.9, 0.96 * 1.1}, cam + "sunB": {0.9 * 0.9, 0.9 * 1.1},
		cam + "ambient": {0.42 * 0.7, 0.42 * 1.3}, cam + "distractors": {0, 8}, cam + "lookSeed": {1, 2147483647},
		cam + "realistic": {1, 1}, // the draws show only in the realistic look
	}
	seen := map[float64]bool{}
	for seed := int64(0); seed < 50; seed++ {
		d, err := r.Sample(seed, v, nil)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, x := range d.Values {
			if !strings.HasPrefix(x.Key, cam) {
				continue // the vehicle's own defaults (mass, damping, ...)
			}
			n++
			rg, ok := want[x.Key]
			if !ok {
				t.Fatalf("unexpected key %s", x.Key)
			}
			if x.Value < rg[0]-1e-9 || x.Value > rg[1]+1e-9 {
				t.Errorf("seed %d: %s = %g outside %g..%g", seed, x.Key, x.Value, rg[0], rg[1])
			}
		}
		if n != len(want) {
			t.Fatalf("seed %d drew %d camera values, want %d: %v", seed, n, len(want), d.Values)
		}
		if _, err := plugins.ApplyVehicleConfig(v, d.Vehicle); err != nil {
			t.Fatalf("seed %d: the draw does not apply: %v", seed, err)
		}
		again, _ := r.Sample(seed, v, nil)
		for i := range d.Values {
			if again.Values[i] != d.Values[i] {
				t.Fatalf("seed %d drew %v, then %v", seed, d.Values[i], again.Values[i])
			}
		}
		seen[d.Vehicle[cam+"lookSeed"].(float64)] = true
	}
	if len(seen) < 45 {
		t.Errorf("50 seeds drew %d look seeds", len(seen))
	}
}

// TestRandomizationRangesHaveLimits refuses ranges past a parameter's limit, or past ±1e6 for
// any, where a draw would be nonsense (a near-black exposure, a billion distractors) or hi−lo
// would overflow; ranges inside pass. Every visual parameter has a limit.
func TestRandomizationRangesHaveLimits(t *testing.T) {
	for _, p := range visualParams {
		if p.Limit == ([2]float64{}) {
			t.Errorf("%s has no limit", p.Name)
		}
	}
	for _, c := range []struct {
		name, value string
		ok          bool
	}{
		{"visual.distractors", "1e9", false},
		{"visual.distractors", "64", true},
		{"sensors.exposure", "0,0", false},
		{"sensors.exposure", "0.5,2", true},
		{"sensors.white_balance", "0,0", false},
		{"sensors.camera_yaw_deg", "-1e308,1e308", false},
		{"sensors.camera_yaw_deg", "10", true},
		{"visual.sun_elevation_deg", "-90,-90", true},
		{"visual.sun_elevation_deg", "-91,0", false},
		{"sensors.distortion_k1", "1e308", false},
		{"vehicle.mass", "0.5,1e9", false},
		{"vehicle.mass", "0.5,2", true},
		{"track.length", "0,1e300", false},
	} {
		var r Randomization
		err := r.Set(c.name, c.value)
		if (err == nil) != c.ok {
			t.Errorf("%s = %s: error %v, want ok %v", c.name, c.value, err, c.ok)
		}
	}
}
