package yamlkinds

import (
	"math"
	"reflect"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// KindOfValue names the kind of YAML a Go value is written as ("a number", "a string",
// "a list", ...), for messages about values decoded into `any`.
func KindOfValue(v any) string {
	var n yaml.Node
	if n.Encode(v) != nil {
		return "a value of another kind"
	}
	return kindOfTag(n.ShortTag())
}

// durationKind is what a time.Duration is written as: yaml.v3 takes only strings for them.
const durationKind = "a duration such as 30s or 1m30s"

// kindOf names what a value of Go type t is written as in YAML.
func kindOf(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == durationType {
		return durationKind
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
	case name == "time.Duration":
		return durationKind
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
	if t == durationType {
		return "", "", false
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
