package systems_test

import (
	"regexp"
	"testing"

	"simgui/app/scenario"
	"simgui/app/systems/gztopics"
	_ "simgui/app/systems/standard"
	"simgui/plugins"
)

// goWords are what a config error must not show: yaml.v3's tags, Go type names, its header.
var goWords = regexp.MustCompile(`!!|\b[a-z]+\.[A-Z]\w*|\[\][a-z]|\bint\d*\b|float\d+|unmarshal|\n`)

// A plugin's config of the wrong kind is reported, through the scenario, with the line in the
// scenario file, the key path under config and the kinds wanted and found.
func TestConfigErrorsInTheUsersTerms(t *testing.T) {
	const head = "world: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}\nplugins:\n"
	const timeline = "t.yaml: plugins[0]: system systems.timeline_publisher: "
	const topics = "t.yaml: plugins[0]: system systems.gz_topics: "
	for _, tc := range []struct{ plugins, want string }{
		{"  - type: systems.timeline_publisher\n    config: {keyframes: 5}\n",
			timeline + "line 5: config.keyframes must be a list, not a number"},
		{"  - type: systems.timeline_publisher\n    config:\n      loop: true\n      keyframes:\n        - time: 0\n          services: [{name: /s, timeout: soon}]\n",
			timeline + "line 9: config.keyframes[0].services[0].timeout must be a whole number, not a string"},
		{"  - type: systems.timeline_publisher\n    config:\n      keyframes:\n        - {time: 0, services: [{name: /s, timeout: 1.5}]}\n",
			timeline + "line 7: config.keyframes[0].services[0].timeout must be a whole number, not 1.5"},
		{"  - type: systems.timeline_publisher\n    config:\n      keyframes:\n        - {time: 0, output: []}\n",
			timeline + `line 7: unknown key "output" in config.keyframes[0] (known: outputs, services, time)`},
		{"  - type: systems.timeline_publisher\n    config: {period: [1]}\n",
			timeline + "line 5: config.period must be a number, not a list"},
		{"  - type: systems.gz_topics\n    config: {queueLen: abc}\n",
			topics + "line 5: config.queueLen must be a whole number, not a string"},
		{"  - type: systems.gz_topics\n    config: {queueLen: 2.5}\n",
			topics + "line 5: config.queueLen must be a whole number, not 2.5"},
		{"  - type: systems.gz_topics\n    config: {queueLen: 1e30}\n",
			topics + "line 5: config.queueLen: 1e30 is outside the range -9223372036854775808..9223372036854775807"},
		{"  - type: systems.gz_topics\n    config:\n      queueLen: 99999999999999999999\n",
			topics + "line 6: config.queueLen: 99999999999999999999 is outside the range -9223372036854775808..9223372036854775807"},
	} {
		sc, err := scenario.Parse([]byte(head+tc.plugins), "t.yaml")
		if err != nil {
			t.Fatalf("%q: %v", tc.plugins, err)
		}
		_, err = scenario.Resolve(sc, plugins.Builtin())
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q:\n got %v\nwant %s", tc.plugins, err, tc.want)
		}
		if err != nil && goWords.MatchString(err.Error()) {
			t.Errorf("%q: Go or yaml.v3 words in %q", tc.plugins, err)
		}
	}
}

// A whole number written as a float is taken, as the scenario takes it.
func TestConfigWholeFloats(t *testing.T) {
	src := "world: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}\n" +
		"plugins:\n  - type: systems.gz_topics\n    config: {queueLen: 4.0}\n"
	sc, err := scenario.Parse([]byte(src), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	plan, err := scenario.Resolve(sc, plugins.Builtin())
	if err != nil {
		t.Fatalf("queueLen: 4.0 refused: %v", err)
	}
	var got []int
	for _, b := range plan.Systems {
		if a, ok := b.System.(*gztopics.Adapter); ok {
			got = append(got, a.QueueLen)
		}
	}
	if len(got) != 1 || got[0] != 4 {
		t.Fatalf("queueLen: 4.0 decoded as %v, want one systems.gz_topics with queueLen 4", got)
	}
}
