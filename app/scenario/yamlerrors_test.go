package scenario

import (
	"strings"
	"testing"
)

// A value of the wrong kind is reported with its key path and the kinds wanted and found, in
// the user's terms: no Go type names, no yaml.v3 tags.
func TestTypeErrorsNameTheKeyAndKind(t *testing.T) {
	for _, tc := range []struct{ yaml, want string }{
		{"just a string\n", "t.yaml: line 1: the scenario must be a mapping of keys (scenarioId, world, vehicle, ...), not a string"},
		{"[1, 2]\n", "t.yaml: line 1: the scenario must be a mapping of keys (scenarioId, world, vehicle, ...), not a list"},
		{"world: 5\n", "t.yaml: line 1: world must be a mapping, not a number"},
		{"world: {trackId: track.basic_arena.v1}\nvehicle: [a]\n", "t.yaml: line 2: vehicle must be a mapping, not a list"},
		{"world: {trackId: track.basic_arena.v1, params: 3}\n", "t.yaml: line 1: world.params must be a mapping, not a number"},
		{"runtime:\n  stepSize: fast\n", "t.yaml: line 2: runtime.stepSize must be a number, not a string"},
		{"runtime:\n  seed: 1e30\n", "t.yaml: line 2: runtime.seed: 1e30 is outside the range -9223372036854775808..9223372036854775807"},
		{"runtime: {headless: maybe}\n", "t.yaml: line 1: runtime.headless must be true or false, not a string"},
		{"version: {a: 1}\n", "t.yaml: line 1: version must be a whole number, not a mapping"},
		{"agents:\n  vehicles:\n    - {vehicleId: vehicle.ks0223.v1}\n    - {vehicleId: [x]}\n", "t.yaml: line 4: agents.vehicles[1].vehicleId must be a string, not a list"},
		{"route: {waypoints: [[0, 0], [1, north]]}\n", "t.yaml: line 1: route.waypoints[1][1] must be a number, not a string"},
		{"plugins: {type: systems.timeline_publisher}\n", "t.yaml: line 1: plugins must be a list, not a mapping"},
		{"agents:\n  vehicles:\n    - spawnPose: {position: [1, x]}\n", "t.yaml: line 3: agents.vehicles[0].spawnPose.position[1] must be a number, not a string"},
		{"runtime:\n  seed: 1.5\n", "t.yaml: line 2: runtime.seed must be a whole number, not 1.5"},
		{"agents: {count: 2.5}\n", "t.yaml: line 1: agents.count must be a whole number, not 2.5"},
		// Errors that were already in the user's terms stay as they were.
		{"vehicel: {vehicleId: vehicle.ks0223.v1}\n", `t.yaml: line 1: unknown key "vehicel" in the top level`},
	} {
		_, err := Parse([]byte(tc.yaml), "t.yaml")
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q:\n got %v\nwant %s", tc.yaml, err, tc.want)
		}
		if err != nil && (strings.Contains(err.Error(), "scenario.") || strings.Contains(err.Error(), "!!")) {
			t.Errorf("%q: Go or yaml.v3 words in %q", tc.yaml, err)
		}
	}
}

// A whole number written as a float is taken as it is.
func TestWholeFloatsAreWholeNumbers(t *testing.T) {
	s, err := Parse([]byte("runtime: {seed: 1e3}\nagents: {count: 4.0}\n"), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if s.Runtime.Seed != 1000 || s.Agents.Count == nil || *s.Agents.Count != 4 {
		t.Fatalf("seed %d, count %v; want 1000 and 4", s.Runtime.Seed, s.Agents.Count)
	}
}

// A scenario file is one YAML document: a second one after "---" was ignored, unread even for
// its syntax, so that two scenarios pasted into one file ran the first alone without a word.
// A trailing "---" or "..." with nothing after it is still fine.
func TestSecondDocumentRefused(t *testing.T) {
	one := "world: {trackId: track.maze.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}\n"
	for _, c := range []struct{ in, want string }{
		{one + "---\nworld: {trackId: track.basic_arena.v1}\n", "f.yaml: line 4: a second YAML document"},
		{one + "---\n: : [\n", "f.yaml: line"},
	} {
		if _, err := Parse([]byte(c.in), "f.yaml"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one containing %q", c.in, err, c.want)
		}
	}
	for _, in := range []string{one, "---\n" + one, one + "---\n", one + "...\n", one + "---\n# the end\n"} {
		if _, err := Parse([]byte(in), "f.yaml"); err != nil {
			t.Errorf("%q: %v", in, err)
		}
	}
}
