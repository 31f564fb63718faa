package plugins

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"path"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"simgui/assets"
)

var wantVehicles = []string{
	"vehicle.arcade.blue.v1", "vehicle.arcade.gray.v1", "vehicle.arcade.purple.v1", "vehicle.arcade.red.v1",
	"vehicle.drone.simple.v1", "vehicle.ks0223.v1", "vehicle.prometeo.sport.v1",
}

var wantTracks = []string{
	"track.basic_arena.v1", "track.cardboard_corridor.v1", "track.cardboard_maze.v1", "track.city_polygon.v1", "track.maze.v1",
	"track.roadsystem_arena.v1", "track.roadsystem_realistic.v2",
}

func TestBuiltinHoldsTheFourteen(t *testing.T) {
	c := Builtin()
	if got := c.Vehicles(); !slices.Equal(got, wantVehicles) {
		t.Errorf("Vehicles() = %v, want %v", got, wantVehicles)
	}
	if got := c.Tracks(); !slices.Equal(got, wantTracks) {
		t.Errorf("Tracks() = %v, want %v", got, wantTracks)
	}
	if got := len(c.IDs()); got != 14 {
		t.Errorf("IDs() has %d entries, want 14", got)
	}
	dirs, err := fs.ReadDir(assets.Plugins, "plugins")
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) != 14 {
		t.Errorf("assets/plugins has %d entries, want 14", len(dirs))
	}
}

func TestBuiltinManifestsMatchDescriptors(t *testing.T) {
	c := Builtin()
	for _, id := range c.IDs() {
		t.Run(id, func(t *testing.T) {
			m, err := c.Manifest(id)
			if err != nil {
				t.Fatal(err)
			}
			if m.PluginID != id || m.Author != "simgui" || m.CompatibleRuntime != ">=0.1.0" || m.DisplayName == "" {
				t.Errorf("manifest = %+v", m)
			}
			var version ContractVersion
			var displayName string
			switch m.Type {
			case TypeVehicle:
				v, err := c.Vehicle(id)
				if err != nil {
					t.Fatal(err)
				}
				version, displayName = v.Version, v.DisplayName
			case TypeTrack:
				tr, err := c.Track(id)
				if err != nil {
					t.Fatal(err)
				}
				version, displayName = tr.Version, tr.DisplayName
			default:
				t.Fatalf("type %q", m.Type)
			}
			// The id's last part is the major version (vehicle.x.v1 → 1.y.z).
			major := id[strings.LastIndex(id, ".v")+2:]
			if version.String() != m.Version || !strings.HasPrefix(m.Version, major+".") || !version.IsValid() {
				t.Errorf("descriptor version %s, manifest %s, id major %s", version, m.Version, major)
			}
			if displayName != m.DisplayName {
				t.Errorf("displayName %q vs manifest %q", displayName, m.DisplayName)
			}
			readme, err := fs.ReadFile(assets.Plugins, path.Join("plugins", id, "README.md"))
			if err != nil || !bytes.Contains(readme, []byte(id)) {
				t.Errorf("README.md missing or does not name %s: %v", id, err)
			}
		})
	}
}

// TestBuiltinJSONHasNoUnknownFields decodes every built-in file strictly, so a misspelt field
// in the data fails here rather than being silently dropped by the lenient readers.
func TestBuiltinJSONHasNoUnknownFields(t *testing.T) {
	for _, id := range Builtin().IDs() {
		for file, into := range map[string]any{
			"manifest.json":        &Manifest{},
			"descriptor.json":      map[bool]any{true: &VehicleDescriptor{}, false: &TrackDescriptor{}}[strings.HasPrefix(id, "vehicle.")],
			"device-contract.json": &DeviceContract{},
		} {
			b, err := fs.ReadFile(assets.Plugins, path.Join("plugins", id, file))
			if file == "device-contract.json" && strings.HasPrefix(id, "track.") {
				if err == nil {
					t.Errorf("%s has a device contract", id)
				}
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			dec := json.NewDecoder(bytes.NewReader(b))
			dec.DisallowUnknownFields()
			if err := dec.Decode(into); err != nil {
				t.Errorf("%s/%s: %v", id, file, err)
			}
		}
	}
}

func TestBuiltinVehiclesAreSimulatable(t *testing.T) {
	c := Builtin()
	for _, id := range c.Vehicles() {
		t.Run(id, func(t *testing.T) {
			v, err := c.Vehicle(id)
			if err != nil {
				t.Fatal(err)
			}
			if err := v.CheckSimulation(); err != nil {
				t.Fatal(err)
			}
			if v.Contract.DeviceID != id || v.DeviceType != v.Contract.DeviceType {
				t.Errorf("deviceId %q deviceType %q / %q", v.Contract.DeviceID, v.DeviceType, v.Contract.DeviceType)
			}
			ids := map[string]bool{}
			for _, s := range v.Contract.Sensors {
				if ids[s.ID] {
					t.Errorf("sensor %s repeated", s.ID)
				}
				ids[s.ID] = true
				if !slices.ContainsFunc(v.Sensors, func(m SensorMount) bool { return m.ID == s.ID }) {
					t.Errorf("contract sensor %s has no mount", s.ID)
				}
			}
			if len(v.Sensors) != len(v.Contract.Sensors) {
				t.Errorf("%d mounts for %d contract sensors", len(v.Sensors), len(v.Contract.Sensors))
			}
			if !slices.ContainsFunc(v.Contract.Actuators, func(a ActuatorDescriptor) bool { return a.ID == "control.throttle_norm" }) {
				t.Errorf("no control.throttle_norm actuator")
			}
		})
	}
}

// TestBuiltinVehiclesAreDistinct: no two built-ins share a colour, and the car-like ones are
// rusim's: the KS0223's drive, physics and device contract in a 0.52 m car body, each with its
// own visual.
func TestBuiltinVehiclesAreDistinct(t *testing.T) {
	c := Builtin()
	colors := map[string]string{}
	for _, id := range c.Vehicles() {
		v, _ := c.Vehicle(id)
		if other, dup := colors[v.Visual.Color]; dup {
			t.Errorf("%s has the colour of %s", id, other)
		}
		colors[v.Visual.Color] = id
	}
	want := map[string]string{"vehicle.arcade.blue.v1": "blue", "vehicle.arcade.red.v1": "red",
		"vehicle.arcade.gray.v1": "gray", "vehicle.arcade.purple.v1": "purple"}
	for id, word := range want {
		v, _ := c.Vehicle(id)
		if hueOf(v.Visual.Color) != word {
			t.Errorf("%s colour %s looks %s", id, v.Visual.Color, hueOf(v.Visual.Color))
		}
	}
	ks, _ := c.Vehicle("vehicle.ks0223.v1")
	sensorIDs := func(ss []SensorDescriptor) (ids []string) {
		for _, s := range ss {
			ids = append(ids, s.ID)
		}
		return ids
	}
	for _, id := range []string{"vehicle.prometeo.sport.v1", "vehicle.arcade.blue.v1", "vehicle.arcade.red.v1", "vehicle.arcade.gray.v1", "vehicle.arcade.purple.v1"} {
		v, _ := c.Vehicle(id)
		if !reflect.DeepEqual(v.Drive, ks.Drive) || v.DeviceType != ks.DeviceType || v.Body.Mass != ks.Body.Mass {
			t.Errorf("%s: drive %+v, device type %s, mass %g; want the KS0223's", id, v.Drive, v.DeviceType, v.Body.Mass)
		}
		if v.Body.Length != 0.52 || v.Body.Width != 0.34 || v.Body.Height != 0.16 || v.Visual.Shape != "car" {
			t.Errorf("%s: body %+v, visual %s; want the car prefab's 0.52 × 0.34 × 0.16 m collider and a car", id, v.Body, v.Visual.Shape)
		}
		kids, ids := sensorIDs(ks.Contract.Sensors), sensorIDs(v.Contract.Sensors)
		if len(ids) < len(kids) || !slices.Equal(ids[:len(kids)], kids) || !reflect.DeepEqual(v.Contract.Actuators, ks.Contract.Actuators) {
			t.Errorf("%s: contract sensors %v, actuators %v; want the KS0223's first", id, ids, v.Contract.Actuators)
		}
	}
}

// hueOf names the dominant channel of a #rrggbb colour, or gray when channels are close.
func hueOf(c string) string {
	var r, g, b int
	for i, p := range []*int{&r, &g, &b} {
		for _, ch := range c[1+2*i : 3+2*i] {
			*p = *p*16 + strings.IndexRune("0123456789abcdef", ch|0x20)
		}
	}
	switch {
	case max(r, g, b)-min(r, g, b) < 24:
		return "gray"
	case r > g && b > g && b > r/2:
		return "purple"
	case r > g && r > b:
		return "red"
	case b > r && b > g:
		return "blue"
	}
	return "green"
}

func TestKS0223Numbers(t *testing.T) {
	v, err := Builtin().Vehicle("vehicle.ks0223.v1")
	if err != nil {
		t.Fatal(err)
	}
	wantBody := Body{Shape: "box", Length: 0.25, Width: 0.15, Height: 0.12, Mass: 1.0, Friction: 0.9, LinearDamping: 0.2, AngularDamping: 1.5}
	if *v.Body != wantBody {
		t.Errorf("body %+v", *v.Body)
	}
	wantDrive := map[string]float64{"maxSpeed": 0.73, "accel": 4.0, "brakeDecel": 6.5, "maxYawRateDeg": 380,
		"yawAccelDeg": 1900, "motorGainLeft": 1, "motorGainRight": 1, "lateralFriction": 0.9, "latency": 0}
	if v.Drive.Model != "differential" || !reflect.DeepEqual(v.Drive.Params, wantDrive) {
		t.Errorf("drive %+v", *v.Drive)
	}
	cam := v.Sensors[slices.IndexFunc(v.Sensors, func(m SensorMount) bool { return m.ID == "camera.front.rgb" })]
	if cam.Pose != (Pose3{X: 0.12, Z: 0.09, PitchDeg: 6}) || cam.Params["fovDeg"] != 68 || cam.Params["near"] != 0.03 {
		t.Errorf("camera mount %+v", cam)
	}
	// One forward ray from (0.23, 0, 0.07), no cone, as rusim casts it.
	sonar := v.Sensors[slices.IndexFunc(v.Sensors, func(m SensorMount) bool { return m.ID == "ultrasonic.front" })]
	if sonar.Pose != (Pose3{X: 0.23, Z: 0.07}) || sonar.Params["coneDeg"] != 0 || sonar.Params["rangeMax"] != 3.5 {
		t.Errorf("sonar mount %+v", sonar)
	}
	want := map[string]struct {
		shape []int
		rate  float64
		unit  string
	}{
		"camera.front.rgb":    {[]int{480, 640, 3}, 15, ""},
		"speedometer":         {[]int{1}, 20, "m/s"},
		"ultrasonic.front":    {[]int{1}, 10, "m"},
		"line_tracker.front":  {[]int{5}, 30, ""},
		"powertrain.estimate": {[]int{3}, 20, ""},
		"odometry.wheel":      {[]int{2}, 20, "m"},
	}
	for _, s := range v.Contract.Sensors {
		w, ok := want[s.ID]
		if !ok || !slices.Equal(s.Shape, w.shape) || s.RateHz != w.rate || s.Unit != w.unit {
			t.Errorf("sensor %+v", s)
		}
		delete(want, s.ID)
	}
	if len(want) > 0 {
		t.Errorf("missing sensors %v", want)
	}
	acts := mapSlice(v.Contract.Actuators, func(a ActuatorDescriptor) string { return a.ID })
	if !slices.Equal(acts, []string{"control.throttle_norm", "control.steer_norm", "control.brake_norm", "drive.left_pwm_norm", "drive.right_pwm_norm"}) {
		t.Errorf("actuators %v", acts)
	}
}

func TestDroneNumbers(t *testing.T) {
	v, _ := Builtin().Vehicle("vehicle.drone.simple.v1")
	want := map[string]float64{"maxSpeed": 4, "maxVertical": 2.5, "maxYawRateDeg": 110, "accel": 3,
		"minAltitude": 0.35, "maxAltitude": 10, "startAltitude": 1.0}
	if v.Drive.Model != "quadcopter" || !reflect.DeepEqual(v.Drive.Params, want) {
		t.Errorf("drive %+v", *v.Drive)
	}
	if v.Body.Shape != "circle" || v.Body.Radius != 0.2 || v.Body.Mass != 1.2 {
		t.Errorf("body %+v", *v.Body)
	}
	cam := v.Contract.sensor("camera.front.rgb")
	if cam == nil || !slices.Equal(cam.Shape, []int{120, 160, 3}) {
		t.Errorf("camera %+v", cam)
	}
	if v.Contract.sensor("imu") == nil || v.Contract.sensor("altimeter") == nil {
		t.Error("drone lacks imu or altimeter")
	}
}

func TestTrackSchemasCarryTheCommonParams(t *testing.T) {
	var common map[string]any
	if err := json.Unmarshal([]byte(CommonTrackProperties), &common); err != nil {
		t.Fatal(err)
	}
	for _, id := range Builtin().Tracks() {
		tr, _ := Builtin().Track(id)
		var schema struct {
			Properties           map[string]any `json:"properties"`
			AdditionalProperties *bool          `json:"additionalProperties"`
		}
		if err := json.Unmarshal([]byte(tr.ParametersSchemaJSON), &schema); err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		for k, v := range common {
			if !reflect.DeepEqual(schema.Properties[k], v) {
				t.Errorf("%s: property %s = %v, want %v", id, k, schema.Properties[k], v)
			}
		}
		if schema.AdditionalProperties == nil || *schema.AdditionalProperties {
			t.Errorf("%s: schema allows unknown parameters", id)
		}
	}
}

func TestLookupsReturnCopies(t *testing.T) {
	c := Builtin()
	v, _ := c.Vehicle("vehicle.ks0223.v1")
	v.Body.Mass = 99
	v.Drive.Params["maxSpeed"] = 99
	v.Contract.Sensors[0].Shape[0] = 1
	v.Sensors[0].Params["fovDeg"] = 1
	tr, _ := c.Track("track.basic_arena.v1")
	tr.Elements[0].Points[0][0] = 99
	tr.Route.Waypoints[0][0] = 99

	v2, _ := c.Vehicle("vehicle.ks0223.v1")
	if v2.Body.Mass != 1 || v2.Drive.Params["maxSpeed"] != 0.73 || v2.Contract.Sensors[0].Shape[0] != 480 || v2.Sensors[0].Params["fovDeg"] != 68 {
		t.Error("a lookup's result shares memory with the catalog")
	}
	tr2, _ := c.Track("track.basic_arena.v1")
	if tr2.Elements[0].Points[0][0] != 0 || tr2.Route.Waypoints[0][0] != 0 {
		t.Error("a track lookup shares memory with the catalog")
	}
}

func TestUnknownIDs(t *testing.T) {
	c := Builtin()
	_, err := c.Vehicle("vehicle.nope.v1")
	if !errors.Is(err, ErrUnknownPlugin) {
		t.Fatalf("err = %v, want ErrUnknownPlugin", err)
	}
	want := `unknown vehicleId "vehicle.nope.v1" (known: ` + strings.Join(wantVehicles, ", ") + ")"
	if err.Error() != want {
		t.Errorf("err = %q\nwant  %q", err, want)
	}
	if _, err := c.Track("vehicle.ks0223.v1"); !errors.Is(err, ErrUnknownPlugin) || !strings.Contains(err.Error(), `unknown trackId "vehicle.ks0223.v1" (known: track.basic_arena.v1,`) {
		t.Errorf("Track err = %v", err)
	}
	if _, err := c.Manifest("x"); !errors.Is(err, ErrUnknownPlugin) {
		t.Errorf("Manifest err = %v", err)
	}
	var _ Resolver = c
}

// builtinFS copies the built-in catalog into a MapFS that tests can break.
func builtinFS(t *testing.T) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	err := fs.WalkDir(assets.Plugins, "plugins", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(assets.Plugins, p)
		m[p] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestLoadCatalogReportsBrokenPlugins(t *testing.T) {
	edit := func(m fstest.MapFS, p, old, new string) {
		m[p] = &fstest.MapFile{Data: bytes.Replace(m[p].Data, []byte(old), []byte(new), 1)}
	}
	for _, tc := range []struct {
		name  string
		spoil func(fstest.MapFS)
		want  string
	}{
		{"folder name", func(m fstest.MapFS) {
			m["plugins/renamed/manifest.json"] = m["plugins/track.maze.v1/manifest.json"]
			m["plugins/renamed/descriptor.json"] = m["plugins/track.maze.v1/descriptor.json"]
		}, `load renamed: manifest pluginId "track.maze.v1" differs from the folder name`},
		{"version", func(m fstest.MapFS) {
			edit(m, "plugins/track.maze.v1/manifest.json", `"1.0.0"`, `"1.2.0"`)
		}, "manifest version 1.2.0 differs from the descriptor version 1.0.0"},
		{"unmounted sensor", func(m fstest.MapFS) {
			edit(m, "plugins/vehicle.ks0223.v1/descriptor.json", `"id": "odometry.wheel"`, `"id": "odometry.other"`)
		}, `device-contract.sensors[5]: sensor "odometry.wheel" is not mounted on the vehicle`},
		{"repeated sensor", func(m fstest.MapFS) {
			edit(m, "plugins/vehicle.ks0223.v1/device-contract.json", `"id": "speedometer"`, `"id": "ultrasonic.front"`)
		}, `device-contract.sensors[2].id: "ultrasonic.front" is already the id of sensors[1]`},
		{"drive param", func(m fstest.MapFS) {
			edit(m, "plugins/vehicle.ks0223.v1/descriptor.json", `"latency"`, `"lag"`)
		}, `differential has no parameter "lag"`},
		{"manifest type", func(m fstest.MapFS) {
			edit(m, "plugins/track.maze.v1/manifest.json", `"track"`, `"robot"`)
		}, `Invalid plugin type: 'robot'`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := builtinFS(t)
			tc.spoil(m)
			_, err := LoadCatalog(m, "plugins")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v\nwant it to contain %q", err, tc.want)
			}
		})
	}
	if _, err := LoadCatalog(builtinFS(t), "plugins"); err != nil {
		t.Errorf("unbroken copy: %v", err)
	}
}
