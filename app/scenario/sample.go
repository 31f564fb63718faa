package scenario

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"

	"simgui/plugins"
	"simgui/plugins/trackgen"
)

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
// and its name, so turning one parameter on or off does not change another's draw. A range
// the block names that reaches past the valid range of what it sets (plugins' ParamSpec) is an
// error: clamped, its draws would pile up at the limit. A default range the block does not
// name is drawn over the part of it the parameter takes. Parameters the vehicle does not have (a camera pitch on
// a vehicle without a camera) are skipped.
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
			// Every draw must be a value the parameter takes: a range reaching past it would
			// be clamped into a pile of draws at the limit, not the spread asked for.
			lo, hi := rg.Lo, rg.Hi
			switch p.Mode {
			case Scale:
				lo, hi = min(lo*tg.base, hi*tg.base), max(lo*tg.base, hi*tg.base)
			case Offset:
				lo, hi = lo+tg.base, hi+tg.base
			}
			var x float64
			if slack := 1e-9 * max(1, math.Abs(tg.min), math.Abs(tg.max)); lo < tg.min-slack || hi > tg.max+slack {
				if _, named := r.ranges[p.Name]; named {
					return d, fmt.Errorf("randomization.%s %s..%s draws %s from %s to %s; it takes %s..%s",
						p.Name, fmtNum(rg.Lo), fmtNum(rg.Hi), tg.key, fmtSum(lo), fmtSum(hi), fmtNum(tg.min), fmtNum(tg.max))
				}
				// A default range nobody named, around a value near its limit (the camera's
				// ±4° of pitch around 88°): drawn over the part the parameter takes.
				x = uniform(seed, tg.key, Range{Lo: max(lo, tg.min), Hi: min(hi, tg.max)})
			} else {
				x = uniform(seed, tg.key, rg)
				switch p.Mode {
				case Scale:
					x *= tg.base
				case Offset:
					x += tg.base
				}
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
	return d, r.drawTrack(&d, t, "")
}

// MaxTrackRedraws is how many times BuildableTrack draws a track's params before it gives up.
const MaxTrackRedraws = 16

// BuildableTrack returns base with d's track draws when build accepts them; else it draws
// them again, each time from streams of their own derived from d's seed, at most
// MaxTrackRedraws times, and updates d with the draws it returns. Params each within their
// schema range may not build together (the corridor's width drawn past what its length
// allows); a reset that failed on them would end a training run. A draw without track
// params returns base itself.
func (r *Randomization) BuildableTrack(d *Draw, t *plugins.TrackDescriptor, base map[string]any, build func(params map[string]any) error) (map[string]any, error) {
	if len(d.Track) == 0 || t == nil {
		return base, nil
	}
	var err error
	for attempt := range MaxTrackRedraws {
		if attempt > 0 {
			d.Values = slices.DeleteFunc(d.Values, func(v Drawn) bool { return strings.HasPrefix(v.Param, trackKeyPrefix) })
			clear(d.Track)
			if err := r.drawTrack(d, t, "#"+strconv.Itoa(attempt)); err != nil {
				return nil, err
			}
		}
		params := maps.Clone(base)
		if params == nil {
			params = map[string]any{}
		}
		maps.Copy(params, d.Track)
		if err = build(params); err == nil {
			return params, nil
		}
	}
	return nil, fmt.Errorf("randomization.track: none of %d draws makes a track with the other params (the last: %w); narrow the ranges", MaxTrackRedraws, err)
}

// TrackBuilds is BuildableTrack's check of t's params for a world of seed: valid by t's
// schema, and laid out by its generator as the world will lay it out.
func TrackBuilds(t *plugins.TrackDescriptor, seed int64) func(map[string]any) error {
	return func(params map[string]any) error {
		if err := plugins.ValidateTrackParams(t, params); err != nil {
			return err
		}
		_, err := trackgen.Build(t, params, seed)
		return err
	}
}

// drawTrack adds the track params' draws to d, from the streams of their keys with salt (""
// for the first draw).
func (r *Randomization) drawTrack(d *Draw, t *plugins.TrackDescriptor, salt string) error {
	seed := d.Seed
	names := r.TrackParams()
	if len(names) == 0 {
		return nil
	}
	props, err := schemaRanges(t)
	if err != nil {
		return err
	}
	for _, name := range names {
		pr, ok := props[name]
		if !ok {
			return fmt.Errorf("randomization.track.%s: the track %s has no numeric parameter %q with a minimum and maximum (it has: %s)",
				name, t.ID, name, strings.Join(sortedRangeKeys(props), ", "))
		}
		rg := r.ranges[trackKeyPrefix+name]
		if rg.Schema {
			rg = Range{Lo: pr.lo, Hi: pr.hi}
		} else if rg.Lo < pr.lo || rg.Hi > pr.hi {
			return fmt.Errorf("randomization.track.%s: %s is outside the schema's %s", name, spanText(rg.Lo, rg.Hi), spanText(pr.lo, pr.hi))
		}
		key := trackKeyPrefix + name
		var x float64
		if pr.integer {
			lo, hi := math.Ceil(rg.Lo), math.Floor(rg.Hi)
			if lo > hi {
				return fmt.Errorf("randomization.track.%s: %s holds no whole number", name, spanText(rg.Lo, rg.Hi))
			}
			x = lo + float64(stream(seed, key+salt).IntN(int(hi-lo)+1))
		} else {
			x = uniform(seed, key+salt, rg)
		}
		d.Values = append(d.Values, Drawn{Param: key, Key: key, Value: x})
		d.Track[name] = x
	}
	return nil
}

// fmtNum writes x with the fewest digits that read back as it.
func fmtNum(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// fmtSum formats a value computed from the user's (a base times or plus a range's end) to 12
// significant digits: 0.2 + 0.1 reads 0.3, not 0.30000000000000004.
func fmtSum(x float64) string {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 12, 64), 64)
	return fmtNum(r) // written as fmtNum writes the user's numbers (1e+06, not 1000000)
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
		// A camera given its focal length in pixels (fx or fy) leaves fovDeg unused: a drawn
		// field of view would change nothing (sensors.camera_focal jitters that focal length).
		if cam != nil && !calibratedFocal(cam) {
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

// calibratedFocal reports whether camera m is given its focal length in pixels (fx or fy),
// which its fovDeg then leaves unused.
func calibratedFocal(m *plugins.SensorMount) bool {
	return m.Param("fx") != 0 || m.Param("fy") != 0
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
