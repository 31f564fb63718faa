package app

import (
	"context"
	"regexp"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

// kindsFace is a test face with a setting of each kind.
type kindsFace struct {
	Origins []string      `yaml:"origins"`
	Port    int           `yaml:"port"`
	Small   uint8         `yaml:"small"`
	Ratio   float64       `yaml:"ratio"`
	Wait    time.Duration `yaml:"wait"`
	Limits  struct {
		Max int `yaml:"max"`
	} `yaml:"limits"`
}

func (f *kindsFace) Start(context.Context, *Host) error { return nil }
func (f *kindsFace) Shutdown(context.Context) error     { return nil }

func init() {
	RegisterFace(FaceModule{ID: "faces.kinds", New: func() Face { return &kindsFace{} }, OnWith: "port", Doc: "a test face with settings of each kind"})
}

// goWords are what a face error must not show: yaml.v3's tags, Go type names, its header.
var goWords = regexp.MustCompile(`!!|\b[a-z]+\.[A-Z]\w*|\[\][a-z]|\bu?int\d*\b|float\d+|unmarshal|\n`)

// Settings of the wrong kind are reported with the face's key path and the kinds wanted and
// found, on one line; the settings are values by now, so no line numbers, and numbers are
// written as Go writes them (1e30 as 1e+30).
func TestFaceSettingsInTheUsersTerms(t *testing.T) {
	for _, tc := range []struct{ yaml, want string }{
		{"kinds: {origins: 5}", "faces.kinds.origins must be a list, not a number"},
		{"kinds: {port: abc}", "faces.kinds.port must be a whole number, not a string"},
		{"probe: {port: abc}", "faces.probe.port must be a whole number, not a string"},
		{"kinds: {port: 2.5}", "faces.kinds.port must be a whole number, not 2.5"},
		{"kinds: {port: 1e30}", "faces.kinds.port: 1e+30 is outside the range -9223372036854775808..9223372036854775807"},
		{"kinds: {small: 300}", "faces.kinds.small: 300 is outside the range 0..255"},
		{"kinds: {small: -1}", "faces.kinds.small: -1 is outside the range 0..255"},
		{"kinds: {ratio: fast}", "faces.kinds.ratio must be a number, not a string"},
		{"kinds: {wait: soon}", `faces.kinds.wait must be a duration such as 30s or 1m30s, not "soon"`},
		{"kinds: {wait: 5}", "faces.kinds.wait must be a duration such as 30s or 1m30s, not a number"},
		{"kinds: {limits: {max: 1.5}}", "faces.kinds.limits.max must be a whole number, not 1.5"},
		{"kinds: {limits: {mx: 1}}", `unknown key "mx" in faces.kinds.limits (known: max)`},
		{"kinds: {port: abc, origins: {a: 1}}", "faces.kinds.origins must be a list, not a mapping; faces.kinds.port must be a whole number, not a string"},
		{"kinds: 5", "faces.kinds: want true, false or a mapping of settings, not a number"},
		{"kinds: [a]", "faces.kinds: want true, false or a mapping of settings, not a list"},
		{"kinds: {prot: 1}", `faces.kinds: unknown setting "prot" (known: limits, origins, port, ratio, small, wait, enabled)`},
	} {
		var set map[string]any // as a scenario's faces block is read
		if err := yaml.Unmarshal([]byte(tc.yaml), &set); err != nil {
			t.Fatal(err)
		}
		_, err := Faces(FaceSettings(set))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s:\n got %v\nwant %s", tc.yaml, err, tc.want)
		}
		if err != nil && goWords.MatchString(err.Error()) {
			t.Errorf("%s: Go or yaml.v3 words in %q", tc.yaml, err)
		}
	}
	// Whole numbers written as floats are taken.
	faces, err := Faces(FaceSettings{"kinds": map[string]any{"enabled": true, "port": 8.0, "small": 2.0, "wait": "1.5s"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range faces {
		if k, ok := f.(*kindsFace); ok && (k.Port != 8 || k.Small != 2 || k.Wait != 1500*time.Millisecond) {
			t.Fatalf("decoded %+v", k)
		}
	}
}

// A face that is off by default comes up when it is given its OnWith setting (here port),
// unless a layer turns it off; its other settings only tune it.
func TestOnWithTurnsAFaceOn(t *testing.T) {
	on := func(layers ...FaceSettings) bool {
		t.Helper()
		faces, err := Faces(layers...)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range faces {
			if _, ok := f.(*kindsFace); ok {
				return true
			}
		}
		return false
	}
	port := map[string]any{"port": 8.0}
	for _, c := range []struct {
		name   string
		layers []FaceSettings
		want   bool
	}{
		{"nothing", nil, false},
		{"an empty mapping", []FaceSettings{{"kinds": map[string]any{}}}, false},
		{"other settings", []FaceSettings{{"kinds": map[string]any{"ratio": 0.5}}}, false},
		{"its OnWith setting", []FaceSettings{{"kinds": port}}, true},
		{"OnWith, enabled: false", []FaceSettings{{"kinds": map[string]any{"port": 8.0, "enabled": false}}}, false},
		{"OnWith, then false", []FaceSettings{{"kinds": port}, {"kinds": false}}, false},
		{"false, then OnWith", []FaceSettings{{"kinds": false}, {"kinds": port}}, false},
		{"true", []FaceSettings{{"kinds": true}}, true},
	} {
		if got := on(c.layers...); got != c.want {
			t.Errorf("%s: on %v, want %v", c.name, got, c.want)
		}
	}
}
