package plugins

import (
	"fmt"
	"slices"
	"strings"
)

// ParamSpec documents one numeric parameter of a drive model or sensor kind: its name as it
// appears in Drive.Params or SensorMount.Params, unit, default and the accepted range
// [Min, Max].
type ParamSpec struct {
	Name    string
	Unit    string
	Default float64
	Min     float64
	Max     float64
	// Integer is set for counts and pixel sizes.
	Integer bool
	Doc     string
}

// check reports whether x is acceptable for p.
func (p ParamSpec) check(x float64) error {
	if p.Integer && x != float64(int64(x)) {
		return fmt.Errorf("%s is not a whole number", fmtNum(x))
	}
	if x < p.Min || x > p.Max {
		return fmt.Errorf("%s is outside the range %s..%s%s", fmtNum(x), fmtNum(p.Min), fmtNum(p.Max), unitSuffix(p.Unit))
	}
	return nil
}

func unitSuffix(u string) string {
	if u == "" {
		return ""
	}
	return " " + u
}

// Drive parameters by model. physics/drive implements the models under these names and
// defaults; the table lives here so that descriptors and vehicle params can be checked without
// importing physics.
var driveParams = map[string][]ParamSpec{
	"differential": {
		{Name: "maxSpeed", Unit: "m/s", Default: 0.73, Min: 0, Max: 10, Doc: "top speed at full throttle"},
		{Name: "accel", Unit: "m/s²", Default: 4.0, Min: 0, Max: 50, Doc: "speed ramp toward the command"},
		{Name: "brakeDecel", Unit: "m/s²", Default: 6.5, Min: 0, Max: 50, Doc: "deceleration at full brake"},
		{Name: "maxYawRateDeg", Unit: "deg/s", Default: 380, Min: 0, Max: 2000, Doc: "yaw rate at full differential"},
		{Name: "yawAccelDeg", Unit: "deg/s²", Default: 1900, Min: 0, Max: 20000, Doc: "yaw-rate ramp"},
		{Name: "motorGainLeft", Default: 1, Min: 0, Max: 2, Doc: "left motor gain (L' = L·gain)"},
		{Name: "motorGainRight", Default: 1, Min: 0, Max: 2, Doc: "right motor gain (R' = R·gain)"},
		{Name: "lateralFriction", Default: 0.9, Min: 0, Max: 1, Doc: "share of sideways velocity removed per step (1 = no slip)"},
		{Name: "latency", Unit: "s", Default: 0, Min: 0, Max: 2, Doc: "command delay"},
	},
	"ackermann": {
		{Name: "maxSpeed", Unit: "m/s", Default: 3.0, Min: 0, Max: 30, Doc: "top speed at full throttle"},
		{Name: "reverseSpeed", Unit: "m/s", Default: 1.2, Min: 0, Max: 30, Doc: "top speed in reverse"},
		{Name: "accel", Unit: "m/s²", Default: 2.5, Min: 0, Max: 50, Doc: "speed ramp toward the command"},
		{Name: "brakeDecel", Unit: "m/s²", Default: 6.0, Min: 0, Max: 50, Doc: "deceleration at full brake"},
		{Name: "wheelBase", Unit: "m", Default: 0.33, Min: 0.05, Max: 5, Doc: "front to rear axle"},
		{Name: "maxSteerDeg", Unit: "deg", Default: 32, Min: 1, Max: 60, Doc: "front wheel angle at full steer"},
		{Name: "steerRateDeg", Unit: "deg/s", Default: 200, Min: 1, Max: 2000, Doc: "how fast the wheels turn"},
		{Name: "lateralFriction", Default: 0.9, Min: 0, Max: 1, Doc: "share of sideways velocity removed per step (1 = no slip)"},
		{Name: "latency", Unit: "s", Default: 0, Min: 0, Max: 2, Doc: "command delay"},
	},
	"quadcopter": {
		{Name: "maxSpeed", Unit: "m/s", Default: 4, Min: 0, Max: 30, Doc: "horizontal speed at full throttle"},
		{Name: "maxVertical", Unit: "m/s", Default: 2.5, Min: 0, Max: 20, Doc: "climb or sink rate at full vertical"},
		{Name: "maxYawRateDeg", Unit: "deg/s", Default: 110, Min: 0, Max: 1000, Doc: "yaw rate at full steer"},
		{Name: "accel", Unit: "m/s²", Default: 3, Min: 0, Max: 50, Doc: "velocity ramp toward the command"},
		{Name: "minAltitude", Unit: "m", Default: 0.35, Min: 0, Max: 1000, Doc: "lowest altitude of the base"},
		{Name: "maxAltitude", Unit: "m", Default: 10, Min: 0, Max: 1000, Doc: "highest altitude of the base"},
		{Name: "startAltitude", Unit: "m", Default: 1.0, Min: 0, Max: 1000, Doc: "altitude at spawn"},
	},
}

// Sensor mount parameters by kind. app/sensors implements the kinds under these names.
var sensorParams = map[string][]ParamSpec{
	"camera": {
		{Name: "fovDeg", Unit: "deg", Default: 68, Min: 10, Max: 170, Doc: "vertical field of view"},
		{Name: "near", Unit: "m", Default: 0.03, Min: 0.001, Max: 10, Doc: "near clip"},
		{Name: "far", Unit: "m", Default: 50, Min: 0.1, Max: 10000, Doc: "far clip"},
		{Name: "jpegQuality", Default: 84, Min: 20, Max: 100, Integer: true, Doc: "JPEG quality of jpeg_base64 frames"},
	},
	"depth": {
		{Name: "fovDeg", Unit: "deg", Default: 60, Min: 10, Max: 170, Doc: "vertical field of view"},
		{Name: "near", Unit: "m", Default: 0.05, Min: 0.001, Max: 10, Doc: "nearest depth"},
		{Name: "far", Unit: "m", Default: 10, Min: 0.1, Max: 10000, Doc: "farthest depth (reported beyond it)"},
	},
	"lidar": {
		{Name: "samples", Default: 360, Min: 1, Max: 10000, Integer: true, Doc: "rays per scan"},
		{Name: "angleMinDeg", Unit: "deg", Default: -180, Min: -180, Max: 180, Doc: "first ray, counter-clockwise from forward"},
		{Name: "angleMaxDeg", Unit: "deg", Default: 180, Min: -180, Max: 180, Doc: "last ray"},
		{Name: "rangeMin", Unit: "m", Default: 0.05, Min: 0, Max: 1000, Doc: "shortest range"},
		{Name: "rangeMax", Unit: "m", Default: 12, Min: 0.01, Max: 1000, Doc: "longest range (reported on a miss)"},
	},
	"imu":         {},
	"speedometer": {},
	"odometry":    {},
	"ultrasonic": {
		{Name: "rangeMin", Unit: "m", Default: 0.02, Min: 0, Max: 100, Doc: "shortest range"},
		{Name: "rangeMax", Unit: "m", Default: 3.5, Min: 0.01, Max: 100, Doc: "longest range (reported on a miss)"},
		{Name: "coneDeg", Unit: "deg", Default: 15, Min: 0, Max: 120, Doc: "full cone angle"},
	},
	"line_tracker": {
		{Name: "count", Default: 5, Min: 1, Max: 64, Integer: true, Doc: "number of probes"},
		{Name: "ahead", Unit: "m", Default: 0.19, Min: 0, Max: 5, Doc: "probe row distance ahead of the mount"},
		{Name: "span", Unit: "m", Default: 0.08, Min: 0, Max: 5, Doc: "probes spread evenly over ±span across the row"},
	},
	"powertrain": {},
	"altimeter":  {},
}

// Pose keys accepted as sensor.<id>.<key> vehicle params, with ranges in metres and degrees.
var mountPoseParams = []ParamSpec{
	{Name: "x", Unit: "m", Min: -10, Max: 10, Doc: "mount position forward"},
	{Name: "y", Unit: "m", Min: -10, Max: 10, Doc: "mount position left"},
	{Name: "z", Unit: "m", Min: -10, Max: 10, Doc: "mount position up"},
	{Name: "rollDeg", Unit: "deg", Min: -180, Max: 180},
	{Name: "pitchDeg", Unit: "deg", Min: -90, Max: 90, Doc: "right-hand rule about +y: positive looks down"},
	{Name: "yawDeg", Unit: "deg", Min: -180, Max: 180, Doc: "counter-clockwise from forward"},
}

// DriveModels returns the drive model names, sorted.
func DriveModels() []string { return sortedKeys(driveParams) }

// DriveParams returns the parameters of a drive model, or an error listing the known models.
func DriveParams(model string) ([]ParamSpec, error) {
	p, ok := driveParams[model]
	if !ok {
		return nil, fmt.Errorf("unknown drive model %q (known: %s)", model, strings.Join(DriveModels(), ", "))
	}
	return slices.Clone(p), nil
}

// SensorKinds returns the sensor mount kinds, sorted.
func SensorKinds() []string { return sortedKeys(sensorParams) }

// SensorParams returns the mount parameters of a sensor kind, or an error listing the kinds.
func SensorParams(kind string) ([]ParamSpec, error) {
	p, ok := sensorParams[kind]
	if !ok {
		return nil, fmt.Errorf("unknown sensor kind %q (known: %s)", kind, strings.Join(SensorKinds(), ", "))
	}
	return slices.Clone(p), nil
}

func findSpec(specs []ParamSpec, name string) (ParamSpec, bool) {
	for _, s := range specs {
		if s.Name == name {
			return s, true
		}
	}
	return ParamSpec{}, false
}

func specNames(specs []ParamSpec) []string {
	out := make([]string, len(specs))
	for i, s := range specs {
		out[i] = s.Name
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
