package scenario

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"

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
	{Name: "sensors.camera_fov_deg", Mode: Offset, Doc: "camera vertical field of view, degrees added"},
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
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "enabled":
			var b bool
			if err := v.Decode(&b); err != nil {
				errs = append(errs, fmt.Errorf("randomization.enabled (line %d): want true or false", v.Line))
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
			return fmt.Errorf("%g..%g reaches past the limit %g..%g (%s)", rg.Lo, rg.Hi, l[0], l[1], RandomParams[i].Doc)
		}
	}
	if math.Abs(rg.Lo) > maxRange || math.Abs(rg.Hi) > maxRange {
		return fmt.Errorf("%g..%g reaches past ±%g", rg.Lo, rg.Hi, float64(maxRange))
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

// Drawn is one drawn value: Key is the parameter as the training API takes it back for a
// replay — a vehicle param (mass, camera.pitch_deg, camera.brightness,
// sensor.ultrasonic.front.noiseStddev, ...) or track.<param> — and Param the randomization
// name it was drawn for.
type Drawn struct {
	Param string
	Key   string
	Value float64
}

// Draw is what one agent's randomization drew.
type Draw struct {
	Seed   int64
	Values []Drawn
	// Vehicle holds the vehicle params (ApplyVehicleConfig keys) and Image the image keys
	// (KeyBrightness, ...); Track the track params.
	Vehicle map[string]any
	Image   map[string]float64
	Track   map[string]any
}

// ImageGains returns the red, green and blue gains image keys give a camera's frames:
// brightness times each channel's colour gain (1 for a key not drawn).
func ImageGains(image map[string]float64) [3]float64 {
	or1 := func(k string) float64 {
		if x, ok := image[k]; ok {
			return x
		}
		return 1
	}
	b := or1(KeyBrightness)
	return [3]float64{b * or1(KeyColorGainR), b * or1(KeyColorGainG), b * or1(KeyColorGainB)}
}

// Sample draws one agent's values with seed (rusim: agent i uses seed+i). Vehicle and sensor
// values are relative to v (the vehicle with its params applied); track values lie inside
// t's schema (t nil skips them). Each parameter has its own random stream derived from the seed
// and its name, so turning one parameter on or off does not change another's draw. A draw is
// clamped to the parameter's valid range (plugins' ParamSpec). Parameters the vehicle does
// not have (a camera pitch on a vehicle without a camera) are skipped.
func (r *Randomization) Sample(seed int64, v *plugins.VehicleDescriptor, t *plugins.TrackDescriptor) (Draw, error) {
	d := Draw{Seed: seed, Vehicle: map[string]any{}, Image: map[string]float64{}, Track: map[string]any{}}
	if !r.Enabled {
		return d, nil
	}
	look := false // a scene look parameter was drawn: the look gets its own seed
	for _, p := range RandomParams {
		rg := r.RangeOf(p.Name)
		if p.Mode == Scale && rg.Lo == 1 && rg.Hi == 1 || p.Mode != Scale && rg.Lo == 0 && rg.Hi == 0 {
			continue
		}
		targets := vehicleTargets(p.Name, v)
		if targets == nil {
			targets = visualTargets(p.Name, v)
			if len(targets) > 0 {
				look = true
			}
		}
		for _, tg := range targets {
			x := uniform(seed, tg.key, rg)
			switch p.Mode {
			case Scale:
				x *= tg.base
			case Offset:
				x += tg.base
			}
			x = math.Max(tg.min, math.Min(tg.max, x))
			if tg.integer {
				x = math.Round(x)
			}
			d.Values = append(d.Values, Drawn{Param: p.Name, Key: tg.key, Value: x})
			if tg.image {
				d.Image[tg.key] = x
			} else {
				d.Vehicle[tg.key] = x
			}
		}
	}
	if look {
		d.addLookSeed(seed, v)
	}
	if t == nil {
		return d, nil
	}
	names := r.TrackParams()
	if len(names) == 0 {
		return d, nil
	}
	props, err := schemaRanges(t)
	if err != nil {
		return d, err
	}
	for _, name := range names {
		pr, ok := props[name]
		if !ok {
			return d, fmt.Errorf("randomization.track.%s: the track %s has no numeric parameter %q with a minimum and maximum (it has: %s)",
				name, t.ID, name, strings.Join(sortedRangeKeys(props), ", "))
		}
		rg := r.ranges[trackKeyPrefix+name]
		if rg.Schema {
			rg = Range{Lo: pr.lo, Hi: pr.hi}
		} else if rg.Lo < pr.lo || rg.Hi > pr.hi {
			return d, fmt.Errorf("randomization.track.%s: %g..%g is outside the schema's %g..%g", name, rg.Lo, rg.Hi, pr.lo, pr.hi)
		}
		key := trackKeyPrefix + name
		var x float64
		if pr.integer {
			lo, hi := math.Ceil(rg.Lo), math.Floor(rg.Hi)
			if lo > hi {
				return d, fmt.Errorf("randomization.track.%s: %g..%g holds no whole number", name, rg.Lo, rg.Hi)
			}
			x = lo + float64(stream(seed, key).IntN(int(hi-lo)+1))
		} else {
			x = uniform(seed, key, rg)
		}
		d.Values = append(d.Values, Drawn{Param: key, Key: key, Value: x})
		d.Track[name] = x
	}
	return d, nil
}

// target is one value a randomization parameter sets on a vehicle.
type target struct {
	key            string
	base, min, max float64
	image          bool
	integer        bool // round the draw (counts)
}

// vehicleTargets returns where parameter name lands on v, with the base value and the valid
// range of the vehicle params key it sets (plugins.VehicleParamSpec).
func vehicleTargets(name string, v *plugins.VehicleDescriptor) []target {
	// at is a target on key with base value base, in the key's own range.
	at := func(key string, base float64) []target {
		spec, ok := plugins.VehicleParamSpec(v, key)
		if !ok {
			return nil
		}
		return []target{{key: key, base: base, min: spec.Min, max: spec.Max}}
	}
	drive := func(key, param string) []target {
		if v.Drive == nil {
			return nil
		}
		return at(key, v.Drive.Param(param))
	}
	cam := cameraMount(v)
	switch name {
	case "vehicle.mass":
		if v.Body != nil {
			return at("mass", v.Body.Mass)
		}
	case "vehicle.linear_damping":
		if v.Body != nil {
			return at("linear_damping", v.Body.LinearDamping)
		}
	case "vehicle.angular_damping":
		if v.Body != nil {
			return at("angular_damping", v.Body.AngularDamping)
		}
	case "vehicle.motor_gain_left":
		return drive("motor_gain_left", "motorGainLeft")
	case "vehicle.motor_gain_right":
		return drive("motor_gain_right", "motorGainRight")
	case "vehicle.max_speed":
		return drive("max_speed", "maxSpeed")
	case "vehicle.latency":
		return drive("latency", "latency")
	case "sensors.camera_pitch_deg":
		if cam != nil {
			return at("camera.pitch_deg", cam.Pose.PitchDeg)
		}
	case "sensors.camera_fov_deg":
		if cam != nil {
			return at("camera.fov_deg", cam.Param("fovDeg"))
		}
	case "sensors.image_noise":
		if cam != nil {
			t := at("sensor."+cam.ID+".noiseStddev", 0)
			for i := range t {
				t[i].max = math.Min(t[i].max, maxImageNoise)
			}
			return t
		}
	case "sensors.brightness":
		if cam != nil {
			return []target{{key: KeyBrightness, base: 1, min: 0, max: maxImageGain, image: true}}
		}
	case "sensors.color_jitter":
		if cam != nil {
			return []target{
				{key: KeyColorGainR, base: 1, min: 0, max: maxImageGain, image: true},
				{key: KeyColorGainG, base: 1, min: 0, max: maxImageGain, image: true},
				{key: KeyColorGainB, base: 1, min: 0, max: maxImageGain, image: true},
			}
		}
	case "sensors.sonar_noise":
		for _, m := range v.Sensors {
			if m.Kind == "ultrasonic" {
				return at("sensor."+m.ID+".noiseStddev", 0)
			}
		}
	}
	return nil
}

// cameraMount returns v's first camera mount, or nil.
func cameraMount(v *plugins.VehicleDescriptor) *plugins.SensorMount {
	for i := range v.Sensors {
		if v.Sensors[i].Kind == plugins.SensorCamera {
			return &v.Sensors[i]
		}
	}
	return nil
}

// stream returns the random stream of one key for seed.
func stream(seed int64, key string) *rand.Rand {
	// The bytes of "randomization/<seed>/<key>", appended rather than printed: a training
	// run draws every key at every reset.
	var buf [96]byte
	b := strconv.AppendInt(append(buf[:0], "randomization/"...), seed, 10)
	b = append(append(b, '/'), key...)
	h := fnv.New64a()
	h.Write(b)
	a := h.Sum64()
	h.Write([]byte{0x5a})
	return rand.New(rand.NewPCG(a, h.Sum64()))
}

func uniform(seed int64, key string, rg Range) float64 {
	return rg.Lo + (rg.Hi-rg.Lo)*stream(seed, key).Float64()
}

type schemaRange struct {
	lo, hi  float64
	integer bool
}

// rangeCache keeps schemaRanges' results by schema text: a training run samples a track's
// parameters at every reset, and the schema never changes. The maps are read-only once kept.
var rangeCache struct {
	sync.Mutex
	m map[string]map[string]schemaRange
}

// maxRangeSchemas bounds rangeCache; past it the cache starts over.
const maxRangeSchemas = 64

// schemaRanges reads the numeric properties with both bounds from t's parameters schema.
func schemaRanges(t *plugins.TrackDescriptor) (map[string]schemaRange, error) {
	key := t.ParametersSchemaJSON
	rangeCache.Lock()
	out, ok := rangeCache.m[key]
	rangeCache.Unlock()
	if ok {
		return out, nil
	}
	out, err := readSchemaRanges(t)
	if err != nil {
		return nil, err
	}
	rangeCache.Lock()
	if rangeCache.m == nil || len(rangeCache.m) >= maxRangeSchemas {
		rangeCache.m = map[string]map[string]schemaRange{}
	}
	rangeCache.m[key] = out
	rangeCache.Unlock()
	return out, nil
}

func readSchemaRanges(t *plugins.TrackDescriptor) (map[string]schemaRange, error) {
	out := map[string]schemaRange{}
	if strings.TrimSpace(t.ParametersSchemaJSON) == "" {
		return out, nil
	}
	var doc struct {
		Properties map[string]struct {
			Type             any      `json:"type"`
			Minimum          *float64 `json:"minimum"`
			Maximum          *float64 `json:"maximum"`
			ExclusiveMinimum *float64 `json:"exclusiveMinimum"`
			ExclusiveMaximum *float64 `json:"exclusiveMaximum"`
		} `json:"properties"`
	}
	if err := json.Unmarshal([]byte(t.ParametersSchemaJSON), &doc); err != nil {
		return nil, fmt.Errorf("%s: parametersSchemaJson: %w", t.ID, err)
	}
	for k, p := range doc.Properties {
		typ, _ := p.Type.(string)
		if typ != "number" && typ != "integer" {
			continue
		}
		lo, hi := p.Minimum, p.Maximum
		if lo == nil {
			lo = p.ExclusiveMinimum
		}
		if hi == nil {
			hi = p.ExclusiveMaximum
		}
		if lo == nil || hi == nil {
			continue
		}
		out[k] = schemaRange{lo: *lo, hi: *hi, integer: typ == "integer"}
	}
	return out, nil
}

func sortedRangeKeys(m map[string]schemaRange) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
