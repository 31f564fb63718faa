package registry

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"simgui/plugins"
	"simgui/plugins/scaffold"
)

func TestInstallListInfoRemove(t *testing.T) {
	r := newRegistry(t)
	zip := projectZip(t, plugins.TypeVehicle, "vehicle.acme.rover.v1")
	rep := mustInstall(t, r, zip, InstallOptions{})
	want := InstallReport{Action: "install", PluginID: "vehicle.acme.rover.v1", Type: "vehicle", DisplayName: "Vehicle Acme Rover V1",
		Version: "1.0.0", InstalledTo: filepath.Join(r.Home(), "plugins", "vehicle.acme.rover.v1")}
	if rep.Warnings != nil || rep.Action != want.Action || rep.InstalledTo != want.InstalledTo || rep.DisplayName != want.DisplayName {
		t.Errorf("report %+v", rep)
	}

	// plugin-registry.json is rusim's format.
	b, err := os.ReadFile(filepath.Join(r.Home(), FileName))
	if err != nil {
		t.Fatal(err)
	}
	var raw struct {
		SchemaVersion int              `json:"schemaVersion"`
		Plugins       []map[string]any `json:"plugins"`
	}
	if err := json.Unmarshal(b, &raw); err != nil || raw.SchemaVersion != 1 || len(raw.Plugins) != 1 {
		t.Fatalf("registry file %s", b)
	}
	e := raw.Plugins[0]
	if e["pluginId"] != "vehicle.acme.rover.v1" || e["type"] != "vehicle" || e["version"] != "1.0.0" || e["author"] != "test" ||
		e["compatibleRuntime"] != ">=0.3.0" || e["installedFrom"] != zip || e["installedAt"] != "2026-03-04T05:06:07" || len(e) != 8 {
		t.Errorf("entry %v", e)
	}
	if !strings.HasPrefix(string(b), "{\n  \"schemaVersion\": 1,\n  \"plugins\": [\n    {\n      \"pluginId\"") || !strings.HasSuffix(string(b), "}\n") {
		t.Errorf("not rusim's layout:\n%s", b)
	}

	items, err := r.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 15 || items[14] != (Item{"vehicle.acme.rover.v1", "vehicle", "Vehicle Acme Rover V1", "1.0.0", "user"}) ||
		items[0].Source != "built-in" {
		t.Errorf("list %v", items)
	}

	v, err := r.Vehicle("vehicle.acme.rover.v1")
	if err != nil || v.Drive.Model != "differential" || v.Contract.DeviceID != "vehicle.acme.rover.v1" {
		t.Fatalf("Vehicle = %+v, %v", v, err)
	}
	v.Body.Mass = 99
	if again, _ := r.Vehicle("vehicle.acme.rover.v1"); again.Body.Mass == 99 {
		t.Error("lookups share the descriptor")
	}
	if _, err := r.Track("vehicle.acme.rover.v1"); !errors.Is(err, plugins.ErrUnknownPlugin) {
		t.Errorf("a vehicle as a track: %v", err)
	}
	if _, err := r.Vehicle("vehicle.nope.x.v1"); err == nil || !strings.Contains(err.Error(), `unknown vehicleId "vehicle.nope.x.v1" (known: vehicle.acme.rover.v1, vehicle.arcade.blue.v1,`) {
		t.Errorf("unknown: %v", err)
	}
	in, err := r.Info("vehicle.acme.rover.v1")
	if err != nil || in.Source != "user" || in.Error != "" || !slices.Equal(in.Sensors, []string{"camera.front.rgb", "speedometer", "ultrasonic.front"}) ||
		len(in.Files) != 4 || in.Fallback != "" {
		t.Errorf("info %+v %v", in, err)
	}
	if in, err := r.Info("track.maze.v1"); err != nil || in.Source != "built-in" || in.Generator != "maze" {
		t.Errorf("built-in info %+v %v", in, err)
	}

	rm, err := r.Remove("vehicle.acme.rover.v1")
	if err != nil || *rm != (RemoveReport{"remove", "vehicle.acme.rover.v1", true}) {
		t.Fatalf("remove %+v %v", rm, err)
	}
	if _, err := os.Stat(r.Path("vehicle.acme.rover.v1")); !os.IsNotExist(err) {
		t.Errorf("folder still there: %v", err)
	}
	if _, err := r.Vehicle("vehicle.acme.rover.v1"); !errors.Is(err, plugins.ErrUnknownPlugin) {
		t.Errorf("after remove: %v", err)
	}
	assertNoLeftovers(t, r.Home())
}

// rusim's CLI checks and texts, and the built-in tier's protection.
func TestRusimErrors(t *testing.T) {
	r := newRegistry(t)
	dir := t.TempDir()
	if _, err := r.Remove("vehicle.arcade.red.v1"); err == nil || err.Error() != "Cannot remove built-in plugin: vehicle.arcade.red.v1" {
		t.Errorf("remove built-in: %v", err)
	}
	if _, err := r.Remove("vehicle.acme.rover.v1"); err == nil || err.Error() != "Plugin not found in registry: vehicle.acme.rover.v1" {
		t.Errorf("remove unknown: %v", err)
	}
	a := project(t, plugins.TypeVehicle, "vehicle.acme.rover.v1")
	for _, tc := range []struct {
		name   string
		change func() (string, error)
		want   string
	}{
		{"not found", func() (string, error) { return filepath.Join(dir, "none.zip"), nil }, "Plugin archive not found: " + filepath.Join(dir, "none.zip")},
		{"no manifest", func() (string, error) { return writeArchive(t, a.Without("manifest.json"), "x.zip"), nil },
			"Plugin archive must contain manifest.json at the root"},
		{"missing keys", func() (string, error) {
			b, err := a.With("manifest.json", []byte(`{"pluginId": "vehicle.acme.rover.v1", "type": "vehicle", "displayName": ""}`))
			return writeArchive(t, b, "x.zip"), err
		}, "manifest.json missing required keys: displayName, version"},
		{"type", func() (string, error) {
			b, err := a.With("manifest.json", []byte(`{"pluginId": "vehicle.acme.rover.v1", "type": "robot", "displayName": "R", "version": "1.0.0"}`))
			return writeArchive(t, b, "x.zip"), err
		}, "Invalid plugin type: 'robot' (expected 'vehicle' or 'track')"},
		{"built-in", func() (string, error) {
			b, err := a.With("manifest.json", []byte(`{"pluginId": "vehicle.arcade.red.v1", "type": "vehicle", "displayName": "R", "version": "1.0.0"}`))
			return writeArchive(t, b, "x.zip"), err
		}, "Cannot overwrite built-in plugin: vehicle.arcade.red.v1"},
	} {
		p, err := tc.change()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.Install(p, InstallOptions{}); err == nil || err.Error() != tc.want {
			t.Errorf("%s: %v\nwant %s", tc.name, err, tc.want)
		}
	}
	if _, err := os.Stat(r.Home()); !os.IsNotExist(err) {
		t.Errorf("refused installs created the home: %v", err)
	}
}

// compatibleRuntime is checked at install, and again at load (for plugins installed by
// rusim's CLI or before a runtime change).
func TestRuntimeCheckedAtInstallAndLoad(t *testing.T) {
	r := newRegistry(t)
	a := project(t, plugins.TypeTrack, "track.future.v1")
	m, _ := a.File("manifest.json")
	future, _ := a.With("manifest.json", []byte(strings.Replace(string(m), `">=0.3.0"`, `">=0.9.0"`, 1)))
	p := writeArchive(t, future, "track.future.v1.rusim-plugin.zip")
	if _, err := r.Install(p, InstallOptions{}); err == nil || err.Error() != "plugin track.future.v1 needs runtime >=0.9.0; this is "+plugins.RuntimeVersion {
		t.Errorf("install: %v", err)
	}
	newer := Open(r.Home(), Options{Runtime: "0.9.1"})
	mustInstall(t, newer, p, InstallOptions{})
	if _, err := newer.Track("track.future.v1"); err != nil {
		t.Fatal(err)
	}
	_, err := r.Track("track.future.v1")
	var ie *plugins.IncompatibleRuntimeError
	if !errors.As(err, &ie) || err.Error() != "plugin track.future.v1 needs runtime >=0.9.0; this is "+plugins.RuntimeVersion {
		t.Errorf("load: %v", err)
	}
	if in, _ := r.Info("track.future.v1"); in == nil || !strings.Contains(in.Error, "needs runtime >=0.9.0") {
		t.Errorf("info of an incompatible plugin: %+v", in)
	}
}

// rusim's Unity exports install with a warning and load with the fallback.
func TestRusimExportsInstallWithFallback(t *testing.T) {
	r := newRegistry(t)
	rep := mustInstall(t, r, "../testdata/vehicle.arcade.green.v1.rusim-plugin.zip", InstallOptions{})
	if len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "no simulation data") || !strings.Contains(rep.Warnings[0], "vehicle.ks0223.v1") {
		t.Errorf("warnings %q", rep.Warnings)
	}
	rep = mustInstall(t, r, "../testdata/track.city_demo.v1.rusim-plugin.zip", InstallOptions{})
	if len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "empty 20 m floor") {
		t.Errorf("warnings %q", rep.Warnings)
	}
	v, err := r.Vehicle("vehicle.arcade.green.v1")
	if err != nil || v.CheckSimulation() != nil || v.Visual.Color != "#2e9e48" || v.Contract.Sensors[0].ID != "camera" {
		t.Fatalf("vehicle %+v %v", v, err)
	}
	if tr, err := r.Track("track.city_demo.v1"); err != nil || tr.HasLayout() {
		t.Errorf("track %+v %v", tr, err)
	}
	if in, _ := r.Info("vehicle.arcade.green.v1"); in.Fallback != "vehicle.ks0223.v1" || len(in.Warnings) != 1 {
		t.Errorf("info %+v", in)
	}
}

// Installing an id again replaces it; the list keeps one entry, at the end.
func TestReinstallReplaces(t *testing.T) {
	r := newRegistry(t)
	mustInstall(t, r, projectZip(t, plugins.TypeVehicle, "vehicle.acme.rover.v1"), InstallOptions{})
	mustInstall(t, r, projectZip(t, plugins.TypeTrack, "track.yard.v1"), InstallOptions{})
	a := project(t, plugins.TypeVehicle, "vehicle.acme.rover.v1")
	d, _ := a.File("descriptor.json")
	heavy, _ := a.With("descriptor.json", []byte(strings.Replace(string(d), `"mass": 1.2`, `"mass": 3.5`, 1)))
	heavy, _ = heavy.With("assets/preview.png", previewPNG(t))
	mustInstall(t, r, writeArchive(t, heavy, "vehicle.acme.rover.v1.rusim-plugin.zip"), InstallOptions{})
	v, err := r.Vehicle("vehicle.acme.rover.v1")
	if err != nil || v.Body.Mass != 3.5 {
		t.Fatalf("replaced vehicle %+v %v", v, err)
	}
	if _, err := os.Stat(filepath.Join(r.Path("vehicle.acme.rover.v1"), "assets", "preview.png")); err != nil {
		t.Error(err)
	}
	items, _ := r.List()
	var user []string
	for _, it := range items {
		if it.Source == SourceUser {
			user = append(user, it.PluginID)
		}
	}
	if !slices.Equal(user, []string{"track.yard.v1", "vehicle.acme.rover.v1"}) {
		t.Errorf("user plugins %v", user)
	}
}

func TestBrokenRegistryFile(t *testing.T) {
	r := newRegistry(t)
	mustInstall(t, r, projectZip(t, plugins.TypeVehicle, "vehicle.acme.rover.v1"), InstallOptions{})
	before := treeHash(t, filepath.Join(r.Home(), PluginsDir))
	os.WriteFile(filepath.Join(r.Home(), FileName), []byte(`{"schemaVersion": 1, "plugins": [`), 0o644)
	if _, err := r.List(); err == nil || !strings.Contains(err.Error(), "is not a plugin registry") {
		t.Errorf("list: %v", err)
	}
	if _, err := r.Install(projectZip(t, plugins.TypeTrack, "track.yard.v1"), InstallOptions{}); err == nil || !strings.Contains(err.Error(), "is not a plugin registry") {
		t.Errorf("install: %v", err)
	}
	if after := treeHash(t, filepath.Join(r.Home(), PluginsDir)); after != before {
		t.Error("a failed install changed plugins/")
	}
	if _, err := r.Vehicle("vehicle.ks0223.v1"); err != nil {
		t.Errorf("built-ins need no registry file: %v", err)
	}
	os.WriteFile(filepath.Join(r.Home(), FileName), []byte(`{"schemaVersion": 2, "plugins": []}`), 0o644)
	if _, err := r.Vehicle("vehicle.acme.rover.v1"); err == nil || !strings.Contains(err.Error(), "has schemaVersion 2") {
		t.Errorf("schema 2: %v", err)
	}
}

// A plugin folder changed after install is validated again when it loads.
func TestLoadValidatesInstalledFiles(t *testing.T) {
	r := newRegistry(t)
	mustInstall(t, r, projectZip(t, plugins.TypeVehicle, "vehicle.acme.rover.v1"), InstallOptions{})
	os.WriteFile(filepath.Join(r.Path("vehicle.acme.rover.v1"), "notes.txt"), nil, 0o644)
	// The registry file did not change, so a fresh registry is needed to load again.
	if _, err := Open(r.Home(), Options{}).Vehicle("vehicle.acme.rover.v1"); err == nil || !strings.Contains(err.Error(), `"notes.txt": not part of a plugin`) {
		t.Errorf("stray file: %v", err)
	}
}

// A user plugin with the id of a built-in (installed by a tool whose built-ins differ, such
// as rusim's CLI) is not hidden: both are listed, a lookup of the id is an error naming both,
// and removing the id removes the user plugin, leaving the built-in.
func TestUserPluginShadowingABuiltinIsAnError(t *testing.T) {
	home := filepath.Join(t.TempDir(), "rusim-home")
	zip := projectZip(t, plugins.TypeTrack, "track.acme.loop.v1")
	if _, err := Open(home, Options{}).Install(zip, InstallOptions{}); err != nil {
		t.Fatal(err)
	}
	// A runtime whose built-ins include track.acme.loop.v1.
	dir := t.TempDir()
	if _, err := scaffold.New(scaffold.Options{Type: plugins.TypeTrack, ID: "track.acme.loop.v1", OutputDir: dir,
		DisplayName: "Acme Loop (built in)"}); err != nil {
		t.Fatal(err)
	}
	builtin, err := plugins.LoadCatalog(os.DirFS(dir), ".")
	if err != nil {
		t.Fatal(err)
	}
	r := Open(home, Options{Builtin: builtin})
	items, err := r.List()
	if err != nil || len(items) != 2 || items[0].Source != "built-in" || items[1].Source != "user" || items[1].PluginID != "track.acme.loop.v1" {
		t.Fatalf("list %v %v", items, err)
	}
	_, err = r.Track("track.acme.loop.v1")
	var se *ShadowError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), `built-in plugin "Acme Loop (built in)" 1.0.0 and a user plugin "Track Acme Loop V1" 1.0.0 installed from `+zip) {
		t.Fatalf("lookup: %v", err)
	}
	shadows, err := r.Shadowing()
	if err != nil || len(shadows) != 1 || shadows[0].ID != "track.acme.loop.v1" {
		t.Fatalf("shadowing %v %v", shadows, err)
	}
	if in, err := r.Info("track.acme.loop.v1"); err != nil || in.Source != "built-in" || !strings.Contains(in.Error, "is both the built-in") {
		t.Fatalf("info %+v %v", in, err)
	}
	if _, err := r.Remove("track.acme.loop.v1"); err != nil {
		t.Fatalf("remove the user plugin: %v", err)
	}
	if tr, err := r.Track("track.acme.loop.v1"); err != nil || tr.DisplayName != "Acme Loop (built in)" {
		t.Fatalf("after removing the user plugin: %+v %v", tr, err)
	}
	if _, err := r.Remove("track.acme.loop.v1"); err == nil || err.Error() != "Cannot remove built-in plugin: track.acme.loop.v1" {
		t.Fatalf("remove the built-in: %v", err)
	}
}
