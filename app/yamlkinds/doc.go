// Package yamlkinds explains yaml.v3's decoding errors in the user's terms: the key path of
// the value ("config.keyframes[0].time"), the kind wanted ("a whole number", "a list") and
// the kind found ("a string"), on one line, never a Go type name or a YAML tag such as !!int.
// It also refuses what yaml.v3 lets pass: a number with a fraction where a whole one is wanted
// (yaml.v3 cuts "seed: 1.5" to 1 without a word), and unknown keys at any depth of a
// yaml.Node decoded with Node.Decode (which has no KnownFields).
//
// A Doc names the parsed YAML, the Go type it decodes into and the key path it sits at; its
// methods walk the node tree alongside the type, through structs by their yaml keys (inline
// fields included), maps, lists and pointers. Values decoded by their own rules (a type with
// UnmarshalYAML, a yaml.Node, an interface) are followed by their keys only.
//
// The package imports only yaml.v3 and the standard library, so any decoder can use it.
package yamlkinds
