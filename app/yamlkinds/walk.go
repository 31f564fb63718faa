package yamlkinds

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

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
	durationType    = reflect.TypeOf(time.Duration(0))
)

// followed is t without pointers, or nil when the value is decoded by its own rules (a
// yaml.Node, an Unmarshaler, an interface): then the walks follow the keys, not the types.
func followed(t reflect.Type) reflect.Type {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t != nil && (t == nodeType || reflect.PointerTo(t).Implements(unmarshalerType) || t.Kind() == reflect.Interface) {
		return nil
	}
	return t
}

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
	t = followed(t)
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

// fieldType is the type of the struct field with yaml key key (inline fields followed), or
// the value type of an inline map; nil if there is neither.
func fieldType(t reflect.Type, key string) reflect.Type {
	keys, rest := structKeys(t)
	if ft, ok := keys[key]; ok {
		return ft
	}
	return rest
}

// structKeys maps the yaml keys of struct t to their field types, as yaml.v3 reads them:
// exported and embedded fields, by the name in their yaml tag or else their lowercased name,
// "-" skipped, ",inline" structs merged in. rest is the value type of an inline map, which
// takes every other key (nil if there is none).
func structKeys(t reflect.Type) (keys map[string]reflect.Type, rest reflect.Type) {
	keys = map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if (!f.IsExported() && !f.Anonymous) || name == "-" {
			continue
		}
		if slices.Contains(strings.Split(opts, ","), "inline") {
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			switch ft.Kind() {
			case reflect.Struct:
				inner, innerRest := structKeys(ft)
				for k, v := range inner {
					if _, dup := keys[k]; !dup {
						keys[k] = v
					}
				}
				if rest == nil {
					rest = innerRest
				}
			case reflect.Map:
				rest = ft.Elem()
			}
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		if _, dup := keys[name]; !dup {
			keys[name] = f.Type
		}
	}
	return keys, rest
}

func joinKey(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}
