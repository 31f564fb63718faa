package yamlkinds

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Doc is YAML being decoded into a Go type, described for messages. The zero Doc explains
// errors without key paths ("line 3: expected a list, not a number").
type Doc struct {
	// Node is the parsed YAML (a document node or any node under one) whose lines the errors
	// name: the node decoded, or one parsed from the same text. Nil: no key paths.
	Node *yaml.Node
	// Type is the Go type Node decodes into (a pointer to it is fine).
	Type reflect.Type
	// Path is Node's key path, put before every key path in messages: "config" gives
	// "config.keyframes[0].time". Empty for a whole document.
	Path string
	// Name and Want name the whole document and what it must be, for a document of the wrong
	// kind when Path is empty ("the scenario", "a mapping of keys (scenarioId, ...)"). Zero:
	// "the document" and the kind of Type.
	Name, Want string
	// HideLines leaves line numbers out of messages, for YAML re-encoded from values, whose
	// lines are not the user's.
	HideLines bool
}

// typeErrorRE matches yaml.v3's "line N: cannot unmarshal !!tag `value` into GoType"; the
// value is cut to 7 characters and "..." when longer than 10, and absent for lists and
// mappings.
var typeErrorRE = regexp.MustCompile("(?s)^line (\\d+): cannot unmarshal (!!\\S+)(?: `(.*)`)? into (.+)$")

// Explain rewrites an error of decoding d.Node into d.Type on one line: a value of the wrong
// kind with its key path and the kinds wanted and found ("line 3: world must be a mapping,
// not a number"), several errors joined by "; ". Other errors keep their text, without
// yaml.v3's "yaml: " prefix and line breaks; yaml.v3's unknown-key errors
// ("line 2: field x not found in type T") are left for the caller to word.
func (d Doc) Explain(err error) string {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return oneLine(strings.TrimPrefix(err.Error(), "yaml: "))
	}
	var spots []spot
	if d.Node != nil {
		spots = walkKinds(d.Node, d.Type, d.Path, nil)
	}
	msgs := make([]string, 0, len(te.Errors))
	for _, e := range te.Errors {
		if m := typeErrorRE.FindStringSubmatch(e); m != nil {
			msgs = append(msgs, d.explainTypeError(m, spots))
			continue
		}
		msgs = append(msgs, e)
	}
	if n := len(msgs); n > maxProblems {
		// One line a person reads: a file of 20,000 bad entries made a 700 KB one.
		msgs = append(msgs[:maxProblems], fmt.Sprintf("and %d more", n-maxProblems))
	}
	return oneLine(strings.Join(msgs, "; "))
}

// maxProblems is the most problems Explain words; the rest are counted.
const maxProblems = 10

// oneLine joins yaml.v3's lines of errors.
func oneLine(s string) string {
	s = strings.ReplaceAll(s, "unmarshal errors:\n  ", "")
	return strings.ReplaceAll(s, "\n  ", "; ")
}

// at is the "line N: " that starts a message, or "" when lines are hidden or unknown (nodes
// made by Node.Encode have line 0).
func (d Doc) at(line string) string {
	if d.HideLines || line == "0" || line == "" {
		return ""
	}
	return "line " + line + ": "
}

// explainTypeError turns one match of typeErrorRE (line, tag, value, Go type) into the key
// path and the kinds wanted and found.
func (d Doc) explainTypeError(m []string, spots []spot) string {
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
					return fmt.Sprintf("%s%s: %s is outside the range %s..%s", d.at(line), found.path, value, lo, hi)
				}
			}
		}
		got = value // "a whole number, not -1": both are numbers, so say which
	}
	if isNumberKind(want) && tag == "!!str" && found != nil {
		// yaml.v3 reads a number beyond float64 (1e400) as a string: say it is a number.
		if _, err := strconv.ParseFloat(value, 64); errors.Is(err, strconv.ErrRange) {
			got = value + ", a number too large to hold"
		}
	}
	if want == durationKind && tag == "!!str" && found != nil {
		got = strconv.Quote(value) // "a duration ..., not a string" would puzzle: say which
	}
	switch {
	case found != nil && found.path == "":
		name, w := d.Name, d.Want
		if name == "" {
			name = "the document"
		}
		if w == "" {
			w = want
		}
		return fmt.Sprintf("%s%s must be %s, not %s", d.at(line), name, w, got)
	case found != nil:
		return fmt.Sprintf("%s%s must be %s, not %s", d.at(line), found.path, want, got)
	}
	return fmt.Sprintf("%sexpected %s, not %s", d.at(line), want, got)
}

// sameValue says whether a node's value is the one yaml.v3 quoted, cut as it cuts them.
func sameValue(full, quoted string) bool {
	if len(full) > 10 {
		return strings.HasSuffix(quoted, "...") && strings.HasPrefix(full, strings.TrimSuffix(quoted, "..."))
	}
	return full == quoted
}

// CheckWholeNumbers refuses a number with a fraction where d.Type wants a whole one
// ("line 2: runtime.seed must be a whole number, not 1.5"): yaml.v3 would cut it to 1 without
// a word. Floats written whole (1e3, 4.0) pass. It reports the first such number in document
// order; nil if there is none or d.Node is nil.
func (d Doc) CheckWholeNumbers() error {
	if d.Node == nil {
		return nil
	}
	for _, s := range walkKinds(d.Node, d.Type, d.Path, nil) {
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
		return fmt.Errorf("%s%s must be %s, not %s", d.at(strconv.Itoa(s.node.Line)), d.name(s.path), kind, s.node.Value)
	}
	return nil
}

// CheckKeys refuses a key that no field of a struct in d.Type takes, at any depth, as
// yaml.v3's Decoder.KnownFields does (Node.Decode cannot): "line 4: unknown key "output" in
// config.keyframes[0] (known: outputs, services, time)". It reports the first in document
// order; nil if there is none or d.Node is nil. Aliases are followed; values decoded by their
// own rules are not checked.
func (d Doc) CheckKeys() error {
	if d.Node == nil {
		return nil
	}
	return d.checkKeys(d.Node, d.Type, d.Path)
}

func (d Doc) checkKeys(n *yaml.Node, t reflect.Type, path string) error {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	t = followed(t)
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			if err := d.checkKeys(c, t, path); err != nil {
				return err
			}
		}
	case yaml.MappingNode:
		var keys map[string]reflect.Type
		var rest reflect.Type
		if t != nil && t.Kind() == reflect.Struct {
			keys, rest = structKeys(t)
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			var vt reflect.Type
			switch {
			case keys != nil:
				ft, ok := keys[k.Value]
				if !ok && rest == nil && k.ShortTag() != "!!merge" {
					known := slices.Sorted(maps.Keys(keys))
					return fmt.Errorf("%sunknown key %q in %s (known: %s)", d.at(strconv.Itoa(k.Line)), k.Value, d.name(path), strings.Join(known, ", "))
				}
				vt = ft
				if !ok {
					vt = rest
				}
			case t != nil && t.Kind() == reflect.Map:
				vt = t.Elem()
			}
			if err := d.checkKeys(v, vt, joinKey(path, k.Value)); err != nil {
				return err
			}
		}
	case yaml.SequenceNode:
		var et reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			et = t.Elem()
		}
		for i, c := range n.Content {
			if err := d.checkKeys(c, et, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// name is a key path for messages, naming the whole document when it is empty.
func (d Doc) name(path string) string {
	switch {
	case path != "":
		return path
	case d.Name != "":
		return d.Name
	}
	return "the document"
}
