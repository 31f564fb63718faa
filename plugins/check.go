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
// each, the shapes those formats have, and the mount kinds that produce the type.
var sensorTypes = map[string]struct {
	formats []string
	shape   func([]int) bool
	form    string // the shape in words
	kinds   func(kind string) bool
}{
	SensorCamera: {[]string{"jpeg_base64", "png", "raw"}, func(s []int) bool { return len(s) == 3 && (s[2] == 1 || s[2] == 3) },
		"[height, width, channels] with 1 or 3 channels", func(k string) bool { return k == "camera" }},
	SensorDepth: {[]string{"float32"}, func(s []int) bool { return len(s) == 2 || len(s) == 3 && s[2] == 1 },
		"[height, width] or [height, width, 1]", func(k string) bool { return k == "depth" }},
	SensorLidar: {[]string{"float32"}, func(s []int) bool { return len(s) == 1 },
		"[samples]", func(k string) bool { return k == "lidar" }},
	SensorIMU: {[]string{"float32"}, func(s []int) bool { return len(s) == 1 && (s[0] == 6 || s[0] == 10) },
		"[6] (acceleration, angular velocity) or [10] (with the orientation quaternion)", func(k string) bool { return k == "imu" }},
	SensorScalar: {[]string{"float32", "float64"}, func(s []int) bool { return len(s) == 1 },
		"[n]", func(k string) bool { return !slices.Contains([]string{"camera", "depth", "lidar", "imu"}, k) }},
}

// SensorTypes returns the contract sensor types the runtime handles, sorted.
func SensorTypes() []string { return sortedKeys(sensorTypes) }

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
		if st, ok := sensorTypes[s.SensorType]; !ok {
			ps.add(sp+".sensorType", "%q is not a type the runtime handles (%s)", s.SensorType, strings.Join(SensorTypes(), ", "))
		} else {
			if !slices.Contains(st.formats, s.Format) {
				ps.add(sp+".format", "%q is not a %s format (%s)", s.Format, s.SensorType, strings.Join(st.formats, ", "))
			}
			if slices.ContainsFunc(s.Shape, func(n int) bool { return n <= 0 }) || !st.shape(s.Shape) {
				ps.add(sp+".shape", "%v is not a %s shape: want %s, sizes positive", s.Shape, s.SensorType, st.form)
			}
		}
		if !(s.RateHz > 0) {
			ps.add(sp+".rateHz", "%s is not positive", fmtNum(s.RateHz))
		}
		if s.Noise != nil && s.Noise.Stddev < 0 {
			ps.add(sp+".noise.stddev", "%s is negative", fmtNum(s.Noise.Stddev))
		}
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
		if !(a.Min < a.Max) {
			ps.add(ap+".min", "%s is not below max %s", fmtNum(a.Min), fmtNum(a.Max))
		}
	}
}

// vehicleSimulation checks v's body, drive, visual and sensor mounts.
func (ps *Problems) vehicleSimulation(v *VehicleDescriptor) {
	switch b := v.Body; {
	case b == nil:
		ps.add("descriptor.body", "missing")
	default:
		const p = "descriptor.body"
		switch b.Shape {
		case "box":
			if !(b.Length > 0) || !(b.Width > 0) {
				ps.add(p, "a box needs a positive length and width, got %s×%s", fmtNum(b.Length), fmtNum(b.Width))
			}
		case "circle":
			if !(b.Radius > 0) {
				ps.add(p+".radius", "%s is not positive", fmtNum(b.Radius))
			}
		default:
			ps.add(p+".shape", "%q is not box or circle", b.Shape)
		}
		if !(b.Mass > 0) {
			ps.add(p+".mass", "%s is not positive", fmtNum(b.Mass))
		}
		for _, f := range []struct {
			name string
			x    float64
		}{{"height", b.Height}, {"friction", b.Friction}, {"linearDamping", b.LinearDamping}, {"angularDamping", b.AngularDamping}} {
			if f.x < 0 {
				ps.add(p+"."+f.name, "%s is negative", fmtNum(f.x))
			}
		}
	}

	if v.Drive == nil {
		ps.add("descriptor.drive", "missing")
	} else if specs, err := DriveParams(v.Drive.Model); err != nil {
		ps.add("descriptor.drive.model", "%v", err)
	} else {
		ps.params("descriptor.drive.params", v.Drive.Model, specs, v.Drive.Params)
		if v.Drive.Model == "quadcopter" {
			lo, hi, at := v.driveParam("minAltitude"), v.driveParam("maxAltitude"), v.driveParam("startAltitude")
			if !(lo <= at && at <= hi) {
				ps.add("descriptor.drive.params", "need minAltitude ≤ startAltitude ≤ maxAltitude, got %s, %s, %s", fmtNum(lo), fmtNum(at), fmtNum(hi))
			}
		}
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
		ps.checkVisualMaterials(v.Visual)
	}

	mounted := map[string]bool{}
	for i, m := range v.Sensors {
		p := index("descriptor.sensors", i)
		if mounted[m.ID] {
			ps.add(p+".id", "sensor %q is mounted twice", m.ID)
		}
		mounted[m.ID] = true
		var s *SensorDescriptor
		if v.Contract != nil {
			if s = v.Contract.sensor(m.ID); s == nil {
				ps.add(p+".id", "%q names no contract sensor", m.ID)
			}
		}
		specs, err := SensorParams(m.Kind)
		if err != nil {
			ps.add(p+".kind", "%v", err)
			continue
		}
		if st, ok := sensorTypes[sensorTypeOf(s)]; ok && !st.kinds(m.Kind) {
			ps.add(p+".kind", "%q does not produce a %s sensor", m.Kind, s.SensorType)
		}
		ps.params(p+".params", m.Kind, specs, m.Params)
		for _, spec := range mountPoseParams {
			if x := *m.Pose.field(spec.Name); x < spec.Min || x > spec.Max {
				ps.add(p+".pose."+spec.Name, "%s is outside %s..%s%s", fmtNum(x), fmtNum(spec.Min), fmtNum(spec.Max), unitSuffix(spec.Unit))
			}
		}
	}
	if v.Contract != nil {
		for i, s := range v.Contract.Sensors {
			if s.ID != "" && !mounted[s.ID] {
				ps.add(index("device-contract.sensors", i), "sensor %q is not mounted on the vehicle: add a descriptor.sensors entry with this id", s.ID)
			}
		}
	}
}

func sensorTypeOf(s *SensorDescriptor) string {
	if s == nil {
		return ""
	}
	return s.SensorType
}

// params checks a parameter map against its specs; owner names the model or kind.
func (ps *Problems) params(path, owner string, specs []ParamSpec, params map[string]float64) {
	for _, name := range sortedKeys(params) {
		spec, ok := findSpec(specs, name)
		if !ok {
			ps.add(path+"."+name, "%s has no parameter %q (known: %s)", owner, name, strings.Join(specNames(specs), ", "))
			continue
		}
		if err := spec.check(params[name]); err != nil {
			ps.add(path+"."+name, "%v", err)
		}
	}
}

// driveParam returns a drive parameter or the model's default.
func (v *VehicleDescriptor) driveParam(name string) float64 {
	if x, ok := v.Drive.Params[name]; ok {
		return x
	}
	specs, _ := DriveParams(v.Drive.Model)
	s, _ := findSpec(specs, name)
	return s.Default
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
	if f := t.Floor; f != nil {
		if !(f.Length > 0) || !(f.Width > 0) {
			ps.add("descriptor.floor", "size %s×%s is not positive", fmtNum(f.Length), fmtNum(f.Width))
		}
		if f.Color != "" && !colorPattern.MatchString(f.Color) {
			ps.add("descriptor.floor.color", "%q is not #rrggbb", f.Color)
		}
	}
	for i, e := range t.Elements {
		if field, msg := checkElement(e); msg != "" {
			p := index("descriptor.elements", i)
			if field != "" {
				p += "." + field
			}
			if e.Name != "" {
				msg = e.Name + ": " + msg
			}
			ps.add(p, "%s", msg)
		}
	}
	ps.checkMaterials(t)
	if r := t.Route; r != nil && r.ReachDistance < 0 {
		ps.add("descriptor.route.reachDistance", "%s is negative", fmtNum(r.ReachDistance))
	}
}

// checkElement returns the field and text of e's first problem, or "" "".
func checkElement(e Element) (field, msg string) {
	if !elementKinds[e.Kind] {
		return "kind", "unknown kind " + strconv.Quote(e.Kind) + " (known: " + strings.Join(sortedKeys(elementKinds), ", ") + ")"
	}
	if e.Color != "" && !colorPattern.MatchString(e.Color) {
		return "color", strconv.Quote(e.Color) + " is not #rrggbb"
	}
	switch e.Kind {
	case ElementWall, ElementBox:
		if !(e.Length > 0) || !(e.Width > 0) || !(e.Height > 0) {
			return "", "size " + fmtNum(e.Length) + "×" + fmtNum(e.Width) + "×" + fmtNum(e.Height) + " is not positive"
		}
		if e.Movable && !(e.Mass > 0) {
			return "mass", "a movable box needs a positive mass"
		}
	case ElementCylinder:
		if !(e.Radius > 0) || !(e.Height > 0) {
			return "", "radius and height must be positive"
		}
	case ElementPolygon:
		if len(e.Points) < 3 {
			return "points", "a polygon needs at least 3 points"
		}
	case ElementRoad:
		if len(e.Points) < 2 || !(e.Width > 0) {
			return "", "a road needs at least 2 points and a positive width"
		}
	case ElementMarker:
		if !(e.Length > 0) {
			return "length", "a marker needs a positive length (its side)"
		}
	}
	return "", ""
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
