package plugins

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// CommonTrackProperties is the JSON Schema "properties" of the parameters every track takes
// (rusim's trackParams): where the vehicle spawns, the route it is given and the route's
// metadata rusim's scenarios carry (corridor width, goal radius, obstacle count, the
// controller and the waypoint graph agents follow; trackgen applies them). Positions are in
// the world frame (x east, y north) in metres; a third component (z, up) is accepted and
// ignored, since spawn points sit on the ground. rusim scenarios written in Unity order
// "x,up,z" must be converted to "x,z" before they reach a track.
const CommonTrackProperties = `{
  "spawn.position": {"type": "string", "pattern": "^\\s*[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)\\s*,\\s*[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)\\s*(,\\s*[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)\\s*)?$", "description": "x,y or x,y,z in metres, world frame"},
  "spawn.yaw_deg": {"type": "number", "minimum": -360, "maximum": 360, "description": "heading in degrees, counter-clockwise from east"},
  "route.waypoints": {"type": "string", "pattern": "^\\s*[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)\\s*,\\s*[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)\\s*(,\\s*[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)\\s*)?(;\\s*[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)\\s*,\\s*[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)\\s*(,\\s*[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)\\s*)?)*;?\\s*$", "description": "x,y;x,y;... in metres, world frame"},
  "route.loop": {"type": "boolean", "description": "start over after the last waypoint"},
  "route.reach_distance_m": {"type": "number", "exclusiveMinimum": 0, "maximum": 100, "description": "a waypoint counts as reached within this distance, metres"},
  "corridor.width_m": {"type": "number", "exclusiveMinimum": 0, "maximum": 100, "description": "width of the corridor around the route, metres: an agent farther than half of it from the route is out of bounds"},
  "goal.radius_m": {"type": "number", "exclusiveMinimum": 0, "maximum": 100, "description": "the route's last waypoint counts as reached within this distance, metres; reaching it ends the episode"},
  "obstacle.count": {"type": "integer", "minimum": 0, "maximum": 100, "description": "obstacles placed along the route, seeded by the run seed"},
  "controller.profile": {"type": "string", "enum": ["manual", "waypoint_follower"], "description": "how agents without a controller of their own are driven: by their commands, or along the route"},
  "waypoint.graph": {"type": "string", "pattern": "^[A-Za-z0-9_.-]{1,64}$", "description": "the route agents follow: the track's route (rusim names the city's city.default)"}
}`

// commonOnlySchema validates tracks without a parameters schema: the common parameters are
// checked, anything else passes through to the track.
var commonOnlySchema = `{"type": "object", "properties": ` + CommonTrackProperties + `}`

// trackSchema is a compiled parameters schema and the raw text of its properties' keywords,
// which error messages quote ("the maximum 2.0", as the author wrote it).
type trackSchema struct {
	schema *jsonschema.Schema
	raw    map[string]map[string]json.RawMessage
}

const schemaCacheMax = 256

var schemaCache = struct {
	sync.Mutex
	m map[string]*trackSchema
}{m: map[string]*trackSchema{}}

// compiledSchema compiles a parameters schema once per distinct text; safe for concurrent use.
func compiledSchema(text string) (*trackSchema, error) {
	if strings.TrimSpace(text) == "" {
		text = commonOnlySchema
	}
	schemaCache.Lock()
	defer schemaCache.Unlock()
	if s, ok := schemaCache.m[text]; ok {
		return s, nil
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
	if err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	values := 0
	if err := schemaShape(doc, "", 0, &values); err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(noLoader{}) // a plugin's schema must not make us read files or the network
	const url = "mem:///track-params.json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	sch, err := c.Compile(url)
	if err != nil {
		return nil, err
	}
	var top struct {
		Properties map[string]map[string]json.RawMessage `json:"properties"`
	}
	_ = json.Unmarshal([]byte(text), &top) // it parsed above; a non-object "properties" just loses quoting
	ts := &trackSchema{schema: sch, raw: top.Properties}
	if len(schemaCache.m) >= schemaCacheMax {
		clear(schemaCache.m) // an editor recompiling as the author types must not grow this forever
	}
	schemaCache.m[text] = ts
	return ts, nil
}

// Bounds of a parameters schema's shape: checking a value costs in proportion to the schema
// when it has no references, so these bound it. A 2.5 KB schema of $ref fan-outs took minutes
// to check one parameter, and one nested 3200 deep over a minute to compile.
const (
	maxSchemaDepth  = 32
	maxSchemaValues = 20_000
)

// schemaRefs are the keywords that make a schema refer to another part of itself.
var schemaRefs = []string{"$ref", "$dynamicRef", "$recursiveRef"}

// schemaData are the keywords whose values are data, not schemas.
var schemaData = []string{"enum", "const", "default", "examples"}

// schemaNames are the keywords whose object's keys are names (of parameters, patterns or
// definitions), not keywords; their values are schemas.
var schemaNames = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}

// schemaShape checks a decoded schema (below the keyword parent) against maxSchemaDepth and
// maxSchemaValues (counted in values) and refuses references: the document is its own whole.
func schemaShape(v any, parent string, depth int, values *int) error {
	*values++
	if *values > maxSchemaValues {
		return fmt.Errorf("has more than %d values; a parameters schema is a short list of parameters", maxSchemaValues)
	}
	if depth > maxSchemaDepth {
		return fmt.Errorf("is nested more than %d deep", maxSchemaDepth)
	}
	if slices.Contains(schemaData, parent) {
		parent = "enum" // data all the way down: counted, not read as schemas
	}
	switch x := v.(type) {
	case map[string]any:
		data := parent == "enum"
		names := slices.Contains(schemaNames, parent)
		for k, e := range x {
			if !names && !data && slices.Contains(schemaRefs, k) {
				return fmt.Errorf("uses %s: a parameters schema is one document without references, whose checking cost is bounded", k)
			}
			keyword := k
			switch {
			case data:
				keyword = "enum"
			case names:
				keyword = "" // a name: its value is a schema
			}
			if err := schemaShape(e, keyword, depth+1, values); err != nil {
				return err
			}
		}
	case []any:
		for _, e := range x {
			if err := schemaShape(e, parent, depth+1, values); err != nil {
				return err
			}
		}
	}
	return nil
}

// noLoader refuses every reference outside the schema document itself; the metaschemas of
// the drafts are built into the compiler and need no loader.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("references outside the schema are not allowed (%s)", url)
}

// ValidateTrackParams checks scenario parameters against t's parametersSchemaJson (the common
// parameters alone when it is empty). Strings are accepted where the schema declares a number,
// integer or boolean if they parse as one (rusim passes every value as a string). The error is
// ParamErrors, one line naming each parameter, its value and what was expected, such as
// `world.params.width: 5 is above the maximum 2.0`.
func ValidateTrackParams(t *TrackDescriptor, params map[string]any) error {
	_, err := ResolveTrackParams(t, params)
	return err
}

// ResolveTrackParams coerces and validates params as ValidateTrackParams does, then adds the
// schema's defaults for absent parameters. Numbers come back as float64.
func ResolveTrackParams(t *TrackDescriptor, params map[string]any) (map[string]any, error) {
	if t == nil {
		return nil, errors.New("no track descriptor")
	}
	ts, err := compiledSchema(t.ParametersSchemaJSON)
	if err != nil {
		return nil, fmt.Errorf("%s: parametersSchemaJson: %w", t.ID, err)
	}
	inst := make(map[string]any, len(params))
	var nonFinite ParamErrors
	for k, v := range params {
		inst[k] = coerce(v, ts.schema.Properties[k])
		if x, ok := inst[k].(float64); ok && (math.IsNaN(x) || math.IsInf(x, 0)) {
			// The schema library has no words for these ("invalid jsonType").
			nonFinite = append(nonFinite, &ParamError{Prefix: "world.params", Key: k, Problem: fmt.Sprintf("%v is not a finite number", x)})
		}
	}
	if len(nonFinite) > 0 {
		slices.SortFunc(nonFinite, func(a, b *ParamError) int { return strings.Compare(a.Key, b.Key) })
		return nil, nonFinite
	}
	if err := ts.schema.Validate(inst); err != nil {
		var ve *jsonschema.ValidationError
		if !errors.As(err, &ve) {
			return nil, fmt.Errorf("%s: %w", t.ID, err)
		}
		return nil, ts.paramErrors(ve, inst)
	}
	for k, p := range ts.schema.Properties {
		if _, set := inst[k]; !set && p.Default != nil {
			inst[k] = coerce(*p.Default, p)
		}
	}
	return inst, nil
}

// TrackParamDefaults returns the defaults t's schema declares, numbers as float64.
func TrackParamDefaults(t *TrackDescriptor) (map[string]any, error) {
	ts, err := compiledSchema(t.ParametersSchemaJSON)
	if err != nil {
		return nil, fmt.Errorf("%s: parametersSchemaJson: %w", t.ID, err)
	}
	out := map[string]any{}
	for k, p := range ts.schema.Properties {
		if p.Default != nil {
			out[k] = coerce(*p.Default, p)
		}
	}
	return out, nil
}

// coerce turns numbers of any Go type into float64 and, where the property declares a number,
// integer or boolean type but not string, parses strings as that type. A string that does not
// parse is left alone for validation to report.
func coerce(v any, prop *jsonschema.Schema) any {
	if x, ok := asFloat(v); ok {
		return x
	}
	s, isString := v.(string)
	if !isString || prop == nil || prop.Types == nil {
		return v
	}
	types := prop.Types.ToStrings()
	if slices.Contains(types, "string") {
		return v
	}
	s = strings.TrimSpace(s)
	if slices.Contains(types, "number") || slices.Contains(types, "integer") {
		if x, err := strconv.ParseFloat(s, 64); err == nil {
			return x
		}
	}
	if slices.Contains(types, "boolean") {
		if b, err := strconv.ParseBool(s); err == nil {
			return b
		}
	}
	return v
}

// asFloat converts Go and JSON number types to float64.
func asFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case int:
		return float64(x), true
	case int8:
		return float64(x), true
	case int16:
		return float64(x), true
	case int32:
		return float64(x), true
	case int64:
		return float64(x), true
	case uint:
		return float64(x), true
	case uint8:
		return float64(x), true
	case uint16:
		return float64(x), true
	case uint32:
		return float64(x), true
	case uint64:
		return float64(x), true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	}
	return 0, false
}

var printer = message.NewPrinter(language.English)

// paramErrors turns a validation error tree into one ParamError per failed leaf.
func (ts *trackSchema) paramErrors(ve *jsonschema.ValidationError, inst map[string]any) ParamErrors {
	var out ParamErrors
	var walk func(*jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		key := ""
		if len(e.InstanceLocation) > 0 {
			key = e.InstanceLocation[0]
		}
		out = append(out, ts.describe(key, inst[key], e.ErrorKind)...)
	}
	walk(ve)
	slices.SortStableFunc(out, func(a, b *ParamError) int { return strings.Compare(a.Key, b.Key) })
	return out
}

// describe says in words what failed for key.
func (ts *trackSchema) describe(key string, val any, k jsonschema.ErrorKind) []*ParamError {
	one := func(problem string) []*ParamError {
		return []*ParamError{{Prefix: "world.params", Key: key, Problem: problem}}
	}
	v := showValue(val)
	switch k := k.(type) {
	case *kind.Required:
		var out []*ParamError
		for _, m := range k.Missing {
			out = append(out, &ParamError{Prefix: "world.params", Key: m, Problem: "missing; this track requires it"})
		}
		return out
	case *kind.AdditionalProperties:
		known := sortedKeys(ts.schema.Properties)
		var out []*ParamError
		for _, p := range k.Properties {
			out = append(out, &ParamError{Prefix: "world.params", Key: p,
				Problem: fmt.Sprintf("unknown parameter (known: %s)", strings.Join(known, ", "))})
		}
		return out
	case *kind.Type:
		// YAML leaves a number too large for a float64 (1e400) as a string.
		if s, ok := val.(string); ok && slices.ContainsFunc(k.Want, func(w string) bool { return w == "number" || w == "integer" }) {
			if _, err := strconv.ParseFloat(strings.TrimSpace(s), 64); errors.Is(err, strconv.ErrRange) {
				return one(fmt.Sprintf("%s is out of range of a number (at most about ±1.8e308)", s))
			}
		}
		return one(fmt.Sprintf("%s is %s, expected %s", v, article(k.Got), strings.Join(mapSlice(k.Want, article), " or ")))
	case *kind.Enum:
		want := mapSlice(k.Want, func(w any) string { return showValue(w) })
		return one(fmt.Sprintf("%s is not one of %s", v, strings.Join(want, ", ")))
	case *kind.Minimum:
		return one(fmt.Sprintf("%s is below the minimum %s", v, ts.bound(key, "minimum", k.Want)))
	case *kind.Maximum:
		return one(fmt.Sprintf("%s is above the maximum %s", v, ts.bound(key, "maximum", k.Want)))
	case *kind.ExclusiveMinimum:
		return one(fmt.Sprintf("%s must be above %s", v, ts.bound(key, "exclusiveMinimum", k.Want)))
	case *kind.ExclusiveMaximum:
		return one(fmt.Sprintf("%s must be below %s", v, ts.bound(key, "exclusiveMaximum", k.Want)))
	case *kind.Pattern:
		form := k.Want
		if p := ts.schema.Properties[key]; p != nil && p.Description != "" {
			form = p.Description
		}
		return one(fmt.Sprintf("%s is not in the form %s", v, form))
	}
	return one(fmt.Sprintf("%s: %s", v, k.LocalizedString(printer)))
}

// bound returns a schema bound as its author wrote it, or formatted from the compiled value.
func (ts *trackSchema) bound(key, keyword string, r *big.Rat) string {
	if raw, ok := ts.raw[key][keyword]; ok {
		return string(raw)
	}
	f, _ := r.Float64()
	return fmtNum(f)
}

func showValue(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case json.Number:
		return x.String()
	case float64:
		return fmtNum(x)
	case nil:
		return "null"
	}
	return fmt.Sprint(v)
}

func article(t string) string {
	switch t {
	case "integer", "array", "object":
		return "an " + t
	case "null":
		return "null"
	}
	return "a " + t
}

func mapSlice[T any](in []T, f func(T) string) []string {
	out := make([]string, len(in))
	for i, x := range in {
		out[i] = f(x)
	}
	return out
}
