package plugins

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// ackermannDrive is a car's drive as a descriptor holds it (no built-in has one: rusim's
// car-like built-ins take the KS0223's), for the ackermann model's checks.
func ackermannDrive() map[string]any {
	return map[string]any{"model": "ackermann", "params": map[string]any{"maxSpeed": 3.0, "reverseSpeed": 1.2, "accel": 2.5,
		"brakeDecel": 6.0, "wheelBase": 0.33, "maxSteerDeg": 32.0, "steerRateDeg": 200.0, "lateralFriction": 0.9, "latency": 0.0}}
}

// Hostile numbers in a vehicle are refused, each at its own path with the range it breaks.
func TestValidateVehicleNumbers(t *testing.T) {
	base := builtinFiles(t, "vehicle.prometeo.sport.v1")
	body := func(k string, v any) func(map[string]any) {
		return func(m map[string]any) { m["body"].(map[string]any)[k] = v }
	}
	mount := func(i int, k string, v any) func(map[string]any) {
		return func(m map[string]any) {
			s := m["sensors"].([]any)[i].(map[string]any)
			if s["params"] == nil {
				s["params"] = map[string]any{}
			}
			s["params"].(map[string]any)[k] = v
		}
	}
	contract := func(i int, k string, v any) func(map[string]any) {
		return func(m map[string]any) { m["sensors"].([]any)[i].(map[string]any)[k] = v }
	}
	drive := func(k string, v any) func(map[string]any) {
		return func(m map[string]any) { m["drive"].(map[string]any)["params"].(map[string]any)[k] = v }
	}
	for _, tc := range []struct {
		name, file string
		edit       func(map[string]any)
		path, msg  string
	}{
		{"a body of 1e-300 m", DescriptorFile, body("length", 1e-300), "descriptor.body.length", "1e-300 is outside the range 0.01..50 m"},
		{"a mass of 1e308 kg", DescriptorFile, body("mass", 1e308), "descriptor.body.mass", "1e+308 is outside the range 0.01..10000 kg"},
		{"damping", DescriptorFile, body("linearDamping", 1e9), "descriptor.body.linearDamping", "1e+09 is outside the range 0..100"},
		{"drive speed 0", DescriptorFile, drive("maxSpeed", 0), "descriptor.drive.params.maxSpeed", "0 is outside the range 0.01..10 m/s"},
		{"wheel base", DescriptorFile, func(m map[string]any) { m["drive"] = ackermannDrive(); drive("wheelBase", 1e-300)(m) },
			"descriptor.drive.params.wheelBase", "1e-300 is outside the range 0.05..5 m"},
		{"near beyond far", DescriptorFile, func(m map[string]any) { mount(0, "near", 5)(m); mount(0, "far", 2)(m) },
			"descriptor.sensors[0].params", "need near < far, got near = 5 and far = 2"},
		{"lidar angles", DescriptorFile, mount(7, "angleMinDeg", 179.5), "descriptor.sensors[7].params", "need angleMinDeg ≤ angleMaxDeg, got angleMinDeg = 179.5 and angleMaxDeg = 179"},
		{"lidar samples against the shape", DescriptorFile, mount(7, "samples", 720), "descriptor.sensors[7]",
			`a lidar mount gives 720 values per reading, but the contract's shape [360] for "lidar.top" holds 360`},
		{"a whole number", DescriptorFile, mount(0, "jpegQuality", 84.5), "descriptor.sensors[0].params.jpegQuality", "84.5 is not a whole number"},
		{"rate 1e6 Hz", ContractFile, contract(0, "rateHz", 1e6), "device-contract.sensors[0].rateHz", "1e+06 is outside the range 0.01..1000 Hz"},
		{"a huge frame", ContractFile, contract(0, "shape", []int{100000, 100000, 3}), "device-contract.sensors[0].shape",
			"[100000 100000 3]: a frame of 100000×100000 pixels is over 4096 a side"},
		{"an IMU of 10 values", ContractFile, contract(8, "shape", []int{10}), "device-contract.sensors[8].shape",
			"[10] is not a imu shape: want [6] (specific force, angular velocity), sizes positive"},
		{"noise", ContractFile, contract(0, "noise", map[string]any{"stddev": 1e300}), "device-contract.sensors[0].noise.stddev",
			"1e+300 is outside the range 0..1000"},
		{"actuator", ContractFile, func(m map[string]any) { m["actuators"].([]any)[0].(map[string]any)["max"] = 1e300 },
			"device-contract.actuators[0].max", "1e+300 is outside the range -1e+06..1e+06"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, ps := ReadPlugin(edited(t, base, tc.file, tc.edit))
			if !slices.ContainsFunc(ps.Errors(), func(p Problem) bool { return p.Path == tc.path && p.Message == tc.msg }) {
				t.Errorf("problems %v\nwant among them %s: %s", ps, tc.path, tc.msg)
			}
		})
	}
}

// Track geometry out of range is refused by ValidateTrack and, for generated layouts, by
// CheckLayout.
func TestValidateTrackNumbers(t *testing.T) {
	base := builtinFiles(t, "track.basic_arena.v1")
	for _, tc := range []struct {
		name      string
		edit      func(map[string]any)
		path, msg string
	}{
		{"a wall 1e308 m long", func(m map[string]any) { m["elements"].([]any)[0].(map[string]any)["length"] = 1e308 },
			"descriptor.elements[0].length", "road.A: 1e+308 is outside the range 0..20000 m"},
		{"an element far away", func(m map[string]any) { m["elements"].([]any)[0].(map[string]any)["x"] = -1e6 },
			"descriptor.elements[0].x", "road.A: -1e+06 is outside the range -10000..10000 m"},
		{"a spawn point far away", func(m map[string]any) { m["spawnPoints"].([]any)[0].(map[string]any)["y"] = 1e9 },
			"descriptor.spawnPoints[0].y", "1e+09 is outside the range -10000..10000 m"},
		{"a negative reach", func(m map[string]any) { m["route"] = map[string]any{"waypoints": []any{}, "reachDistance": -1} },
			"descriptor.route.reachDistance", "-1 is outside the range 0..1000 m"},
		{"a corridor 1e300 m wide", func(m map[string]any) { m["route"] = map[string]any{"waypoints": []any{}, "corridorWidth": 1e300} },
			"descriptor.route.corridorWidth", "1e+300 is outside the range 0..1000 m"},
		{"a negative goal radius", func(m map[string]any) { m["route"] = map[string]any{"waypoints": []any{}, "goalRadius": -2} },
			"descriptor.route.goalRadius", "-2 is outside the range 0..1000 m"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, ps := ReadPlugin(edited(t, base, DescriptorFile, tc.edit))
			if !slices.ContainsFunc(ps.Errors(), func(p Problem) bool { return p.Path == tc.path && p.Message == tc.msg }) {
				t.Errorf("problems %v\nwant among them %s: %s", ps, tc.path, tc.msg)
			}
		})
	}
	l := &Layout{Floor: Floor{Length: 10, Width: 10}, Elements: []Element{{Kind: ElementWall, X: 1, Length: 1e300, Width: 0.1, Height: 1}}}
	if err := CheckLayout(l); err == nil || err.Error() != "layout.elements[0].length: 1e+300 is outside the range 0..20000 m" {
		t.Errorf("CheckLayout: %v", err)
	}
}

// Vehicle params from a scenario: NaN and infinities in strings are refused like numbers out
// of range.
func TestApplyVehicleConfigRefusesNonFinite(t *testing.T) {
	v := builtinVehicle(t, "vehicle.ks0223.v1")
	for _, val := range []any{"NaN", "inf", "-Inf", math.NaN(), math.Inf(1)} {
		_, err := ApplyVehicleConfig(v, map[string]any{"mass": val})
		if err == nil || !strings.Contains(err.Error(), "vehicle.params.mass: ") || !strings.Contains(err.Error(), "is not a finite number") {
			t.Errorf("mass %v: %v", val, err)
		}
	}
}

// SensorSetup is the mount check of validation: the same problem, with the mount's paths.
func TestSensorSetupIsValidationsCheck(t *testing.T) {
	v := builtinVehicle(t, "vehicle.prometeo.sport.v1")
	m, s := v.Sensors[0], *v.Contract.sensor(v.Sensors[0].ID)
	p, err := SensorSetup(m, s)
	if err != nil || p["far"] != 30 || p["jpegQuality"] != 84 || len(p) != 4+len(cameraRealismParams) {
		t.Fatalf("camera params %v %v", p, err)
	}
	delete(m.Params, "far")
	if p, _ := SensorSetup(m, s); p["far"] != 50 {
		t.Errorf("the default far is %v, the table says 50", p["far"])
	}
	m.Params = map[string]float64{"near": 6, "far": 5}
	s.RateHz = 1e6
	_, err = SensorSetup(m, s)
	if err == nil || err.Error() != "2 problems: contract.rateHz: 1e+06 is outside the range 0.01..1000 Hz; mount.params: need near < far, got near = 6 and far = 5" {
		t.Errorf("SensorSetup: %v", err)
	}
}

// A vehicle params key has the range of the table entry it sets.
func TestVehicleParamSpec(t *testing.T) {
	ks := builtinVehicle(t, "vehicle.ks0223.v1")
	for key, want := range map[string]string{
		"mass":                             "0.01..10000 kg",
		"max_speed":                        "0.01..10 m/s",
		"drive.yawAccelDeg":                "1..20000 deg/s²",
		"camera.fov_deg":                   "10..170 deg",
		"camera.pitch_deg":                 "-90..90 deg",
		"sensor.ultrasonic.front.rangeMax": "0.01..100 m",
		"sensor.ultrasonic.front.yawDeg":   "-180..180 deg",
		"sensor.ultrasonic.front.rateHz":   "0.01..1000 Hz",
	} {
		s, ok := VehicleParamSpec(ks, key)
		if !ok || s.Range() != want {
			t.Errorf("%s: %v %q, want %q", key, ok, s.Range(), want)
		}
	}
	for _, key := range []string{"visual.color", "camera.profile", "drive.nope", "sensor.nope.far", "wheels"} {
		if _, ok := VehicleParamSpec(ks, key); ok {
			t.Errorf("%s has a spec", key)
		}
	}
}
