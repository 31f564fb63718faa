package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"simgui/app/world"
	"simgui/plugins/archive"
)

func TestCheckFinite(t *testing.T) {
	snap := &world.Snapshot{Step: 7, Models: []world.ModelState{{Name: "ego"}, {Name: "b", Pose: world.Pose{X: math.NaN()}}}}
	if err := checkFinite(snap); err == nil || !strings.Contains(err.Error(), "model b has pose x=NaN") || !strings.Contains(err.Error(), "step 7") {
		t.Errorf("NaN pose: %v", err)
	}
	snap.Models[1].Pose.X, snap.Models[1].Speed = 1, math.Inf(1)
	if err := checkFinite(snap); err == nil {
		t.Error("an infinite speed passed")
	}
	snap.Models[1].Speed = 0
	if err := checkFinite(snap); err != nil {
		t.Error(err)
	}
}

// Hostile numbers in scenarios are refused with one line naming the key and the range, and
// the same numbers in a plugin are refused by install and validate alike, before any run.
func TestHostileNumbersRefused(t *testing.T) {
	home, work := filepath.Join(t.TempDir(), "rusim"), t.TempDir()
	scenario := func(name, body string) string {
		p := filepath.Join(work, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct{ name, yaml, want string }{
		{"far.yaml", "world: {trackId: track.basic_arena.v1}\nagents:\n  vehicles:\n    - {vehicleId: vehicle.ks0223.v1, spawnPose: {position: [1e308, 0], yawDeg: 0}}\n",
			"far.yaml: agents.vehicles[0].spawnPose.position.x: 1e+308 is outside the range -10000..10000 m"},
		{"nan.yaml", "world: {trackId: track.basic_arena.v1}\nagents:\n  vehicles:\n    - {vehicleId: vehicle.ks0223.v1, spawnPose: {position: \"nan,0\"}}\n",
			"nan.yaml: agents.vehicles[0].spawnPose.position.x: NaN is not a finite number"},
		{"nanlit.yaml", "world: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}\nruntime: {stepSize: .nan}\n",
			"nanlit.yaml: line 3: runtime.stepSize: .nan is not a finite number"},
		{"mass.yaml", "world: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1, params: {mass: \"1e-300\"}}\n",
			"mass.yaml: vehicle.params.mass: 1e-300 is outside the range 0.01..10000 kg"},
		{"speed.yaml", "world: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1, params: {max_speed: \"NaN\"}}\n",
			`speed.yaml: vehicle.params.max_speed: "NaN" is not a finite number`},
		{"route.yaml", "world: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}\nroute: {waypoints: [[0, 0], [1e300, 0]]}\n",
			"route.yaml: route.waypoints[1][0]: 1e+300 is outside the range -10000..10000 m"},
		// The track's schema lets this spawn point through; the layout it makes is checked.
		{"spawn.yaml", "world: {trackId: track.basic_arena.v1, params: {spawn.position: \"99999999,0\"}}\nvehicle: {vehicleId: vehicle.ks0223.v1}\n",
			"world.params: the parameters make a layout out of range: layout.spawnPoints[0].x: 9.9999999e+07 is outside the range -10000..10000 m"},
	} {
		pluginFails(t, home, tc.want, "run", "--headless", "--steps", "10", "--scenario", scenario(tc.name, tc.yaml))
	}

	// A vehicle with a body of 1e-300 m, a rate of 1e6 Hz and a 100000-pixel frame.
	const id = "vehicle.acme.rover.v1"
	pluginCLI(t, home, "plugin", "new", "--type", "vehicle", id, "--output-dir", work)
	project := filepath.Join(work, id)
	editJSON(t, filepath.Join(project, "descriptor.json"), func(m map[string]any) {
		m["body"].(map[string]any)["length"] = 1e-300
	})
	editJSON(t, filepath.Join(project, "device-contract.json"), func(m map[string]any) {
		s := m["sensors"].([]any)[0].(map[string]any)
		s["rateHz"] = 1e6
		s["shape"] = []any{100000, 100000, 3}
	})
	for _, want := range []string{
		"descriptor.body.length: 1e-300 is outside the range 0.01..50 m",
		"device-contract.sensors[0].rateHz: 1e+06 is outside the range 0.01..1000 Hz",
		"device-contract.sensors[0].shape: [100000 100000 3]: a frame of 100000×100000 pixels is over 4096 a side",
	} {
		out, _, code := simgui(t, []string{"RUSIM_HOME=" + home}, "plugin", "validate", project)
		if code != 1 || !strings.Contains(out, want) {
			t.Errorf("validate: exit %d, stdout %q lacks %q", code, out, want)
		}
	}
	// export refuses it too, so it cannot be packed; pack it by hand to try install.
	archive := filepath.Join(work, id+".rusim-plugin.zip")
	zipFolder(t, project, archive)
	pluginFails(t, home, "descriptor.body.length: 1e-300 is outside the range 0.01..50 m", "plugin", "install", archive)
}

// zipFolder packs a plugin folder as an archive without validating it (export would refuse).
func zipFolder(t *testing.T, dir, out string) {
	t.Helper()
	a, err := archive.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.WriteFile(out); err != nil {
		t.Fatal(err)
	}
}
