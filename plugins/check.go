package plugins

import (
	"errors"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// colorPattern is the "#rrggbb" form Visual and Element colours use.
var colorPattern = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)

// CheckSimulation checks that v can be simulated as it is: base fields, a device contract
// that follows the rules of ValidateVehicle, a positive body, a known drive model with known
// parameters in range, colours as #rrggbb, and exactly one mount of a fitting kind (with known
// parameters) per contract sensor. Unlike ValidateVehicle it neither checks the id convention
// nor fills missing data: descriptors read from rusim exports fail it until WithFallback has
// filled them. The error is a *ValidationError listing every problem.
func (v *VehicleDescriptor) CheckSimulation() error {
	if v == nil {
		return errors.New("no vehicle descriptor")
	}
	var ps Problems
	ps.base(TypeVehicle, v.ID, v.DisplayName, v.Version, false)
	ps.contract(v)
	ps.vehicleSimulation(v)
	return ps.Err()
}

// CheckSimulation checks a track's own data: base fields, a parameters schema that compiles,
// known element kinds with positive sizes, colours as #rrggbb, a route with a non-negative
// reach distance. Whether Generator is registered is for trackgen to say. The error is a
// *ValidationError listing every problem.
func (t *TrackDescriptor) CheckSimulation() error {
	if t == nil {
		return errors.New("no track descriptor")
	}
	var ps Problems
	ps.base(TypeTrack, t.ID, t.DisplayName, t.Version, false)
	ps.trackSimulation(t)
	return ps.Err()
}

// sensorTypes are the contract sensor types the runtime handles: the formats it produces for
// each (the first is what an empty format means: app/sensors produces it), and the shapes
// those formats have. Which mount kinds fill a type is SensorKind.Types.
var sensorTypes = map[string]struct {
	formats []string
	shape   func([]int) bool
	form    string // the shape in words
	frame   bool   // an image: [height, width, ...] within MaxFrameSide
}{
	SensorCamera: {[]string{"raw", "jpeg", "jpeg_base64", "png"}, func(s []int) bool { return len(s) == 3 && (s[2] == 1 || s[2] == 3) },
		"[height, width, channels] with 1 or 3 channels", true},
	SensorDepth: {[]string{"float32", "png", "raw"}, func(s []int) bool { return len(s) == 2 || len(s) == 3 && s[2] == 1 },
		"[height, width] or [height, width, 1]", true},
	SensorLidar: {[]string{"float32"}, func(s []int) bool { return len(s) == 1 }, "[samples]", false},
	SensorIMU: {[]string{"float32"}, func(s []int) bool { return len(s) == 1 && s[0] == 6 },
		"[6] (specific force, angular velocity)", false},
	SensorScalar: {[]string{"float32", "float64"}, func(s []int) bool { return len(s) == 1 }, "[n]", false},
}

// SensorTypes returns the contract sensor types the runtime handles, sorted.
func SensorTypes() []string { return sortedKeys(sensorTypes) }

// KnownSensorType reports whether the runtime has special handling for sensorType t. The
// type is an open string: others are accepted with a warning, their format and shape
// unchecked, and a mount of any kind produces their readings, published as that kind makes
// them (raw).
func KnownSensorType(t string) bool {
	_, ok := sensorTypes[t]
	return ok
}

// SensorFormats returns the formats a contract sensor of the type may declare (rusim's
// jpeg_base64 for cameras and float32 for depth, and the runtime's others), the one an empty
// format means first; nil for an unknown type. app/sensors encodes each of them.
func SensorFormats(sensorType string) []string {
	return slices.Clone(sensorTypes[sensorType].formats)
}

// contract checks v's device contract.
func (ps *Problems) contract(v *VehicleDescriptor) {
	c := v.Contract
	if c == nil {
		ps.add("device-contract.json", "missing: a vehicle plugin needs a device contract")
		return
	}
	const p = "device-contract"
	if c.DeviceID != v.ID {
		ps.add(p+".deviceId", "%q differs from the plugin id %q", c.DeviceID, v.ID)
	}
	if c.DeviceType == "" {
		ps.add(p+".deviceType", "is empty (for example ground_robot_differential or quadcopter)")
	} else if v.DeviceType != "" && v.DeviceType != c.DeviceType {
		ps.add("descriptor.deviceType", "%q differs from the contract's deviceType %q", v.DeviceType, c.DeviceType)
	}
	if len(c.Sensors) == 0 {
		ps.add(p+".sensors", "is empty: a vehicle needs at least one sensor")
	}
	first := map[string]int{}
	for i, s := range c.Sensors {
		sp := index(p+".sensors", i)
		if s.ID == "" {
			ps.add(sp+".id", "is empty")
		} else if j, dup := first[s.ID]; dup {
			ps.add(sp+".id", "%q is already the id of sensors[%d]", s.ID, j)
		} else {
			first[s.ID] = i
		}
		ps.contractSensor(sp, s)
	}
	if len(c.Actuators) == 0 {
		ps.add(p+".actuators", "is empty: a vehicle needs at least one actuator")
	}
	first = map[string]int{}
	for i, a := range c.Actuators {
		ap := index(p+".actuators", i)
		if a.ID == "" {
			ps.add(ap+".id", "is empty")
		} else if j, dup := first[a.ID]; dup {
			ps.add(ap+".id", "%q is already the id of actuators[%d]", a.ID, j)
		} else {
			first[a.ID] = i
		}
		if ps.num(ap+".min", contractParams, "actuator", a.Min) && ps.num(ap+".max", contractParams, "actuator", a.Max) && !(a.Min < a.Max) {
			ps.add(ap+".min", "%s is not below max %s", fmtNum(a.Min), fmtNum(a.Max))
		}
	}
}

// contractSensor checks one sensor of a contract, reporting at path.<field>: its type (an open
// string: one the runtime has no special handling for is a warning, its format and shape
// unchecked), the format and shape of a known type (frames within MaxFrameSide a side), rate
// and noise.
func (ps *Problems) contractSensor(path string, s SensorDescriptor) {
	if st, ok := sensorTypes[s.SensorType]; s.SensorType == "" {
		ps.add(path+".sensorType", "is empty (%s, or a type of your own)", strings.Join(SensorTypes(), ", "))
	} else if !ok {
		ps.warn(path+".sensorType", "%q has no special handling in the runtime (it knows %s): accepted, and its mount's readings are published raw",
			s.SensorType, strings.Join(SensorTypes(), ", "))
	} else {
		if s.Format != "" && !slices.Contains(st.formats, s.Format) {
			ps.add(path+".format", "%q is not a %s format (%s; empty: %s)", s.Format, s.SensorType, strings.Join(st.formats, ", "), st.formats[0])
		}
		switch {
		case slices.ContainsFunc(s.Shape, func(n int) bool { return n <= 0 }) || !st.shape(s.Shape):
			ps.add(path+".shape", "%v is not a %s shape: want %s, sizes positive", s.Shape, s.SensorType, st.form)
		case st.frame && (s.Shape[0] > MaxFrameSide || s.Shape[1] > MaxFrameSide):
			ps.add(path+".shape", "%v: a frame of %d×%d pixels is over %d a side", s.Shape, s.Shape[1], s.Shape[0], MaxFrameSide)
		case !st.frame && s.Shape[0] > maxShapeDim:
			ps.add(path+".shape", "%v: %d values are over %d", s.Shape, s.Shape[0], maxShapeDim)
		}
	}
	ps.num(path+".rateHz", contractParams, "rateHz", s.RateHz)
	if s.Noise != nil {
		ps.num(path+".noise.mean", contractParams, "noise.mean", s.Noise.Mean)
		ps.num(path+".noise.stddev", contractParams, "noise.stddev", s.Noise.Stddev)
	}
}

// vehicleSimulation checks v's body, drive, visual and sensor mounts.
func (ps *Problems) vehicleSimulation(v *VehicleDescriptor) {
	if v.Body == nil {
		ps.add("descriptor.body", "missing")
	} else {
		ps.body("descriptor.body", v.Body)
	}

	if v.Drive == nil {
		ps.add("descriptor.drive", "missing")
	} else if d, ok := driveModel(v.Drive.Model); !ok {
		ps.add("descriptor.drive.model", "%v", unknownDrive(v.Drive.Model))
	} else {
		ps.resolve("descriptor.drive.params", d.Name, d.Params, d.Order, v.Drive.Params)
		ps.flightAgrees(v, d)
	}

	if v.Visual == nil {
		ps.add("descriptor.visual", "missing")
	} else {
		if v.Visual.Shape == "" {
			ps.add("descriptor.visual.shape", "is empty (car, ks0223, drone or box)")
		}
		if !colorPattern.MatchString(v.Visual.Color) {
			ps.add("descriptor.visual.color", "%q is not #rrggbb", v.Visual.Color)
		}
		if v.Visual.Accent != "" && !colorPattern.MatchString(v.Visual.Accent) {
			ps.add("descriptor.visual.accent", "%q is not #rrggbb", v.Visual.Accent)
		}
	}
	ps.checkVisualMaterials(v)

	// An id given twice is reported where it is; its mounts are then not held against a
	// contract sensor, which would be either of two (a shape mismatch nobody made).
	contractIDs := map[string]int{}
	if v.Contract != nil {
		for _, s := range v.Contract.Sensors {
			contractIDs[s.ID]++
		}
	}
	mounted := map[string]bool{}
	for i, m := range v.Sensors {
		p := index("descriptor.sensors", i)
		twice := mounted[m.ID]
		if twice {
			ps.add(p+".id", "sensor %q is mounted twice", m.ID)
		}
		mounted[m.ID] = true
		var s *SensorDescriptor
		if v.Contract != nil {
			if s = v.Contract.sensor(m.ID); s == nil {
				ps.add(p+".id", "%q names no contract sensor", m.ID)
			}
		}
		if twice || contractIDs[m.ID] > 1 {
			s = nil
		}
		ps.mount(p, m, s)
	}
	if v.Contract != nil {
		for i, s := range v.Contract.Sensors {
			switch {
			case s.ID == "" || mounted[s.ID]:
			case !KnownSensorType(s.SensorType):
				ps.warn(index("device-contract.sensors", i), "sensor %q (%s) is not mounted on the vehicle, so it gives no readings: add a descriptor.sensors entry with this id", s.ID, s.SensorType)
			default:
				ps.add(index("device-contract.sensors", i), "sensor %q is not mounted on the vehicle: add a descriptor.sensors entry with this id", s.ID)
			}
		}
	}
}

// sensor returns the contract sensor with the id, or nil.
func (c *DeviceContract) sensor(id string) *SensorDescriptor {
	for i := range c.Sensors {
		if c.Sensors[i].ID == id {
			return &c.Sensors[i]
		}
	}
	return nil
}

// flightAgrees warns where the contract says otherwise than the drive whether the vehicle
// flies: training and bridge clients read the contract, so a quadcopter drive under a ground
// robot's device type, or without the actuator that climbs, is driven as a car.
func (ps *Problems) flightAgrees(v *VehicleDescriptor, d DriveModel) {
	c := v.Contract
	if c == nil || c.DeviceType == "" {
		return
	}
	switch {
	case d.Flies && c.DeviceType != DeviceTypeQuadcopter:
		ps.warn("device-contract.deviceType", "%q for a %s drive, which flies: clients take it for a ground robot (want %s)", c.DeviceType, d.Name, DeviceTypeQuadcopter)
	case !d.Flies && c.DeviceType == DeviceTypeQuadcopter:
		ps.warn("device-contract.deviceType", "%q for a %s drive, which stays on the ground", c.DeviceType, d.Name)
	}
	if d.Flies && !slices.ContainsFunc(c.Actuators, func(a ActuatorDescriptor) bool { return a.ID == ActuatorVertical }) {
		ps.warn("device-contract.actuators", "no %s for a %s drive: clients cannot climb or descend", ActuatorVertical, d.Name)
	}
}

// elementKinds are the Element kinds renderers and app/world know.
var elementKinds = map[string]bool{
	ElementWall: true, ElementBox: true, ElementCylinder: true,
	ElementPolygon: true, ElementRoad: true, ElementMarker: true,
}

// trackSimulation checks a track's schema and geometry.
func (ps *Problems) trackSimulation(t *TrackDescriptor) {
	if _, err := compiledSchema(t.ParametersSchemaJSON); err != nil {
		ps.add("descriptor.parametersSchemaJson", "does not compile as a JSON Schema: %s", oneLine(err.Error()))
	}
	use, known := generatorFloor(t.Generator)
	ps.layout("descriptor", t.Floor, use, t.Elements, t.SpawnPoints, t.Route)
	if use == FloorWhole && (t.Generator == "" || known) {
		ps.checkPlacement(t) // the descriptor is the layout: its places can be checked here
	}
	if f := t.Floor; f != nil && known && use != FloorWhole {
		// What the generator does not read is said, not checked: a user who sized the
		// floor should learn that the size has no effect.
		if use == FloorNone {
			ps.warn("descriptor.floor", "the %s generator lays a floor of its own: this floor is not used", t.Generator)
		} else if f.Length != 0 || f.Width != 0 || f.X != 0 || f.Y != 0 {
			ps.warn("descriptor.floor", "the %s generator sizes and places the floor itself: only its texture and colour are used", t.Generator)
		}
	}
	ps.checkMaterials(t)
}

// elementProblems is every problem of one element, at paths relative to it ("" for the
// element as a whole): an unknown kind alone; else its colour, its numbers and points and its
// ArUco id together, and what its kind needs once its numbers are in range (a length out of
// range is not also "not positive").
func elementProblems(e Element) Problems {
	var ps Problems
	if !elementKinds[e.Kind] {
		ps.add("kind", "unknown kind %s (known: %s)", strconv.Quote(e.Kind), strings.Join(sortedKeys(elementKinds), ", "))
		return ps
	}
	if e.Color != "" && !colorPattern.MatchString(e.Color) {
		ps.add("color", "%s is not #rrggbb", strconv.Quote(e.Color))
	}
	numbers := elementNumbers(e)
	ps = append(ps, numbers...)
	if id := e.ArucoID; id != nil {
		switch {
		case e.Kind != ElementMarker:
			ps.add("arucoId", "only a marker can be an ArUco marker")
		case *id < 0 || *id >= ArucoIDs:
			ps.add("arucoId", "%d is not a marker of %s (0 to %d)", *id, ArucoDictionary, ArucoIDs-1)
		case e.Width != 0 && e.Width != e.Length:
			ps.add("width", "an ArUco marker is square: leave the width 0 or equal to the length")
		}
	}
	if len(numbers) > 0 {
		return ps
	}
	switch e.Kind {
	case ElementWall, ElementBox:
		if !(e.Length > 0) || !(e.Width > 0) || !(e.Height > 0) {
			ps.add("", "size %s×%s×%s is not positive", fmtNum(e.Length), fmtNum(e.Width), fmtNum(e.Height))
		}
		if e.Movable && !(e.Mass > 0) {
			ps.add("mass", "a movable box needs a positive mass")
		}
	case ElementCylinder:
		if !(e.Radius > 0) || !(e.Height > 0) {
			ps.add("", "radius and height must be positive")
		}
	case ElementPolygon:
		switch {
		case len(e.Points) > MaxPolygonPoints:
			ps.add("points", "a polygon of %d points is over the limit of %d", len(e.Points), MaxPolygonPoints)
		default:
			if why := polygonProblem(e.Points); why != "" {
				ps.add("points", "%s", why)
			}
		}
	case ElementRoad:
		// Each named for its field, so that an editor frames the field at fault.
		switch {
		case len(e.Points) < 2:
			ps.add("points", "a road needs at least 2 points")
		case len(e.Points) > MaxRoadPoints:
			ps.add("points", "a road of %d points is over the limit of %d", len(e.Points), MaxRoadPoints)
		}
		if !(e.Width > 0) {
			ps.add("width", "a road needs a positive width")
		}
	case ElementMarker:
		if !(e.Length > 0) {
			ps.add("length", "a marker needs a positive length (its side)")
		}
	}
	return ps
}

// oneLine joins the trimmed lines of a multi-line message with "; ".
func oneLine(s string) string {
	var parts []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			parts = append(parts, l)
		}
	}
	return strings.Join(parts, "; ")
}

// fmtNum formats a number as briefly as it round-trips.
func fmtNum(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
