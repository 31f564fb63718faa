package scenario

import (
	"math"
	"strings"
	"testing"
)

// TestRuntimeTimeScale: runtime.timeScale takes what a loop can keep (world.CheckTimeScale).
func TestRuntimeTimeScale(t *testing.T) {
	const head = "world: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}\nruntime: {timeScale: "
	for _, ok := range []string{"0", "0.25", "1000", "1e6"} {
		if p, err := resolveText(t, head+ok+"}\n"); err != nil || p == nil {
			t.Errorf("timeScale %s: %v", ok, err)
		}
	}
	for _, bad := range []string{".nan", ".inf", "-.inf", "-1", "1e18", "1000001"} {
		_, err := resolveText(t, head+bad+"}\n")
		if err == nil || !strings.Contains(err.Error(), "runtime.timeScale: ") {
			t.Errorf("timeScale %s: %v", bad, err)
		}
	}
}

// TestActionPeriodFollowsALongStep: an unset actionPeriod is the default 0.05 s, or one step
// when stepSize is longer; one set shorter than the step, or between whole steps, is refused.
func TestActionPeriodFollowsALongStep(t *testing.T) {
	const head = "world: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}\nruntime: "
	for _, tc := range []struct {
		runtime string
		want    float64
		steps   int
	}{{"{stepSize: 0.01}", 0.05, 5}, {"{stepSize: 0.1}", 0.1, 1}, {"{stepSize: 0.1, actionPeriod: 0.3}", 0.3, 3},
		{"{stepSize: 0.01, actionPeriod: 0.1}", 0.1, 10}, {"{}", 0.05, 10},
		// An unset period is the default in whole steps; 1/60 s written in decimals is a step.
		{"{stepSize: 0.003}", 0.051, 17}, {"{stepSize: 0.03}", 0.06, 2}, {"{stepSize: 0.0166667, actionPeriod: 0.0500001}", 0.0500001, 3}} {
		p, err := resolveText(t, head+tc.runtime+"\n")
		if err != nil {
			t.Errorf("%s: %v", tc.runtime, err)
			continue
		}
		if math.Abs(p.ActionPeriod-tc.want) > 1e-12 || p.ActionSteps != tc.steps {
			t.Errorf("%s: actionPeriod %g in %d steps, want %g in %d", tc.runtime, p.ActionPeriod, p.ActionSteps, tc.want, tc.steps)
		}
	}
	// Between whole steps, the period would be rounded: it is refused, with the two nearest.
	_, err := resolveText(t, head+"{stepSize: 0.01, actionPeriod: 0.015}\n")
	if err == nil || !strings.Contains(err.Error(), "runtime.actionPeriod: 0.015 s is not a whole number of 0.01 s physics steps (0.01 or 0.02 s would be)") {
		t.Errorf("a period between steps: %v", err)
	}
	_, err = resolveText(t, head+"{stepSize: 0.1, actionPeriod: 0.05}\n")
	if err == nil || !strings.Contains(err.Error(), "runtime.actionPeriod: 0.05 s is shorter than the step 0.1 s") {
		t.Errorf("a set period shorter than the step: %v", err)
	}
}

// A randomization block whose draw cannot work is refused when the scenario loads, on or
// off, as the fast path refuses it at open: not at every reset of the training API.
func TestRandomizationDrawCheckedAtLoad(t *testing.T) {
	const head = "world: {trackId: track.cardboard_corridor.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}\n"
	for _, block := range []string{
		"randomization: {track: {length: schema, nonexist: schema}}\n",
		"randomization: {enabled: false, track: {nonexist: 1}}\n",
	} {
		_, err := resolveText(t, head+block)
		if err == nil || !strings.Contains(err.Error(), `randomization.track.nonexist: the track track.cardboard_corridor.v1 has no numeric parameter "nonexist"`) {
			t.Errorf("%s: %v", block, err)
		}
	}
	if _, err := resolveText(t, head+"randomization: {track: {length: schema}}\n"); err != nil {
		t.Errorf("a track parameter the track has: %v", err)
	}
}

// A group or enabled given twice is refused, as a parameter given twice in a group is: the
// groups would merge and the last enabled win, unseen; enabled takes a YAML boolean only.
func TestRandomizationKeysOnce(t *testing.T) {
	const head = "world: {trackId: track.cardboard_corridor.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}\n"
	for block, want := range map[string]string{
		"randomization:\n  visual: {textures: 1}\n  visual: {textures: 0.2, ambient: 0.3}\n": "randomization.visual (line 5): given twice",
		"randomization:\n  enabled: false\n  enabled: true\n":                                "randomization.enabled (line 5): given twice",
		"randomization:\n  enabled: \"yes\"\n":                                               `randomization.enabled (line 4): want true or false, not "yes"`,
	} {
		if _, err := resolveText(t, head+block); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", block, err, want)
		}
	}
	if p, err := resolveText(t, head+"randomization:\n  enabled: false\n  visual: {textures: 1}\n"); err != nil || p == nil {
		t.Errorf("a block off with a group: %v", err)
	}
}

// A group or range given by a YAML alias reads as its anchor.
func TestRandomizationAliases(t *testing.T) {
	const head = "world: {trackId: track.cardboard_corridor.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}\n"
	p, err := resolveText(t, head+"randomization:\n  vehicle: &v {mass: &m [0.9, 1.1]}\n  sensors: {camera_pitch_deg: *m}\n")
	if err != nil {
		t.Fatal(err)
	}
	r, err := ParseRandomization(&p.Scenario.Randomization)
	if err != nil || r.RangeOf("sensors.camera_pitch_deg") != (Range{Lo: 0.9, Hi: 1.1}) {
		t.Errorf("an aliased range: %v %+v", err, r)
	}
}
