package plugins

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// colorPattern is the "#rrggbb" form Visual and Element colours use.
var colorPattern = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)

// CheckSimulation checks that v can be simulated as it is: a contract with sensors and
// actuators and unique IDs, a positive body, a known drive model with known parameters in
// range, colours as #rrggbb, and exactly one mount of a known kind (with known parameters) per
// contract sensor. It returns all problems joined. Descriptors read from rusim exports fail it
// until WithFallback has filled them.
func (v *VehicleDescriptor) CheckSimulation() error {
	if v == nil {
		return errors.New("no vehicle descriptor")
	}
	var errs []error
	add := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if err := checkBase(v.ID, v.DisplayName, v.Version); err != nil {
		errs = append(errs, err)
	}
	errs = append(errs, v.Contract.check(v.ID)...)

	switch b := v.Body; {
	case b == nil:
		add("body is missing")
	case b.Shape == "box" && (b.Length <= 0 || b.Width <= 0):
		add("body: box needs a positive length and width, got %s×%s", fmtNum(b.Length), fmtNum(b.Width))
	case b.Shape == "circle" && b.Radius <= 0:
		add("body: circle needs a positive radius, got %s", fmtNum(b.Radius))
	case b.Shape != "box" && b.Shape != "circle":
		add("body: shape %q is not box or circle", b.Shape)
	case b.Mass <= 0:
		add("body: mass %s is not positive", fmtNum(b.Mass))
	case b.Height < 0 || b.Friction < 0 || b.LinearDamping < 0 || b.AngularDamping < 0:
		add("body: height, friction and damping must not be negative")
	}

	if v.Drive == nil {
		add("drive is missing")
	} else if specs, err := DriveParams(v.Drive.Model); err != nil {
		add("drive: %w", err)
	} else {
		for _, name := range sortedKeys(v.Drive.Params) {
			spec, ok := findSpec(specs, name)
			if !ok {
				add("drive: %s has no parameter %q (known: %s)", v.Drive.Model, name, strings.Join(specNames(specs), ", "))
				continue
			}
			if err := spec.check(v.Drive.Params[name]); err != nil {
				add("drive.params.%s: %w", name, err)
			}
		}
		if v.Drive.Model == "quadcopter" {
			lo, hi, at := v.driveParam("minAltitude"), v.driveParam("maxAltitude"), v.driveParam("startAltitude")
			if !(lo <= at && at <= hi) {
				add("drive: need minAltitude ≤ startAltitude ≤ maxAltitude, got %s, %s, %s", fmtNum(lo), fmtNum(at), fmtNum(hi))
			}
		}
	}

	if v.Visual == nil {
		add("visual is missing")
	} else {
		if v.Visual.Shape == "" {
			add("visual: shape is empty")
		}
		if !colorPattern.MatchString(v.Visual.Color) {
			add("visual: color %q is not #rrggbb", v.Visual.Color)
		}
		if v.Visual.Accent != "" && !colorPattern.MatchString(v.Visual.Accent) {
			add("visual: accent %q is not #rrggbb", v.Visual.Accent)
		}
	}

	mounted := map[string]bool{}
	for _, m := range v.Sensors {
		if mounted[m.ID] {
			add("sensors: mount %q appears twice", m.ID)
		}
		mounted[m.ID] = true
		if v.Contract != nil && v.Contract.sensor(m.ID) == nil {
			add("sensors: mount %q names no contract sensor", m.ID)
		}
		specs, err := SensorParams(m.Kind)
		if err != nil {
			add("sensors: %s: %w", m.ID, err)
			continue
		}
		for _, name := range sortedKeys(m.Params) {
			spec, ok := findSpec(specs, name)
			if !ok {
				add("sensors: %s (%s) has no parameter %q (known: %s)", m.ID, m.Kind, name, strings.Join(specNames(specs), ", "))
				continue
			}
			if err := spec.check(m.Params[name]); err != nil {
				add("sensors: %s.%s: %w", m.ID, name, err)
			}
		}
	}
	if v.Contract != nil {
		for _, s := range v.Contract.Sensors {
			if !mounted[s.ID] {
				add("sensors: contract sensor %q has no mount", s.ID)
			}
		}
	}
	return errors.Join(errs...)
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

// check returns the contract's problems for the vehicle id.
func (c *DeviceContract) check(id string) []error {
	if c == nil {
		return []error{errors.New("device contract is missing")}
	}
	var errs []error
	add := func(format string, args ...any) { errs = append(errs, fmt.Errorf("contract: "+format, args...)) }
	if c.DeviceID != id {
		add("deviceId %q differs from the plugin id %q", c.DeviceID, id)
	}
	if c.DeviceType == "" {
		add("deviceType is empty")
	}
	if len(c.Sensors) == 0 {
		add("no sensors")
	}
	if len(c.Actuators) == 0 {
		add("no actuators")
	}
	seen := map[string]bool{}
	for _, s := range c.Sensors {
		if s.ID == "" || seen[s.ID] {
			add("sensor id %q is empty or repeated", s.ID)
		}
		seen[s.ID] = true
		if s.RateHz <= 0 {
			add("sensor %s: rateHz %s is not positive", s.ID, fmtNum(s.RateHz))
		}
		if len(s.Shape) == 0 {
			add("sensor %s: shape is empty", s.ID)
		}
		for _, n := range s.Shape {
			if n <= 0 {
				add("sensor %s: shape %v has a non-positive size", s.ID, s.Shape)
				break
			}
		}
		if s.Noise != nil && s.Noise.Stddev < 0 {
			add("sensor %s: noise stddev is negative", s.ID)
		}
	}
	seen = map[string]bool{}
	for _, a := range c.Actuators {
		if a.ID == "" || seen[a.ID] {
			add("actuator id %q is empty or repeated", a.ID)
		}
		seen[a.ID] = true
		if a.Min > a.Max {
			add("actuator %s: min %s is above max %s", a.ID, fmtNum(a.Min), fmtNum(a.Max))
		}
	}
	return errs
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

// CheckSimulation checks a track's own data: base fields, a parameters schema that compiles,
// known element kinds with positive sizes, colours as #rrggbb, a route with a positive reach
// distance. Whether Generator is registered is for trackgen to say.
func (t *TrackDescriptor) CheckSimulation() error {
	if t == nil {
		return errors.New("no track descriptor")
	}
	var errs []error
	add := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if err := checkBase(t.ID, t.DisplayName, t.Version); err != nil {
		errs = append(errs, err)
	}
	if _, err := compiledSchema(t.ParametersSchemaJSON); err != nil {
		add("parametersSchemaJson: %w", err)
	}
	if f := t.Floor; f != nil {
		if f.Length <= 0 || f.Width <= 0 {
			add("floor: size %s×%s is not positive", fmtNum(f.Length), fmtNum(f.Width))
		}
		if f.Color != "" && !colorPattern.MatchString(f.Color) {
			add("floor: color %q is not #rrggbb", f.Color)
		}
	}
	for i, e := range t.Elements {
		if err := checkElement(e); err != nil {
			add("elements[%d] %s: %w", i, e.Name, err)
		}
	}
	if r := t.Route; r != nil && r.ReachDistance < 0 {
		add("route: reachDistance %s is negative", fmtNum(r.ReachDistance))
	}
	return errors.Join(errs...)
}

func checkElement(e Element) error {
	if !elementKinds[e.Kind] {
		return fmt.Errorf("unknown kind %q (known: %s)", e.Kind, strings.Join(sortedKeys(elementKinds), ", "))
	}
	if e.Color != "" && !colorPattern.MatchString(e.Color) {
		return fmt.Errorf("color %q is not #rrggbb", e.Color)
	}
	switch e.Kind {
	case ElementWall, ElementBox:
		if e.Length <= 0 || e.Width <= 0 || e.Height <= 0 {
			return fmt.Errorf("size %s×%s×%s is not positive", fmtNum(e.Length), fmtNum(e.Width), fmtNum(e.Height))
		}
		if e.Movable && e.Mass <= 0 {
			return fmt.Errorf("movable box needs a positive mass")
		}
	case ElementCylinder:
		if e.Radius <= 0 || e.Height <= 0 {
			return fmt.Errorf("radius and height must be positive")
		}
	case ElementPolygon:
		if len(e.Points) < 3 {
			return fmt.Errorf("polygon needs at least 3 points")
		}
	case ElementRoad:
		if len(e.Points) < 2 || e.Width <= 0 {
			return fmt.Errorf("road needs at least 2 points and a positive width")
		}
	case ElementMarker:
		if e.Length <= 0 {
			return fmt.Errorf("marker needs a positive length (its side)")
		}
	}
	return nil
}

// fmtNum formats a number as briefly as it round-trips.
func fmtNum(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
