package main

import (
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"simgui/plugins"
	"simgui/plugins/archive"
	"simgui/plugins/registry"
	"simgui/plugins/scaffold"
)

// The CLI tests must never see the real ~/.rusim: every simgui they start inherits a
// RUSIM_HOME that does not exist unless a test sets its own.
func init() {
	os.Setenv("RUSIM_HOME", filepath.Join(os.TempDir(), fmt.Sprintf("simgui-test-no-home-%d", os.Getpid())))
}

// pluginCLI runs simgui with RUSIM_HOME=home and fails the test unless it exits 0.
func pluginCLI(t *testing.T, home string, args ...string) (string, string) {
	t.Helper()
	out, errOut, code := simgui(t, []string{"RUSIM_HOME=" + home}, args...)
	if code != 0 {
		t.Fatalf("simgui %s: exit %d\n%s", strings.Join(args, " "), code, errOut)
	}
	return out, errOut
}

// pluginFails runs simgui and checks it exits 1 with one stderr line "error: ...want...".
func pluginFails(t *testing.T, home, want string, args ...string) {
	t.Helper()
	out, errOut, code := simgui(t, []string{"RUSIM_HOME=" + home}, args...)
	lines := strings.Split(strings.TrimRight(errOut, "\n"), "\n")
	if code != 1 || len(lines) != 1 || !strings.HasPrefix(lines[0], "error: ") || !strings.Contains(lines[0], want) {
		t.Errorf("simgui %s: exit %d, stdout %q, stderr %q; want one line error: ...%s", strings.Join(args, " "), code, out, errOut, want)
	}
}

func editJSON(t *testing.T, path string, f func(m map[string]any)) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	f(m)
	b, _ = json.MarshalIndent(m, "", "  ")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// The round trip of the README: new → edit → validate → export → install → list --json →
// a headless run of a scenario that uses it → remove.
func TestPluginRoundTrip(t *testing.T) {
	home, work := filepath.Join(t.TempDir(), "rusim"), t.TempDir()
	const id = "vehicle.acme.rover.v1"
	out, _ := pluginCLI(t, home, "plugin", "new", "--type", "vehicle", id, "--output-dir", work, "--display-name", "Acme Rover", "--author", "Ann")
	var created scaffold.Report
	if err := json.Unmarshal([]byte(out), &created); err != nil || created.PluginID != id || created.CreatedAt != filepath.Join(work, id) {
		t.Fatalf("new: %s", out)
	}
	project := created.CreatedAt

	// Edit: a slower, red rover.
	editJSON(t, filepath.Join(project, "descriptor.json"), func(m map[string]any) {
		m["drive"].(map[string]any)["params"].(map[string]any)["maxSpeed"] = 0.4
		m["visual"].(map[string]any)["color"] = "#c8302c"
	})
	out, _ = pluginCLI(t, home, "plugin", "validate", project)
	if out != id+": valid vehicle 1.0.0, 4 files\n" {
		t.Errorf("validate: %q", out)
	}
	zip := filepath.Join(work, id+".rusim-plugin.zip")
	out, _ = pluginCLI(t, home, "plugin", "export", project, "-o", zip)
	var exp exportReport
	if err := json.Unmarshal([]byte(out), &exp); err != nil || exp.Archive != zip || len(exp.Files) != 4 || len(exp.SHA256) != 64 {
		t.Fatalf("export: %s", out)
	}
	out, errOut := pluginCLI(t, home, "plugin", "install", zip)
	var inst registry.InstallReport
	if err := json.Unmarshal([]byte(out), &inst); err != nil || inst.PluginID != id || inst.InstalledTo != filepath.Join(home, "plugins", id) || errOut != "" {
		t.Fatalf("install: %s %s", out, errOut)
	}
	out, _ = pluginCLI(t, home, "plugin", "list", "--json")
	var list struct {
		Count int             `json:"count"`
		Items []registry.Item `json:"items"`
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil || list.Count != 15 || list.Items[14] != (registry.Item{PluginID: id, Type: "vehicle", DisplayName: "Acme Rover", Version: "1.0.0", Source: "user"}) {
		t.Fatalf("list: %s", out)
	}

	scenario := filepath.Join(work, "scenario.yaml")
	os.WriteFile(scenario, []byte("world: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: "+id+"}\n"), 0o644)
	out, errOut = pluginCLI(t, home, "run", "--headless", "--json", "--scenario", scenario, "--duration", "3", "--cmd", "throttle=1")
	var run runSummary
	if err := json.Unmarshal([]byte(out), &run); err != nil || len(run.Models) != 1 || run.Models[0].VehicleID != id {
		t.Fatalf("run: %s %s", out, errOut)
	}
	if math.Abs(run.Models[0].Speed-0.4) > 0.02 {
		t.Errorf("the edited rover runs at %.3f m/s, its maxSpeed is 0.4", run.Models[0].Speed)
	}

	out, _ = pluginCLI(t, home, "plugin", "remove", id)
	if out != "{\n  \"action\": \"remove\",\n  \"pluginId\": \""+id+"\",\n  \"removed\": true\n}\n" {
		t.Errorf("remove: %q", out)
	}
	pluginFails(t, home, `vehicle.vehicleId: unknown vehicleId "`+id+`"`, "run", "--headless", "--scenario", scenario, "--steps", "1")
}

// 20 installs run as separate processes at once leave a registry listing all 20.
func TestPluginConcurrentInstalls(t *testing.T) {
	home, work := filepath.Join(t.TempDir(), "rusim"), t.TempDir()
	var ids, zips []string
	for i := range 20 {
		id := fmt.Sprintf("vehicle.load.car%02d.v1", i)
		if _, err := scaffold.New(scaffold.Options{Type: plugins.TypeVehicle, ID: id, OutputDir: work}); err != nil {
			t.Fatal(err)
		}
		a, err := archive.ReadDir(filepath.Join(work, id))
		if err != nil {
			t.Fatal(err)
		}
		zip := filepath.Join(work, id+".rusim-plugin.zip")
		if err := a.WriteFile(zip); err != nil {
			t.Fatal(err)
		}
		ids, zips = append(ids, id), append(zips, zip)
	}
	var wg sync.WaitGroup
	errs := make([]error, len(zips))
	for i, zip := range zips {
		wg.Go(func() {
			cmd := exec.Command(bin, "plugin", "install", zip)
			cmd.Env = append(os.Environ(), "RUSIM_HOME="+home)
			if out, err := cmd.CombinedOutput(); err != nil {
				errs[i] = fmt.Errorf("%s: %v\n%s", filepath.Base(zip), err, out)
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	out, _ := pluginCLI(t, home, "plugin", "list", "--json")
	var list struct {
		Items []registry.Item `json:"items"`
	}
	json.Unmarshal([]byte(out), &list)
	var user []string
	for _, it := range list.Items {
		if it.Source == "user" {
			user = append(user, it.PluginID)
		}
	}
	slices.Sort(user)
	if !slices.Equal(user, ids) {
		t.Errorf("registry lists %d user plugins: %v", len(user), user)
	}
	dirs, _ := os.ReadDir(filepath.Join(home, "plugins"))
	if len(dirs) != 20 {
		t.Errorf("plugins/ holds %d folders", len(dirs))
	}
	for _, pat := range []string{".staging-*", ".removed-*", ".plugin-registry.json.tmp-*"} {
		if left, _ := filepath.Glob(filepath.Join(home, pat)); len(left) > 0 {
			t.Errorf("left behind: %v", left)
		}
	}
}

// Errors are rusim's texts on one stderr line, exit 1.
func TestPluginCLIErrors(t *testing.T) {
	home, work := filepath.Join(t.TempDir(), "rusim"), t.TempDir()
	pluginFails(t, home, "Plugin archive not found: "+filepath.Join(work, "none.zip"), "plugin", "install", filepath.Join(work, "none.zip"))
	os.WriteFile(filepath.Join(work, "text.zip"), []byte("text"), 0o644)
	pluginFails(t, home, "Not a valid zip archive: "+filepath.Join(work, "text.zip"), "plugin", "install", filepath.Join(work, "text.zip"))
	pluginFails(t, home, "Cannot remove built-in plugin: vehicle.ks0223.v1", "plugin", "remove", "vehicle.ks0223.v1")
	pluginFails(t, home, "Plugin not found in registry: vehicle.acme.rover.v1", "plugin", "remove", "vehicle.acme.rover.v1")
	pluginCLI(t, home, "plugin", "new", "--type", "track", "track.yard.v1", "--output-dir", work)
	pluginFails(t, home, "Output directory already exists: "+filepath.Join(work, "track.yard.v1"), "plugin", "new", "--type", "track", "track.yard.v1", "--output-dir", work)
	pluginFails(t, home, `plugin id "vehicle.rover.v1" does not follow`, "plugin", "new", "--type", "vehicle", "vehicle.rover.v1", "--output-dir", work)
	pluginFails(t, home, `unknown pluginId "track.nope.v1"`, "plugin", "info", "track.nope.v1")
	// A project folder given to install, as a newcomer tries before export: the error says
	// what to run; another folder keeps the plain one.
	pluginFails(t, home, "Not a valid zip archive: "+filepath.Join(work, "track.yard.v1")+" (a folder, not a regular file): it is a plugin project; pack it first with `simgui plugin export "+filepath.Join(work, "track.yard.v1")+"`",
		"plugin", "install", filepath.Join(work, "track.yard.v1"))
	out, errOut, code := simgui(t, []string{"RUSIM_HOME=" + home}, "plugin", "install", work)
	if code != 1 || out != "" || errOut != "error: Not a valid zip archive: "+work+" (a folder, not a regular file)\n" {
		t.Errorf("install of a folder that is no project: stdout %q, stderr %q", out, errOut)
	}

	// A broken project: validate lists each problem with its path on stdout, then fails.
	project := filepath.Join(work, "track.yard.v1")
	editJSON(t, filepath.Join(project, "manifest.json"), func(m map[string]any) { m["version"] = "1.1.0" })
	editJSON(t, filepath.Join(project, "descriptor.json"), func(m map[string]any) {
		m["elements"].([]any)[0].(map[string]any)["height"] = -1
	})
	out, errOut, code = simgui(t, []string{"RUSIM_HOME=" + home}, "plugin", "validate", project)
	want := "manifest.version: \"1.1.0\" differs from descriptor.version 1.0.0\n" +
		"descriptor.elements[0].height: wall.north: -1 is outside the range 0..1000 m\n"
	if code != 1 || out != want || errOut != "error: "+project+" (track.yard.v1): 2 problems\n" {
		t.Errorf("validate: exit %d\nstdout %q\nstderr %q", code, out, errOut)
	}
	pluginFails(t, home, "track.yard.v1: nothing exported: 2 problems: manifest.version:", "plugin", "export", project, "-o", filepath.Join(work, "x.zip"))
	if _, err := os.Stat(filepath.Join(work, "x.zip")); !os.IsNotExist(err) {
		t.Error("an invalid project was exported")
	}
	if _, err := os.Stat(home); !os.IsNotExist(err) {
		t.Errorf("failed commands created RUSIM_HOME: %v", err)
	}
}

// TestPluginBrokenMaterialImage: a track whose material image has a whole header but its
// pixel data cut short is refused by validate, export and install, each naming the image
// (ReadPlugin alone reads headers only).
func TestPluginBrokenMaterialImage(t *testing.T) {
	home, work := filepath.Join(t.TempDir(), "rusim"), t.TempDir()
	pluginCLI(t, home, "plugin", "new", "--type", "track", "track.posters.v1", "--output-dir", work)
	project := filepath.Join(work, "track.posters.v1")
	var b strings.Builder
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 64, 64))); err != nil {
		t.Fatal(err)
	}
	whole := b.String()
	os.MkdirAll(filepath.Join(project, "assets"), 0o755)
	if err := os.WriteFile(filepath.Join(project, "assets", "poster.png"), []byte(whole[:len(whole)-24]), 0o644); err != nil {
		t.Fatal(err)
	}
	editJSON(t, filepath.Join(project, "descriptor.json"), func(m map[string]any) {
		m["materials"] = []any{map[string]any{"name": "poster", "textures": []any{"assets/poster.png"}, "sizeM": 0.5}}
		m["elements"].([]any)[0].(map[string]any)["material"] = "poster"
	})
	const want = "descriptor.materials[0].textures[0]: assets/poster.png: pixel data: "
	out, errOut, code := simgui(t, []string{"RUSIM_HOME=" + home}, "plugin", "validate", project)
	if code != 1 || !strings.HasPrefix(out, want) || errOut != "error: "+project+" (track.posters.v1): 1 problem\n" {
		t.Errorf("validate: exit %d\nstdout %q\nstderr %q; want the image's pixel data refused", code, out, errOut)
	}
	zip := filepath.Join(work, "posters.zip")
	pluginFails(t, home, "nothing exported: "+want, "plugin", "export", project, "-o", zip)
	a, err := archive.ReadDir(project)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.WriteFile(zip); err != nil {
		t.Fatal(err)
	}
	pluginFails(t, home, "track.posters.v1 is not a valid plugin: "+want, "plugin", "install", zip)
	if _, err := os.Stat(filepath.Join(home, "plugins", "track.posters.v1")); !os.IsNotExist(err) {
		t.Errorf("the broken plugin was installed: %v", err)
	}
}

// rusim's Unity exports install with a warning on stderr and run with the fallback body.
func TestPluginRusimExports(t *testing.T) {
	home, work := filepath.Join(t.TempDir(), "rusim"), t.TempDir()
	_, errOut := pluginCLI(t, home, "plugin", "install", filepath.Join("..", "..", "plugins", "testdata", "vehicle.arcade.green.v1.rusim-plugin.zip"))
	if !strings.HasPrefix(errOut, "warning: descriptor: no simulation data") || strings.Count(errOut, "\n") != 1 {
		t.Errorf("stderr %q", errOut)
	}
	pluginCLI(t, home, "plugin", "install", filepath.Join("..", "..", "plugins", "testdata", "track.city_demo.v1.rusim-plugin.zip"))
	scenario := filepath.Join(work, "s.yaml")
	os.WriteFile(scenario, []byte("world: {trackId: track.city_demo.v1}\nvehicle: {vehicleId: vehicle.arcade.green.v1}\n"), 0o644)
	out, _ := pluginCLI(t, home, "run", "--headless", "--json", "--scenario", scenario, "--duration", "2", "--cmd", "throttle=0.5")
	var run runSummary
	if json.Unmarshal([]byte(out), &run) != nil || run.Models[0].VehicleID != "vehicle.arcade.green.v1" || run.Models[0].Speed < 0.3 {
		t.Errorf("run: %s", out)
	}
}

// Signing through the CLI: keygen, trust, export --sign; a tampered signed archive is refused
// under --require-signed, the untampered one installs; the registry policy.
func TestPluginSigning(t *testing.T) {
	home, work := filepath.Join(t.TempDir(), "rusim"), t.TempDir()
	key := filepath.Join(work, "ann")
	out, _ := pluginCLI(t, home, "plugin", "keygen", "-o", key)
	var kg map[string]string
	json.Unmarshal([]byte(out), &kg)
	if len(kg["keyId"]) != 16 || kg["privateKey"] != key+".key" || kg["publicKey"] != key+".pub" {
		t.Fatalf("keygen: %s", out)
	}
	pluginCLI(t, home, "plugin", "trust", key+".pub")
	pluginCLI(t, home, "plugin", "new", "--type", "vehicle", "vehicle.acme.rover.v1", "--output-dir", work)
	zip := filepath.Join(work, "vehicle.acme.rover.v1.rusim-plugin.zip")
	out, _ = pluginCLI(t, home, "plugin", "export", filepath.Join(work, "vehicle.acme.rover.v1"), "-o", zip, "--sign", key+".key")
	var exp exportReport
	if json.Unmarshal([]byte(out), &exp) != nil || exp.SignedBy != kg["keyId"] || !slices.Contains(exp.Files, "SIGNATURE.json") {
		t.Fatalf("export: %s", out)
	}

	// Tamper: same files and signature, one byte of the README changed.
	a, err := archive.Open(zip)
	if err != nil {
		t.Fatal(err)
	}
	readme, _ := a.File("README.md")
	tampered, _ := a.With("README.md", append([]byte("!"), readme...))
	tamperedZip := filepath.Join(t.TempDir(), "vehicle.acme.rover.v1.rusim-plugin.zip")
	tampered.WriteFile(tamperedZip)
	pluginFails(t, home, "signature check failed: the signature does not match the plugin's files", "plugin", "install", "--require-signed", tamperedZip)

	out, _ = pluginCLI(t, home, "plugin", "install", "--require-signed", zip)
	var inst registry.InstallReport
	if json.Unmarshal([]byte(out), &inst) != nil || inst.SignedBy != kg["keyId"] {
		t.Errorf("install: %s", out)
	}

	out, _ = pluginCLI(t, home, "plugin", "policy", "--require-signed=true")
	if out != "{\n  \"requireSigned\": true\n}\n" {
		t.Errorf("policy: %q", out)
	}
	pluginCLI(t, home, "plugin", "new", "--type", "track", "track.yard.v1", "--output-dir", work)
	trackZip := filepath.Join(work, "track.yard.v1.rusim-plugin.zip")
	pluginCLI(t, home, "plugin", "export", filepath.Join(work, "track.yard.v1"), "-o", trackZip)
	pluginFails(t, home, "the plugin is not signed, and signatures are required", "plugin", "install", trackZip)
}

// A track project in the layout of rusim's `plugin new --type track` template (manifest.json
// and README.md, no descriptor.json) validates, exports into a folder that -o makes, installs,
// and runs as an empty floor; the id has more dotted parts than track.{name}.v{major}.
func TestPluginRusimTrackTemplate(t *testing.T) {
	home, work := filepath.Join(t.TempDir(), "rusim"), t.TempDir()
	const id = "track.acme.loop.v1"
	project := filepath.Join(work, id)
	os.MkdirAll(project, 0o755)
	os.WriteFile(filepath.Join(project, "manifest.json"), []byte(`{
  "pluginId": "`+id+`",
  "type": "track",
  "displayName": "Acme Loop",
  "version": "1.0.0",
  "compatibleRuntime": ">=0.2.0",
  "author": ""
}
`), 0o644)
	os.WriteFile(filepath.Join(project, "README.md"), []byte("# Acme Loop\n"), 0o644)

	out, errOut := pluginCLI(t, home, "plugin", "validate", project)
	if !strings.Contains(out, id+": valid track 1.0.0, 2 files") || !strings.Contains(out, "warning: descriptor.json: missing: simgui uses a descriptor made from manifest.json") {
		t.Errorf("validate: %q %q", out, errOut)
	}
	dist := filepath.Join(work, "dist", "tracks") // does not exist yet
	out, _ = pluginCLI(t, home, "plugin", "export", project, "-o", dist)
	var exp exportReport
	zip := filepath.Join(dist, id+".rusim-plugin.zip")
	if err := json.Unmarshal([]byte(out), &exp); err != nil || exp.Archive != zip || !slices.Equal(exp.Files, []string{"README.md", "manifest.json"}) {
		t.Fatalf("export: %s", out)
	}
	pluginCLI(t, home, "plugin", "install", zip)
	out, _ = pluginCLI(t, home, "plugin", "info", id)
	var in registry.Info
	if err := json.Unmarshal([]byte(out), &in); err != nil || in.Error != "" || in.DisplayName != "Acme Loop" {
		t.Fatalf("info: %s", out)
	}
	scenario := filepath.Join(work, "s.yaml")
	os.WriteFile(scenario, []byte("world: {trackId: "+id+"}\nvehicle: {vehicleId: vehicle.ks0223.v1}\n"), 0o644)
	run := func() runSummary {
		out, _ := pluginCLI(t, home, "run", "--headless", "--json", "--scenario", scenario, "--duration", "1", "--cmd", "throttle=1")
		var r runSummary
		if err := json.Unmarshal([]byte(out), &r); err != nil || len(r.Models) != 1 {
			t.Fatalf("run: %s", out)
		}
		return r
	}
	if r := run(); r.Models[0].Speed < 0.5 {
		t.Errorf("on the empty floor the KS0223 runs at %.3f m/s", r.Models[0].Speed)
	}
}

// A user plugin with a built-in's id (written by another tool into the registry) is listed
// with a warning naming both; using the id is an error naming both; removing it removes the
// user plugin.
func TestPluginShadowingABuiltin(t *testing.T) {
	home, work := filepath.Join(t.TempDir(), "rusim"), t.TempDir()
	const id = "track.acme.loop.v1"
	zip := filepath.Join(work, id+".rusim-plugin.zip")
	pluginCLI(t, home, "plugin", "new", "--type", "track", id, "--output-dir", work)
	pluginCLI(t, home, "plugin", "export", filepath.Join(work, id), "-o", zip)
	pluginCLI(t, home, "plugin", "install", zip)
	// What rusim's CLI would have written for a plugin called track.maze.v1, a simgui built-in.
	reg := filepath.Join(home, registry.FileName)
	b, _ := os.ReadFile(reg)
	os.WriteFile(reg, []byte(strings.ReplaceAll(string(b), id, "track.maze.v1")), 0o644)
	os.Rename(filepath.Join(home, "plugins", id), filepath.Join(home, "plugins", "track.maze.v1"))

	out, errOut := pluginCLI(t, home, "plugin", "list")
	if !strings.Contains(out, "[user]       track.maze.v1") || !strings.Contains(out, "[built-in]   track.maze.v1") ||
		!strings.HasPrefix(errOut, `warning: track.maze.v1 is both the built-in plugin "Cardboard Maze" 1.0.0 and a user plugin`) {
		t.Errorf("list: %q %q", out, errOut)
	}
	scenario := filepath.Join(work, "s.yaml")
	os.WriteFile(scenario, []byte("world: {trackId: track.maze.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}\n"), 0o644)
	pluginFails(t, home, "world.trackId: track.maze.v1 is both the built-in plugin", "run", "--headless", "--scenario", scenario, "--steps", "1")
	pluginCLI(t, home, "plugin", "remove", "track.maze.v1")
	pluginCLI(t, home, "run", "--headless", "--scenario", scenario, "--steps", "1")
}

// TestExportToAFileNotNamedZip: -o names a folder unless it ends in .zip; one naming a file
// that is there already (a README, /dev/full) is refused saying so, not with "mkdir X: not a
// directory".
func TestExportToAFileNotNamedZip(t *testing.T) {
	work := t.TempDir()
	notes := filepath.Join(work, "notes")
	if err := os.WriteFile(notes, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ out, want string }{
		{notes, "-o " + notes + " is a regular file, not a folder: name the archive FILE.zip, or give a folder"},
		{"/dev/null", "-o /dev/null is a character device, not a folder: name the archive FILE.zip, or give a folder"},
	} {
		if _, err := exportPath(c.out, "vehicle.acme.rover.v1"); err == nil || err.Error() != c.want {
			t.Errorf("-o %s: error %v, want %q", c.out, err, c.want)
		}
	}
	got, err := exportPath(filepath.Join(work, "new"), "vehicle.acme.rover.v1")
	if want := filepath.Join(work, "new", "vehicle.acme.rover.v1"+archiveSuffix); err != nil || got != want {
		t.Errorf("-o a new folder: %q, %v; want %q", got, err, want)
	}
}

// Without a home folder ($HOME and $RUSIM_HOME unset, as in some containers and CI jobs),
// plugin list and plugin info still show the built-ins, warning that the user registry is
// out of reach: they failed asking for RUSIM_HOME, though a run uses the built-ins. Install
// still fails, naming the remedy.
func TestPluginListWithoutHome(t *testing.T) {
	// Empty is unset to both: os.UserHomeDir and RUSIM_HOME's reader take "" for none.
	noHome := []string{"HOME=", "RUSIM_HOME="}
	run := func(args ...string) (string, string, int) { return simgui(t, noHome, args...) }
	out, errOut, code := run("plugin", "list", "--json")
	var list struct {
		Count int `json:"count"`
		Items []struct {
			PluginID, Source string
		} `json:"items"`
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil || code != 0 || list.Count != len(plugins.Builtin().IDs()) || list.Count == 0 {
		t.Fatalf("plugin list: exit %d, %d items (%v), want the %d built-ins; stderr %s", code, list.Count, err, len(plugins.Builtin().IDs()), errOut)
	}
	if !strings.Contains(errOut, "warning: only built-in plugins are listed") || !strings.Contains(errOut, "RUSIM_HOME") {
		t.Errorf("plugin list does not warn that the user registry is out of reach: %q", errOut)
	}
	out, errOut, code = run("plugin", "info", "vehicle.ks0223.v1")
	if code != 0 || !strings.Contains(out, `"displayName": "Keyestudio KS0223"`) {
		t.Errorf("plugin info of a built-in: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if _, errOut, code = run("plugin", "info", "vehicle.nobody.v1"); code != 1 || !strings.Contains(errOut, "set RUSIM_HOME") {
		t.Errorf("plugin info of an unknown id: exit %d, stderr %q", code, errOut)
	}
}

// An export that fails leaves no folders made for its -o: a signing key that could not be read
// left -o's new folders behind, empty, for an archive never written.
func TestFailedExportMakesNoFolders(t *testing.T) {
	work, home := t.TempDir(), t.TempDir()
	pluginCLI(t, home, "plugin", "new", "--type", "vehicle", "vehicle.acme.rover.v1", "--output-dir", work)
	out := filepath.Join(work, "dist", "v1")
	pluginFails(t, home, "no such file or directory", "plugin", "export", filepath.Join(work, "vehicle.acme.rover.v1"),
		"-o", out, "--sign", filepath.Join(work, "missing.key"))
	if _, err := os.Stat(filepath.Join(work, "dist")); !os.IsNotExist(err) {
		t.Errorf("the failed export left %s: %v", filepath.Join(work, "dist"), err)
	}
}
