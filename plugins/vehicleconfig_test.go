package plugins

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// ackermannCar names, for builtinVehicle, the arcade car on the ackermann drive of
// ackermannDrive.
const ackermannCar = "ackermann:vehicle.arcade.red.v1"

func builtinVehicle(t *testing.T, id string) *VehicleDescriptor {
	t.Helper()
	if base, ok := strings.CutPrefix(id, "ackermann:"); ok {
		v := builtinVehicle(t, base)
		b, _ := json.Marshal(ackermannDrive())
		v.Drive = &Drive{}
		if err := json.Unmarshal(b, v.Drive); err != nil {
			t.Fatal(err)
		}
		v.DeviceType, v.Contract.DeviceType = "ground_robot_ackermann", "ground_robot_ackermann"
		return v
	}
	v, err := Builtin().Vehicle(id)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func mountOf(v *VehicleDescriptor, id string) *SensorMount {
	i := slices.IndexFunc(v.Sensors, func(m SensorMount) bool { return m.ID == id })
	if i < 0 {
		return nil
	}
	return &v.Sensors[i]
}

func TestApplyVehicleConfig(t *testing.T) {
	for _, tc := range []struct {
		name    string
		vehicle string
		params  map[string]any
		check   func(v *VehicleDescriptor) bool
	}{
		{"mass", "vehicle.ks0223.v1", map[string]any{"mass": 1.2}, func(v *VehicleDescriptor) bool { return v.Body.Mass == 1.2 }},
		{"mass string", "vehicle.ks0223.v1", map[string]any{"mass": "0.8"}, func(v *VehicleDescriptor) bool { return v.Body.Mass == 0.8 }},
		{"friction int", "vehicle.ks0223.v1", map[string]any{"friction": 1}, func(v *VehicleDescriptor) bool { return v.Body.Friction == 1 }},
		{"damping", "vehicle.ks0223.v1", map[string]any{"linear_damping": "0.24", "angular_damping": 1.8},
			func(v *VehicleDescriptor) bool { return v.Body.LinearDamping == 0.24 && v.Body.AngularDamping == 1.8 }},
		{"max_speed", "vehicle.ks0223.v1", map[string]any{"max_speed": "0.5"}, func(v *VehicleDescriptor) bool { return v.Drive.Params["maxSpeed"] == 0.5 }},
		{"motor gains", "vehicle.ks0223.v1", map[string]any{"motor_gain_left": 0.92, "motor_gain_right": "1.08"},
			func(v *VehicleDescriptor) bool {
				return v.Drive.Params["motorGainLeft"] == 0.92 && v.Drive.Params["motorGainRight"] == 1.08
			}},
		{"latency", "vehicle.ks0223.v1", map[string]any{"latency": 0.15}, func(v *VehicleDescriptor) bool { return v.Drive.Params["latency"] == 0.15 }},
		{"drive param", "vehicle.ks0223.v1", map[string]any{"drive.maxYawRateDeg": 180, "drive.yawAccelDeg": "700"},
			func(v *VehicleDescriptor) bool {
				return v.Drive.Params["maxYawRateDeg"] == 180 && v.Drive.Params["yawAccelDeg"] == 700
			}},
		{"ackermann param", ackermannCar, map[string]any{"drive.maxSteerDeg": 20}, func(v *VehicleDescriptor) bool { return v.Drive.Params["maxSteerDeg"] == 20 }},
		{"sensor param", "vehicle.ks0223.v1", map[string]any{"sensor.ultrasonic.front.rangeMax": "4"},
			func(v *VehicleDescriptor) bool { return mountOf(v, "ultrasonic.front").Params["rangeMax"] == 4 }},
		{"sensor pose", "vehicle.ks0223.v1", map[string]any{"sensor.camera.front.rgb.pitchDeg": 10, "sensor.camera.front.rgb.z": 0.1},
			func(v *VehicleDescriptor) bool {
				p := mountOf(v, "camera.front.rgb").Pose
				return p.PitchDeg == 10 && p.Z == 0.1 && p.X == 0.12
			}},
		{"sensor rate and noise", "vehicle.ks0223.v1", map[string]any{"sensor.speedometer.rateHz": 50, "sensor.line_tracker.front.noiseStddev": 0.05},
			func(v *VehicleDescriptor) bool {
				return v.Contract.sensor("speedometer").RateHz == 50 && v.Contract.sensor("line_tracker.front").Noise.Stddev == 0.05
			}},
		{"camera profile", "vehicle.ks0223.v1", map[string]any{"camera.profile": "ultra"},
			func(v *VehicleDescriptor) bool {
				return slices.Equal(v.Contract.sensor("camera.front.rgb").Shape, []int{900, 1600, 3}) &&
					mountOf(v, "camera.front.rgb").Params["jpegQuality"] == 96
			}},
		{"profile then width", "vehicle.ks0223.v1", map[string]any{"camera.width": 320, "camera.profile": "performance", "camera.height": "240"},
			func(v *VehicleDescriptor) bool {
				return slices.Equal(v.Contract.sensor("camera.front.rgb").Shape, []int{240, 320, 3}) &&
					mountOf(v, "camera.front.rgb").Params["jpegQuality"] == 72
			}},
		{"camera fields", "vehicle.drone.simple.v1", map[string]any{"camera.jpeg_quality": "55", "camera.fov_deg": 90, "camera.pitch_deg": -5},
			func(v *VehicleDescriptor) bool {
				m := mountOf(v, "camera.front.rgb")
				return m.Params["jpegQuality"] == 55 && m.Params["fovDeg"] == 90 && m.Pose.PitchDeg == -5
			}},
		{"colour", "vehicle.arcade.blue.v1", map[string]any{"visual.color": "#00ff00"}, func(v *VehicleDescriptor) bool { return v.Visual.Color == "#00ff00" }},
		{"nothing", "vehicle.ks0223.v1", nil, func(v *VehicleDescriptor) bool { return reflect.DeepEqual(v, builtinVehicle(t, "vehicle.ks0223.v1")) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			orig := builtinVehicle(t, tc.vehicle)
			before := orig.Clone()
			got, err := ApplyVehicleConfig(orig, tc.params)
			if err != nil {
				t.Fatal(err)
			}
			if !tc.check(got) {
				t.Errorf("not applied: %+v", got)
			}
			if !reflect.DeepEqual(orig, before) {
				t.Error("ApplyVehicleConfig changed its argument")
			}
			if err := got.CheckSimulation(); err != nil {
				t.Errorf("result no longer checks: %v", err)
			}
		})
	}
}

func TestApplyVehicleConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		vehicle string
		params  map[string]any
		want    string
	}{
		{"unknown key", "vehicle.ks0223.v1", map[string]any{"weight": 1},
			"vehicle.params.weight: unknown parameter (known: angular_damping, camera.fov_deg, camera.height, camera.jpeg_quality, camera.pitch_deg, camera.profile, camera.width, friction, latency, linear_damping, mass, max_speed, motor_gain_left, motor_gain_right, visual.color, drive.<param>, sensor.<id>.<param>)"},
		{"mass range", "vehicle.ks0223.v1", map[string]any{"mass": 0}, "vehicle.params.mass: 0 is outside the range 0.01..10000 kg"},
		{"speed range", "vehicle.ks0223.v1", map[string]any{"max_speed": "50"}, "vehicle.params.max_speed: 50 is outside the range 0.01..10 m/s"},
		{"not a number", "vehicle.ks0223.v1", map[string]any{"friction": "sticky"}, `vehicle.params.friction: "sticky" is not a number`},
		{"bool", "vehicle.ks0223.v1", map[string]any{"mass": true}, `vehicle.params.mass: true is not a number`},
		{"model lacks param", ackermannCar, map[string]any{"motor_gain_left": 1},
			`vehicle.params.motor_gain_left: the ackermann drive has no parameter "motorGainLeft" (known: maxSpeed, reverseSpeed, accel, brakeDecel, wheelBase, maxSteerDeg, steerRateDeg, lateralFriction, latency)`},
		{"unknown drive param", "vehicle.ks0223.v1", map[string]any{"drive.turbo": 1}, `vehicle.params.drive.turbo: the differential drive has no parameter "turbo"`},
		{"drive range", "vehicle.drone.simple.v1", map[string]any{"drive.maxVertical": -1}, "vehicle.params.drive.maxVertical: -1 is outside the range 0.01..20 m/s"},
		{"unknown sensor", "vehicle.ks0223.v1", map[string]any{"sensor.lidar.rangeMax": 5}, `vehicle.params.sensor.lidar.rangeMax: no sensor "lidar" (mounted: camera.front.rgb, speedometer,`},
		{"unknown sensor param", "vehicle.ks0223.v1", map[string]any{"sensor.ultrasonic.front.samples": 5}, `sensor "ultrasonic.front" (ultrasonic) has no parameter "samples" (known: rangeMin, rangeMax, coneDeg, x, y, z,`},
		{"sensor range", "vehicle.ks0223.v1", map[string]any{"sensor.line_tracker.front.count": 2.5}, "vehicle.params.sensor.line_tracker.front.count: 2.5 is not a whole number"},
		{"sensor form", "vehicle.ks0223.v1", map[string]any{"sensor.speedometer": 1}, "vehicle.params.sensor.speedometer: expected sensor.<id>.<param>"},
		{"profile", "vehicle.ks0223.v1", map[string]any{"camera.profile": "max"}, `vehicle.params.camera.profile: "max" is not one of balanced, high, performance, ultra`},
		{"width range", "vehicle.ks0223.v1", map[string]any{"camera.width": 4000}, "vehicle.params.camera.width: 4000 is outside the range 16..1920 px"},
		{"height integer", "vehicle.ks0223.v1", map[string]any{"camera.height": "480.5"}, "vehicle.params.camera.height: 480.5 is not a whole number"},
		{"quality range", "vehicle.ks0223.v1", map[string]any{"camera.jpeg_quality": 10}, "vehicle.params.camera.jpeg_quality: 10 is outside the range 20..100"},
		{"empty params", "vehicle.ks0223.v1", map[string]any{}, ""},
		{"colour", "vehicle.ks0223.v1", map[string]any{"visual.color": "red"}, `vehicle.params.visual.color: "red" is not a colour #rrggbb`},
		{"colour number", "vehicle.ks0223.v1", map[string]any{"visual.color": 5}, `vehicle.params.visual.color: 5 is not a string`},
		{"all errors", "vehicle.ks0223.v1", map[string]any{"mass": -1, "friction": 9},
			"vehicle.params.friction: 9 is outside the range 0..2; vehicle.params.mass: -1 is outside the range 0.01..10000 kg"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ApplyVehicleConfig(builtinVehicle(t, tc.vehicle), tc.params)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error\n got %v\nwant %q", err, tc.want)
			}
			var pe ParamErrors
			if !errors.As(err, &pe) {
				t.Errorf("not ParamErrors: %T", err)
			}
		})
	}
	// A vehicle without a camera.
	v := builtinVehicle(t, "vehicle.ks0223.v1")
	v.Sensors = slices.DeleteFunc(v.Sensors, func(m SensorMount) bool { return m.Kind == "camera" })
	if _, err := ApplyVehicleConfig(v, map[string]any{"camera.fov_deg": 60}); err == nil || !strings.Contains(err.Error(), "has no camera") {
		t.Errorf("no camera: %v", err)
	}
	// A rusim export before WithFallback.
	bare := &VehicleDescriptor{ID: "vehicle.x.v1", DisplayName: "X"}
	if _, err := ApplyVehicleConfig(bare, map[string]any{"mass": 1}); err == nil || !strings.Contains(err.Error(), "use WithFallback") {
		t.Errorf("bare: %v", err)
	}
}

func TestApplyVehicleConfigCrossCheck(t *testing.T) {
	_, err := ApplyVehicleConfig(builtinVehicle(t, "vehicle.drone.simple.v1"), map[string]any{"drive.minAltitude": 5, "drive.maxAltitude": "2"})
	if err == nil || !strings.HasPrefix(err.Error(), "vehicle.params: together they make an invalid vehicle: descriptor.drive.params: need minAltitude ≤ startAltitude, got minAltitude = 5 and startAltitude = 1") {
		t.Errorf("err = %v", err)
	}
}

// TestAliasAndItsTargetTogether: an alias (camera.fov_deg, camera.pitch_deg, max_speed) and
// the key it stands for set together must agree; different values are refused naming both,
// rather than one silently winning.
func TestAliasAndItsTargetTogether(t *testing.T) {
	for _, tc := range []struct {
		params map[string]any
		want   string // "" for accepted
	}{
		{map[string]any{"camera.fov_deg": 100, "sensor.camera.front.rgb.fovDeg": 40},
			"camera.fov_deg and sensor.camera.front.rgb.fovDeg both set it, to 100 and 40: give one"},
		{map[string]any{"camera.pitch_deg": 10, "sensor.camera.front.rgb.pitchDeg": "12"},
			"camera.pitch_deg and sensor.camera.front.rgb.pitchDeg both set it"},
		{map[string]any{"max_speed": 0.5, "drive.maxSpeed": 0.6}, "max_speed and drive.maxSpeed both set it"},
		{map[string]any{"camera.fov_deg": 60, "sensor.camera.front.rgb.fovDeg": "60.0"}, ""},
		{map[string]any{"camera.fov_deg": 60, "sensor.camera.front.rgb.k1": -0.1}, ""},
	} {
		v, err := ApplyVehicleConfig(builtinVehicle(t, "vehicle.ks0223.v1"), tc.params)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%v: %v", tc.params, err)
		case tc.want == "" && mountOf(v, "camera.front.rgb").Params["fovDeg"] != 60:
			t.Errorf("%v: fovDeg %v, want 60", tc.params, mountOf(v, "camera.front.rgb").Params["fovDeg"])
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%v: error %v, want one saying %q", tc.params, err, tc.want)
		}
	}
}

// A sensor's frame size is its shape's [H, W], when both sides are a frame's.
func TestSensorFrameSize(t *testing.T) {
	for _, c := range []struct {
		shape []int
		w, h  int
		ok    bool
	}{
		{[]int{480, 640, 3}, 640, 480, true}, {[]int{120, 160}, 160, 120, true},
		{[]int{1, 100000, 3}, 100000, 1, false}, {[]int{0, 640, 3}, 640, 0, false}, {[]int{6}, 0, 0, false}, {nil, 0, 0, false},
	} {
		s := &SensorDescriptor{Shape: c.shape}
		if w, h, ok := s.FrameSize(); w != c.w || h != c.h || ok != c.ok {
			t.Errorf("%v: %d×%d %v, want %d×%d %v", c.shape, w, h, ok, c.w, c.h, c.ok)
		}
	}
	if _, _, ok := (*SensorDescriptor)(nil).FrameSize(); ok {
		t.Error("no sensor has a frame size")
	}
}
