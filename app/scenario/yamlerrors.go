package scenario

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

var (
	notFoundRE = regexp.MustCompile(`line (\d+): field (\S+) not found in type scenario\.(\w+)`)
	sections   = map[string]string{
		"Scenario": "the top level", "Runtime": "runtime", "WorldSpec": "world", "VehicleSpec": "vehicle",
		"Agents": "agents", "AgentVehicle": "agents.vehicles[]", "SpawnPose": "spawnPose", "Sensors": "sensors",
		"Route": "route", "CameraSettings": "sensors.camera", "TelemetrySettings": "sensors.telemetry",
		"LineTrackerSettings": "sensors.lineTracker", "UltrasonicSettings": "sensors.ultrasonic", "Logging": "logging",
	}
	// typeErrorRE matches yaml.v3's "line N: cannot unmarshal !!tag `value` into GoType"; the
	// value is cut to 7 characters and "..." when longer than 10, and absent for lists and
	// mappings.
	typeErrorRE = regexp.MustCompile("(?s)^line (\\d+): cannot unmarshal (!!\\S+)(?: `(.*)`)? into (.+)$")
)

// explainYAML rewrites yaml.v3's errors into one line naming the key and what was expected:
// an unknown key with the section it is in, a value of the wrong kind with its key path and
// the kind wanted ("line 3: world must be a mapping, not a number"), never a Go type. data is
// the document, to find the key paths in; nil for errors that are not about types.
func explainYAML(err error, data []byte) string {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return oneLine(strings.TrimPrefix(err.Error(), "yaml: "))
	}
	var root *yaml.Node
	if data != nil {
		var doc yaml.Node
		if yaml.Unmarshal(data, &doc) == nil {
			root = &doc
		}
	}
	var spots []spot
	if root != nil {
		spots = walkKinds(root, reflect.TypeOf(Scenario{}), "", nil)
	}
	msgs := make([]string, 0, len(te.Errors))
	for _, e := range te.Errors {
		if m := typeErrorRE.FindStringSubmatch(e); m != nil {
			msgs = append(msgs, explainTypeError(m, spots))
			continue
		}
		msgs = append(msgs, e)
	}
	return oneLine(strings.Join(msgs, "; "))
}

// oneLine joins yaml.v3's lines of errors and names unknown keys by their section.
func oneLine(s string) string {
	s = strings.ReplaceAll(s, "unmarshal errors:\n  ", "")
	s = strings.ReplaceAll(s, "\n  ", "; ")
	return notFoundRE.ReplaceAllStringFunc(s, func(m string) string {
		p := notFoundRE.FindStringSubmatch(m)
		where := sections[p[3]]
		if where == "" {
			where = p[3]
		}
		return fmt.Sprintf("line %s: unknown key %q in %s", p[1], p[2], where)
	})
}

// spot is a node of the document with the key path that leads to it and the Go type it is
// decoded into (nil where a custom decoder or an untyped value takes over).
type spot struct {
	node *yaml.Node
	typ  reflect.Type
	path string
}

var (
	unmarshalerType = reflect.TypeOf((*yaml.Unmarshaler)(nil)).Elem()
	nodeType        = reflect.TypeOf(yaml.Node{})
)

// walkKinds lists every node under n in document order with its key path, following t (the Go
// type n decodes into) through structs by their yaml keys, maps and lists.
func walkKinds(n *yaml.Node, t reflect.Type, path string, out []spot) []spot {
	if n.Kind == yaml.DocumentNode {
		for _, c := range n.Content {
			out = walkKinds(c, t, path, out)
		}
		return out
	}
	out = append(out, spot{n, t, path})
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t != nil && (t == nodeType || reflect.PointerTo(t).Implements(unmarshalerType) || t.Kind() == reflect.Interface) {
		t = nil // decoded by its own rules: follow the keys, not the types
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			var vt reflect.Type
			if t != nil && t.Kind() == reflect.Struct {
				vt = fieldType(t, k.Value)
			} else if t != nil && t.Kind() == reflect.Map {
				vt = t.Elem()
			}
			out = walkKinds(v, vt, joinKey(path, k.Value), out)
		}
	case yaml.SequenceNode:
		var et reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			et = t.Elem()
		}
		for i, c := range n.Content {
			out = walkKinds(c, et, fmt.Sprintf("%s[%d]", path, i), out)
		}
	}
	return out
}

// fieldType is the type of the struct field with yaml key key, nil if there is none.
func fieldType(t reflect.Type, key string) reflect.Type {
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		if f.IsExported() && name == key {
			return f.Type
		}
	}
	return nil
}

func joinKey(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// explainTypeError turns one match of typeErrorRE (line, tag, value, Go type) into the key
// path and the kinds wanted and found.
func explainTypeError(m []string, spots []spot) string {
	line, tag, value, goType := m[1], m[2], m[3], m[4]
	var found *spot
	for i, s := range spots {
		if strconv.Itoa(s.node.Line) != line || s.node.ShortTag() != tag {
			continue
		}
		if s.typ != nil && s.typ.String() == goType {
			found = &spots[i]
			break
		}
		if found == nil && sameValue(s.node.Value, value) {
			found = &spots[i]
		}
	}
	want := kindOfTypeName(goType)
	if found != nil && found.typ != nil && found.typ.String() == goType {
		want = kindOf(found.typ)
	}
	got := kindOfTag(tag)
	if found != nil {
		value = found.node.Value
	}
	if isNumberKind(want) && (tag == "!!int" || tag == "!!float") {
		if found != nil && found.path != "" && found.typ != nil {
			if lo, hi, ok := intRange(found.typ); ok {
				if f, err := strconv.ParseFloat(value, 64); err == nil && f == math.Trunc(f) {
					return fmt.Sprintf("line %s: %s: %s is outside the range %s..%s", line, found.path, value, lo, hi)
				}
			}
		}
		got = value // "a whole number, not -1": both are numbers, so say which
	}
	switch {
	case found != nil && found.path == "":
		return fmt.Sprintf("line %s: the scenario must be a mapping of keys (scenarioId, world, vehicle, ...), not %s", line, got)
	case found != nil:
		return fmt.Sprintf("line %s: %s must be %s, not %s", line, found.path, want, got)
	}
	return fmt.Sprintf("line %s: expected %s, not %s", line, want, got)
}

// sameValue says whether a node's value is the one yaml.v3 quoted, cut as it cuts them.
func sameValue(full, quoted string) bool {
	if len(full) > 10 {
		return strings.HasSuffix(quoted, "...") && strings.HasPrefix(full, strings.TrimSuffix(quoted, "..."))
	}
	return full == quoted
}

// kindOf names what a value of Go type t is written as in YAML.
func kindOf(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "a mapping"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "a whole number"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number ≥ 0"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "a string"
	}
	return "a value of another kind"
}

// kindOfTypeName is kindOf for a type known only by the name yaml.v3 printed (a type of a
// custom decoder, which walkKinds does not follow).
func kindOfTypeName(name string) string {
	name = strings.TrimLeft(name, "*")
	switch {
	case strings.HasPrefix(name, "[]"), strings.HasPrefix(name, "["):
		return "a list"
	case strings.HasPrefix(name, "map["):
		return "a mapping"
	case strings.HasPrefix(name, "uint"):
		return "a whole number ≥ 0"
	case strings.HasPrefix(name, "int"):
		return "a whole number"
	case strings.HasPrefix(name, "float"):
		return "a number"
	case name == "bool":
		return "true or false"
	case name == "string":
		return "a string"
	case strings.Contains(name, "."):
		return "a mapping" // a named type of ours: the structs are the ones yaml.v3 names
	}
	return "a value of another kind"
}

// intRange gives the bounds of an integer type.
func intRange(t reflect.Type) (lo, hi string, ok bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch bits := t.Bits; t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n := bits() - 1
		return strconv.FormatInt(-1<<n, 10), strconv.FormatInt(1<<n-1, 10), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "0", strconv.FormatUint(math.MaxUint64>>(64-bits()), 10), true
	}
	return "", "", false
}

func isNumberKind(kind string) bool { return strings.Contains(kind, "number") }

// kindOfTag names a YAML tag for people.
func kindOfTag(tag string) string {
	switch tag {
	case "!!str":
		return "a string"
	case "!!int", "!!float":
		return "a number"
	case "!!bool":
		return "a boolean (true/false)"
	case "!!map":
		return "a mapping"
	case "!!seq":
		return "a list"
	case "!!null":
		return "empty"
	case "!!timestamp":
		return "a date"
	case "!!binary":
		return "binary data"
	}
	return "a " + strings.TrimPrefix(tag, "!!") + " value"
}

// checkWholeNumbers refuses a number with a fraction where the scenario wants a whole one:
// yaml.v3 would cut "seed: 1.5" to 1 without a word. Floats written whole (1e3, 4.0) pass.
func checkWholeNumbers(data []byte) error {
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil {
		return nil // Decode has reported it
	}
	for _, s := range walkKinds(&doc, reflect.TypeOf(Scenario{}), "", nil) {
		if s.typ == nil || s.node.Kind != yaml.ScalarNode || s.node.Tag != "!!float" {
			continue
		}
		kind := kindOf(s.typ)
		if !strings.HasPrefix(kind, "a whole number") {
			continue
		}
		var f float64
		if s.node.Decode(&f) == nil && f == math.Trunc(f) {
			continue
		}
		return fmt.Errorf("line %d: %s must be %s, not %s", s.node.Line, s.path, kind, s.node.Value)
	}
	return nil
}
