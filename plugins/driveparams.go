package plugins

import (
	"fmt"
	"slices"
	"strings"
)

// DriveModel declares one drive model of physics/drive: its parameters (Drive.Params) and the
// rules between them. physics/drive implements each model under its name and builds it from
// ResolveDriveParams, so the defaults and ranges here are the ones that run. The table lives
// in this package, which physics already imports for bodies and elements, so that
// descriptors and scenario params are checked without importing the physics.
type DriveModel struct {
	Name   string
	Doc    string
	Params []ParamSpec
	Order  []Order
	// Flies is set for a model whose body leaves the ground: its device type is
	// DeviceTypeQuadcopter and it climbs on ActuatorVertical.
	Flies bool
}

// DeviceTypeQuadcopter is the device type of flying vehicles, as rusim's drone has it.
const DeviceTypeQuadcopter = "quadcopter"

// ActuatorVertical is the actuator (and training API extension) that climbs a flying vehicle,
// -1..1.
const ActuatorVertical = "control.vertical_norm"

// Parameters every model shares.
var (
	lateralFriction = func(def float64) ParamSpec {
		return ParamSpec{Name: "lateralFriction", Default: def, Min: 0, Max: 2,
			Doc: "tyre friction coefficient μ against sliding sideways: up to μ·g·dt of sideways speed is removed per step"}
	}
	latency = ParamSpec{Name: "latency", Unit: "s", Default: 0, Min: 0, Max: 2, Doc: "delay before a command takes effect"}
)

var driveModels = []DriveModel{
	{Name: "differential", Doc: "two motors, left and right (KS0223): it can turn on the spot", Params: []ParamSpec{
		{Name: "maxSpeed", Unit: "m/s", Default: 0.73, Min: 0.01, Max: 10, Doc: "top forward speed at full command"},
		{Name: "accel", Unit: "m/s²", Default: 4.0, Min: 0.01, Max: 50, Doc: "motor-limited acceleration toward the commanded speed"},
		{Name: "brakeDecel", Unit: "m/s²", Default: 6.5, Min: 0.01, Max: 50, Doc: "deceleration at full brake"},
		{Name: "maxYawRateDeg", Unit: "deg/s", Default: 380, Min: 1, Max: 2000, Doc: "yaw rate at full differential command (the model has no track width, so the body's width does not set it: measure the robot spinning on the spot)"},
		{Name: "yawAccelDeg", Unit: "deg/s²", Default: 1900, Min: 1, Max: 20000, Doc: "yaw acceleration limit"},
		{Name: "motorGainLeft", Default: 1, Min: 0, Max: 2, Doc: "left motor gain, L' = L·gain (calibration, domain randomization)"},
		{Name: "motorGainRight", Default: 1, Min: 0, Max: 2, Doc: "right motor gain, R' = R·gain"},
		lateralFriction(0.9),
		latency,
	}},
	{Name: "ackermann", Doc: "a car (kinematic bicycle): it cannot turn standing still", Params: []ParamSpec{
		{Name: "maxSpeed", Unit: "m/s", Default: 3.0, Min: 0.01, Max: 30, Doc: "top forward speed at full throttle"},
		{Name: "reverseSpeed", Unit: "m/s", Default: 1.2, Min: 0.01, Max: 30, Doc: "top reverse speed at full reverse throttle"},
		{Name: "accel", Unit: "m/s²", Default: 3.0, Min: 0.01, Max: 50, Doc: "acceleration toward the commanded speed"},
		{Name: "brakeDecel", Unit: "m/s²", Default: 8.0, Min: 0.01, Max: 50, Doc: "deceleration at full brake"},
		{Name: "wheelBase", Unit: "m", Default: 0.32, Min: 0.05, Max: 5, Doc: "distance between the front and rear axles"},
		{Name: "maxSteerDeg", Unit: "deg", Default: 28, Min: 1, Max: 60, Doc: "front wheel angle at full steer"},
		{Name: "steerRateDeg", Unit: "deg/s", Default: 180, Min: 1, Max: 2000, Doc: "how fast the front wheels turn"},
		lateralFriction(1.0),
		latency,
	}},
	{Name: "quadcopter", Flies: true, Doc: "a kinematic multirotor (vehicle.drone.simple.v1) that flies over what is lower than it and, coming down over it, lands on its top (a roof); `minAltitude` is over the floor", Params: []ParamSpec{
		{Name: "maxSpeed", Unit: "m/s", Default: 4.0, Min: 0.01, Max: 30, Doc: "top horizontal speed"},
		{Name: "maxVertical", Unit: "m/s", Default: 2.5, Min: 0.01, Max: 20, Doc: "top climb or descent rate"},
		{Name: "maxYawRateDeg", Unit: "deg/s", Default: 110, Min: 1, Max: 1000, Doc: "top yaw rate"},
		{Name: "accel", Unit: "m/s²", Default: 3.0, Min: 0.01, Max: 50, Doc: "horizontal and vertical acceleration limit"},
		{Name: "minAltitude", Unit: "m", Default: 0.35, Min: 0, Max: 1000, Doc: "lowest altitude of the body's base"},
		{Name: "maxAltitude", Unit: "m", Default: 10, Min: 0, Max: 1000, Doc: "highest altitude of the body's base"},
		{Name: "startAltitude", Unit: "m", Default: 1.0, Min: 0, Max: 1000, Doc: "altitude at spawn and reset"},
		latency,
	}, Order: []Order{{Lo: "minAltitude", Hi: "startAltitude"}, {Lo: "startAltitude", Hi: "maxAltitude"}}},
}

// driveModel returns the model called name.
func driveModel(name string) (DriveModel, bool) {
	i := slices.IndexFunc(driveModels, func(d DriveModel) bool { return d.Name == name })
	if i < 0 {
		return DriveModel{}, false
	}
	return driveModels[i], true
}

// DriveModels returns the drive model names, sorted.
func DriveModels() []string {
	out := make([]string, len(driveModels))
	for i, d := range driveModels {
		out[i] = d.Name
	}
	slices.Sort(out)
	return out
}

func unknownDrive(model string) error {
	return fmt.Errorf("unknown drive model %q (known: %s)", model, strings.Join(DriveModels(), ", "))
}

// DriveParams returns the parameters of a drive model, or an error listing the known models.
func DriveParams(model string) ([]ParamSpec, error) {
	d, ok := driveModel(model)
	if !ok {
		return nil, unknownDrive(model)
	}
	return slices.Clone(d.Params), nil
}

// DriveFlies reports whether the drive model called name flies (DriveModel.Flies).
func DriveFlies(name string) bool {
	d, ok := driveModel(name)
	return ok && d.Flies
}

// LookupDriveModel returns the declaration of a drive model, or an error listing the known
// models.
func LookupDriveModel(model string) (DriveModel, error) {
	d, ok := driveModel(model)
	if !ok {
		return DriveModel{}, unknownDrive(model)
	}
	d.Params, d.Order = slices.Clone(d.Params), slices.Clone(d.Order)
	return d, nil
}

// ResolveDriveParams returns every parameter of model: the given ones, each checked against
// its range, and the defaults for the rest, with the model's orders checked. It is the check
// ValidateVehicle applies to descriptor.drive.params and the one physics/drive builds a model
// from. The error is a *ValidationError with paths "params.<name>".
func ResolveDriveParams(model string, given map[string]float64) (map[string]float64, error) {
	d, ok := driveModel(model)
	if !ok {
		return nil, unknownDrive(model)
	}
	var ps Problems
	p := ps.resolve("params", model, d.Params, d.Order, given)
	if err := ps.Err(); err != nil {
		return nil, err
	}
	return p, nil
}

// Param returns the drive's parameter name, or its model's default when the drive leaves it
// out (0 for a name the model does not have).
func (d *Drive) Param(name string) float64 {
	if x, ok := d.Params[name]; ok {
		return x
	}
	m, _ := driveModel(d.Model)
	s, _ := FindSpec(m.Params, name)
	return s.Default
}
