package editor

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"simgui/plugins"
	"simgui/plugins/archive"
	"simgui/plugins/registry"
	"simgui/plugins/signing"
)

func testRegistry(t *testing.T) *registry.Registry {
	t.Helper()
	return registry.Open(t.TempDir(), registry.Options{})
}

// TestBuiltinsRoundTrip opens every built-in plugin into the form and builds it back: the
// plugin read from the built files equals the original (its schema compacted to one line),
// and it validates.
func TestBuiltinsRoundTrip(t *testing.T) {
	reg := testRegistry(t)
	for _, id := range plugins.Builtin().IDs() {
		t.Run(id, func(t *testing.T) {
			d, _, err := openInstalled(reg, id)
			if err != nil {
				t.Fatal(err)
			}
			b, err := d.build()
			if err != nil {
				t.Fatal(err)
			}
			if len(b.parse) > 0 {
				t.Fatalf("parse problems: %v", b.parse)
			}
			if _, ps := b.validate(); len(ps.Errors()) > 0 {
				t.Fatalf("problems: %v", ps.Errors())
			}
			got, ps := plugins.ReadPlugin(b.files)
			if got == nil {
				t.Fatalf("built files do not read: %v", ps)
			}
			c := plugins.Builtin()
			if v, err := c.Vehicle(id); err == nil {
				if !reflect.DeepEqual(got.Vehicle, v) {
					t.Errorf("vehicle differs after the round trip:\n got %s\nwant %s", js(got.Vehicle)+js(got.Vehicle.Contract), js(v)+js(v.Contract))
				}
			} else {
				tr, err := c.Track(id)
				if err != nil {
					t.Fatal(err)
				}
				tr.ParametersSchemaJSON = oneLine(tr.ParametersSchemaJSON)
				if !reflect.DeepEqual(got.Track, tr) {
					t.Errorf("track differs after the round trip:\n got %s\nwant %s", js(got.Track), js(tr))
				}
			}
			m, _ := c.Manifest(id)
			if got.Manifest != m {
				t.Errorf("manifest %+v, want %+v", got.Manifest, m)
			}
		})
	}
}

func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func problemAt(ps plugins.Problems, path, text string) bool {
	return slices.ContainsFunc(ps, func(p plugins.Problem) bool {
		return p.Path == path && strings.Contains(p.Message, text) && !p.Warning
	})
}

// TestNewVehicleNeedsAnID: a new vehicle starts from the template with an empty id, which
// Validate lists; with an id and a name it is valid.
func TestNewVehicleNeedsAnID(t *testing.T) {
	d, err := newDraft(plugins.TypeVehicle)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := d.build()
	_, ps := b.validate()
	for _, want := range []struct{ path, text string }{
		{"descriptor.id", "is empty"}, {"descriptor.displayName", "is empty"},
	} {
		if !problemAt(ps, want.path, want.text) {
			t.Errorf("no %s %q problem in %v", want.path, want.text, ps)
		}
	}
	d.vehicle.Base.ID, d.vehicle.Base.DisplayName = "vehicle.acme.rover.v1", "Acme Rover"
	b, _ = d.build()
	if _, ps := b.validate(); len(ps) > 0 {
		t.Fatalf("filled template: %v", ps)
	}
	if len(d.vehicle.Sensors) != 3 || len(d.vehicle.Actuators) == 0 {
		t.Errorf("template rows: %d sensors, %d actuators", len(d.vehicle.Sensors), len(d.vehicle.Actuators))
	}
}

// TestTextThatIsNotANumber reports typed text at the field's validator path; the mount path
// counts mounts, not rows, as the validator does.
func TestTextThatIsNotANumber(t *testing.T) {
	d, _ := newDraft(plugins.TypeVehicle)
	f := d.vehicle
	f.Base.ID, f.Base.DisplayName = "vehicle.acme.rover.v1", "Acme Rover"
	f.Mass = "heavy"
	f.Sensors[0].Kind = "" // unmount the camera: the speedometer becomes mount 0
	f.Sensors[1].X = "1,5"
	f.Sensors[2].Shape = "one"
	f.DriveParams[f.DriveModel]["maxSpeed"] = "fast"
	b, _ := d.build()
	_, ps := b.validate()
	for _, want := range []struct{ path, text string }{
		{"descriptor.body.mass", `"heavy" is not a number`},
		{"descriptor.sensors[0].pose.x", `"1,5" is not a number`},
		{"device-contract.sensors[2].shape", "not a list of whole numbers"},
		{"descriptor.drive.params.maxSpeed", `"fast" is not a number`},
		{"device-contract.sensors[0]", "not mounted"},
	} {
		if !problemAt(ps, want.path, want.text) {
			t.Errorf("no %s %q problem in %v", want.path, want.text, ps)
		}
	}
}

// TestTextThatIsNotANumberIsOneProblem: the validator does not also report the 0 that stands
// in for the text (a made-up "0 is outside the range"), for a field or for a list of points.
func TestTextThatIsNotANumberIsOneProblem(t *testing.T) {
	d, _ := newDraft(plugins.TypeVehicle)
	d.vehicle.Base.ID, d.vehicle.Base.DisplayName = "vehicle.acme.rover.v1", "Acme Rover"
	d.vehicle.Mass = "abc"
	b, _ := d.build()
	_, ps := b.validate()
	if len(ps) != 1 || !problemAt(ps, "descriptor.body.mass", `"abc" is not a number`) {
		t.Errorf("mass abc: %v, want only that it is not a number", ps)
	}

	// The validator reports a wall of length 0 at the element, not at its length.
	tr, _ := newDraft(plugins.TypeTrack)
	tr.track.Base.ID, tr.track.Base.DisplayName = "track.yard.v1", "Yard"
	tr.track.Elements[0].Length = "long"
	tr.track.Elements[1].Width = "-1" // a real problem of the same kind stays
	b, _ = tr.build()
	_, ps = b.validate()
	if len(ps) != 2 || !problemAt(ps, "descriptor.elements[0].length", `"long" is not a number`) || !problemAt(ps, "descriptor.elements[1].width", "is outside the range") {
		t.Errorf("wall length long: %v, want only that it is not a number, and the other wall's width", ps)
	}

	// Road points that do not read are one problem, at the points field (the empty list that
	// stood in for them is no second one).
	tr.track.Elements[0].Length, tr.track.Elements[1].Width = "6", "0.1"
	tr.track.Elements = append(tr.track.Elements, elementRow{Kind: plugins.ElementRoad, Name: "road.1", X: "0", Y: "0", Z: "0",
		Length: "0", Width: "0.6", Height: "0", Radius: "0", YawDeg: "0", Points: "0, -2.5; 0, banana"})
	b, _ = tr.build()
	_, ps = b.validate()
	if len(ps) != 1 || !problemAt(ps, fmt.Sprintf("descriptor.elements[%d].points", len(tr.track.Elements)-1), `("0, banana" is not two numbers)`) {
		t.Errorf("road points with a word in them: %v, want only that they do not read", ps)
	}
}

// An empty id and name are a problem each, as the form shows them once, though the manifest
// repeats them (its pluginId and displayName).
func TestRepeatedValuesAreOneProblem(t *testing.T) {
	for _, typ := range []plugins.Type{plugins.TypeVehicle, plugins.TypeTrack} {
		d, _ := newDraft(typ)
		b, _ := d.build()
		_, ps := b.validate()
		if len(ps.Errors()) != 2 || !problemAt(ps, "descriptor.id", "is empty") || !problemAt(ps, "descriptor.displayName", "is empty") {
			t.Errorf("a new %s: %v, want the empty id and the empty name", typ, ps)
		}
	}
}

// TestRangeHints: the hint beside a number with a range is the range the validator checks it
// against, as its message writes it.
func TestRangeHints(t *testing.T) {
	vehicle := func(set func(f *vehicleForm, x string)) func(x string) plugins.Problems {
		return func(x string) plugins.Problems {
			d, _ := newDraft(plugins.TypeVehicle)
			d.vehicle.Base.ID, d.vehicle.Base.DisplayName = "vehicle.acme.rover.v1", "Acme Rover"
			set(d.vehicle, x)
			b, _ := d.build()
			_, ps := b.validate()
			return ps
		}
	}
	route := func(set func(f *trackForm, x string)) func(x string) plugins.Problems {
		return func(x string) plugins.Problems {
			d, _ := newDraft(plugins.TypeTrack)
			d.track.Base.ID, d.track.Base.DisplayName = "track.yard.v1", "Yard"
			d.track.RouteOn, d.track.Waypoints = true, "0,0; 1,1"
			set(d.track, x)
			b, _ := d.build()
			_, ps := b.validate()
			return ps
		}
	}
	cases := map[string]func(x string) plugins.Problems{
		"descriptor.body.length":         vehicle(func(f *vehicleForm, x string) { f.Length = x }),
		"descriptor.body.width":          vehicle(func(f *vehicleForm, x string) { f.Width = x }),
		"descriptor.body.radius":         vehicle(func(f *vehicleForm, x string) { f.BodyShape, f.Radius = "circle", x }),
		"descriptor.body.height":         vehicle(func(f *vehicleForm, x string) { f.Height = x }),
		"descriptor.body.mass":           vehicle(func(f *vehicleForm, x string) { f.Mass = x }),
		"descriptor.body.friction":       vehicle(func(f *vehicleForm, x string) { f.Friction = x }),
		"descriptor.body.linearDamping":  vehicle(func(f *vehicleForm, x string) { f.LinearDamping = x }),
		"descriptor.body.angularDamping": vehicle(func(f *vehicleForm, x string) { f.AngularDamping = x }),
		"descriptor.route.reachDistance": route(func(f *trackForm, x string) { f.Reach = x }),
		"descriptor.route.corridorWidth": route(func(f *trackForm, x string) { f.Corridor = x }),
		"descriptor.route.goalRadius":    route(func(f *trackForm, x string) { f.Goal = x }),
	}
	if len(cases) != len(rangeSpecs) {
		t.Errorf("%d cases for %d hinted fields", len(cases), len(rangeSpecs))
	}
	for path, validate := range cases {
		t.Run(path, func(t *testing.T) {
			spec, ok := rangeSpecs[path]()
			hint := rangeHint(path)
			if !ok || hint != spec.Range() {
				t.Fatalf("hint %q, spec %+v (found %v)", hint, spec, ok)
			}
			for _, x := range []float64{spec.Min, spec.Max} {
				if ps := validate(num(x)); problemAt(ps, path, "") {
					t.Errorf("%s = %s, in the hint's range %s, is refused: %v", path, num(x), spec.Range(), ps)
				}
			}
			for _, x := range []float64{spec.Min - 1, spec.Max * 2} {
				if ps := validate(num(x)); !problemAt(ps, path, "outside the range "+spec.Range()) {
					t.Errorf("%s = %s: %v, want outside the range %s", path, num(x), ps, spec.Range())
				}
			}
		})
	}
	// Each body field says what it does: the dampings that simgui does not apply, the mass
	// that does not slow the drive (the hint was the range alone).
	if h := meaningHint("descriptor.body.mass"); !strings.HasPrefix(h, "0.01..10000 kg: ") || !strings.Contains(h, "in contacts only") {
		t.Errorf("mass hint %q", h)
	}
	if h := meaningHint("descriptor.body.linearDamping"); !strings.Contains(h, "not applied") {
		t.Errorf("linear damping hint %q", h)
	}
}

// A version that does not parse is one problem, the manifest's, as `simgui plugin validate`
// reports it: not also the id, against a version it never saw.
func TestVersionThatDoesNotParse(t *testing.T) {
	d, _ := newDraft(plugins.TypeVehicle)
	f := d.vehicle
	f.Base.ID, f.Base.DisplayName, f.Base.Version = "vehicle.acme.rover.v1", "Acme Rover", "11.x"
	b, _ := d.build()
	_, ps := b.validate()
	if len(ps) != 1 || !problemAt(ps, "manifest.version", "is not major.minor.patch") {
		t.Errorf("version 11.x: %v, want only manifest.version", ps)
	}
}

func TestSensorTypeMovesDefaults(t *testing.T) {
	r := newSensorRow()
	r.ID, r.RateHz = "cam", "25"
	r.setType(plugins.SensorCamera)
	if r.Format != "jpeg_base64" || r.Shape != "240, 320, 3" || r.Kind != "camera" || r.Unit != "" {
		t.Errorf("camera defaults not taken: %+v", r)
	}
	if r.RateHz != "25" {
		t.Errorf("typed rate replaced: %q", r.RateHz)
	}
	r.setType(plugins.SensorLidar)
	if r.Format != "float32" || r.Shape != "360" || r.Kind != "lidar" {
		t.Errorf("lidar defaults not taken: %+v", r)
	}
	// A chosen kind goes when it cannot fill the new type.
	r.setType(plugins.SensorScalar)
	r.Kind = "ultrasonic"
	r.setType(plugins.SensorIMU)
	if r.Kind != "imu" {
		t.Errorf("an ultrasonic mount kept for an imu sensor: %+v", r)
	}
}

// TestExportSignedAndInstall exports a filled vehicle signed with a key: the archive reads
// back valid and verifies; installing it makes the registry load it.
func TestExportSignedAndInstall(t *testing.T) {
	dir := t.TempDir()
	keyID, err := signing.GenerateKeyFiles(filepath.Join(dir, "k"))
	if err != nil {
		t.Fatal(err)
	}
	d, _ := newDraft(plugins.TypeVehicle)
	d.vehicle.Base.ID, d.vehicle.Base.DisplayName = "vehicle.acme.rover.v1", "Acme Rover"
	d.vehicle.Mass, d.vehicle.Color = "2.5", "#c03030"
	b, _ := d.build()
	a, ps := b.validate()
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	res, err := exportArchive(a, d.id(), dir, filepath.Join(dir, "k.key"), false)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "vehicle.acme.rover.v1"+ArchiveExt); res.path != want || res.signedBy != keyID {
		t.Errorf("exported %s signed by %s, want %s by %s", res.path, res.signedBy, want, keyID)
	}
	got, err := archive.Open(res.path)
	if err != nil {
		t.Fatal(err)
	}
	p, ps := got.Plugin()
	if len(ps) > 0 || p.Vehicle.Body.Mass != 2.5 || p.Vehicle.Visual.Color != "#c03030" {
		t.Fatalf("archive reads as %+v %v", p.Vehicle.Body, ps)
	}
	if sig, err := signing.Verify(got.Files()); err != nil || sig.KeyID != keyID {
		t.Fatalf("signature: %v %v", sig, err)
	}
	readme, _ := got.File(plugins.ReadmeFile)
	if !strings.Contains(string(readme), "Acme Rover (vehicle.acme.rover.v1)") {
		t.Errorf("README.md:\n%s", readme)
	}

	reg := testRegistry(t)
	ins, err := installArchive(reg, a, d.id(), filepath.Join(dir, "k.key"))
	if err != nil {
		t.Fatal(err)
	}
	if ins.vehicle == nil || ins.vehicle.ID != "vehicle.acme.rover.v1" || ins.report.SignedBy != "" && ins.report.SignedBy != keyID {
		t.Fatalf("install: %+v", ins)
	}
	if _, err := os.Stat(filepath.Join(reg.Path(d.id()), plugins.SignatureFile)); err != nil {
		t.Errorf("installed without its signature: %v", err)
	}
	if _, err := exportArchive(a, d.id(), "", "", false); err == nil {
		t.Error("export to an empty path did not fail")
	}
}

// TestOpenRusimExports opens rusim's Unity exports (no simulation data): the form shows the
// fallback, and what it builds is valid.
func TestOpenRusimExports(t *testing.T) {
	for _, name := range []string{"vehicle.arcade.green.v1", "track.city_demo.v1"} {
		t.Run(name, func(t *testing.T) {
			d, notes, err := openPath(filepath.Join("..", "plugins", "testdata", name+ArchiveExt))
			if err != nil {
				t.Fatal(err)
			}
			if d.id() != name {
				t.Errorf("id %q", d.id())
			}
			if d.typ == plugins.TypeVehicle && len(notes) == 0 {
				t.Error("no note about the fallback data")
			}
			b, _ := d.build()
			if _, ps := b.validate(); len(ps.Errors()) > 0 {
				t.Errorf("problems: %v", ps.Errors())
			}
			if _, ok := b.files[plugins.ReadmeFile]; !ok {
				t.Error("README.md not kept")
			}
			// rusim's contract file is the Editor asset's wrapper: it keeps that shape and
			// its version, which is not the plugin's.
			if d.typ == plugins.TypeVehicle {
				var c struct {
					ContractVersion *plugins.ContractVersion `json:"contractVersion"`
					Descriptor      struct {
						DeviceID string `json:"deviceId"`
					} `json:"descriptor"`
				}
				if err := json.Unmarshal(b.files[plugins.ContractFile], &c); err != nil || c.ContractVersion == nil ||
					*c.ContractVersion != (plugins.ContractVersion{Major: 1}) || c.Descriptor.DeviceID != name {
					t.Errorf("device-contract.json as built (%v):\n%s", err, b.files[plugins.ContractFile])
				}
			}
		})
	}
}

func TestOpenPathErrors(t *testing.T) {
	if _, _, err := openPath(""); err == nil || !strings.Contains(err.Error(), "type a folder or archive path") {
		t.Errorf("empty path: %v", err)
	}
	// A path that is not there is named once, as typed, with no archive's words for a folder.
	missing := filepath.Join(t.TempDir(), "nothing", "here")
	if _, _, err := openPath(missing); err == nil || err.Error() != "no such file or folder: "+missing {
		t.Errorf("missing path: %v", err)
	}
	notZip := filepath.Join(t.TempDir(), "notes.zip")
	if err := os.WriteFile(notZip, []byte("just text"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := openPath(notZip); err == nil || err.Error() != "cannot open "+notZip+": not a zip archive" {
		t.Errorf("not a zip: %v", err)
	}
	// A mistyped id names what is installed, rather than the folder it is not in.
	_, _, err := openStart(testRegistry(t), "vehicle.acme.rovr.v1")
	if err == nil || !strings.Contains(err.Error(), "nor an installed plugin (installed: track.basic_arena.v1,") || strings.Contains(err.Error(), "no such file") {
		t.Errorf("unknown id: %v", err)
	}
}

func TestParsers(t *testing.T) {
	var p parser
	if got := p.ints("s", "[240, 320,3]"); !reflect.DeepEqual(got, []int{240, 320, 3}) {
		t.Errorf("ints: %v", got)
	}
	if got := p.points("p", "0, -2.5; 0,2.5;"); !reflect.DeepEqual(got, [][2]float64{{0, -2.5}, {0, 2.5}}) {
		t.Errorf("points: %v", got)
	}
	if len(p.ps) != 0 {
		t.Fatal(p.ps)
	}
	p.points("p", "1,2,3")
	if len(p.ps) != 1 || p.ps[0].Path != "p" {
		t.Errorf("bad points: %v", p.ps)
	}
	// strconv reads these, JSON cannot hold them.
	for _, s := range []string{"0,0; NaN,1", "Inf,-Inf", "1e400,0"} {
		p.ps = nil
		if got := p.points("p", s); got != nil || len(p.ps) != 1 {
			t.Errorf("%q read as %v, problems %v", s, got, p.ps)
		}
	}
	for _, s := range []string{"NaN", "inf", "-Inf", "1e400", "1,5"} {
		if x, ok := p.optFloat("x", s); ok || x != 0 {
			t.Errorf("%q read as %v", s, x)
		}
	}
	if x, ok := p.optFloat("x", " -2.5e-1 "); !ok || x != -0.25 {
		t.Errorf("-2.5e-1 read as %v %v", x, ok)
	}
	if s := "a\\b\nc"; unescapeLines(escapeLines(s)) != s {
		t.Errorf("escape round trip: %q", escapeLines(s))
	}
	if got := oneLine("{\n \"a\": [1,\n 2]\n}"); got != `{"a":[1,2]}` {
		t.Errorf("oneLine: %q", got)
	}
}

func TestCanonicalAndParentPaths(t *testing.T) {
	for in, want := range map[string]string{
		"manifest.pluginId": "descriptor.id", "device-contract.deviceId": "descriptor.id",
		"manifest.version": "descriptor.version", "descriptor.body.mass": "descriptor.body.mass",
	} {
		if got := canonicalPath(in); got != want {
			t.Errorf("canonicalPath(%s) = %s, want %s", in, got, want)
		}
	}
	if got := parentPath("device-contract.sensors[2].rateHz"); got != "device-contract.sensors[2]" {
		t.Errorf("parent: %s", got)
	}
	if got := parentPath("device-contract.sensors[2]"); got != "device-contract.sensors" {
		t.Errorf("parent: %s", got)
	}
}

// The toolbar's open field takes what `simgui edit` takes: a path, or an installed plugin's id.
func TestOpenFieldTakesAnInstalledID(t *testing.T) {
	e := testEditor(t, plugins.TypeTrack)
	e.jobs = make(chan func() func(), 8)
	e.open("vehicle.ks0223.v1")
	finish(t, e)
	if e.d.vehicle == nil || e.d.vehicle.Base.ID != "vehicle.ks0223.v1" {
		t.Fatalf("after opening an id: status %q, vehicle %+v", e.status, e.d.vehicle)
	}
}

// TestNewSpawnPointsHaveTheirOwnNames: Add spawn point names the new track's second spawn
// point spawn2, not "start" again, and skips a name a row has.
func TestNewSpawnPointsHaveTheirOwnNames(t *testing.T) {
	d, err := newDraft(plugins.TypeTrack)
	if err != nil {
		t.Fatal(err)
	}
	f := d.track
	for range 2 {
		f.Spawns = append(f.Spawns, f.newSpawnRow())
	}
	f.Spawns[2].Name = "spawn4"
	f.Spawns = append(f.Spawns, f.newSpawnRow())
	var names []string
	for _, s := range f.Spawns {
		names = append(names, s.Name)
	}
	if want := []string{"start", "spawn2", "spawn4", "spawn5"}; !slices.Equal(names, want) {
		t.Errorf("spawn points %q, want %q", names, want)
	}
	f.Spawns = nil
	if s := f.newSpawnRow(); s.Name != "start" {
		t.Errorf("the first spawn point added is %q, want start", s.Name)
	}
}
