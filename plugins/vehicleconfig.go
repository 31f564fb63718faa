package plugins

import (
	"errors"
	"fmt"
	"maps"
	"math"
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

// CameraProfileNames returns the camera.profile presets' names, sorted, for messages that
// list them.
func CameraProfileNames() []string { return sortedKeys(cameraProfiles) }

// vehicleKey is one flat vehicle parameter: num applies a number checked against spec, str a
// string.
type vehicleKey struct {
	spec  ParamSpec
	num   func(v *VehicleDescriptor, x float64) error
	str   func(v *VehicleDescriptor, s string) error
	drive string // the drive parameter a drive alias sets
	// camera is the first camera's sensor.<id>.<param> name a camera alias sets ("" for
	// none), so that the two set together with different values are refused.
	camera string
}

var errNoBody = errors.New("the vehicle has no body data (rusim export without simulation data; use WithFallback)")

// bodyKey sets a body field, checked by the field's own range (bodyParams).
func bodyKey(field string, set func(b *Body, x float64)) vehicleKey {
	return vehicleKey{spec: mustSpec(bodyParams, field), num: func(v *VehicleDescriptor, x float64) error {
		if v.Body == nil {
			return errNoBody
		}
		set(v.Body, x)
		return nil
	}}
}

// driveAlias maps a snake_case key onto a drive parameter, checked by the model's own range.
func driveAlias(param string) vehicleKey {
	return vehicleKey{drive: param, num: func(v *VehicleDescriptor, x float64) error { return v.setDriveParam(param, x) }}
}

// cameraKey sets something of the first camera, checked against spec.
func cameraKey(spec ParamSpec, set func(m *SensorMount, s *SensorDescriptor, x float64)) vehicleKey {
	return vehicleKey{spec: spec, num: func(v *VehicleDescriptor, x float64) error {
		m, s, err := v.firstCamera()
		if err != nil {
			return err
		}
		set(m, s, x)
		return nil
	}}
}

// withCamera notes the first camera's parameter (or pose field) a camera key sets.
func withCamera(name string, k vehicleKey) vehicleKey {
	k.camera = name
	return k
}

// cameraParam is a parameter of the camera kind's table.
func cameraParam(name string) ParamSpec {
	k, _ := sensorKind(SensorCamera)
	return mustSpec(k.Params, name)
}

var vehicleKeys = map[string]vehicleKey{
	"mass":             bodyKey("mass", func(b *Body, x float64) { b.Mass = x }),
	"friction":         bodyKey("friction", func(b *Body, x float64) { b.Friction = x }),
	"linear_damping":   bodyKey("linearDamping", func(b *Body, x float64) { b.LinearDamping = x }),
	"angular_damping":  bodyKey("angularDamping", func(b *Body, x float64) { b.AngularDamping = x }),
	"max_speed":        driveAlias("maxSpeed"),
	"motor_gain_left":  driveAlias("motorGainLeft"),
	"motor_gain_right": driveAlias("motorGainRight"),
	"latency":          driveAlias("latency"),
	"camera.width": cameraKey(ParamSpec{Min: 16, Max: 1920, Integer: true, Unit: "px"}, func(m *SensorMount, s *SensorDescriptor, x float64) {
		resizeCamera(m, s, int(x), 0)
	}),
	"camera.height": cameraKey(ParamSpec{Min: 16, Max: 1080, Integer: true, Unit: "px"}, func(m *SensorMount, s *SensorDescriptor, x float64) {
		resizeCamera(m, s, 0, int(x))
	}),
	"camera.jpeg_quality": withCamera("jpegQuality", cameraKey(cameraParam("jpegQuality"), func(m *SensorMount, _ *SensorDescriptor, x float64) {
		m.setParam("jpegQuality", x)
	})),
	"camera.fov_deg": withCamera("fovDeg", cameraKey(cameraParam("fovDeg"), func(m *SensorMount, _ *SensorDescriptor, x float64) {
		m.setParam("fovDeg", x)
	})),
	"camera.pitch_deg": withCamera("pitchDeg", cameraKey(mustSpec(mountPoseParams, "pitchDeg"), func(m *SensorMount, _ *SensorDescriptor, x float64) {
		m.Pose.PitchDeg = x
	})),
	"camera.profile": {str: func(v *VehicleDescriptor, name string) error {
		p, ok := cameraProfiles[name]
		if !ok {
			return fmt.Errorf("%q is not one of %s", name, strings.Join(sortedKeys(cameraProfiles), ", "))
		}
		m, s, err := v.firstCamera()
		if err != nil {
			return err
		}
		resizeCamera(m, s, p.Width, p.Height)
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
// noise, with the contract's ranges.
var sensorExtraKeys = []ParamSpec{
	withName(mustSpec(contractParams, "rateHz"), "rateHz"),
	withName(mustSpec(contractParams, "noise.stddev"), "noiseStddev"),
}

func withName(s ParamSpec, name string) ParamSpec {
	s.Name = name
	return s
}

// VehicleParamKeys returns the keys ApplyVehicleConfig takes, sorted, with the two families
// written as drive.<param> and sensor.<id>.<param>.
func VehicleParamKeys() []string {
	return append(sortedKeys(vehicleKeys), "drive.<param>", "sensor.<id>.<param>")
}

// ApplyVehicleConfig applies scenario vehicle params (rusim's ApplyVehicleConfig) to a clone of
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
// it; the three redraw the intrinsics the mount gives for the new frame (SetFrameSize), and
// intrinsics given in the same params (sensor.<id>.fx, applied after them) are in the pixels
// of the frame they make. An unknown key or a value out of range is a ParamErrors naming each
// key (prefix "vehicle.params"); so is a set of values that are each fine but together fail
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
		if other, ok := out.sameTarget(k, params); ok && !sameParamValue(params[k], params[other]) {
			errs = append(errs, &ParamError{Prefix: "vehicle.params", Key: k,
				Problem: fmt.Sprintf("%s and %s both set it, to %s and %s: give one", k, other, showValue(params[k]), showValue(params[other]))})
			continue
		}
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

// sameTarget returns the key of params that sets what alias key sets too (drive.maxSpeed for
// max_speed, sensor.<first camera>.fovDeg for camera.fov_deg), when params has both.
func (v *VehicleDescriptor) sameTarget(key string, params map[string]any) (string, bool) {
	vk, ok := vehicleKeys[key]
	if !ok {
		return "", false
	}
	var other string
	switch {
	case vk.drive != "":
		other = "drive." + vk.drive
	case vk.camera != "":
		m, _, err := v.firstCamera()
		if err != nil {
			return "", false
		}
		other = "sensor." + m.ID + "." + vk.camera
	default:
		return "", false
	}
	_, both := params[other]
	return other, both
}

// sameParamValue reports whether two values of params are the same number (1 and "1.0"), or
// the same otherwise.
func sameParamValue(a, b any) bool {
	x, errA := numberParam(a)
	y, errB := numberParam(b)
	if errA == nil && errB == nil {
		return x == y
	}
	return fmt.Sprint(a) == fmt.Sprint(b)
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
		if vk.drive == "" { // a drive alias is checked by the model's table
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
	x, ok := asFloat(val)
	if s, isString := val.(string); !ok && isString {
		var err error
		x, err = strconv.ParseFloat(strings.TrimSpace(s), 64)
		ok = err == nil
	}
	switch {
	case !ok:
		return 0, fmt.Errorf("%s is not a number", showValue(val))
	case math.IsNaN(x) || math.IsInf(x, 0):
		return 0, fmt.Errorf("%s is not a finite number", showValue(val))
	}
	return x, nil
}

func (v *VehicleDescriptor) setDriveParam(name string, x float64) error {
	if v.Drive == nil {
		return errors.New("the vehicle has no drive data (rusim export without simulation data; use WithFallback)")
	}
	d, ok := driveModel(v.Drive.Model) // the table itself, read only: a copy per call cost every reset
	if !ok {
		return unknownDrive(v.Drive.Model)
	}
	specs := d.Params
	spec, ok := FindSpec(specs, name)
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
	k, ok := sensorKind(m.Kind) // the table itself, read only
	if !ok {
		return unknownKind(m.Kind)
	}
	kindSpecs := k.Params
	if spec, ok := FindSpec(kindSpecs, name); ok {
		if err := spec.check(x); err != nil {
			return err
		}
		m.setParam(name, x)
		return nil
	}
	if spec, ok := FindSpec(mountPoseParams, name); ok {
		if err := spec.check(x); err != nil {
			return err
		}
		*m.Pose.field(name) = x
		return nil
	}
	if spec, ok := FindSpec(sensorExtraKeys, name); ok {
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
	// A switch, not a map literal: a map built per call was a visible part of every
	// episode's checks.
	switch name {
	case "x":
		return &p.X
	case "y":
		return &p.Y
	case "z":
		return &p.Z
	case "rollDeg":
		return &p.RollDeg
	case "pitchDeg":
		return &p.PitchDeg
	case "yawDeg":
		return &p.YawDeg
	}
	return nil
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

// FrameSize returns the frame size of v's first camera as its contract declares it (640×480
// where the shape leaves it out); ok is false when v has no camera in its contract.
func (v *VehicleDescriptor) FrameSize() (w, h int, ok bool) {
	if v.Contract == nil {
		return 0, 0, false
	}
	_, s, err := v.firstCamera()
	if err != nil {
		return 0, 0, false
	}
	shape := frameShape(s.Shape, 0, 0)
	return shape[1], shape[0], true
}

// SetFrameSize sets the frame size of v's first camera in its contract (0 keeps a side) and
// returns that contract sensor; nil when v has no camera in its contract. The intrinsics the
// mount gives (fx, fy, cx, cy, in the pixels of the old size) are redrawn for the new frame as
// a camera given by its fovDeg is: the vertical field of view and the pixels' shape are kept,
// so a frame of another aspect ratio sees the centre of the old one's view (or more to the
// sides). Their mount's Params are v's own afterwards (v is a clone).
func (v *VehicleDescriptor) SetFrameSize(w, h int) *SensorDescriptor {
	if v.Contract == nil {
		return nil
	}
	m, s, err := v.firstCamera()
	if err != nil {
		return nil
	}
	resizeCamera(m, s, w, h)
	return s
}

// resizeCamera sets the frame size of camera mount m's contract sensor s (0 keeps a side) and
// redraws the intrinsics m gives for it (scaledIntrinsics). Every way of changing the frame —
// a reset's or a session's frame size, camera.profile, camera.width and camera.height — goes
// through it: intrinsics left in the contract frame's pixels put a 320×240 calibration's
// principal point near the left of a 640×360 profile frame.
func resizeCamera(m *SensorMount, s *SensorDescriptor, w, h int) {
	shape := frameShape(s.Shape, 0, 0)
	oldH, oldW := shape[0], shape[1]
	s.Shape = frameShape(s.Shape, h, w)
	if (s.Shape[1] != oldW || s.Shape[0] != oldH) && oldW > 0 && oldH > 0 {
		m.Params = scaledIntrinsics(m.Params, [2]int{oldW, oldH}, [2]int{s.Shape[1], s.Shape[0]})
	}
}

// scaledIntrinsics returns a camera mount's params with the intrinsics it gives for a frame of
// from (width, height) redrawn for one of to (pixel centres stay pixel centres); params
// without intrinsics come back as they are. Both focal lengths scale with the height, as
// fovDeg's does, and the old frame so scaled is centred on the new one: scaling each side by
// its own ratio squeezed a calibrated camera's 84×84 training frame to the whole width, where
// a camera without intrinsics (and the real car's frames, cropped to their centre square) show
// the centre. A focal length left to follow the other (0) is set, so that pixels stay as they
// were.
func scaledIntrinsics(params map[string]float64, from, to [2]int) map[string]float64 {
	fx, fy, cx, cy := params["fx"], params["fy"], params["cx"], params["cy"]
	if fx == 0 && fy == 0 && cx == 0 && cy == 0 {
		return params
	}
	num, den := float64(to[1]), float64(from[1])
	// A point's pixel edge coordinate on the scaled old frame (multiplied first, so that the
	// frame's edge stays exactly the edge), plus the margin that centres it, kept inside the
	// new frame.
	point := func(c float64, from, to int) float64 {
		margin := (float64(to) - float64(from)*num/den) / 2
		return min(max((c+0.5)*num/den+margin-0.5, 1e-9), float64(to)-0.5)
	}
	out := maps.Clone(params)
	switch {
	case fx != 0 && fy == 0:
		fy = fx
	case fy != 0 && fx == 0:
		fx = fy
	}
	if fx != 0 {
		// Within the table's range: a long lens drawn much larger would pass its end.
		out["fx"], out["fy"] = min(fx*num/den, maxFocalPx), min(fy*num/den, maxFocalPx)
	}
	// 0 is the centre, which stays the centre; a point of the old frame cropped away by a
	// narrower new one stays at the new frame's edge.
	if cx != 0 {
		out["cx"] = point(cx, from[0], to[0])
	}
	if cy != 0 {
		out["cy"] = point(cy, from[1], to[1])
	}
	return out
}

// maxFocalPx is the camera's largest focal length, fx's and fy's Max in cameraRealismParams.
const maxFocalPx = 100000

// maxFovDeg is the widest field of view a camera takes: fovDeg's maximum, and the least focal
// length in pixels fx and fy may give across the frame.
const maxFovDeg = 170

// DefaultFrameWidth and DefaultFrameHeight are a camera's frame size where its contract gives
// none.
const DefaultFrameWidth, DefaultFrameHeight = 640, 480

// FrameSize returns the frame width and height of a shape [H, W, ...], and whether it is a
// frame a camera can have: both sides 1..MaxFrameSide.
func (s *SensorDescriptor) FrameSize() (w, h int, ok bool) {
	if s == nil || len(s.Shape) < 2 {
		return 0, 0, false
	}
	w, h = s.Shape[1], s.Shape[0]
	return w, h, w >= 1 && h >= 1 && w <= MaxFrameSide && h <= MaxFrameSide
}

// frameShape returns an [H, W, C] shape with height or width replaced (-1 keeps it).
func frameShape(shape []int, h, w int) []int {
	out := []int{DefaultFrameHeight, DefaultFrameWidth, 3}
	copy(out, shape)
	if h > 0 {
		out[0] = h
	}
	if w > 0 {
		out[1] = w
	}
	return out
}

// VehicleParamSpec returns the spec a vehicle params key is checked against on v
// (ApplyVehicleConfig): the body's field for mass, friction and the dampings, the drive
// model's parameter for max_speed, the motor gains, latency and drive.<param>, the camera
// kind's or the mount pose's for camera.fov_deg, camera.jpeg_quality and camera.pitch_deg,
// and for sensor.<id>.<param> the sensor kind's parameter, the pose field or the contract's
// rate or noise. ok is false for other keys and for keys v has nothing for.
func VehicleParamSpec(v *VehicleDescriptor, key string) (spec ParamSpec, ok bool) {
	vk, found := vehicleKeys[key]
	if found && vk.drive == "" {
		return vk.spec, vk.num != nil
	}
	param := vk.drive
	if p, isDrive := strings.CutPrefix(key, "drive."); isDrive {
		param = p
	}
	if param != "" {
		if v.Drive == nil {
			return ParamSpec{}, false
		}
		d, _ := driveModel(v.Drive.Model)
		return FindSpec(d.Params, param)
	}
	rest, isSensor := strings.CutPrefix(key, "sensor.")
	i := strings.LastIndexByte(rest, '.')
	if !isSensor || i <= 0 {
		return ParamSpec{}, false
	}
	id, name := rest[:i], rest[i+1:]
	j := slices.IndexFunc(v.Sensors, func(m SensorMount) bool { return m.ID == id })
	if j < 0 {
		return ParamSpec{}, false
	}
	k, _ := sensorKind(v.Sensors[j].Kind)
	for _, specs := range [][]ParamSpec{k.Params, mountPoseParams, sensorExtraKeys} {
		if s, found := FindSpec(specs, name); found {
			return s, true
		}
	}
	return ParamSpec{}, false
}
