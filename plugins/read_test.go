package plugins

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"image"
	"image/png"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// readZip returns the files of an archive in testdata by name.
func readZip(t testing.TB, name string) map[string][]byte {
	t.Helper()
	zr, err := zip.OpenReader("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	files := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		files[f.Name] = b
	}
	return files
}

func TestRusimVehicleArchiveParses(t *testing.T) {
	files := readZip(t, "vehicle.arcade.green.v1.rusim-plugin.zip")
	m, err := ReadManifest(files["manifest.json"])
	if err != nil {
		t.Fatal(err)
	}
	want := Manifest{PluginID: "vehicle.arcade.green.v1", Type: TypeVehicle, DisplayName: "Arcade Green",
		Version: "1.0.0", CompatibleRuntime: ">=0.2.0", Author: ""}
	if m != want {
		t.Errorf("manifest = %+v", m)
	}
	v, err := ReadVehicle(files["descriptor.json"], files["device-contract.json"])
	if err != nil {
		t.Fatal(err)
	}
	if v.ID != "vehicle.arcade.green.v1" || v.Version != (ContractVersion{1, 0, 0}) || v.Body != nil || v.Drive != nil {
		t.Errorf("descriptor = %+v", v)
	}
	if v.DeviceType != "ground_robot_differential" || v.Contract == nil || v.Contract.DeviceID != v.ID {
		t.Fatalf("contract = %+v", v.Contract)
	}
	ids := mapSlice(v.Contract.Sensors, func(s SensorDescriptor) string { return s.ID })
	if !slices.Equal(ids, []string{"camera", "speedometer"}) || !slices.Equal(v.Contract.Sensors[0].Shape, []int{480, 640, 3}) {
		t.Errorf("sensors = %+v", v.Contract.Sensors)
	}
	acts := mapSlice(v.Contract.Actuators, func(a ActuatorDescriptor) string { return a.ID })
	if !slices.Equal(acts, []string{"throttle", "steer", "brake"}) || v.Contract.Actuators[2].Min != 0 {
		t.Errorf("actuators = %+v", v.Contract.Actuators)
	}
	if err := v.CheckSimulation(); err == nil || !strings.Contains(err.Error(), "descriptor.body: missing") {
		t.Errorf("CheckSimulation before fallback = %v, want descriptor.body: missing", err)
	}

	f := v.WithFallback()
	if err := f.CheckSimulation(); err != nil {
		t.Fatalf("after WithFallback: %v", err)
	}
	ks, _ := Builtin().Vehicle("vehicle.ks0223.v1")
	if !reflect.DeepEqual(f.Body, ks.Body) || !reflect.DeepEqual(f.Drive, ks.Drive) {
		t.Errorf("fallback body/drive differ from the KS0223: %+v %+v", f.Body, f.Drive)
	}
	if f.Visual.Color != "#2e9e48" || f.Visual.Shape != "ks0223" {
		t.Errorf("visual = %+v, want the green KS0223", f.Visual)
	}
	// The contract's sensors on the KS0223's mounts, then the KS0223's others, which rusim's
	// runtime simulates and reports for any ground car (its telemetry: sonar, line tracker,
	// power; its PWM echo).
	kinds := mapSlice(f.Sensors, func(m SensorMount) string { return m.ID + "=" + m.Kind })
	if !slices.Equal(kinds, []string{"camera=camera", "speedometer=speedometer", "ultrasonic.front=ultrasonic",
		"line_tracker.front=line_tracker", "powertrain.estimate=powertrain", "odometry.wheel=odometry"}) {
		t.Errorf("mounts = %v", kinds)
	}
	actIDs := mapSlice(f.Contract.Actuators, func(a ActuatorDescriptor) string { return a.ID })
	if !slices.Contains(actIDs, "drive.left_pwm_norm") || !slices.Contains(actIDs, "drive.right_pwm_norm") || actIDs[0] != "throttle" {
		t.Errorf("actuators = %v, want the export's, then the KS0223's it lacks", actIDs)
	}
	if len(v.Contract.Sensors) != 2 {
		t.Errorf("WithFallback changed its receiver's contract: %d sensors", len(v.Contract.Sensors))
	}
	if f.Sensors[0].Pose != (Pose3{X: 0.12, Z: 0.09, PitchDeg: 6}) {
		t.Errorf("camera mount pose %+v, want the KS0223 camera's", f.Sensors[0].Pose)
	}
	if v.Body != nil || len(v.Sensors) != 0 {
		t.Error("WithFallback changed its receiver")
	}
}

func TestRusimTrackArchiveParses(t *testing.T) {
	files := readZip(t, "track.city_demo.v1.rusim-plugin.zip")
	m, err := ReadManifest(files["manifest.json"])
	if err != nil || m.Type != TypeTrack || m.PluginID != "track.city_demo.v1" {
		t.Fatalf("manifest = %+v, %v", m, err)
	}
	tr, err := ReadTrack(files["descriptor.json"])
	if err != nil {
		t.Fatal(err)
	}
	if tr.ID != "track.city_demo.v1" || tr.DisplayName != "City Demo" || tr.Generator != "" || tr.ParametersSchemaJSON != "" {
		t.Errorf("track = %+v", tr)
	}
	if err := tr.CheckSimulation(); err != nil {
		t.Errorf("CheckSimulation: %v", err)
	}
	// No schema: only the common parameters are checked, others pass through.
	if err := ValidateTrackParams(tr, map[string]any{"weather": "rain", "route.loop": "true"}); err != nil {
		t.Errorf("ValidateTrackParams: %v", err)
	}
	if err := ValidateTrackParams(tr, map[string]any{"route.loop": "maybe"}); err == nil {
		t.Error("a bad common parameter passed on a schema-less track")
	}
}

func TestReadDeviceContractAcceptsBothShapes(t *testing.T) {
	wrapped := readZip(t, "vehicle.arcade.green.v1.rusim-plugin.zip")["device-contract.json"]
	var w struct {
		Descriptor json.RawMessage `json:"descriptor"`
	}
	if err := json.Unmarshal(wrapped, &w); err != nil {
		t.Fatal(err)
	}
	a, err := ReadDeviceContract(wrapped)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ReadDeviceContract(w.Descriptor)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) || a.DeviceID != "vehicle.arcade.green.v1" {
		t.Errorf("wrapped %+v\nbare %+v", a, b)
	}
	for _, bad := range []string{`{"deviceType": "x"}`, `[]`, `{"contractVersion": {"major": -1, "minor": 0, "patch": 0}, "descriptor": {"deviceId": "a"}}`} {
		if _, err := ReadDeviceContract([]byte(bad)); err == nil {
			t.Errorf("ReadDeviceContract(%s) accepted", bad)
		}
	}
}

func TestReadManifestErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"type": "vehicle", "version": "1.0.0"}`, "manifest.json missing required keys: pluginId, displayName"},
		{`{"pluginId": "a", "type": "robot", "displayName": "A", "version": "1.0.0"}`, `Invalid plugin type: 'robot' (expected 'vehicle' or 'track')`},
		{`{"pluginId": "a", "type": "track", "displayName": "A", "version": "1.0"}`, `manifest.version: "1.0" is not major.minor.patch`},
		{`{"pluginId": "a", "type": "track", "displayName": "A", "version": "1.0.0", "compatibleRuntime": ">>1"}`, `manifest.compatibleRuntime: ">>1" is not a version constraint`},
		{`{`, "manifest.json: malformed JSON at line 1, column 1: unexpected end of JSON input"},
	} {
		_, err := ReadManifest([]byte(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ReadManifest(%s) = %v, want %q", tc.in, err, tc.want)
		}
	}
}

func TestReadDescriptorErrors(t *testing.T) {
	if _, err := ReadVehicle([]byte(`{"id": "v", "displayName": "", "version": {"major": 1}}`), nil); err == nil || !strings.Contains(err.Error(), "displayName is empty") {
		t.Errorf("ReadVehicle = %v", err)
	}
	if _, err := ReadTrack([]byte(`{"id": "t", "displayName": "T", "version": {"major": 1}, "parametersSchemaJson": "{nope"}`)); err == nil || !strings.Contains(err.Error(), "not valid JSON") {
		t.Errorf("ReadTrack = %v", err)
	}
	v, err := ReadVehicle([]byte(`{"id": "v", "displayName": "V", "version": {"major": 1}, "prefab": {"guid": "x"}}`), nil)
	if err != nil || v.Contract != nil {
		t.Errorf("ReadVehicle with a Unity field and no contract = %+v, %v", v, err)
	}
}

func TestFallbackVehicleByDeviceType(t *testing.T) {
	for dt, want := range map[string]string{
		"ground_robot_differential": "differential",
		"quadcopter":                "quadcopter",
		"submarine":                 "differential",
		"":                          "differential",
	} {
		if got := FallbackVehicle(dt).Drive.Model; got != want {
			t.Errorf("FallbackVehicle(%q) drive %s, want %s", dt, got, want)
		}
	}
	// A drone contract with an unhinted scalar: the known ones are mounted, the other is not.
	v := &VehicleDescriptor{ID: "vehicle.x.v1", DisplayName: "X", Contract: &DeviceContract{
		DeviceID: "vehicle.x.v1", DeviceType: "quadcopter",
		Sensors: []SensorDescriptor{
			{ID: "cam", SensorType: "camera", Format: "jpeg_base64", Shape: []int{120, 160, 3}, RateHz: 10},
			{ID: "baro_altitude", SensorType: "scalar", Format: "float32", Shape: []int{1}, RateHz: 10},
			{ID: "battery", SensorType: "scalar", Format: "float32", Shape: []int{1}, RateHz: 1},
		},
		Actuators: []ActuatorDescriptor{{ID: "throttle", Min: -1, Max: 1}},
	}}
	f := v.WithFallback()
	if f.Drive.Model != "quadcopter" || f.DeviceType != "quadcopter" {
		t.Errorf("drive %s deviceType %s", f.Drive.Model, f.DeviceType)
	}
	kinds := mapSlice(f.Sensors, func(m SensorMount) string { return m.ID + "=" + m.Kind })
	if !slices.Equal(kinds, []string{"cam=camera", "baro_altitude=altimeter", "imu=imu"}) {
		t.Errorf("mounts %v", kinds)
	}
	if err := f.CheckSimulation(); err == nil || err.Error() != `device-contract.sensors[2]: sensor "battery" is not mounted on the vehicle: add a descriptor.sensors entry with this id` {
		t.Errorf("CheckSimulation = %v", err)
	}
}

// An archive without README.md installs, as rusim's installer (which asks for manifest.json
// alone) takes it, with a warning; without manifest.json it is refused.
func TestReadmeIsOptional(t *testing.T) {
	files := readZip(t, "track.city_demo.v1.rusim-plugin.zip")
	delete(files, ReadmeFile)
	p, ps := DecodePlugin(files)
	if p == nil || len(ps.Errors()) > 0 {
		t.Fatalf("without README.md: %v", ps)
	}
	found := false
	for _, pr := range ps {
		found = found || pr.Path == ReadmeFile && pr.Warning
	}
	if !found {
		t.Errorf("no warning for the missing README.md: %v", ps)
	}
	delete(files, ManifestFile)
	if p, ps := DecodePlugin(files); p != nil || len(ps.Errors()) == 0 {
		t.Errorf("without manifest.json: %v, %v", p, ps)
	}
}

// A key given twice in one object is refused at its path: encoding/json keeps the last and a
// reader of the file may take the first.
func TestDuplicateKeysAreRefused(t *testing.T) {
	for _, c := range []struct{ json, want string }{
		{`{"a": 1, "b": 2}`, ""},
		{`{"a": 1, "A": 2}`, ".A"},
		{`{"a": {"x": 1}, "b": [{"x": 1}, {"y": 2, "y": 3}]}`, ".b[1].y"},
		{`{"a": [[1, 2], {"k": 1}], "b": {"k": {"k": 1}}, "c": 1, "c": 2}`, ".c"},
		{`[{"k": 1}, {"k": 2}]`, ""},
	} {
		if got := duplicateKey([]byte(c.json)); got != c.want {
			t.Errorf("%s: %q, want %q", c.json, got, c.want)
		}
	}
	files := readZip(t, "track.city_demo.v1.rusim-plugin.zip")
	files[ManifestFile] = bytes.Replace(files[ManifestFile], []byte(`"displayName"`), []byte(`"displayName": "Evil", "displayName"`), 1)
	_, ps := DecodePlugin(files)
	if es := ps.Errors(); len(es) != 1 || es[0].Path != "manifest.displayName" {
		t.Errorf("a manifest with displayName twice: %v", ps)
	}
}

// Every image under assets/ is checked, whether a material names it or not: it must be the
// image its name says and at most MaxAssetSide pixels a side.
func TestAssetImagesAreChecked(t *testing.T) {
	var ok bytes.Buffer
	if err := png.Encode(&ok, image.NewGray(image.Rect(0, 0, 4, 3))); err != nil {
		t.Fatal(err)
	}
	// A PNG header declaring 100000×100000 pixels: the signature, then IHDR.
	huge := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x00\x01\x86\xa0\x00\x01\x86\xa0\x08\x02\x00\x00\x00")
	huge = binary.BigEndian.AppendUint32(huge, crc32.ChecksumIEEE(huge[12:29]))
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"assets/preview.png", ok.Bytes(), ""},
		{"assets/preview.png", []byte("this is not a png"), "assets/preview.png: not a png image"},
		{"assets/deep/photo.JPG", ok.Bytes(), "assets/deep/photo.JPG: not a jpg image"},
		{"assets/big.png", huge, "assets/big.png: 100000×100000 pixels; an asset image may have at most 8192 a side"},
	} {
		files := readZip(t, "track.city_demo.v1.rusim-plugin.zip")
		files[c.name] = c.data
		_, ps := ReadPlugin(files)
		es := ps.Errors()
		switch {
		case c.want == "" && len(es) > 0:
			t.Errorf("%s: %v", c.name, es)
		case c.want != "" && (len(es) != 1 || !strings.HasPrefix(es[0].String(), c.want)):
			t.Errorf("%s: %v, want %q", c.name, es, c.want)
		}
	}
}
