package plugins

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// CameraProfile is a camera.profile preset: frame size and JPEG quality.
type CameraProfile struct {
	Width, Height, JPEGQuality int
}

// cameraProfiles are rusim's sensors.camera.profile presets plus "high".
var cameraProfiles = map[string]CameraProfile{
	"performance": {640, 360, 72},
	"balanced":    {960, 540, 84},
	"high":        {1280, 720, 92},
	"ultra":       {1600, 900, 96},
}

// LookupCameraProfile returns the camera.profile preset with the name: performance (640×360,
// quality 72), balanced (960×540, 84), high (1280×720, 92) or ultra (1600×900, 96).
func LookupCameraProfile(name string) (CameraProfile, bool) {
	p, ok := cameraProfiles[name]
	return p, ok
}

// vehicleKey is one flat vehicle parameter: num applies a number checked against spec, str a
// string.
type vehicleKey struct {
	spec ParamSpec
	num  func(v *VehicleDescriptor, x float64) error
	str  func(v *VehicleDescriptor, s string) error
}

var errNoBody = errors.New("the vehicle has no body data (rusim export without simulation data; use WithFallback)")

func bodyKey(min, max float64, unit string, set func(b *Body, x float64)) vehicleKey {
	return vehicleKey{spec: ParamSpec{Min: min, Max: max, Unit: unit}, num: func(v *VehicleDescriptor, x float64) error {
		if v.Body == nil {
			return errNoBody
		}
		set(v.Body, x)
		return nil
	}}
}

// driveAlias maps a snake_case key onto a drive parameter, checked by the model's own range.
func driveAlias(param string) vehicleKey {
	return vehicleKey{num: func(v *VehicleDescriptor, x float64) error { return v.setDriveParam(param, x) }}
}

func cameraKey(min, max float64, integer bool, unit string, set func(m *SensorMount, s *SensorDescriptor, x float64)) vehicleKey {
	return vehicleKey{spec: ParamSpec{Min: min, Max: max, Integer: integer, Unit: unit}, num: func(v *VehicleDescriptor, x float64) error {
		m, s, err := v.firstCamera()
		if err != nil {
			return err
		}
		set(m, s, x)
		return nil
	}}
}

var vehicleKeys = map[string]vehicleKey{
	"mass":             bodyKey(0.01, 1000, "kg", func(b *Body, x float64) { b.Mass = x }),
	"friction":         bodyKey(0, 2, "", func(b *Body, x float64) { b.Friction = x }),
	"linear_damping":   bodyKey(0, 100, "", func(b *Body, x float64) { b.LinearDamping = x }),
	"angular_damping":  bodyKey(0, 100, "", func(b *Body, x float64) { b.AngularDamping = x }),
	"max_speed":        driveAlias("maxSpeed"),
	"motor_gain_left":  driveAlias("motorGainLeft"),
	"motor_gain_right": driveAlias("motorGainRight"),
	"latency":          driveAlias("latency"),
	"camera.width": cameraKey(16, 1920, true, "px", func(_ *SensorMount, s *SensorDescriptor, x float64) {
		s.Shape = frameShape(s.Shape, -1, int(x))
	}),
	"camera.height": cameraKey(16, 1080, true, "px", func(_ *SensorMount, s *SensorDescriptor, x float64) {
		s.Shape = frameShape(s.Shape, int(x), -1)
	}),
	"camera.jpeg_quality": cameraKey(20, 100, true, "", func(m *SensorMount, _ *SensorDescriptor, x float64) {
		m.setParam("jpegQuality", x)
	}),
	"camera.fov_deg": cameraKey(10, 170, false, "deg", func(m *SensorMount, _ *SensorDescriptor, x float64) {
		m.setParam("fovDeg", x)
	}),
	"camera.pitch_deg": cameraKey(-90, 90, false, "deg", func(m *SensorMount, _ *SensorDescriptor, x float64) {
		m.Pose.PitchDeg = x
	}),
	"camera.profile": {str: func(v *VehicleDescriptor, name string) error {
		p, ok := cameraProfiles[name]
		if !ok {
			return fmt.Errorf("%q is not one of %s", name, strings.Join(sortedKeys(cameraProfiles), ", "))
		}
		m, s, err := v.firstCamera()
		if err != nil {
			return err
		}
		s.Shape = frameShape(s.Shape, p.Height, p.Width)
		m.setParam("jpegQuality", float64(p.JPEGQuality))
		return nil
	}},
	"visual.color": {str: func(v *VehicleDescriptor, c string) error {
		if !colorPattern.MatchString(c) {
			return fmt.Errorf("%q is not a colour #rrggbb", c)
		}
		if v.Visual == nil {
			v.Visual = &Visual{Shape: "box"}
		}
		v.Visual.Color = c
		return nil
	}},
}

// Extra per-sensor keys besides the kind's parameters and the pose: the contract's rate and
// noise.
var sensorExtraKeys = []ParamSpec{
	{Name: "rateHz", Unit: "Hz", Min: 0.01, Max: 1000},
	{Name: "noiseStddev", Min: 0, Max: 1000},
}

// VehicleParamKeys returns the keys ApplyVehicleConfig takes, sorted, with the two families
// written as drive.<param> and sensor.<id>.<param>.
func VehicleParamKeys() []string {
	return append(sortedKeys(vehicleKeys), "drive.<param>", "sensor.<id>.<param>")
}

// ApplyVehicleConfig applies scenario vehicle params (seed 002 ApplyVehicleConfig) to a clone of
// v and returns it; v is not changed. Values may be numbers or strings that parse as numbers.
// Keys:
//
//	mass, friction, linear_damping, angular_damping   the body (kg, -, -, -)
//	max_speed, motor_gain_left, motor_gain_right,     drive parameters maxSpeed, motorGainLeft,
//	latency                                           motorGainRight, latency of the vehicle's model
//	drive.<param>                                     any parameter of the drive model (DriveParams)
//	sensor.<id>.<param>                               a mount parameter of the sensor's kind
//	                                                  (SensorParams), its pose x y z rollDeg pitchDeg
//	                                                  yawDeg, or the contract's rateHz, noiseStddev
//	camera.profile                                    performance|balanced|high|ultra: frame size and
//	                                                  JPEG quality of the first camera
//	camera.width, camera.height                       first camera frame, 16–1920 × 16–1080 px
//	camera.jpeg_quality, camera.fov_deg,              first camera, 20–100, degrees (vertical),
//	camera.pitch_deg                                  degrees (positive looks down)
//	visual.color                                      "#rrggbb"
//
// camera.profile is applied before the other keys so that camera.width and camera.height refine
// it. An unknown key or a value out of range is a ParamErrors naming each key (prefix
// "vehicle.params"); so is a set of values that are each fine but together fail
// CheckSimulation (minAltitude above maxAltitude).
func ApplyVehicleConfig(v *VehicleDescriptor, params map[string]any) (*VehicleDescriptor, error) {
	if v == nil {
		return nil, errors.New("no vehicle descriptor")
	}
	out := v.Clone()
	keys := sortedKeys(params)
	if i := slices.Index(keys, "camera.profile"); i > 0 {
		keys = append([]string{"camera.profile"}, slices.Delete(keys, i, i+1)...)
	}
	var errs ParamErrors
	for _, k := range keys {
		if err := out.applyParam(k, params[k]); err != nil {
			errs = append(errs, &ParamError{Prefix: "vehicle.params", Key: k, Problem: err.Error()})
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	// Each key is in range on its own; together they may still clash (minAltitude above
	// maxAltitude). Descriptors that did not check before are not blamed on the params.
	if len(params) > 0 && v.CheckSimulation() == nil {
		if err := out.CheckSimulation(); err != nil {
			return nil, ParamErrors{{Prefix: "vehicle.params", Problem: "together they make an invalid vehicle: " + strings.ReplaceAll(err.Error(), "\n", "; ")}}
		}
	}
	return out, nil
}

func (v *VehicleDescriptor) applyParam(key string, val any) error {
	if vk, ok := vehicleKeys[key]; ok {
		if vk.str != nil {
			s, ok := val.(string)
			if !ok {
				return fmt.Errorf("%s is not a string", showValue(val))
			}
			return vk.str(v, strings.TrimSpace(s))
		}
		x, err := numberParam(val)
		if err != nil {
			return err
		}
		if vk.spec.Max > vk.spec.Min { // drive aliases have no range here: the model's spec checks them
			if err := vk.spec.check(x); err != nil {
				return err
			}
		}
		return vk.num(v, x)
	}
	if name, ok := strings.CutPrefix(key, "drive."); ok {
		x, err := numberParam(val)
		if err != nil {
			return err
		}
		return v.setDriveParam(name, x)
	}
	if rest, ok := strings.CutPrefix(key, "sensor."); ok {
		i := strings.LastIndexByte(rest, '.')
		if i <= 0 || i == len(rest)-1 {
			return fmt.Errorf("expected sensor.<id>.<param>")
		}
		x, err := numberParam(val)
		if err != nil {
			return err
		}
		return v.setSensorParam(rest[:i], rest[i+1:], x)
	}
	return fmt.Errorf("unknown parameter (known: %s)", strings.Join(VehicleParamKeys(), ", "))
}

// numberParam accepts numbers of any Go type and strings that parse as a number.
func numberParam(val any) (float64, error) {
	if x, ok := asFloat(val); ok {
		return x, nil
	}
	if s, ok := val.(string); ok {
		if x, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil {
			return x, nil
		}
	}
	return 0, fmt.Errorf("%s is not a number", showValue(val))
}

func (v *VehicleDescriptor) setDriveParam(name string, x float64) error {
	if v.Drive == nil {
		return errors.New("the vehicle has no drive data (rusim export without simulation data; use WithFallback)")
	}
	specs, err := DriveParams(v.Drive.Model)
	if err != nil {
		return err
	}
	spec, ok := findSpec(specs, name)
	if !ok {
		return fmt.Errorf("the %s drive has no parameter %q (known: %s)", v.Drive.Model, name, strings.Join(specNames(specs), ", "))
	}
	if err := spec.check(x); err != nil {
		return err
	}
	if v.Drive.Params == nil {
		v.Drive.Params = map[string]float64{}
	}
	v.Drive.Params[name] = x
	return nil
}

func (v *VehicleDescriptor) setSensorParam(id, name string, x float64) error {
	i := slices.IndexFunc(v.Sensors, func(m SensorMount) bool { return m.ID == id })
	if i < 0 {
		ids := mapSlice(v.Sensors, func(m SensorMount) string { return m.ID })
		return fmt.Errorf("no sensor %q (mounted: %s)", id, strings.Join(ids, ", "))
	}
	m := &v.Sensors[i]
	kindSpecs, err := SensorParams(m.Kind)
	if err != nil {
		return err
	}
	if spec, ok := findSpec(kindSpecs, name); ok {
		if err := spec.check(x); err != nil {
			return err
		}
		m.setParam(name, x)
		return nil
	}
	if spec, ok := findSpec(mountPoseParams, name); ok {
		if err := spec.check(x); err != nil {
			return err
		}
		*m.Pose.field(name) = x
		return nil
	}
	if spec, ok := findSpec(sensorExtraKeys, name); ok {
		if err := spec.check(x); err != nil {
			return err
		}
		s := v.Contract.sensorOrNil(id)
		if s == nil {
			return fmt.Errorf("sensor %q is not in the device contract", id)
		}
		if name == "rateHz" {
			s.RateHz = x
		} else if s.Noise == nil {
			s.Noise = &Noise{Stddev: x}
		} else {
			s.Noise.Stddev = x
		}
		return nil
	}
	known := slices.Concat(specNames(kindSpecs), specNames(mountPoseParams), specNames(sensorExtraKeys))
	return fmt.Errorf("sensor %q (%s) has no parameter %q (known: %s)", id, m.Kind, name, strings.Join(known, ", "))
}

// field returns the pose component named as in mountPoseParams.
func (p *Pose3) field(name string) *float64 {
	return map[string]*float64{"x": &p.X, "y": &p.Y, "z": &p.Z, "rollDeg": &p.RollDeg, "pitchDeg": &p.PitchDeg, "yawDeg": &p.YawDeg}[name]
}

func (c *DeviceContract) sensorOrNil(id string) *SensorDescriptor {
	if c == nil {
		return nil
	}
	return c.sensor(id)
}

func (m *SensorMount) setParam(name string, x float64) {
	if m.Params == nil {
		m.Params = map[string]float64{}
	}
	m.Params[name] = x
}

// firstCamera returns the first camera mount and its contract sensor.
func (v *VehicleDescriptor) firstCamera() (*SensorMount, *SensorDescriptor, error) {
	for i := range v.Sensors {
		if v.Sensors[i].Kind != SensorCamera {
			continue
		}
		if s := v.Contract.sensorOrNil(v.Sensors[i].ID); s != nil {
			return &v.Sensors[i], s, nil
		}
	}
	return nil, nil, fmt.Errorf("vehicle %s has no camera", v.ID)
}

// frameShape returns an [H, W, C] shape with height or width replaced (-1 keeps it).
func frameShape(shape []int, h, w int) []int {
	out := []int{480, 640, 3}
	copy(out, shape)
	if h > 0 {
		out[0] = h
	}
	if w > 0 {
		out[1] = w
	}
	return out
}
