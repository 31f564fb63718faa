package plugins

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math"
	"path"
	"slices"
	"strings"
	"testing"

	"simgui/assets"
)

// builtinFiles returns the files of one built-in plugin folder by name.
func builtinFiles(t testing.TB, id string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	entries, err := fs.ReadDir(assets.Plugins, path.Join("plugins", id))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := fs.ReadFile(assets.Plugins, path.Join("plugins", id, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = b
	}
	return files
}

// edited returns a copy of files with file's JSON changed by f.
func edited(t *testing.T, files map[string][]byte, file string, f func(m map[string]any)) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for k, v := range files {
		out[k] = v
	}
	var m map[string]any
	if err := json.Unmarshal(files[file], &m); err != nil {
		t.Fatal(err)
	}
	f(m)
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	out[file] = b
	return out
}

func paths(ps Problems) []string {
	return mapSlice(ps, func(p Problem) string { return p.Path })
}

func TestBuiltinsAndFixturesValidate(t *testing.T) {
	for _, id := range Builtin().IDs() {
		p, ps := ReadPlugin(builtinFiles(t, id))
		if len(ps) != 0 || p == nil || p.ID() != id {
			t.Errorf("%s: %v", id, ps)
		}
	}
	for _, name := range []string{"vehicle.arcade.green.v1.rusim-plugin.zip", "track.city_demo.v1.rusim-plugin.zip"} {
		p, ps := ReadPlugin(readZip(t, name))
		if p == nil || len(ps.Errors()) != 0 || len(ps.Warnings()) != 1 || ps[0].Path != "descriptor" {
			t.Errorf("%s: %v", name, ps)
		}
	}
	p, _ := ReadPlugin(readZip(t, "vehicle.arcade.green.v1.rusim-plugin.zip"))
	v := p.ForSimulation()
	if v.Body == nil || v.Drive.Model != "differential" || v.Visual.Color != "#2e9e48" || len(v.Sensors) != 6 || v.CheckSimulation() != nil {
		t.Errorf("fallback vehicle: %+v", v)
	}
	if p.Vehicle.Body != nil {
		t.Error("ForSimulation changed the plugin's own descriptor")
	}
}

// Every rule of ValidateVehicle reports at its own path.
func TestValidateVehiclePaths(t *testing.T) {
	base := builtinFiles(t, "vehicle.arcade.blue.v1")
	sensor := func(i int, k string, v any) func(map[string]any) {
		return func(m map[string]any) { m["sensors"].([]any)[i].(map[string]any)[k] = v }
	}
	for _, tc := range []struct {
		name, file string
		edit       func(map[string]any)
		want       Problem
	}{
		{"manifest version differs", "manifest.json", func(m map[string]any) { m["version"] = "1.2.0" },
			Problem{Path: "manifest.version", Message: `"1.2.0" differs from descriptor.version 1.0.0`}},
		{"manifest id differs", "manifest.json", func(m map[string]any) { m["pluginId"] = "vehicle.arcade.teal.v1" },
			Problem{Path: "manifest.pluginId", Message: `"vehicle.arcade.teal.v1" differs from descriptor.id "vehicle.arcade.blue.v1"`}},
		{"manifest constraint", "manifest.json", func(m map[string]any) { m["compatibleRuntime"] = ">>1" },
			Problem{Path: "manifest.compatibleRuntime"}},
		{"id convention", "descriptor.json", func(m map[string]any) { m["id"] = "vehicle.blue.v1" },
			Problem{Path: "descriptor.id", Message: `"vehicle.blue.v1" does not follow vehicle.{brand}.{model}.v{major} or track.{name}.v{major} (lower-case letters, digits, '_' and '-'; more dotted parts allowed before the version)`}},
		{"id major", "descriptor.json", func(m map[string]any) { m["version"] = map[string]any{"major": 2} },
			Problem{Path: "descriptor.id", Message: `"vehicle.arcade.blue.v1" says v1, but version.major is 2`}},
		{"id type", "descriptor.json", func(m map[string]any) { m["id"] = "track.arcade.v1" },
			Problem{Path: "descriptor.id", Message: `"track.arcade.v1" is a track id, but this is a vehicle plugin`}},
		{"deviceId", "device-contract.json", func(m map[string]any) { m["deviceId"] = "x" },
			Problem{Path: "device-contract.deviceId", Message: `"x" differs from the plugin id "vehicle.arcade.blue.v1"`}},
		{"sensor ids unique", "device-contract.json", sensor(1, "id", "camera.front.rgb"),
			Problem{Path: "device-contract.sensors[1].id", Message: `"camera.front.rgb" is already the id of sensors[0]`}},
		{"sensor type", "device-contract.json", sensor(1, "sensorType", ""),
			Problem{Path: "device-contract.sensors[1].sensorType", Message: `is empty (camera, depth, imu, lidar, scalar, or a type of your own)`}},
		{"sensor format", "device-contract.json", sensor(0, "format", "float32"),
			Problem{Path: "device-contract.sensors[0].format", Message: `"float32" is not a camera format (raw, jpeg, jpeg_base64, png; empty: raw)`}},
		{"sensor shape", "device-contract.json", sensor(0, "shape", []int{480, 640}),
			Problem{Path: "device-contract.sensors[0].shape", Message: "[480 640] is not a camera shape: want [height, width, channels] with 1 or 3 channels, sizes positive"}},
		{"rateHz", "device-contract.json", sensor(1, "rateHz", 0),
			Problem{Path: "device-contract.sensors[1].rateHz", Message: "0 is outside the range 0.01..1000 Hz"}},
		{"actuator range", "device-contract.json", func(m map[string]any) { m["actuators"].([]any)[2].(map[string]any)["min"] = 1 },
			Problem{Path: "device-contract.actuators[2].min", Message: "1 is not below max 1"}},
		{"actuator ids unique", "device-contract.json", func(m map[string]any) { m["actuators"].([]any)[2].(map[string]any)["id"] = "control.steer_norm" },
			Problem{Path: "device-contract.actuators[2].id", Message: `"control.steer_norm" is already the id of actuators[1]`}},
		{"no actuators", "device-contract.json", func(m map[string]any) { m["actuators"] = []any{} },
			Problem{Path: "device-contract.actuators", Message: "is empty: a vehicle needs at least one actuator"}},
		{"unmounted sensor", "descriptor.json", func(m map[string]any) { m["sensors"] = m["sensors"].([]any)[:1] },
			Problem{Path: "device-contract.sensors[1]", Message: `sensor "speedometer" is not mounted on the vehicle: add a descriptor.sensors entry with this id`}},
		{"partial simulation data", "descriptor.json", func(m map[string]any) { delete(m, "drive") },
			Problem{Path: "descriptor.drive", Message: "missing"}},
		{"mount kind", "descriptor.json", sensor(1, "kind", "lidar"),
			Problem{Path: "descriptor.sensors[1].kind", Message: `"lidar" does not produce a scalar sensor`}},
		{"mount param", "descriptor.json", func(m map[string]any) {
			m["sensors"].([]any)[0].(map[string]any)["params"].(map[string]any)["fovDeg"] = 500
		}, Problem{Path: "descriptor.sensors[0].params.fovDeg", Message: "500 is outside the range 10..170 deg"}},
		{"mount pose", "descriptor.json", func(m map[string]any) {
			m["sensors"].([]any)[0].(map[string]any)["pose"].(map[string]any)["x"] = 40
		}, Problem{Path: "descriptor.sensors[0].pose.x", Message: "40 is outside the range -10..10 m"}},
		{"mass", "descriptor.json", func(m map[string]any) { m["body"].(map[string]any)["mass"] = -1 },
			Problem{Path: "descriptor.body.mass", Message: "-1 is outside the range 0.01..10000 kg"}},
		{"drive param", "descriptor.json", func(m map[string]any) { m["drive"].(map[string]any)["params"].(map[string]any)["lag"] = 1 },
			Problem{Path: "descriptor.drive.params.lag"}},
		{"colour", "descriptor.json", func(m map[string]any) { m["visual"].(map[string]any)["color"] = "blue" },
			Problem{Path: "descriptor.visual.color", Message: `"blue" is not #rrggbb`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, ps := ReadPlugin(edited(t, base, tc.file, tc.edit))
			if !slices.ContainsFunc(ps.Errors(), func(p Problem) bool {
				return p.Path == tc.want.Path && (tc.want.Message == "" || p.Message == tc.want.Message)
			}) {
				t.Errorf("problems %v\nwant among them %v", ps, tc.want)
			}
		})
	}
}

// sensorType is an open string: a type the runtime has no special handling for is a warning,
// not an error, its format and shape unchecked; unmounted, it is a warning too.
func TestUnknownSensorTypeIsAWarning(t *testing.T) {
	base := builtinFiles(t, "vehicle.ks0223.v1")
	files := edited(t, base, "device-contract.json", func(m map[string]any) {
		s := m["sensors"].([]any)[1].(map[string]any)
		s["sensorType"], s["format"], s["shape"] = "thermal", "celsius16", []int{24, 32}
	})
	_, ps := ReadPlugin(files)
	if len(ps.Errors()) > 0 || len(ps.Warnings()) != 1 || ps.Warnings()[0].Path != "device-contract.sensors[1].sensorType" ||
		!strings.Contains(ps.Warnings()[0].Message, `"thermal" has no special handling`) {
		t.Fatalf("problems %v", ps)
	}
	unmounted := edited(t, files, "descriptor.json", func(m map[string]any) {
		ms := m["sensors"].([]any)
		m["sensors"] = append(ms[:1:1], ms[2:]...)
	})
	_, ps = ReadPlugin(unmounted)
	if len(ps.Errors()) > 0 || !slices.ContainsFunc(ps.Warnings(), func(p Problem) bool {
		return p.Path == "device-contract.sensors[1]" && strings.Contains(p.Message, "gives no readings")
	}) {
		t.Fatalf("unmounted thermal sensor: problems %v", ps)
	}
}

// A rusim export whose scalar sensor's id gives no hint of its kind cannot be mounted by the
// fallback: it is an error, after the warning.
func TestFallbackLeavesAnUnhintedSensorUnmounted(t *testing.T) {
	files := edited(t, readZip(t, "vehicle.arcade.green.v1.rusim-plugin.zip"), "device-contract.json", func(m map[string]any) {
		m["descriptor"].(map[string]any)["sensors"].([]any)[1].(map[string]any)["id"] = "battery"
	})
	_, ps := ReadPlugin(files)
	want := []string{"descriptor", "device-contract.sensors[1]"}
	if !slices.Equal(paths(ps), want) || !ps[0].Warning || ps[1].Message != `sensor "battery" is not mounted on the vehicle: add a descriptor.sensors entry with this id` {
		t.Errorf("problems %v", ps)
	}
}

func TestValidateTrackPaths(t *testing.T) {
	// trackgen declares the real generators; this package's tests stand in for it, and put
	// the list back (other tests validate built-in tracks with no list, which checks nothing).
	prev := DeclaredGenerators()
	generators.RLock()
	prevFloors := maps.Clone(generators.floors)
	generators.RUnlock()
	t.Cleanup(func() {
		generators.Lock()
		generators.names, generators.floors = prev, prevFloors
		generators.Unlock()
	})
	DeclareGenerator("static", FloorWhole)
	DeclareGenerator("maze", FloorNone)
	base := builtinFiles(t, "track.basic_arena.v1")
	polygon := func(pts ...any) map[string]any {
		return map[string]any{"kind": "polygon", "name": "pad", "points": pts}
	}
	marker := func(id int, width float64) map[string]any {
		return map[string]any{"kind": "marker", "name": "tag", "x": 0.5, "z": 0.1, "length": 0.1, "width": width, "arucoId": id}
	}
	for _, tc := range []struct {
		name string
		edit func(map[string]any)
		path string
		msg  string
	}{
		{"schema does not compile", func(m map[string]any) { m["parametersSchemaJson"] = `{"type": "nonsense"}` },
			"descriptor.parametersSchemaJson", "does not compile as a JSON Schema"},
		{"schema not JSON", func(m map[string]any) { m["parametersSchemaJson"] = `{nope` },
			"descriptor.parametersSchemaJson", "does not compile as a JSON Schema: not JSON"},
		{"schema reads a file", func(m map[string]any) { m["parametersSchemaJson"] = `{"$ref": "file:///dev/zero"}` },
			"descriptor.parametersSchemaJson", "uses $ref"},
		{"schema refers to itself", func(m map[string]any) {
			m["parametersSchemaJson"] = `{"properties": {"a": {"allOf": [{"$ref": "#/$defs/d"}]}}, "$defs": {"d": {"$ref": "#"}}}`
		}, "descriptor.parametersSchemaJson", "uses $ref"},
		{"schema nested deep", func(m map[string]any) {
			m["parametersSchemaJson"] = strings.Repeat(`{"not":`, 3200) + "{}" + strings.Repeat("}", 3200)
		}, "descriptor.parametersSchemaJson", "nested more than 32 deep"},
		{"schema too long", func(m map[string]any) {
			m["parametersSchemaJson"] = `{"properties": {"a": {"enum": [` + strings.Repeat("1,", 30000) + `1]}}}`
		}, "descriptor.parametersSchemaJson", "more than 20000 values"},
		{"unknown generator", func(m map[string]any) { m["generator"] = "fractal" },
			"descriptor.generator", `unknown track generator "fractal" (known: maze, static)`},
		{"element", func(m map[string]any) { m["elements"].([]any)[0].(map[string]any)["width"] = 0 },
			"descriptor.elements[0].width", "road.A: a road needs a positive width"},
		{"floor length", func(m map[string]any) { m["floor"].(map[string]any)["length"] = -1 },
			"descriptor.floor.length", "-1 is not positive"},
		{"road points", func(m map[string]any) { m["elements"].([]any)[0].(map[string]any)["points"] = []any{[]any{0, 0}} },
			"descriptor.elements[0].points", "road.A: a road needs at least 2 points"},
		{"polygon crossing itself", func(m map[string]any) {
			m["elements"].([]any)[0] = polygon([]any{0, 0}, []any{1, 1}, []any{1, 0}, []any{0, 1})
		},
			"descriptor.elements[0].points", "pad: the polygon has no area"},
		{"polygon of one point thrice", func(m map[string]any) { m["elements"].([]any)[0] = polygon([]any{1, 1}, []any{1, 1}, []any{1, 1}) },
			"descriptor.elements[0].points", "pad: a polygon needs at least 3 distinct points"},
		{"polygon star", func(m map[string]any) {
			m["elements"].([]any)[0] = polygon([]any{0, 1}, []any{0.59, -0.81}, []any{-0.95, 0.31}, []any{0.95, 0.31}, []any{-0.59, -0.81})
		}, "descriptor.elements[0].points", "pad: the polygon crosses itself: its edge from point 0 meets the one from point 2"},
		{"polygon pinched", func(m map[string]any) {
			// A corner on another edge: the outline touches itself.
			m["elements"].([]any)[0] = polygon([]any{0, 0}, []any{2, 0}, []any{2, 2}, []any{1, 0}, []any{0, 2})
		}, "descriptor.elements[0].points", "pad: the polygon crosses itself"},
		{"polygon too long", func(m map[string]any) {
			var pts []any
			for i := range MaxPolygonPoints + 1 {
				a := 2 * math.Pi * float64(i) / float64(MaxPolygonPoints+1)
				pts = append(pts, []any{math.Cos(a), math.Sin(a)})
			}
			m["elements"].([]any)[0] = polygon(pts...)
		}, "descriptor.elements[0].points", "pad: a polygon of 513 points is over the limit of 512"},
		{"id", func(m map[string]any) { m["id"] = "track.Basic_Arena.v1" }, "descriptor.id", "does not follow"},
		{"aruco id on a road", func(m map[string]any) { m["elements"].([]any)[0].(map[string]any)["arucoId"] = 0 },
			"descriptor.elements[0].arucoId", "road.A: only a marker can be an ArUco marker"},
		{"aruco id not in the dictionary", func(m map[string]any) { m["elements"].([]any)[0] = marker(50, 0) },
			"descriptor.elements[0].arucoId", "tag: 50 is not a marker of DICT_4X4_50 (0 to 49)"},
		{"aruco marker not square", func(m map[string]any) { m["elements"].([]any)[0] = marker(3, 0.2) },
			"descriptor.elements[0].width", "tag: an ArUco marker is square"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, ps := ReadPlugin(edited(t, base, "descriptor.json", tc.edit))
			errs := ps.Errors()
			if tc.name == "id" { // the manifest still names the old id
				errs = slices.DeleteFunc(errs, func(p Problem) bool { return p.Path == "manifest.pluginId" })
			}
			if len(errs) != 1 || errs[0].Path != tc.path || !strings.Contains(errs[0].Message, tc.msg) {
				t.Errorf("problems %v\nwant one at %s containing %q", ps, tc.path, tc.msg)
			}
		})
	}
}

func TestDecodeReportsJSONProblemsWithPaths(t *testing.T) {
	base := builtinFiles(t, "vehicle.arcade.blue.v1")
	set := func(file, body string) map[string][]byte {
		out := map[string][]byte{}
		for k, v := range base {
			out[k] = v
		}
		out[file] = []byte(body)
		return out
	}
	for _, tc := range []struct {
		name  string
		files map[string][]byte
		want  string
	}{
		{"malformed", set("descriptor.json", "{\n  \"id\": \"x\",\n  \"version\": {]\n}"),
			"descriptor.json: malformed JSON at line 3, column 15: invalid character ']' looking for beginning of object key string"},
		{"wrong type in an array", set("device-contract.json",
			`{"deviceId": "vehicle.arcade.blue.v1", "sensors": [{"id": "a"}, {"id": "b", "rateHz": "fast"}]}`),
			"device-contract.sensors[1].rateHz: is a string, want a number"},
		{"wrong type in the wrapper", set("device-contract.json", `{"contractVersion": {"major": 1}, "descriptor": {"deviceId": 7}}`),
			"device-contract.descriptor.deviceId: is a number, want a string"},
		{"manifest type", set("manifest.json", `{"pluginId": "vehicle.arcade.blue.v1", "type": "vehicle", "displayName": "B", "version": 1}`),
			"manifest.version: is a number, want a string"},
		{"a number too large for any", set("device-contract.json",
			`{"deviceId": "vehicle.arcade.blue.v1", "sensors": [{"id": "a", "rateHz": 1e999}]}`),
			"device-contract.sensors[0].rateHz: 1e999 is out of range for a number"},
		{"a fraction for a whole number", set("device-contract.json", `{"contractVersion": {"major": 1.5}, "descriptor": {"deviceId": "x"}}`),
			"device-contract.contractVersion.major: 1.5 is not a whole number"},
		{"a whole number too large", set("device-contract.json", `{"contractVersion": {"major": 1e30}, "descriptor": {"deviceId": "x"}}`),
			"device-contract.contractVersion.major: 1e30 is out of range for a whole number"},
		{"manifest keys", set("manifest.json", `{"pluginId": "", "type": "vehicle", "displayName": "B", "version": "1.0.0"}`),
			"manifest.pluginId: required key is missing or empty"},
		{"not an object", set("manifest.json", `[1]`), "manifest: is an array, want an object"},
		{"not UTF-8", set("descriptor.json", "{\"id\": \"\xff\"}"), "descriptor.json: is not UTF-8 text"},
		{"no manifest", func() map[string][]byte { m := set("x", ""); delete(m, "manifest.json"); return m }(),
			"manifest.json: missing: a plugin archive has manifest.json at its root"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, ps := ReadPlugin(tc.files)
			if errs := ps.Errors(); len(errs) == 0 || errs[0].String() != tc.want {
				t.Errorf("problems %v\nwant first %q", ps, tc.want)
			}
		})
	}
	_, ps := ReadPlugin(set("descriptor.json", strings.Replace(string(base["descriptor.json"]), `"body"`, `"bdy"`, 1)))
	if w, e := ps.Warnings(), ps.Errors(); len(w) != 1 || w[0].String() != `descriptor: unknown field "bdy" is ignored` ||
		len(e) != 1 || e[0].String() != "descriptor.body: missing" {
		t.Errorf("a misspelt field: %v", ps)
	}

	// Every unknown field is named at its place, not just the first one the decoder met.
	_, ps = ReadPlugin(edited(t, base, "descriptor.json", func(m map[string]any) {
		m["materails"] = []any{}
		m["body"].(map[string]any)["mas"] = 3
		m["sensors"].([]any)[1].(map[string]any)["parms"] = map[string]any{"fovDeg": 60}
	}))
	var got []string
	for _, w := range ps.Warnings() {
		got = append(got, w.String())
	}
	want := []string{`descriptor: unknown field "materails" is ignored`, `descriptor.body: unknown field "mas" is ignored`,
		`descriptor.sensors[1]: unknown field "parms" is ignored`}
	if !slices.Equal(got, want) || len(ps.Errors()) != 0 {
		t.Errorf("three misspelt fields: warnings %q, want %q; errors %v", got, want, ps.Errors())
	}

	// A Unity export's many extra fields are capped, with how many more.
	_, ps = ReadPlugin(edited(t, base, "descriptor.json", func(m map[string]any) {
		for i := range 25 {
			m[fmt.Sprintf("unity%02d", i)] = i
		}
	}))
	if w := ps.Warnings(); len(w) != maxUnknownFields+1 || w[maxUnknownFields].String() != "descriptor: 5 more unknown fields are ignored" ||
		w[0].String() != `descriptor: unknown field "unity00" is ignored` {
		t.Errorf("25 unknown fields: %v", w)
	}
}

func TestParseIDAndSafeID(t *testing.T) {
	for id, want := range map[string]string{
		"vehicle.arcade.green.v1": "vehicle 1", "track.city_demo.v12": "track 12", "vehicle.ks0223.v1": "vehicle 1",
		"vehicle.a.b.c.v1": "vehicle 1", "track.a.b.v1": "track 1", "track.acme.loop.v1": "track 1",
		"vehicle.ks0223.arcade.blue.v1": "vehicle 1", "track.a.b.c.d.e.f.v2": "track 2", "track.a.b.c.d.e.f.g.v2": "",
		"vehicle.a.v1": "", "track.v1": "", "Vehicle.a.b.v1": "", "vehicle.a.b.v": "", "vehicle.a.b.1": "",
		"track..v1": "", "track.a..b.v1": "", "track.x.v1/..": "", "track." + strings.Repeat("a", 130) + ".v1": "",
	} {
		typ, major, err := ParseID(id)
		got := ""
		if err == nil {
			got = string(typ) + " " + fmtNum(float64(major))
		}
		if got != want {
			t.Errorf("ParseID(%q) = %q, %v; want %q", id, got, err, want)
		}
	}
	for id, want := range map[string]bool{"vehicle.a.b.v1": true, "A-b_c.1": true, "": false, ".": false, "..": false,
		".hidden": false, "-x": false, "a/b": false, `a\b`: false, "a b": false, strings.Repeat("a", 129): false} {
		if SafeID(id) != want {
			t.Errorf("SafeID(%q) = %v", id, !want)
		}
	}
}

func TestCheckRuntime(t *testing.T) {
	m := Manifest{PluginID: "vehicle.x.y.v1"}
	for _, tc := range []struct{ constraint, runtime, want string }{
		{"", "0.1.0", ""},
		{">=0.2.0", "0.3.0", ""},
		{">=0.2.0", "0.1.0", "plugin vehicle.x.y.v1 needs runtime >=0.2.0; this is 0.1.0"},
		{">=1.0.0,<2.0.0", "1.4.2", ""},
		{">=1.0.0,<2.0.0", "2.0.0", "plugin vehicle.x.y.v1 needs runtime >=1.0.0,<2.0.0; this is 2.0.0"},
		{">=0.3.0", "", ""},
		{">=0.4.0", "", "plugin vehicle.x.y.v1 needs runtime >=0.4.0; this is " + RuntimeVersion},
	} {
		m.CompatibleRuntime = tc.constraint
		err := CheckRuntime(m, tc.runtime)
		got := ""
		if err != nil {
			got = err.Error()
			var ie *IncompatibleRuntimeError
			if !errors.As(err, &ie) {
				t.Errorf("%v is not an IncompatibleRuntimeError", err)
			}
		}
		if got != tc.want {
			t.Errorf("CheckRuntime(%q, %q) = %q, want %q", tc.constraint, tc.runtime, got, tc.want)
		}
	}
}

func TestJSONPathAt(t *testing.T) {
	b := []byte(`{"a": [1, {"b": [true, "x"]}, {}], "c": {"d": null}}`)
	for _, tc := range []struct {
		after string // the value ends just after the first occurrence of this text
		want  string
	}{{`1`, ".a[0]"}, {`true`, ".a[1].b[0]"}, {`"x"`, ".a[1].b[1]"}, {`"x"]}, {`, ".a[2]"}, {`null`, ".c.d"}, {`"c": {`, ".c"}} {
		off := strings.Index(string(b), tc.after) + len(tc.after)
		if got := jsonPathAt(b, int64(off)); got != tc.want {
			t.Errorf("after %s: %q, want %q", tc.after, got, tc.want)
		}
	}
}

func TestStillAvailable(t *testing.T) {
	c := Builtin()
	if err := StillAvailable(c, "track.maze.v1", []string{"vehicle.ks0223.v1", "vehicle.ks0223.v1"}); err != nil {
		t.Fatal(err)
	}
	err := StillAvailable(c, "track.maze.v1", []string{"vehicle.ks0223.v1", "vehicle.gone.car.v1"})
	if err == nil || err.Error() != "plugin vehicle.gone.car.v1 is no longer installed: reinstall it (simgui plugin install) or load another scenario" {
		t.Errorf("err = %v", err)
	}
}

// TestValidationErrorWordsTen: the one-line text names MaxWorded problems and counts the rest;
// Problems keeps them all.
func TestValidationErrorWordsTen(t *testing.T) {
	var ps Problems
	for i := range 3000 {
		ps.add(index("descriptor.sensors", i), "bad")
	}
	e, _ := ps.Err().(*ValidationError)
	if e == nil || len(e.Problems) != 3000 {
		t.Fatalf("Err() = %v", ps.Err())
	}
	msg := e.Error()
	if strings.Count(msg, ": bad") != MaxWorded || !strings.HasSuffix(msg, "and 2990 more") || !strings.HasPrefix(msg, "3000 problems: ") {
		t.Errorf("text %q", msg)
	}
}

// TestElementProblemsAllListed: an element's bad colour does not hide its length out of range,
// nor a non-square marker its bad id; a length out of range is not also "not positive".
func TestElementProblemsAllListed(t *testing.T) {
	box := Element{Kind: ElementBox, Name: "box.1", Length: -0.4, Width: 0.2, Height: 0.2, Color: "#12345g"}
	got := elementProblems(box)
	var paths []string
	for _, p := range got {
		paths = append(paths, p.Path)
	}
	if !slices.Equal(paths, []string{"color", "length"}) {
		t.Errorf("box: %v, want color and length", got)
	}
	id := 60
	marker := Element{Kind: ElementMarker, Length: 0.15, Width: 0.3, ArucoID: &id, Color: "nope"}
	if got := elementProblems(marker); len(got) != 2 || got[0].Path != "color" || got[1].Path != "arucoId" {
		t.Errorf("marker: %v", got)
	}
	if got := elementProblems(Element{Kind: "tower"}); len(got) != 1 || got[0].Path != "kind" {
		t.Errorf("unknown kind: %v", got)
	}
}
