package editor

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"simgui/app"
	"simgui/app/scenario"
	"simgui/app/window/xtest"
	"simgui/app/world"
	"simgui/plugins"
	"simgui/plugins/archive"
	"simgui/plugins/signing"
)

func TestMain(m *testing.M) {
	if kind := os.Getenv(childEnv); kind != "" {
		if err := runChild(kind); err != nil {
			fmt.Fprintln(os.Stderr, "child "+kind+":", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	code := m.Run()
	xtest.RemoveBuilds()
	os.Exit(code)
}

// runChild runs the editor in this process: "standalone" as editor.Run shows it, "hosted"
// with a Host whose TestDrive spawns into a headless simulation running in this process (as
// app/window does in the product) and writes what it spawned to the result file.
func runChild(kind string) error {
	ctx, cancel := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer cancel()
	opts := RunOptions{
		Options: Options{StateFile: os.Getenv(envState), ExportDir: os.Getenv(envExport),
			New: plugins.Type(os.Getenv(envNewType))},
		ScreenshotDir: os.Getenv(envShots), Width: 1280, Height: 800,
	}
	switch kind {
	case "standalone":
		return Run(ctx, opts)
	case "hosted":
		plan, err := scenario.Resolve(scenario.Default(), plugins.Builtin())
		if err != nil {
			return err
		}
		sim, err := app.Build(plan, app.BuildOptions{})
		if err != nil {
			return err
		}
		simCtx, stopSim := context.WithCancel(ctx)
		ran := make(chan error, 1)
		go func() { ran <- sim.Run(simCtx) }()
		n := 0
		opts.Host = Host{TestDrive: func(v *plugins.VehicleDescriptor) error {
			n++
			name := fmt.Sprintf("testdrive-%d", n)
			return sim.Loop.Do(func(w *world.World) {
				res := spawnResult{Name: name, VehicleID: v.ID}
				if _, err := w.Spawn(world.AgentSpec{Name: name, Vehicle: v}); err != nil {
					res.Error = err.Error()
				}
				for _, m := range w.Models() {
					res.Models = append(res.Models, m.Name+"="+m.Vehicle.ID)
				}
				b, _ := json.Marshal(res)
				os.WriteFile(os.Getenv(envResult), b, 0o644)
			})
		}}
		err = Run(ctx, opts)
		stopSim()
		<-ran
		return errorsJoin(err, sim.Close())
	}
	return fmt.Errorf("unknown child %q", kind)
}

func errorsJoin(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// spawnResult is what the hosted child's TestDrive spawned.
type spawnResult struct {
	Name      string   `json:"name"`
	VehicleID string   `json:"vehicleId"`
	Error     string   `json:"error"`
	Models    []string `json:"models"`
}

// simgui runs the real CLI with RUSIM_HOME set.
func simgui(t *testing.T, home string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(buildSimgui(t), args...)
	cmd.Env = append(os.Environ(), "RUSIM_HOME="+home)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestEditorVehicle authors a vehicle with real key and mouse events: Validate lists the
// empty id; the form is filled (fields, a removed and an added sensor, an added actuator),
// validated, exported signed to a typed path — which `simgui plugin validate` accepts — and
// through the native save dialog, then installed and test-driven: it is spawned in the
// running world.
func TestEditorVehicle(t *testing.T) {
	needDisplay(t)
	home, out := t.TempDir(), t.TempDir()
	keyID, err := signing.GenerateKeyFiles(filepath.Join(out, "author"))
	if err != nil {
		t.Fatal(err)
	}
	g := startEditor(t, "hosted", "RUSIM_HOME="+home, envExport+"="+out)
	s := g.wait("a new vehicle", 10*time.Second, func(s State) bool { return s.Type == "vehicle" && s.ID == "" })
	if s.Rows["sensors"] != 3 {
		t.Fatalf("the new vehicle has %d sensors, want the template's 3", s.Rows["sensors"])
	}

	g.click("button:validate")
	s = g.wait("Validate", 10*time.Second, func(s State) bool { return s.Checked == 1 })
	if !problemAt(s.Problems, "descriptor.id", "is empty") {
		t.Fatalf("Validate with an empty id listed %v", s.Problems)
	}
	if !slices.Contains(s.Framed, "field:descriptor.id") {
		t.Errorf("the id field is not framed: %v", s.Framed)
	}
	img := g.shot("vehicle-problems.png")
	if !framedRed(img, s.Targets["field:descriptor.id"]) {
		t.Error("no red frame around the empty id in the screenshot")
	}
	notBlank(t, "the vehicle's top-down preview", img, s.Targets["preview:top"])
	notBlank(t, "the camera preview", img, s.Targets["preview:view0"])
	notBlank(t, "the 3D preview", img, s.Targets["preview:view1"])

	const id = "vehicle.acme.rover.v1"
	g.set("descriptor.id", id)
	g.set("descriptor.displayName", "Acme Rover")
	g.set("descriptor.description", "A rover made in the editor")

	// Text that is not a number is listed with its field; "go" shows the field's tab.
	g.click("button:tab:body")
	g.set("descriptor.body.mass", "heavy")
	g.click("button:tab:general")
	g.click("button:validate")
	s = g.wait("Validate", 10*time.Second, func(s State) bool { return s.Checked == 2 })
	i := slices.IndexFunc(s.Problems, func(p plugins.Problem) bool {
		return p.Path == "descriptor.body.mass" && p.Message == `"heavy" is not a number`
	})
	if i < 0 {
		t.Fatalf("Validate with mass %q listed %v", "heavy", s.Problems)
	}
	g.click(fmt.Sprintf("button:problem[%d]", i))
	g.wait("the body tab", 5*time.Second, func(s State) bool { return s.Tab == tabBody })
	g.set("descriptor.body.mass", "2.5")
	g.set("descriptor.visual.color", "#c03030")
	g.set("descriptor.drive.params.maxSpeed", "1.4")
	g.shot("vehicle-body.png")

	g.click("button:tab:sensors")
	g.click("button:sensors[2].remove")
	g.wait("the ultrasonic sensor removed", 5*time.Second, func(s State) bool { return s.Rows["sensors"] == 2 })
	g.click("button:sensors.add")
	g.wait("a sensor added", 5*time.Second, func(s State) bool { return s.Rows["sensors"] == 3 })
	g.set("device-contract.sensors[2].id", "wheel.speed")
	g.set("descriptor.sensors[0].pose.z", "0.12")
	// Every camera parameter has a field on the window wide enough to type in (the realism
	// ones come last).
	s = g.wait("the sensors tab", 5*time.Second, func(s State) bool { return s.Tab == tabSensors })
	for _, name := range []string{"fovDeg", "k1", "realistic", "sunElevationDeg", "distractors"} {
		if r, ok := s.Targets["field:descriptor.sensors[0].params."+name]; !ok || r[2]-r[0] < 48 || r[0] < 0 || r[2] > 1280 || r[3] > 800 {
			t.Errorf("camera parameter %s: field at %v (present %v), want one at least 48 px wide in the 1280×800 window", name, r, ok)
		}
	}
	g.set("descriptor.sensors[0].params.realistic", "1")
	g.shot("vehicle-sensors.png")

	g.click("button:tab:actuators")
	g.click("button:actuators.add")
	g.set("device-contract.actuators[3].id", "horn")
	g.set("device-contract.actuators[3].min", "0")

	g.click("button:validate")
	s = g.wait("Validate", 10*time.Second, func(s State) bool { return s.Checked == 3 })
	if len(s.Problems) > 0 {
		t.Fatalf("the filled vehicle has problems: %v", s.Problems)
	}

	file := filepath.Join(out, "rover.rusim-plugin.zip")
	g.set("export.path", file)
	g.set("export.key", filepath.Join(out, "author.key"))
	g.click("button:export")
	s = g.wait("the export", 15*time.Second, func(s State) bool { return len(s.Exported) == 1 })
	if s.Exported[0] != file {
		t.Errorf("exported %s, want %s", s.Exported[0], file)
	}
	report, err := simgui(t, home, "plugin", "validate", "--json", file)
	if err != nil {
		t.Fatalf("simgui plugin validate refused the export: %v\n%s", err, report)
	}
	var rep struct {
		PluginID string           `json:"pluginId"`
		Valid    bool             `json:"valid"`
		Problems plugins.Problems `json:"problems"`
	}
	if err := json.Unmarshal([]byte(report), &rep); err != nil || !rep.Valid || rep.PluginID != id || len(rep.Problems) > 0 {
		t.Fatalf("simgui plugin validate: %s", report)
	}
	a, err := archive.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := a.Plugin()
	v := p.Vehicle
	if v.DisplayName != "Acme Rover" || v.Body.Mass != 2.5 || v.Visual.Color != "#c03030" || v.Drive.Params["maxSpeed"] != 1.4 {
		t.Errorf("exported vehicle: %s %+v %+v %+v", v.DisplayName, v.Body, v.Visual, v.Drive)
	}
	var sensors, actuators []string
	for _, s := range v.Contract.Sensors {
		sensors = append(sensors, s.ID)
	}
	for _, a := range v.Contract.Actuators {
		actuators = append(actuators, a.ID)
	}
	if want := []string{"camera.front.rgb", "speedometer", "wheel.speed"}; !slices.Equal(sensors, want) {
		t.Errorf("exported sensors %v, want %v", sensors, want)
	}
	if !slices.Contains(actuators, "horn") || len(actuators) != 4 {
		t.Errorf("exported actuators %v", actuators)
	}
	if v.Sensors[0].Pose.Z != 0.12 || v.Sensors[0].Params["realistic"] != 1 {
		t.Errorf("camera mount %+v %v", v.Sensors[0].Pose, v.Sensors[0].Params)
	}
	if sig, err := signing.Verify(a.Files()); err != nil || sig.KeyID != keyID {
		t.Errorf("signature: %+v %v", sig, err)
	}

	// Export as: the native save dialog (GTK) opens on a goroutine of its own; the editor
	// keeps drawing while it is open, and the path typed into it is exported.
	g.click("button:export-as")
	dlg := g.otherWindow(15 * time.Second)
	f0 := g.wait("a frame", 10*time.Second, func(State) bool { return true }).Frames
	g.wait("10 more frames with the dialog open", 20*time.Second, func(s State) bool { return s.Frames >= f0+10 })
	if !g.visible(dlg) {
		t.Fatal("the dialog closed by itself")
	}
	viaDialog := filepath.Join(out, "via-dialog.rusim-plugin.zip")
	// GTK drops the keys of a dialog that is mapped and focused but not yet ready for them,
	// and nothing outside it tells when it is: type the name (Ctrl+A selects the one it
	// suggests) until the dialog is gone.
	exported := func() bool { s, _ := g.readState(); return len(s.Exported) == 2 }
	typing := time.Now().Add(30 * time.Second)
	for try := 1; !exported() && g.visible(dlg); try++ {
		if time.Now().After(typing) {
			t.Fatalf("the dialog took no name in %d tries", try-1)
		}
		if _, err := xtest.Xdotool("windowfocus", "--sync", dlg); err != nil {
			continue // it went in the meantime
		}
		g.xdo("key", "ctrl+a")
		g.xdo("type", "--delay", "20", viaDialog)
		g.xdo("key", "Return")
		for wait := time.Now().Add(3 * time.Second); time.Now().Before(wait) && !exported() && g.visible(dlg); time.Sleep(40 * time.Millisecond) {
		}
		if try > 1 {
			t.Logf("typed the name into the dialog %d times", try)
		}
	}
	s = g.wait("the export through the dialog", 15*time.Second, func(s State) bool { return len(s.Exported) == 2 })
	if s.Exported[1] != viaDialog {
		t.Errorf("exported %s through the dialog, want %s", s.Exported[1], viaDialog)
	}
	if report, err := simgui(t, home, "plugin", "validate", viaDialog); err != nil {
		t.Errorf("simgui plugin validate %s: %v\n%s", viaDialog, err, report)
	}
	g.xdo("windowfocus", "--sync", g.win)

	g.click("button:install")
	s = g.wait("the test drive", 20*time.Second, func(s State) bool { return len(s.TestDriven) == 1 })
	if s.Installed[0] != id || s.TestDriven[0] != id {
		t.Errorf("installed %v, test-driven %v", s.Installed, s.TestDriven)
	}
	var res spawnResult
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(filepath.Join(g.dir, "result.json")); err == nil && json.Unmarshal(b, &res) == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if res.Error != "" || res.VehicleID != id || !slices.Contains(res.Models, res.Name+"="+id) {
		t.Errorf("test drive spawned %+v", res)
	}
	list, err := simgui(t, home, "plugin", "list", "--json")
	if err != nil || !strings.Contains(list, `"pluginId": "`+id+`"`) {
		t.Errorf("simgui plugin list after Install: %v\n%s", err, list)
	}
	g.click("button:tab:general")
	s = g.wait("the general tab", 5*time.Second, func(s State) bool { return s.Tab == tabGeneral && len(s.Framed) == 0 })
	img = g.shot("vehicle-installed.png")
	if n := brightPixels(img, s.Targets["field:descriptor.id"]); n < 60 {
		t.Errorf("the id field shows no text after install (%d bright pixels)", n)
	}
	if framedRed(img, s.Targets["field:descriptor.id"]) {
		t.Error("the id field is still framed in red")
	}
}

// shortDir makes a temporary folder with a short path, so that typing paths into fields (a key
// at a time) stays quick.
func shortDir(t *testing.T) string {
	t.Helper()
	d, err := os.MkdirTemp("/tmp", "ed")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}

// TestEditorTrack authors a track: parametersSchemaJson is checked as it is typed, an element
// and a spawn point are added, and the track is validated, exported to the default path
// (which `simgui plugin validate` accepts) and installed — only installed, as the editor
// runs standalone.
func TestEditorTrack(t *testing.T) {
	needDisplay(t)
	home, out := t.TempDir(), t.TempDir()
	g := startEditor(t, "standalone", "RUSIM_HOME="+home, envExport+"="+out)
	g.click("button:new-track")
	s := g.wait("a new track", 10*time.Second, func(s State) bool { return s.Type == "track" })
	if s.Schema != "schema: compiles" || s.Rows["elements"] != 6 {
		t.Fatalf("the new track: schema %q, %d elements", s.Schema, s.Rows["elements"])
	}
	const id = "track.test_yard.v1"
	g.set("descriptor.id", id)
	g.set("descriptor.displayName", "Test Yard")

	g.click("button:schema.clear")
	g.wait("the schema cleared", 5*time.Second, func(s State) bool { return s.Schema == "schema: empty (no parameters)" })
	g.set("descriptor.parametersSchemaJson", `{"type":`)
	s = g.wait("the half-typed schema refused", 5*time.Second, func(s State) bool { return strings.HasPrefix(s.Schema, "schema: does not compile") })
	t.Logf("half-typed: %s", s.Schema)
	g.typeText("descriptor.parametersSchemaJson", `1}`)
	s = g.wait("a schema the metaschema refuses", 5*time.Second, func(s State) bool {
		return strings.HasPrefix(s.Schema, "schema: does not compile") && slices.Contains(s.Framed, "field:descriptor.parametersSchemaJson")
	})
	t.Logf("typed {\"type\":1}: %s", s.Schema)
	img := g.shot("track-schema-error.png")
	if !framedRed(img, s.Targets["field:descriptor.parametersSchemaJson"]) {
		t.Error("no red frame around the schema in the screenshot")
	}
	g.click("button:schema.example")
	g.wait("the example schema", 5*time.Second, func(s State) bool { return s.Schema == "schema: compiles" })

	g.click("button:tab:geometry")
	g.click("button:elements.add")
	g.wait("an element added", 5*time.Second, func(s State) bool { return s.Rows["elements"] == 7 })
	g.set("descriptor.elements[6].name", "wall.diagonal")
	g.set("descriptor.elements[6].x", "1.5")
	g.set("descriptor.elements[6].yawDeg", "45")
	g.shot("track-geometry.png")

	g.click("button:tab:spawns")
	g.click("button:spawns.add")
	g.wait("a spawn point added", 5*time.Second, func(s State) bool { return s.Rows["spawnPoints"] == 2 })
	g.set("descriptor.spawnPoints[1].name", "east")
	g.set("descriptor.spawnPoints[1].x", "2")

	g.click("button:validate")
	s = g.wait("Validate", 10*time.Second, func(s State) bool { return s.Checked == 1 })
	if len(s.Problems) > 0 {
		t.Fatalf("the track has problems: %v", s.Problems)
	}
	g.click("button:export")
	s = g.wait("the export", 15*time.Second, func(s State) bool { return len(s.Exported) == 1 })
	file := filepath.Join(out, id+ArchiveExt)
	if s.Exported[0] != file {
		t.Fatalf("exported %s, want the default %s", s.Exported[0], file)
	}
	if report, err := simgui(t, home, "plugin", "validate", file); err != nil || !strings.Contains(report, id+": valid track 1.0.0") {
		t.Fatalf("simgui plugin validate: %v\n%s", err, report)
	}
	a, err := archive.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := a.Plugin()
	tr := p.Track
	if tr.ParametersSchemaJSON != exampleSchema || len(tr.Elements) != 7 || tr.Elements[6].Name != "wall.diagonal" ||
		tr.Elements[6].YawDeg != 45 || len(tr.SpawnPoints) != 2 || tr.SpawnPoints[1].X != 2 {
		t.Errorf("exported track: %s", js(tr))
	}

	g.click("button:install")
	s = g.wait("the install", 20*time.Second, func(s State) bool { return len(s.Installed) == 1 })
	if len(s.TestDriven) > 0 || !strings.Contains(s.Status, "installed "+id) {
		t.Errorf("standalone install: status %q, test-driven %v", s.Status, s.TestDriven)
	}
	if info, err := simgui(t, home, "plugin", "info", id); err != nil || !strings.Contains(info, `"source": "user"`) {
		t.Errorf("simgui plugin info: %v\n%s", err, info)
	}
	g.click("button:tab:general")
	s = g.wait("the preview of the installed track", 10*time.Second, func(s State) bool { return s.Tab == tabGeneral && s.PreviewGen == s.Gen })
	img = g.shot("track-preview.png")
	notBlank(t, "the track's top-down preview", img, s.Targets["preview:top"])
	notBlank(t, "the view from the spawn point", img, s.Targets["preview:view0"])
	notBlank(t, "the overview", img, s.Targets["preview:view1"])
}

// TestEditorOpen opens plugins for editing from each place they live: a typed archive path (a
// rusim Unity export), a typed folder path (a `simgui plugin new` project), the built-in
// catalog and the user registry (from the Installed list).
func TestEditorOpen(t *testing.T) {
	needDisplay(t)
	home, dir := t.TempDir(), shortDir(t)
	zip := filepath.Join(dir, "g.zip")
	b, err := os.ReadFile(filepath.Join("..", "plugins", "testdata", "vehicle.arcade.green.v1"+ArchiveExt))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(zip, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := simgui(t, home, "plugin", "new", "--type", "vehicle", "vehicle.acme.folder.v1", "--output-dir", dir); err != nil {
		t.Fatalf("plugin new: %v\n%s", err, out)
	}
	track := filepath.Join("..", "plugins", "testdata", "track.city_demo.v1"+ArchiveExt)
	if out, err := simgui(t, home, "plugin", "install", track); err != nil {
		t.Fatalf("plugin install: %v\n%s", err, out)
	}
	g := startEditor(t, "standalone", "RUSIM_HOME="+home, envExport+"="+dir)

	g.set("open.path", zip)
	g.click("button:open")
	s := g.wait("the rusim export opened", 10*time.Second, func(s State) bool { return s.ID == "vehicle.arcade.green.v1" })
	if !strings.Contains(s.Status, "fallback") || s.Rows["sensors"] == 0 {
		t.Errorf("opened rusim export: status %q, %d sensors", s.Status, s.Rows["sensors"])
	}
	g.shot("open-rusim-export.png")

	g.set("open.path", filepath.Join(dir, "vehicle.acme.folder.v1"))
	g.click("button:open")
	g.wait("the project folder opened", 10*time.Second, func(s State) bool { return s.ID == "vehicle.acme.folder.v1" })

	g.click("button:installed")
	g.click("installed:vehicle.ks0223.v1")
	s = g.wait("the KS0223 opened", 10*time.Second, func(s State) bool { return s.ID == "vehicle.ks0223.v1" })
	ks, _ := plugins.Builtin().Vehicle("vehicle.ks0223.v1")
	if s.Rows["sensors"] != len(ks.Contract.Sensors) || s.Values["field:descriptor.displayName"] != ks.DisplayName {
		t.Errorf("KS0223 in the form: %d sensors, name %q", s.Rows["sensors"], s.Values["field:descriptor.displayName"])
	}
	g.click("button:tab:sensors")
	g.wait("the sensors tab and its preview", 10*time.Second, func(s State) bool { return s.Tab == tabSensors && s.PreviewGen == s.Gen })
	g.shot("open-ks0223-sensors.png")

	g.click("button:installed")
	g.click("installed:track.city_demo.v1")
	s = g.wait("the installed track opened", 10*time.Second, func(s State) bool { return s.ID == "track.city_demo.v1" && s.Type == "track" })
	if !strings.Contains(s.Status, "installed track.city_demo.v1") {
		t.Errorf("status %q", s.Status)
	}
}

// TestEditorNoDisplay: without a display, Run fails with one line that says what to do.
func TestEditorNoDisplay(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DISPLAY=") && !strings.HasPrefix(kv, "WAYLAND_DISPLAY=") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, childEnv+"=standalone", "RUSIM_HOME="+t.TempDir(), envExport+"="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the editor ran without a display:\n%s", out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 1 || !strings.Contains(lines[0], "no display for the editor window (set DISPLAY, or run under xvfb-run)") {
		t.Errorf("without a display: %q", out)
	}
}

// TestEditorTypingUnderLoad types a 40-character id at 20 keys a second into the id field, and
// "90" and "#3366cc" into the body, while two processes keep the CPUs busy: every key lands
// once.
func TestEditorTypingUnderLoad(t *testing.T) {
	needDisplay(t)
	xtest.CPUHogs(t, 2)
	g := startEditor(t, "standalone", "RUSIM_HOME="+t.TempDir(), envExport+"="+t.TempDir())
	const id = "vehicle.acme.rover_with_a_long_name42.v1"
	if len(id) != 40 {
		t.Fatalf("the id has %d characters", len(id))
	}
	start := time.Now()
	g.set("descriptor.id", id)
	t.Logf("typed %d characters in %.1f s", len(id), time.Since(start).Seconds())
	g.click("button:tab:body")
	g.set("descriptor.body.mass", "90")
	g.set("descriptor.visual.color", "#3366cc")
	s, _ := g.readState()
	img := g.shot("typing-under-load.png")
	if s.Values["field:descriptor.body.mass"] != "90" || s.Values["field:descriptor.visual.color"] != "#3366cc" {
		t.Errorf("fields hold %q and %q", s.Values["field:descriptor.body.mass"], s.Values["field:descriptor.visual.color"])
	}
	if n := brightPixels(img, s.Targets["field:descriptor.visual.color"]); n < 20 {
		t.Errorf("the colour field shows no text (%d bright pixels)", n)
	}
	g.click("button:tab:general")
	s = g.wait("the general tab", 5*time.Second, func(s State) bool { return s.Tab == tabGeneral })
	if s.ID != id {
		t.Errorf("the id reads %q", s.ID)
	}
}

// TestEditorInstalledList opens the Installed list right after another button (a click that
// moves the pointer and lands in one frame), closes and opens it again: each time it lists
// the plugins, never stuck reading.
func TestEditorInstalledList(t *testing.T) {
	needDisplay(t)
	g := startEditor(t, "standalone", "RUSIM_HOME="+t.TempDir(), envExport+"="+t.TempDir())
	s := g.wait("the toolbar", 10*time.Second, func(s State) bool {
		_, a := s.Targets["button:open"]
		_, b := s.Targets["button:installed"]
		return a && b
	})
	at := func(name string) (string, string) {
		r := s.Targets[name]
		return fmt.Sprint((r[0] + r[2]) / 2), fmt.Sprint((r[1] + r[3]) / 2)
	}
	ox, oy := at("button:open")
	ix, iy := at("button:installed")
	// Hover Open, then move to Installed and click at once.
	g.xdo("mousemove", "--window", g.win, ox, oy)
	g.wait("a frame with the pointer on Open", 5*time.Second, func(st State) bool { return st.Frames > s.Frames+2 })
	g.xdo("mousemove", "--window", g.win, ix, iy, "click", "1")
	for round := 1; round <= 3; round++ {
		s = g.wait(fmt.Sprintf("the list, round %d", round), 10*time.Second, func(s State) bool {
			_, ok := s.Targets["installed:vehicle.ks0223.v1"]
			return ok && s.Listed > 0 && !s.Listing
		})
		if round == 1 {
			g.shot("installed-list.png")
			if slices.Contains(s.Pressed, "open") {
				t.Errorf("the click on Installed also pressed Open: %v", s.Pressed)
			}
		}
		g.click("button:installed.close")
		g.wait("the list closed", 5*time.Second, func(s State) bool { _, ok := s.Targets["installed:vehicle.ks0223.v1"]; return !ok })
		g.click("button:installed")
	}
	t.Logf("listed %d plugins, status %q (%s)", s.Listed, s.Status, s.StatusKind)
}
