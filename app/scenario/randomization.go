package scenario

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"simgui/plugins"
)

// RangeMode says how a randomized parameter's range is read.
type RangeMode int

// Range modes.
const (
	// Scale multiplies the vehicle's own value by a factor drawn from [Lo, Hi]; a single
	// number p in the scenario means [1−p, 1+p] (0.2 = ±20 %).
	Scale RangeMode = iota
	// Offset adds a value drawn from [Lo, Hi] to the vehicle's own value; p means [−p, p].
	Offset
	// Absolute draws the value itself from [Lo, Hi]; p means [0, p].
	Absolute
)

// RandomParam is one parameter domain randomization can draw.
type RandomParam struct {
	// Name is "<group>.<name>" as written in the scenario's randomization block and in reset
	// flags: vehicle.mass, sensors.camera_pitch_deg, ...
	Name string
	Mode RangeMode
	// Default is the range used when randomization is on and the block does not name the
	// parameter; a zero-width range (1..1 for Scale, 0..0 otherwise) leaves it alone.
	Default [2]float64
	// Limit bounds the range a scenario or a reset may give, in the range's own terms (a
	// factor, an offset or a value); zero: any range within ±maxRange.
	Limit [2]float64
	Doc   string
}

// maxRange bounds every randomization range: beyond it hi−lo is no longer a number to draw in.
const maxRange = 1e6

// RandomParams are the vehicle and sensor parameters in draw-report order. Track parameters
// come on top: any numeric parameter of the track's JSON Schema, named track.<param>, drawn in
// absolute values inside the schema's minimum..maximum. The defaults are rusim's per-episode
// randomization of the KS0223 (rusim's Ks0223Vehicle.cs): mass ±20 %, damping ±20 %, motor
// gains ±10 %, camera pitch ±4°; the others are off unless named.
var RandomParams = append([]RandomParam{
	{Name: "vehicle.mass", Mode: Scale, Default: [2]float64{0.8, 1.2}, Doc: "body mass (kg), factor"},
	{Name: "vehicle.linear_damping", Mode: Scale, Default: [2]float64{0.8, 1.2}, Doc: "linear damping, factor"},
	{Name: "vehicle.angular_damping", Mode: Scale, Default: [2]float64{0.8, 1.2}, Doc: "angular damping, factor"},
	{Name: "vehicle.motor_gain_left", Mode: Scale, Default: [2]float64{0.9, 1.1}, Doc: "left motor gain, factor"},
	{Name: "vehicle.motor_gain_right", Mode: Scale, Default: [2]float64{0.9, 1.1}, Doc: "right motor gain, factor"},
	{Name: "vehicle.max_speed", Mode: Scale, Default: [2]float64{1, 1}, Doc: "top speed (m/s), factor"},
	{Name: "vehicle.latency", Mode: Absolute, Doc: "command latency, seconds"},
	{Name: "sensors.camera_pitch_deg", Mode: Offset, Default: [2]float64{-4, 4}, Doc: "camera pitch, degrees added (positive looks down)"},
	{Name: "sensors.camera_fov_deg", Mode: Offset, Doc: "camera vertical field of view, degrees added (refused for a camera given fx or fy: draw `camera_focal`)"},
	{Name: "sensors.image_noise", Mode: Absolute, Doc: "camera noise stddev (its contract noise), 0..255 intensity"},
	{Name: "sensors.brightness", Mode: Scale, Default: [2]float64{1, 1}, Doc: "image brightness gain, factor of 1"},
	{Name: "sensors.color_jitter", Mode: Scale, Default: [2]float64{1, 1}, Doc: "per-channel colour gain (r, g, b drawn apart), factor of 1"},
	{Name: "sensors.sonar_noise", Mode: Absolute, Doc: "ultrasonic range noise stddev, metres"},
}, visualParams...)

// Image parameter keys: vehicle params the training API takes besides plugins'
// ApplyVehicleConfig keys. They post-process camera frames. (Image noise is the camera's
// contract noise, sensor.<camera id>.noiseStddev.)
const (
	KeyBrightness  = "camera.brightness"
	KeyColorGainR  = "camera.color_gain_r"
	KeyColorGainG  = "camera.color_gain_g"
	KeyColorGainB  = "camera.color_gain_b"
	maxImageGain   = 4.0
	maxImageNoise  = 255.0 // stddev in 0..255 intensity
	trackKeyPrefix = "track."
)

// Range is a randomization range; Schema (track parameters only) takes the schema's whole
// minimum..maximum.
type Range struct {
	Lo, Hi float64
	Schema bool
}

// Randomization is a scenario's randomization: block, decoded, with reset flags applied on top
// (Set). The zero value is off.
type Randomization struct {
	// Enabled turns drawing on; a block in the scenario enables it unless it says enabled: false.
	Enabled bool
	// ranges by parameter name; names not here take RandomParam.Default.
	ranges map[string]Range
}

// ParseRandomization decodes a scenario's randomization block. An absent block gives a
// disabled Randomization. Shape:
//
//	randomization:
//	  enabled: true            # default true when the block is present
//	  vehicle: {mass: 0.2, latency: [0, 0.03]}
//	  sensors: {camera_pitch_deg: 4, brightness: 0.1, image_noise: 3, distortion_k1: 0.1}
//	  visual: {textures: 1, sun_azimuth_deg: 180, distractors: [0, 8]}
//	  track: {width: [0.5, 0.9], length: schema}
//
// A number p is ±p (Scale, Offset) or 0..p (Absolute); [lo, hi] is the range itself.
func ParseRandomization(n *yaml.Node) (*Randomization, error) {
	r := &Randomization{}
	if n == nil || n.Kind == 0 {
		return r, nil
	}
	if n.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("randomization (line %d): want a mapping with enabled, vehicle, sensors, visual, track", n.Line)
	}
	r.Enabled = true
	var errs []error
	top := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		for v.Kind == yaml.AliasNode && v.Alias != nil { // sensors: *common reads as the anchor
			v = v.Alias
		}
		if top[k.Value] {
			// The groups would merge and the last enabled win, unseen.
			errs = append(errs, fmt.Errorf("randomization.%s (line %d): given twice", k.Value, k.Line))
			continue
		}
		top[k.Value] = true
		switch k.Value {
		case "enabled":
			var b bool
			if err := v.Decode(&b); err != nil || v.ShortTag() != "!!bool" {
				got := yamlText(v)
				if v.Kind == yaml.ScalarNode {
					got = strconv.Quote(v.Value)
				}
				errs = append(errs, fmt.Errorf("randomization.enabled (line %d): want true or false, not %s", v.Line, got))
			}
			r.Enabled = b
		case "vehicle", "sensors", "visual", "track":
			if v.Kind != yaml.MappingNode {
				errs = append(errs, fmt.Errorf("randomization.%s (line %d): want a mapping of parameter: range", k.Value, v.Line))
				continue
			}
			seen := map[string]bool{}
			for j := 0; j+1 < len(v.Content); j += 2 {
				name, val := v.Content[j].Value, v.Content[j+1]
				for val.Kind == yaml.AliasNode && val.Alias != nil {
					val = val.Alias
				}
				if seen[name] {
					errs = append(errs, fmt.Errorf("randomization.%s.%s (line %d): given twice", k.Value, name, v.Content[j].Line))
					continue
				}
				seen[name] = true
				text, err := rangeText(val)
				if err == nil {
					err = r.Set(k.Value+"."+name, text)
				}
				if err != nil {
					errs = append(errs, fmt.Errorf("randomization.%s.%s (line %d): %w", k.Value, name, val.Line, err))
				}
			}
		default:
			errs = append(errs, fmt.Errorf("line %d: unknown key %q in randomization (known: enabled, vehicle, sensors, visual, track)", k.Line, k.Value))
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return r, nil
}

// rangeText turns a YAML range (number, [lo, hi] or a string) into Set's text form.
func rangeText(n *yaml.Node) (string, error) {
	switch n.Kind {
	case yaml.ScalarNode:
		return n.Value, nil
	case yaml.SequenceNode:
		if len(n.Content) != 2 {
			return "", fmt.Errorf("want [lo, hi], got %d values", len(n.Content))
		}
		for _, c := range n.Content {
			if _, err := strconv.ParseFloat(c.Value, 64); c.Kind != yaml.ScalarNode || err != nil {
				return "", fmt.Errorf("want [lo, hi] of two numbers, got %s", yamlText(n))
			}
		}
		return n.Content[0].Value + "," + n.Content[1].Value, nil
	}
	return "", errors.New("want a number or [lo, hi]")
}

// yamlText writes a small YAML value back in flow style, for messages.
func yamlText(n *yaml.Node) string {
	c := *n
	c.Style = yaml.FlowStyle
	b, err := yaml.Marshal(&c)
	if err != nil {
		return "?"
	}
	return strings.TrimSpace(string(b))
}

// Clone returns a copy that Set can change without touching r.
func (r *Randomization) Clone() *Randomization {
	out := &Randomization{Enabled: r.Enabled, ranges: make(map[string]Range, len(r.ranges))}
	for k, v := range r.ranges {
		out.ranges[k] = v
	}
	return out
}

// Set changes one setting, as reset flags do: "enabled" takes a boolean; a parameter name
// ("vehicle.mass", "sensors.brightness", "track.width") takes "p", "lo,hi" or, for track
// parameters, "schema".
func (r *Randomization) Set(name, value string) error {
	value = strings.TrimSpace(value)
	if name == "enabled" {
		b, err := ParseBool(value)
		if err != nil {
			return err
		}
		r.Enabled = b
		return nil
	}
	var rg Range
	if track, ok := strings.CutPrefix(name, trackKeyPrefix); ok {
		if track == "" {
			return errors.New("want track.<param>")
		}
		if strings.EqualFold(value, "schema") {
			rg.Schema = true
		} else {
			var err error
			if rg, err = parseRange(value, Absolute); err != nil {
				return fmt.Errorf("%w, or schema", err)
			}
		}
	} else {
		i := slices.IndexFunc(RandomParams, func(p RandomParam) bool { return p.Name == name })
		if i < 0 {
			return fmt.Errorf("unknown parameter %q (known: %s, track.<param>)", name, strings.Join(RandomParamNames(), ", "))
		}
		var err error
		if rg, err = parseRange(value, RandomParams[i].Mode); err != nil {
			return err
		}
		if l := RandomParams[i].Limit; l != ([2]float64{}) && (rg.Lo < l[0] || rg.Hi > l[1]) {
			return fmt.Errorf("%s reaches past the limit %s (%s)", spanText(rg.Lo, rg.Hi), spanText(l[0], l[1]), RandomParams[i].Doc)
		}
	}
	if math.Abs(rg.Lo) > maxRange || math.Abs(rg.Hi) > maxRange {
		return fmt.Errorf("%s reaches past ±%g", spanText(rg.Lo, rg.Hi), float64(maxRange))
	}
	if r.ranges == nil {
		r.ranges = map[string]Range{}
	}
	r.ranges[name] = rg
	return nil
}

// Override is one change to a randomization block from outside the scenario: a reset's
// randomization.* flag or the fast path's randomization map.
type Override struct {
	Key   string // as the client wrote it, for messages
	Name  string // the parameter, as Set takes it ("enabled", "vehicle.mass", ...)
	Value string
}

// SetAll applies the overrides in order (Set). Ranges given while randomization stays off,
// with no word on "enabled" among them, are refused: they would silently not be drawn.
func (r *Randomization) SetAll(os []Override) error {
	var ranges []string
	saidEnabled := false
	for _, o := range os {
		if err := r.Set(o.Name, o.Value); err != nil {
			return fmt.Errorf("%s: %w", o.Key, err)
		}
		if o.Name == "enabled" {
			saidEnabled = true
		} else {
			ranges = append(ranges, o.Key)
		}
	}
	if len(ranges) > 0 && !r.Enabled && !saidEnabled {
		return fmt.Errorf("%s: randomization is off in this scenario, so these ranges would not be drawn; "+
			"set enabled to true with them (or to false to keep them unused)", strings.Join(ranges, ", "))
	}
	return nil
}

// RandomParamNames returns the names of RandomParams in order.
func RandomParamNames() []string {
	out := make([]string, len(RandomParams))
	for i, p := range RandomParams {
		out[i] = p.Name
	}
	return out
}

// spanText writes lo..hi for a message, to 12 significant digits: a factor's 1 − 0.9 is
// 0.1 there, not 0.09999999999999998.
func spanText(lo, hi float64) string {
	return strconv.FormatFloat(lo, 'g', 12, 64) + ".." + strconv.FormatFloat(hi, 'g', 12, 64)
}

// ParseBool reads rusim's flag booleans: true/false/1/0, any case.
func ParseBool(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "1":
		return true, nil
	case "false", "0":
		return false, nil
	}
	return false, fmt.Errorf("%q is not a boolean (true, false, 1, 0)", s)
}

func parseRange(s string, mode RangeMode) (Range, error) {
	parts := strings.Split(s, ",")
	var xs []float64
	for _, p := range parts {
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return Range{}, fmt.Errorf("%q is not a number or \"lo,hi\"", s)
		}
		xs = append(xs, x)
	}
	switch len(xs) {
	case 1:
		p := xs[0]
		if p < 0 {
			return Range{}, fmt.Errorf("%g: a single value is a spread and must not be negative", p)
		}
		switch mode {
		case Scale:
			if p > 1 {
				return Range{}, fmt.Errorf("±%g would allow a negative factor; give [lo, hi]", p)
			}
			return Range{Lo: 1 - p, Hi: 1 + p}, nil
		case Offset:
			return Range{Lo: -p, Hi: p}, nil
		}
		return Range{Lo: 0, Hi: p}, nil
	case 2:
		if xs[0] > xs[1] {
			return Range{}, fmt.Errorf("lo %g is above hi %g", xs[0], xs[1])
		}
		if mode == Scale && xs[0] < 0 {
			return Range{}, fmt.Errorf("factor %g must not be negative", xs[0])
		}
		return Range{Lo: xs[0], Hi: xs[1]}, nil
	}
	return Range{}, fmt.Errorf("%q: want one value or lo,hi", s)
}

// Inapplicable returns an error naming the ranges r was given (not its defaults, which apply
// where they can) that none of vs can take — a quadcopter's motor gains, the camera of a
// vehicle without one — or nil. Drawn for nothing, they were dropped without a word. Track
// ranges are checked against the track when drawn.
func (r *Randomization) Inapplicable(vs ...*plugins.VehicleDescriptor) error {
	var errs []error
	for _, p := range RandomParams {
		rg, given := r.ranges[p.Name]
		if !given || p.Mode == Scale && rg.Lo == 1 && rg.Hi == 1 || p.Mode != Scale && rg.Lo == 0 && rg.Hi == 0 {
			continue
		}
		takes := slices.ContainsFunc(vs, func(v *plugins.VehicleDescriptor) bool {
			return vehicleTargets(p.Name, v) != nil || visualTargets(p.Name, v) != nil
		})
		if !takes {
			var ids []string
			calibrated := false
			for _, v := range vs {
				ids = append(ids, v.ID)
				if cam := cameraMount(v); cam != nil && calibratedFocal(cam) {
					calibrated = true
				}
			}
			if p.Name == "sensors.camera_fov_deg" && calibrated {
				errs = append(errs, fmt.Errorf("randomization.%s: the camera is given its focal length in pixels (fx or fy), which leaves its fovDeg unused; draw sensors.camera_focal (a factor on fx and fy) instead", p.Name))
				continue
			}
			errs = append(errs, fmt.Errorf("randomization.%s: no vehicle here has what it draws (%s)", p.Name, strings.Join(slices.Compact(slices.Sorted(slices.Values(ids))), ", ")))
		}
	}
	return errors.Join(errs...)
}

// RangeOf returns the range r uses for a named parameter (its default when not set).
func (r *Randomization) RangeOf(name string) Range {
	if rg, ok := r.ranges[name]; ok {
		return rg
	}
	if i := slices.IndexFunc(RandomParams, func(p RandomParam) bool { return p.Name == name }); i >= 0 {
		d := RandomParams[i].Default
		if d == [2]float64{} && RandomParams[i].Mode == Scale {
			d = [2]float64{1, 1}
		}
		return Range{Lo: d[0], Hi: d[1]}
	}
	return Range{}
}

// TrackParams returns the names of the track parameters r draws, sorted (without "track.").
func (r *Randomization) TrackParams() []string {
	var out []string
	for k := range r.ranges {
		if p, ok := strings.CutPrefix(k, trackKeyPrefix); ok {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}
