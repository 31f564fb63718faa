package scaffold

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"simgui/plugins"
	"simgui/plugins/archive"
	_ "simgui/plugins/trackgen" // declares the generators validation checks
)

// The templates make projects that validate as they are, for both types, with the
// placeholders replaced — quotes in a display name included.
func TestNewMakesValidProjects(t *testing.T) {
	for _, tc := range []struct {
		typ   plugins.Type
		id    string
		files []string
	}{
		{plugins.TypeVehicle, "vehicle.acme.rover.v1", []string{"README.md", "descriptor.json", "device-contract.json", "manifest.json"}},
		{plugins.TypeTrack, "track.yard.v1", []string{"README.md", "descriptor.json", "manifest.json"}},
	} {
		dir := t.TempDir()
		rep, err := New(Options{Type: tc.typ, ID: tc.id, OutputDir: dir, DisplayName: `The "Best" \ one`, Author: "Ann <ann@example.com>"})
		if err != nil {
			t.Fatal(err)
		}
		root := filepath.Join(dir, tc.id)
		if rep.Action != "new" || rep.CreatedAt != root || !slices.Equal(rep.Files, tc.files) || rep.DisplayName != `The "Best" \ one` {
			t.Errorf("report %+v", rep)
		}
		a, err := archive.ReadDir(root)
		if err != nil {
			t.Fatal(err)
		}
		p, ps := a.Plugin()
		if len(ps) != 0 {
			t.Fatalf("%s: %v", tc.id, ps)
		}
		if p.ID() != tc.id || p.Manifest.DisplayName != `The "Best" \ one` || p.Manifest.Author != "Ann <ann@example.com>" {
			t.Errorf("manifest %+v", p.Manifest)
		}
		readme, _ := a.File("README.md")
		if !strings.Contains(string(readme), `# The "Best" \ one (`+tc.id+")") || strings.Contains(string(readme), "{{") {
			t.Errorf("README:\n%s", readme)
		}
		if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) != 0 {
			t.Errorf("temporary folders left: %v", left)
		}
	}
}

func TestNewDefaultsAndErrors(t *testing.T) {
	dir := t.TempDir()
	rep, err := New(Options{Type: plugins.TypeTrack, ID: "track.city_demo.v1", OutputDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "track.city_demo.v1", "descriptor.json"))
	var d struct{ DisplayName, Description string }
	json.Unmarshal(b, &d)
	if rep.DisplayName != "Track City Demo V1" || d.Description != "Track City Demo V1 plugin for simgui." {
		t.Errorf("defaults %q %q", rep.DisplayName, d.Description)
	}
	for _, tc := range []struct {
		o    Options
		want string
	}{
		{Options{Type: plugins.TypeTrack, ID: "track.city_demo.v1", OutputDir: dir}, "Output directory already exists: " + filepath.Join(dir, "track.city_demo.v1")},
		{Options{Type: "robot", ID: "track.x.v1"}, "Invalid plugin type: 'robot' (expected 'vehicle' or 'track')"},
		{Options{Type: plugins.TypeVehicle, ID: "track.x.v1"}, `plugin id "track.x.v1" is a track id, but --type is vehicle`},
		{Options{Type: plugins.TypeVehicle, ID: "vehicle.rover.v1"}, `plugin id "vehicle.rover.v1" does not follow`},
		{Options{Type: plugins.TypeVehicle, ID: "vehicle.acme.rover.v2"}, "a new plugin starts at version 1.0.0: use .v1"},
		{Options{Type: plugins.TypeVehicle, ID: "../vehicle.acme.rover.v1"}, "does not follow"},
	} {
		if _, err := New(tc.o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%+v) = %v, want %q", tc.o, err, tc.want)
		}
	}
}
