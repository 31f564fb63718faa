package plugins

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// SensorKind declares one sensor mount kind of app/sensors (SensorMount.Kind): the contract
// sensor types it can fill, its parameters (SensorMount.Params) with the rules between them,
// and how many numbers one reading holds. app/sensors implements every kind under its name
// and builds each mount from SensorSetup, so the defaults and ranges here are the ones that
// run.
type SensorKind struct {
	Name string
	// Types are the contract sensorType values the kind fills (SensorCamera, ...).
	Types  []string
	Params []ParamSpec
	Order  []Order
	// Values is how many numbers one reading holds, for kinds whose contract shape is a count;
	// ValuesParam instead names the parameter that says it. Both are zero for images, whose
	// size the contract's shape gives.
	Values      int
	ValuesParam string
	// Doc says what a reading means where the contract type alone does not (one sentence or
	// more, for docs/PLUGINS.md).
	Doc string
}

// LineTrackerFalloff is the distance in metres at which a line-tracker probe stops seeing a
// centreline (its reading falls from 1 to 0 over it).
const LineTrackerFalloff = 0.12

var sensorKinds = []SensorKind{
	{Name: "camera", Types: []string{SensorCamera}, Params: []ParamSpec{
		{Name: "fovDeg", Unit: "deg", Default: 68, Min: 10, Max: maxFovDeg, Doc: "vertical field of view (unused when fx or fy is given)"},
		{Name: "near", Unit: "m", Default: 0.03, Min: 0.001, Max: 10, Doc: "near clip, pulled in before a nearer wall"},
		{Name: "far", Unit: "m", Default: 50, Min: 0.1, Max: 10000, Doc: "far clip"},
		{Name: "jpegQuality", Default: 84, Min: 20, Max: 100, Integer: true, Doc: "JPEG quality of jpeg_base64 frames"},
	}, Order: []Order{{Lo: "near", Hi: "far", Strict: true}}, Doc: "The lens is OpenCV's pinhole camera K = [fx 0 cx; 0 fy cy] for the contract's frame, in OpenCV's " +
		"camera axes (x right, y down, z along the view: the mount's −y, −z and +x), with plumb_bob or equidistant distortion " +
		"applied as `cv2.projectPoints` and `cv2.fisheye.projectPoints` apply them: those give the pixel a point is drawn at. " +
		"A distorted frame shows what is up to " + strconv.Itoa(MaxLensAngleDeg) + "° off the optical axis (a " + strconv.Itoa(2*MaxLensAngleDeg) +
		"° field): a wider fisheye's frame is black past that, as it is past a plumb_bob lens's fold."},
	{Name: "depth", Types: []string{SensorDepth}, Params: []ParamSpec{
		{Name: "fovDeg", Unit: "deg", Default: 60, Min: 10, Max: maxFovDeg, Doc: "vertical field of view"},
		{Name: "near", Unit: "m", Default: 0.05, Min: 0.001, Max: 10, Doc: "nearest depth"},
		{Name: "far", Unit: "m", Default: 10, Min: 0.1, Max: 10000, Doc: "farthest depth (reported beyond it)"},
	}, Order: []Order{{Lo: "near", Hi: "far", Strict: true}}},
	{Name: "lidar", Types: []string{SensorLidar}, ValuesParam: "samples", Params: []ParamSpec{
		{Name: "samples", Default: 360, Min: 1, Max: 10000, Integer: true, Doc: "rays per scan"},
		{Name: "angleMinDeg", Unit: "deg", Default: -180, Min: -180, Max: 180, Doc: "first ray, counter-clockwise from forward"},
		{Name: "angleMaxDeg", Unit: "deg", Default: 180, Min: -180, Max: 180, Doc: "last ray"},
		{Name: "rangeMin", Unit: "m", Default: 0.05, Min: 0, Max: 1000, Doc: "shortest range"},
		{Name: "rangeMax", Unit: "m", Default: 12, Min: 0.01, Max: 1000, Doc: "longest range (reported on a miss)"},
	}, Order: []Order{{Lo: "angleMinDeg", Hi: "angleMaxDeg"}, {Lo: "rangeMin", Hi: "rangeMax", Strict: true}}},
	{Name: "imu", Types: []string{SensorIMU, SensorScalar}, Values: 6},
	{Name: "speedometer", Types: []string{SensorScalar}, Values: 1},
	{Name: "odometry", Types: []string{SensorScalar}, Values: 2},
	{Name: "ultrasonic", Types: []string{SensorScalar}, Values: 1, Params: []ParamSpec{
		{Name: "rangeMin", Unit: "m", Default: 0.02, Min: 0, Max: 100, Doc: "shortest range, read too when the mount is past a wall"},
		{Name: "rangeMax", Unit: "m", Default: 3.5, Min: 0.01, Max: 100, Doc: "longest range (reported on a miss)"},
		{Name: "coneDeg", Unit: "deg", Default: 15, Min: 0, Max: 120, Doc: "full cone angle"},
	}, Order: []Order{{Lo: "rangeMin", Hi: "rangeMax", Strict: true}}},
	{Name: "line_tracker", Types: []string{SensorScalar}, ValuesParam: "count", Params: []ParamSpec{
		{Name: "count", Default: 5, Min: 1, Max: 64, Integer: true, Doc: "number of probes"},
		{Name: "ahead", Unit: "m", Default: 0.19, Min: 0, Max: 5, Doc: "probe row distance ahead of the mount"},
		{Name: "span", Unit: "m", Default: 0.08, Min: 0, Max: 5, Doc: "probes spread evenly over ±span across the row"},
	}, Doc: "Each probe reads 1 − d/" + strconv.FormatFloat(LineTrackerFalloff, 'g', -1, 64) + " in [0, 1], d its distance to the nearest centreline: the track's route and its " +
		"roads' centrelines. rusim measures against its arena's fixed centrelines; on `track.basic_arena.v1` the two agree, " +
		"and elsewhere simgui's follow the track's own lines."},
	{Name: "powertrain", Types: []string{SensorScalar}, Values: 3},
	{Name: "altimeter", Types: []string{SensorScalar}, Values: 1},
}

// mountPoseParams are the fields of a mount's pose (SensorMount.Pose), also accepted as
// sensor.<id>.<key> vehicle params.
var mountPoseParams = []ParamSpec{
	{Name: "x", Unit: "m", Min: -10, Max: 10, Doc: "mount position forward of the vehicle's centre"},
	{Name: "y", Unit: "m", Min: -10, Max: 10, Doc: "mount position left"},
	{Name: "z", Unit: "m", Min: -10, Max: 10, Doc: "mount position up, from the vehicle's origin: the floor under its centre (a flying vehicle's origin rises with it)"},
	{Name: "rollDeg", Unit: "deg", Min: -180, Max: 180, Doc: "roll about the forward axis"},
	{Name: "pitchDeg", Unit: "deg", Min: -90, Max: 90, Doc: "right-hand rule about +y: positive looks down"},
	{Name: "yawDeg", Unit: "deg", Min: -180, Max: 180, Doc: "counter-clockwise from forward"},
}

func sensorKind(name string) (SensorKind, bool) {
	i := slices.IndexFunc(sensorKinds, func(k SensorKind) bool { return k.Name == name })
	if i < 0 {
		return SensorKind{}, false
	}
	return sensorKinds[i], true
}

// SensorKinds returns the sensor mount kinds, sorted.
func SensorKinds() []string {
	out := make([]string, len(sensorKinds))
	for i, k := range sensorKinds {
		out[i] = k.Name
	}
	slices.Sort(out)
	return out
}

func unknownKind(kind string) error {
	return fmt.Errorf("unknown sensor kind %q (known: %s)", kind, strings.Join(SensorKinds(), ", "))
}

// SensorParams returns the mount parameters of a sensor kind, or an error listing the kinds.
func SensorParams(kind string) ([]ParamSpec, error) {
	k, ok := sensorKind(kind)
	if !ok {
		return nil, unknownKind(kind)
	}
	return slices.Clone(k.Params), nil
}

// LookupSensorKind returns the declaration of a sensor kind, or an error listing the kinds.
func LookupSensorKind(kind string) (SensorKind, error) {
	k, ok := sensorKind(kind)
	if !ok {
		return SensorKind{}, unknownKind(kind)
	}
	k.Types, k.Params, k.Order = slices.Clone(k.Types), slices.Clone(k.Params), slices.Clone(k.Order)
	return k, nil
}

// ValueCount returns how many numbers one reading of kind holds with the parameters p (the
// kind's defaults where p lacks them); 0 for image kinds.
func (k SensorKind) ValueCount(p map[string]float64) int {
	if k.ValuesParam == "" {
		return k.Values
	}
	if x, ok := p[k.ValuesParam]; ok {
		return int(x)
	}
	return int(mustSpec(k.Params, k.ValuesParam).Default)
}

// Param returns the mount's parameter name, or its kind's default when the mount leaves it
// out (0 for a name the kind does not have).
func (m *SensorMount) Param(name string) float64 {
	if x, ok := m.Params[name]; ok {
		return x
	}
	k, _ := sensorKind(m.Kind)
	s, _ := FindSpec(k.Params, name)
	return s.Default
}

// SensorSetup checks one mounted sensor as the runtime builds it — its contract entry (type,
// format, shape, rate, noise) and its mount (kind fitting the type, parameters and their
// orders, pose, values per reading against the shape) — and returns the mount's parameters
// completed with the kind's defaults. ValidateVehicle applies the same checks to every
// mount, so a plugin that installs builds. The error is a *ValidationError with paths
// "contract.<field>" and "mount.<field>".
func SensorSetup(m SensorMount, s SensorDescriptor) (map[string]float64, error) {
	var ps Problems
	ps.contractSensor("contract", s)
	p := ps.mount("mount", m, &s)
	if err := ps.Err(); err != nil {
		return nil, err
	}
	return p, nil
}

// MountWarnings returns what mount m is given but leaves unused (a coefficient of the other
// lens model; a camera's film or look parameter in the flat look), each at
// sensor.<id>.<param>, as a scenario's vehicle params name it. A mount with errors has none.
func MountWarnings(m SensorMount) Problems {
	var ps Problems
	ps.mount("sensor."+m.ID, m, nil)
	out := ps.Warnings()
	for i := range out {
		out[i].Path = strings.Replace(out[i].Path, ".params.", ".", 1)
	}
	return out
}

// mount checks a sensor mount against its kind and, when s is not nil, its contract entry,
// reporting at path.kind, path.params.<name>, path.pose.<field> and path. It returns the
// completed parameters.
func (ps *Problems) mount(path string, m SensorMount, s *SensorDescriptor) map[string]float64 {
	k, ok := sensorKind(m.Kind)
	if !ok {
		ps.add(path+".kind", "%v", unknownKind(m.Kind))
		return nil
	}
	if s != nil {
		if _, known := sensorTypes[s.SensorType]; known && !slices.Contains(k.Types, s.SensorType) {
			ps.add(path+".kind", "%q does not produce a %s sensor", m.Kind, s.SensorType)
		}
	}
	n := len(*ps)
	p := ps.resolve(path+".params", m.Kind, k.Params, k.Order, m.Params)
	for _, spec := range mountPoseParams {
		if err := spec.check(*m.Pose.field(spec.Name)); err != nil {
			ps.add(path+".pose."+spec.Name, "%v", err)
		}
	}
	// The principal point lies inside the contract's frame.
	if s != nil && len(*ps) == n && s.SensorType == SensorCamera {
		frame := frameShape(s.Shape, 0, 0) // [H, W] and [H, W, C] alike
		for _, c := range []struct {
			name string
			side int
		}{{"cx", frame[1]}, {"cy", frame[0]}} {
			// Up to the last pixel's outer edge (its centre is side − 1). A side of no pixels
			// is the contract's error, said there.
			if x := p[c.name]; c.side > 0 && x > float64(c.side)-0.5 {
				ps.add(path+".params."+c.name, "%s px is outside the contract's frame, %d pixels %s (want 0..%s; 0: the centre)",
					fmtNum(x), c.side, map[string]string{"cx": "wide", "cy": "high"}[c.name], fmtNum(float64(c.side)-0.5))
			}
		}
		// A focal length so short that the frame spans more than fovDeg's widest view
		// (maxFovDeg across its side): fx 0.001 drew a 180° view fovDeg itself would refuse.
		for _, c := range []struct {
			name string
			side int
		}{{"fx", frame[1]}, {"fy", frame[0]}} {
			least := float64(c.side) / 2 / math.Tan(maxFovDeg/2*math.Pi/180)
			if f := p[c.name]; f != 0 && c.side > 0 && f < least {
				ps.add(path+".params."+c.name, "%s px makes the %d-pixel frame span more than %g° (want at least %s px, or 0 for fovDeg)",
					fmtNum(f), c.side, float64(maxFovDeg), fmtNum(math.Ceil(least*1000)/1000))
			}
		}
	}
	// Coefficients of the other distortion model are not used: say so rather than drop them
	// unseen.
	if m.Kind == SensorCamera && len(*ps) == n {
		unused := []string{"k4"} // plumb_bob's: k1 k2 p1 p2 k3
		model := "plumb_bob (lensModel 0)"
		if p["lensModel"] == 1 {
			unused, model = []string{"p1", "p2"}, "the equidistant model (lensModel 1)"
		}
		for _, name := range unused {
			if p[name] != 0 {
				ps.warn(path+".params."+name, "%s is not a coefficient of %s, which leaves it unused", name, model)
			}
		}
		// A focal length in pixels replaces the field of view: a calibrated camera's fx with
		// fovDeg still given draws the fx, and the fovDeg a reader takes for the camera's says
		// nothing of it.
		if _, given := m.Params["fovDeg"]; given && (p["fx"] != 0 || p["fy"] != 0) {
			ps.warn(path+".params.fovDeg", "fovDeg is unused: fx or fy gives the focal length in pixels (with fx and fy 0, fovDeg gives it)")
		}
		// The film's and look's parameters given to a camera drawn in the flat look.
		if p["realistic"] == 0 {
			_, explicit := m.Params["realistic"]
			for _, spec := range k.Params {
				v, set := m.Params[spec.Name]
				if !set || v == spec.Default || !realisticOnly[spec.Name] {
					continue
				}
				if explicit {
					ps.warn(path+".params."+spec.Name, "%s acts only in the realistic look, which realistic: 0 turns off, so it is unused", spec.Name)
				} else {
					ps.warn(path+".params."+spec.Name, "%s acts only in the realistic look: add realistic: 1", spec.Name)
				}
			}
		}
	}
	// A type of the contract's own has no shape the runtime knows: its readings go out raw.
	if s != nil && len(*ps) == n && KnownSensorType(s.SensorType) {
		if want := k.ValueCount(p); want > 0 && len(s.Shape) > 0 && shapeSize(s.Shape) != want {
			ps.add(path, "a %s mount gives %d values per reading, but the contract's shape %v for %q holds %d",
				m.Kind, want, s.Shape, s.ID, shapeSize(s.Shape))
		}
	}
	return p
}

// shapeSize is the number of values a shape holds.
func shapeSize(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}
