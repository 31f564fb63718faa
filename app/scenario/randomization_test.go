package scenario

import (
	"errors"
	"math"
	"os"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"simgui/plugins"
)

func parseBlock(t *testing.T, src string) *Randomization {
	t.Helper()
	sc, err := Parse([]byte("world: {trackId: track.cardboard_corridor.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}\n"+src), "r.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r, err := ParseRandomization(&sc.Randomization)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

const everything = `randomization:
  vehicle: {mass: 0.2, linear_damping: [0.5, 1.5], angular_damping: 0.2, motor_gain_left: 0.1, motor_gain_right: 0.1, max_speed: 0.05, latency: [0.01, 0.05]}
  sensors: {camera_pitch_deg: 4, camera_fov_deg: [-2, 6], image_noise: 5, brightness: 0.2, color_jitter: 0.1, sonar_noise: [0, 0.02]}
  track: {width: [0.4, 0.9], length: schema}
`

func ks0223(t *testing.T) (*plugins.VehicleDescriptor, *plugins.TrackDescriptor) {
	t.Helper()
	v, err := plugins.Builtin().Vehicle("vehicle.ks0223.v1")
	if err != nil {
		t.Fatal(err)
	}
	tr, err := plugins.Builtin().Track("track.cardboard_corridor.v1")
	if err != nil {
		t.Fatal(err)
	}
	return v, tr
}

// TestSampleSeedsAndRanges: the same seed draws the same values, different seeds different
// ones, and every draw lies in its range around the vehicle's own value.
func TestSampleSeedsAndRanges(t *testing.T) {
	r := parseBlock(t, everything)
	v, tr := ks0223(t)
	// Absolute ranges each draw must fall in, from the KS0223's values (mass 1, damping 0.2 and
	// 1.5, gains 1, top speed 0.73, pitch 6°, fov 68°) and the corridor's schema (length 1..20).
	want := map[string][2]float64{
		"mass": {0.8, 1.2}, "linear_damping": {0.1, 0.3}, "angular_damping": {1.2, 1.8},
		"motor_gain_left": {0.9, 1.1}, "motor_gain_right": {0.9, 1.1}, "max_speed": {0.73 * 0.95, 0.73 * 1.05},
		"latency": {0.01, 0.05}, "camera.pitch_deg": {2, 10}, "camera.fov_deg": {66, 74},
		"sensor.camera.front.rgb.noiseStddev": {0, 5}, KeyBrightness: {0.8, 1.2}, KeyColorGainR: {0.9, 1.1}, KeyColorGainG: {0.9, 1.1},
		KeyColorGainB: {0.9, 1.1}, "sensor.ultrasonic.front.noiseStddev": {0, 0.02},
		"track.width": {0.4, 0.9}, "track.length": {1, 20},
	}
	draws := map[int64]Draw{}
	for seed := int64(0); seed < 200; seed++ {
		d, err := r.Sample(seed, v, tr)
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Values) != len(want) {
			t.Fatalf("seed %d drew %d values, want %d: %v", seed, len(d.Values), len(want), d.Values)
		}
		for _, x := range d.Values {
			rg, ok := want[x.Key]
			if !ok {
				t.Fatalf("unexpected key %s", x.Key)
			}
			if x.Value < rg[0]-1e-12 || x.Value > rg[1]+1e-12 {
				t.Errorf("seed %d: %s = %g outside %g..%g", seed, x.Key, x.Value, rg[0], rg[1])
			}
		}
		again, _ := r.Sample(seed, v, tr)
		for i := range d.Values {
			if again.Values[i] != d.Values[i] {
				t.Fatalf("seed %d drew %v then %v", seed, d.Values[i], again.Values[i])
			}
		}
		draws[seed] = d
	}
	// Different seeds: every parameter differs between any two seeds checked.
	for _, pair := range [][2]int64{{0, 1}, {1, 2}, {7, 107}, {42, 43}} {
		a, b := draws[pair[0]], draws[pair[1]]
		for i := range a.Values {
			if a.Values[i].Value == b.Values[i].Value {
				t.Errorf("seeds %v drew the same %s = %g", pair, a.Values[i].Key, a.Values[i].Value)
			}
		}
	}
	// The draws spread over their range (not stuck at one end).
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, d := range draws {
		m := d.Vehicle["mass"].(float64)
		lo, hi = math.Min(lo, m), math.Max(hi, m)
	}
	if lo > 0.82 || hi < 1.18 {
		t.Errorf("200 mass draws span only %g..%g of 0.8..1.2", lo, hi)
	}
	// The values land where they apply: vehicle params, image keys, track params.
	d := draws[3]
	if _, err := plugins.ApplyVehicleConfig(v, d.Vehicle); err != nil {
		t.Errorf("drawn vehicle params do not apply: %v", err)
	}
	if len(d.Image) != 4 || len(d.Track) != 2 {
		t.Errorf("image %v track %v", d.Image, d.Track)
	}
	if err := plugins.ValidateTrackParams(tr, d.Track); err != nil {
		t.Errorf("drawn track params invalid: %v", err)
	}
}

// TestParamsDrawIndependently: switching one parameter on does not change another's draw.
func TestParamsDrawIndependently(t *testing.T) {
	v, tr := ks0223(t)
	a, err := parseBlock(t, "randomization: {vehicle: {mass: 0.2}}").Sample(9, v, tr)
	if err != nil {
		t.Fatal(err)
	}
	b, err := parseBlock(t, "randomization: {vehicle: {mass: 0.2, latency: 0.1}, sensors: {brightness: 0.3}}").Sample(9, v, tr)
	if err != nil {
		t.Fatal(err)
	}
	if a.Vehicle["mass"] != b.Vehicle["mass"] {
		t.Errorf("mass %v became %v when other draws were added", a.Vehicle["mass"], b.Vehicle["mass"])
	}
}

func TestDefaultsAndOff(t *testing.T) {
	v, tr := ks0223(t)
	off, err := ParseRandomization(&yaml.Node{})
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := off.Sample(1, v, tr); off.Enabled || len(d.Values) != 0 {
		t.Errorf("no block: enabled %v, draws %v", off.Enabled, d.Values)
	}
	on := parseBlock(t, "randomization: {}")
	d, err := on.Sample(1, v, tr)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, x := range d.Values {
		got = append(got, x.Key)
	}
	// rusim's defaults: mass, damping ±20 %, motor gains ±10 %, camera pitch ±4°.
	if strings.Join(got, ",") != "mass,linear_damping,angular_damping,motor_gain_left,motor_gain_right,camera.pitch_deg" {
		t.Errorf("default draws %v", got)
	}
	if p := d.Vehicle["camera.pitch_deg"].(float64); p < 2 || p > 10 {
		t.Errorf("pitch %g outside 6±4", p)
	}
	disabled := parseBlock(t, "randomization: {enabled: false, vehicle: {mass: 0.5}}")
	if disabled.Enabled {
		t.Error("enabled: false is on")
	}
	if err := disabled.Set("enabled", "1"); err != nil || !disabled.Enabled {
		t.Errorf("Set enabled: %v", err)
	}
	if rg := disabled.RangeOf("vehicle.mass"); rg.Lo != 0.5 || rg.Hi != 1.5 {
		t.Errorf("mass range %+v", rg)
	}
}

func TestRandomizationErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"randomization: {vehicle: {mas: 0.2}}", `unknown parameter "vehicle.mas"`},
		{"randomization: {vehicle: {mass: -0.2}}", "must not be negative"},
		{"randomization: {vehicle: {mass: 1.5}}", "negative factor"},
		{"randomization: {vehicle: {latency: [0.5, 0.1]}}", "lo 0.5 is above hi 0.1"},
		{"randomization: {sensors: {brightness: [a, b]}}", "want [lo, hi] of two numbers, got [a, b]"},
		{"randomization: {enabled: true, colour: {}}", `unknown key "colour"`},
	} {
		sc, err := Parse([]byte(tc.src), "r.yaml")
		if err != nil {
			t.Fatal(err)
		}
		_, err = ParseRandomization(&sc.Randomization)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.src, err, tc.want)
		}
	}
	v, tr := ks0223(t)
	for _, tc := range []struct{ src, want string }{
		{"randomization: {track: {width: [0.1, 0.5]}}", "outside the schema's 0.3..2"},
		{"randomization: {track: {floor_texture: schema}}", `no numeric parameter "floor_texture"`},
		// Ranges past what the parameter takes are refused, not clamped into a pile at the limit.
		{"randomization: {vehicle: {latency: [0, 100000]}}", "randomization.vehicle.latency 0..100000 draws latency from 0 to 100000; it takes 0..2"},
		{"randomization: {sensors: {camera_fov_deg: 500}}", "randomization.sensors.camera_fov_deg -500..500 draws camera.fov_deg from -432 to 568"},
		{"randomization: {sensors: {image_noise: 1000000}}", "draws sensor.camera.front.rgb.noiseStddev from 0 to 1e+06; it takes 0..255"},
	} {
		_, err := parseBlock(t, tc.src).Sample(1, v, tr)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.src, err, tc.want)
		}
	}
	// A base plus a range's end reads as the user would write it: 0.2 + 0.1 is 0.3, not
	// 0.30000000000000004.
	shifted, err := plugins.ApplyVehicleConfig(v, map[string]any{"sensor.camera.front.rgb.cxShift": 0.2})
	if err != nil {
		t.Fatal(err)
	}
	_, err = parseBlock(t, "randomization: {sensors: {camera_principal: 0.1}}").Sample(1, shifted, tr)
	if want := "draws sensor.camera.front.rgb.cxShift from 0.1 to 0.3; it takes -0.25..0.25"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a principal point range over a shifted camera: %v, want %q", err, want)
	}
}

// A default range nobody named, around a value near its parameter's limit (±4° of pitch
// around a camera pitched 88°), is drawn over the part the parameter takes; the same range
// named is refused. A scenario with such a camera loads, randomization on or off.
func TestDefaultRangeNarrowsAtTheLimit(t *testing.T) {
	v, tr := ks0223(t)
	steep, err := plugins.ApplyVehicleConfig(v, map[string]any{"camera.pitch_deg": 88.0})
	if err != nil {
		t.Fatal(err)
	}
	on := parseBlock(t, "randomization: {vehicle: {mass: 0.1}}")
	lo, hi := math.Inf(1), math.Inf(-1)
	for seed := range int64(200) {
		d, err := on.Sample(seed, steep, tr)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		p := d.Vehicle["camera.pitch_deg"].(float64)
		lo, hi = min(lo, p), max(hi, p)
	}
	if lo < 84 || lo > 84.2 || hi > 90 || hi < 89.8 {
		t.Errorf("pitch drawn over %g..%g, want 84..90 spread across", lo, hi)
	}
	if _, err := parseBlock(t, "randomization: {sensors: {camera_pitch_deg: 4}}").Sample(1, steep, tr); err == nil ||
		!strings.Contains(err.Error(), "draws camera.pitch_deg from 84 to 92; it takes -90..90") {
		t.Errorf("a named range past the limit: %v, want it refused", err)
	}
	for _, block := range []string{"", "randomization: {enabled: false}\n"} {
		src := "world: {trackId: track.cardboard_corridor.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1, params: {camera.pitch_deg: 88}}\n" + block
		sc, err := Parse([]byte(src), "steep.yaml")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Resolve(sc, plugins.Builtin()); err != nil {
			t.Errorf("a camera pitched 88° with %q: %v", block, err)
		}
	}
}

// TestSetAllRefusesUndrawnRanges gives ranges to a block that is off: without a word on
// enabled they are refused (they would not be drawn), with enabled=true they are drawn, with
// enabled=false they are kept unused; a bad range names its key.
func TestSetAllRefusesUndrawnRanges(t *testing.T) {
	mass := Override{Key: "randomization.vehicle.mass", Name: "vehicle.mass", Value: "0.5,2"}
	for _, c := range []struct {
		os      []Override
		wantErr string
		enabled bool
	}{
		{[]Override{mass}, "randomization.vehicle.mass: randomization is off", false},
		{[]Override{mass, {Key: "e", Name: "enabled", Value: "true"}}, "", true},
		{[]Override{{Key: "e", Name: "enabled", Value: "false"}, mass}, "", false},
		{[]Override{{Key: "k", Name: "sensors.vignette", Value: "0,3"}}, "k: 0..3 reaches past the limit", false},
		// A factor's 1 − 0.9 is written 0.1, not 0.09999999999999998.
		{[]Override{{Key: "k", Name: "sensors.camera_focal", Value: "0.9"}}, "k: 0.1..1.9 reaches past the limit", false},
		{nil, "", false},
	} {
		var r Randomization
		err := r.SetAll(c.os)
		if c.wantErr == "" && err != nil || c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)) {
			t.Errorf("%+v: error %v, want %q", c.os, err, c.wantErr)
		}
		if err == nil && r.Enabled != c.enabled {
			t.Errorf("%+v: enabled %v, want %v", c.os, r.Enabled, c.enabled)
		}
	}
	on := Randomization{Enabled: true}
	if err := on.SetAll([]Override{mass}); err != nil {
		t.Errorf("ranges for a block that is on: %v", err)
	}
}

// TestScenariosDocHasTheRandomizationTable holds docs/SCENARIOS.md's table to RandomParams
// and its example block to what ParseRandomization takes.
func TestScenariosDocHasTheRandomizationTable(t *testing.T) {
	b, err := os.ReadFile("../../docs/SCENARIOS.md")
	if err != nil {
		t.Fatal(err)
	}
	want, err := SpliceRandomDocs(string(b))
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != want {
		t.Fatal("docs/SCENARIOS.md's randomization table is out of date: run go generate ./app/scenario")
	}
	_, rest, _ := strings.Cut(string(b), "## Domain randomization")
	_, rest, _ = strings.Cut(rest, "```yaml\n")
	example, _, _ := strings.Cut(rest, "```")
	var doc struct {
		Randomization yaml.Node `yaml:"randomization"`
	}
	if err := yaml.Unmarshal([]byte(example), &doc); err != nil {
		t.Fatal(err)
	}
	r, err := ParseRandomization(&doc.Randomization)
	if err != nil {
		t.Fatalf("the doc's example: %v", err)
	}
	if !r.Enabled || r.RangeOf("vehicle.mass") != (Range{Lo: 0.8, Hi: 1.2}) || r.RangeOf("visual.distractors") != (Range{Lo: 2, Hi: 10}) {
		t.Fatalf("the doc's example reads as enabled %v, mass %+v, distractors %+v", r.Enabled, r.RangeOf("vehicle.mass"), r.RangeOf("visual.distractors"))
	}
}

// TestBuildableTrackRedraws: track params each within their schema that do not build
// together (the corridor's width drawn past what its length allows) are drawn again from
// streams of their own, the same for the same seed, and the draw's values say the params that
// built; a first draw that builds is kept as Sample drew it.
func TestBuildableTrackRedraws(t *testing.T) {
	r := parseBlock(t, "randomization: {track: {width: schema}}\n")
	v, tr := ks0223(t)
	base := map[string]any{"length": 2.0}
	redrawn := 0
	for seed := range int64(40) {
		d, err := r.Sample(seed, v, tr)
		if err != nil {
			t.Fatal(err)
		}
		first := d.Track["width"]
		params, err := r.BuildableTrack(&d, tr, base, TrackBuilds(tr, seed))
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if err := TrackBuilds(tr, seed)(params); err != nil || params["length"] != 2.0 || params["width"] != d.Track["width"] {
			t.Fatalf("seed %d: params %v (%v), draw %v", seed, params, err, d.Track)
		}
		if TrackBuilds(tr, seed)(map[string]any{"length": 2.0, "width": first}) == nil {
			if d.Track["width"] != first {
				t.Errorf("seed %d: a first draw that builds (%g) was redrawn (%g)", seed, first, d.Track["width"])
			}
		} else {
			redrawn++
		}
		var listed float64
		for _, x := range d.Values {
			if x.Key == "track.width" {
				listed = x.Value
			}
		}
		if listed != d.Track["width"] {
			t.Errorf("seed %d: the draw lists width %g, the params have %g", seed, listed, d.Track["width"])
		}
		again, _ := r.Sample(seed, v, tr)
		if p2, _ := r.BuildableTrack(&again, tr, base, TrackBuilds(tr, seed)); p2["width"] != params["width"] {
			t.Errorf("seed %d: width %v, then %v", seed, params["width"], p2["width"])
		}
	}
	if redrawn == 0 {
		t.Fatal("no seed drew a width the corridor refuses: the test checks no redraw")
	}
	// Nothing builds: the error says so after MaxTrackRedraws draws.
	d, _ := r.Sample(1, v, tr)
	calls := 0
	_, err := r.BuildableTrack(&d, tr, base, func(map[string]any) error { calls++; return errors.New("never") })
	if err == nil || calls != MaxTrackRedraws || !strings.Contains(err.Error(), "narrow the ranges") {
		t.Errorf("%d builds, error %v", calls, err)
	}
}

// Ranges given that no vehicle can take are refused, naming them; defaults that do not apply
// (the quadcopter's motor gains) and ranges some vehicle of a fleet takes are not.
func TestInapplicableRanges(t *testing.T) {
	cat := plugins.Builtin()
	drone, err := cat.Vehicle("vehicle.drone.simple.v1")
	if err != nil {
		t.Fatal(err)
	}
	car, err := cat.Vehicle("vehicle.ks0223.v1")
	if err != nil {
		t.Fatal(err)
	}
	r := &Randomization{Enabled: true}
	if err := r.Inapplicable(drone); err != nil {
		t.Errorf("defaults only: %v", err)
	}
	if err := r.SetAll([]Override{{Key: "vehicle.motor_gain_left", Name: "vehicle.motor_gain_left", Value: "0.3"},
		{Key: "sensors.sonar_noise", Name: "sensors.sonar_noise", Value: "0,0.05"}, {Key: "vehicle.mass", Name: "vehicle.mass", Value: "0.2"}}); err != nil {
		t.Fatal(err)
	}
	err = r.Inapplicable(drone)
	if err == nil || !strings.Contains(err.Error(), "randomization.vehicle.motor_gain_left: no vehicle here has what it draws (vehicle.drone.simple.v1)") ||
		!strings.Contains(err.Error(), "randomization.sensors.sonar_noise") || strings.Contains(err.Error(), "vehicle.mass") {
		t.Errorf("a drone given motor gains and sonar noise: %v", err)
	}
	if err := r.Inapplicable(drone, car); err != nil {
		t.Errorf("a fleet with a car takes them: %v", err)
	}
}

// A field-of-view range for a camera given its focal length in pixels would draw a fovDeg the
// camera leaves unused: it is refused, pointing at sensors.camera_focal, and nothing is drawn
// for such a camera; a camera drawn from its fovDeg still takes it.
func TestFovRangeRefusedForCalibratedCamera(t *testing.T) {
	car, err := plugins.Builtin().Vehicle("vehicle.ks0223.v1")
	if err != nil {
		t.Fatal(err)
	}
	calibrated, err := plugins.ApplyVehicleConfig(car, map[string]any{"sensor.camera.front.rgb.fx": 400.0})
	if err != nil {
		t.Fatal(err)
	}
	r := &Randomization{Enabled: true}
	if err := r.SetAll([]Override{{Key: "sensors.camera_fov_deg", Name: "sensors.camera_fov_deg", Value: "5"}}); err != nil {
		t.Fatal(err)
	}
	if err := r.Inapplicable(car); err != nil {
		t.Errorf("a camera drawn from its fovDeg: %v", err)
	}
	err = r.Inapplicable(calibrated)
	if err == nil || !strings.Contains(err.Error(), "randomization.sensors.camera_fov_deg: the camera is given its focal length in pixels (fx or fy)") ||
		!strings.Contains(err.Error(), "sensors.camera_focal") {
		t.Errorf("a calibrated camera given a field-of-view range: %v", err)
	}
	d, err := r.Sample(1, calibrated, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range d.Values {
		if v.Param == "sensors.camera_fov_deg" {
			t.Errorf("drew %s = %v for a calibrated camera", v.Key, v.Value)
		}
	}
	d, err = r.Sample(1, car, nil)
	if err != nil {
		t.Fatal(err)
	}
	if x, ok := d.Vehicle["camera.fov_deg"].(float64); !ok || x < 63 || x > 73 {
		t.Errorf("camera.fov_deg drawn for the car: %v", d.Vehicle["camera.fov_deg"])
	}
}
