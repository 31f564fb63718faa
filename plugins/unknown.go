package plugins

import (
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// maxUnknownFields bounds the warnings of one file: a Unity export can carry hundreds of
// fields simgui does not read, and a list that long hides the one typo that matters.
const maxUnknownFields = 20

// warnUnknownFields warns, at its path under prefix, of every object key in b that t (a struct
// type, or a pointer, slice, array or map of one) has no field for, in path order, at most
// maxUnknownFields of them and then how many more. encoding/json's DisallowUnknownFields
// stops at the first and does not say where it was; a plugin author with three typos should
// see three warnings, each at its place. Keys match fields as encoding/json matches them:
// by the json tag or the Go name, case-insensitively.
func (ps *Problems) warnUnknownFields(prefix string, b []byte, t reflect.Type) {
	var found []unknownField
	walkUnknown(prefix, json.RawMessage(b), t, &found, 0)
	sort.Slice(found, func(i, j int) bool {
		if found[i].path != found[j].path {
			return found[i].path < found[j].path
		}
		return found[i].key < found[j].key
	})
	for i, f := range found {
		if i == maxUnknownFields {
			ps.warn(prefix, "%d more unknown fields are ignored", len(found)-i)
			break
		}
		ps.warn(f.path, "unknown field %q is ignored", f.key)
	}
}

// unknownField is a key at path that its object's type has no field for.
type unknownField struct{ path, key string }

// maxUnknownDepth stops the walk where no descriptor nests deeper; the decoder bounded the
// input already.
const maxUnknownDepth = 32

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

func walkUnknown(path string, raw json.RawMessage, t reflect.Type, out *[]unknownField, depth int) {
	if depth > maxUnknownDepth {
		return
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	// A type that decodes itself decides what its keys mean.
	if reflect.PointerTo(t).Implements(jsonUnmarshaler) || reflect.PointerTo(t).Implements(textUnmarshaler) {
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil {
			return
		}
		fields := jsonFields(t)
		for k, v := range obj {
			ft, ok := fields[strings.ToLower(k)]
			if !ok {
				*out = append(*out, unknownField{path, k})
				continue
			}
			walkUnknown(path+"."+k, v, ft, out, depth+1)
		}
	case reflect.Slice, reflect.Array:
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			return
		}
		for i, v := range items {
			walkUnknown(fmt.Sprintf("%s[%d]", path, i), v, t.Elem(), out, depth+1)
		}
	case reflect.Map:
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil {
			return
		}
		for k, v := range obj {
			walkUnknown(path+"."+k, v, t.Elem(), out, depth+1)
		}
	}
}

// jsonFields returns struct t's fields by their lower-cased JSON names, embedded structs'
// fields included, as encoding/json sees them.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	m := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			et := f.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				for k, v := range jsonFields(et) {
					if _, ok := m[k]; !ok {
						m[k] = v
					}
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		m[strings.ToLower(name)] = f.Type
	}
	return m
}
