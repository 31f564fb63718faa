package systems

import (
	"encoding/xml"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"simgui/app/world"
	"simgui/app/yamlkinds"
)

// Module describes a system type.
type Module struct {
	// ID is the dotted registry name, e.g. "systems.timeline_publisher".
	ID string
	// Aliases are other names that resolve to this module (for example the names Gazebo users
	// paste: "systems::TimelinePublisher", "gz-sim-timeline-publisher-system").
	Aliases []string
	// New returns a new, unconfigured instance (a pointer to its config struct).
	New func() any
	// Doc is one line for `simgui systems`-style listings.
	Doc string
}

// Validator is implemented by systems that check their decoded config.
type Validator interface {
	Validate() error
}

// XMLConfigurer is implemented by systems that also accept a Gazebo-style <plugin> element.
type XMLConfigurer interface {
	ConfigureXML(element []byte) error
}

// ErrUnknown is returned (wrapped) for an unknown system type.
var ErrUnknown = errors.New("unknown system type")

var (
	mu      sync.RWMutex
	modules = map[string]Module{}
	aliases = map[string]string{}
	idRE    = regexp.MustCompile(`^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$`)
)

// Register adds a module. It panics on a malformed or duplicate ID or alias: both are
// programming errors found at init.
func Register(m Module) {
	if !idRE.MatchString(m.ID) || m.New == nil {
		panic(fmt.Sprintf("systems: bad module %q (IDs are dotted lowercase names; New is required)", m.ID))
	}
	mu.Lock()
	defer mu.Unlock()
	if _, dup := modules[m.ID]; dup {
		panic("systems: duplicate module " + m.ID)
	}
	for _, a := range m.Aliases {
		if _, dup := aliases[a]; dup || modules[a].New != nil {
			panic("systems: duplicate alias " + a)
		}
	}
	modules[m.ID] = m
	for _, a := range m.Aliases {
		aliases[a] = m.ID
	}
}

// Lookup finds a module by ID or alias.
func Lookup(name string) (Module, error) {
	mu.RLock()
	defer mu.RUnlock()
	if id, ok := aliases[name]; ok {
		name = id
	}
	m, ok := modules[name]
	if !ok {
		return Module{}, fmt.Errorf("%w %q (known: %s)", ErrUnknown, name, strings.Join(idsLocked(), ", "))
	}
	return m, nil
}

// IDs returns the registered module IDs, sorted.
func IDs() []string {
	mu.RLock()
	defer mu.RUnlock()
	return idsLocked()
}

func idsLocked() []string { return slices.Sorted(maps.Keys(modules)) }

// Entry is one `plugins:` item of a scenario.
type Entry struct {
	// Type is the module ID or alias.
	Type string `yaml:"type"`
	// Class is another spelling of Type, for entries written as PyBulletFleet's (`class:` with
	// a dotted name); giving both with different values is an error.
	Class string `yaml:"class"`
	// Frequency in Hz; 0 or absent: every step.
	Frequency float64 `yaml:"frequency"`
	// Priority orders the systems as gz-sim does: lower first, ties in the order listed. When
	// absent, a pasted <plugin> element's <gz:system_priority> gives it, else 0.
	Priority *int `yaml:"priority"`
	// Model attaches the system to one model instead of the world.
	Model string `yaml:"model"`
	// Config is decoded strictly onto the system.
	Config yaml.Node `yaml:"config"`
	// XML is a Gazebo <plugin> element pasted verbatim; its name/filename attribute gives the
	// type when Type is empty.
	XML string `yaml:"xml"`
}

// Built is a constructed system ready for world.AddSystem.
type Built struct {
	System  any
	Options world.SystemOptions
}

// Build constructs the system an entry describes.
func Build(e Entry) (Built, error) {
	typ := e.Type
	if e.Class != "" {
		if typ != "" && typ != e.Class {
			return Built{}, fmt.Errorf("plugin entry gives type %q and class %q: give one (class is another name for type)", typ, e.Class)
		}
		typ = e.Class
	}
	if typ == "" && e.XML != "" {
		typ = xmlPluginName(e.XML)
	}
	if typ == "" {
		return Built{}, errors.New("plugin entry needs a type (or class)")
	}
	m, err := Lookup(typ)
	if err != nil {
		return Built{}, err
	}
	sys := m.New()
	if e.XML != "" {
		xc, ok := sys.(XMLConfigurer)
		if !ok {
			return Built{}, fmt.Errorf("system %s does not take an XML <plugin> element", m.ID)
		}
		if err := xc.ConfigureXML([]byte(e.XML)); err != nil {
			return Built{}, fmt.Errorf("system %s: %w", m.ID, err)
		}
	}
	if !e.Config.IsZero() {
		if err := decodeStrict(&e.Config, sys, m.ID); err != nil {
			return Built{}, err
		}
	}
	if e.Model != "" {
		at, ok := sys.(world.ModelAttacher)
		if !ok {
			return Built{}, fmt.Errorf("system %s cannot attach to a model", m.ID)
		}
		if err := at.AttachModel(e.Model); err != nil {
			return Built{}, fmt.Errorf("system %s: %w", m.ID, err)
		}
	}
	if v, ok := sys.(Validator); ok {
		if err := v.Validate(); err != nil {
			return Built{}, fmt.Errorf("system %s: %w", m.ID, err)
		}
	}
	if e.Frequency < 0 {
		return Built{}, fmt.Errorf("system %s: frequency %g must not be negative", m.ID, e.Frequency)
	}
	if e.Frequency != 0 && e.Frequency < world.MinFrequency {
		return Built{}, fmt.Errorf("system %s: frequency %g Hz is below the lowest, %g Hz (0 runs it every step)", m.ID, e.Frequency, world.MinFrequency)
	}
	priority := 0
	if e.XML != "" {
		p, ok, err := xmlPriority(e.XML)
		if err != nil {
			return Built{}, fmt.Errorf("system %s: %w", m.ID, err)
		}
		if ok {
			priority = p
		}
	}
	if e.Priority != nil {
		priority = *e.Priority
	}
	return Built{System: sys, Options: world.SystemOptions{Name: m.ID, Frequency: e.Frequency, Priority: priority}}, nil
}

// xmlPriority reads gz-sim's <gz:system_priority> child of a <plugin> element (any namespace
// prefix): a 32-bit integer, as gz reads it.
func xmlPriority(x string) (int, bool, error) {
	var el struct {
		Priority *string `xml:"system_priority"`
	}
	if err := xml.Unmarshal([]byte(x), &el); err != nil || el.Priority == nil {
		return 0, false, nil // a malformed element is the system's ConfigureXML to report
	}
	p, err := strconv.ParseInt(strings.TrimSpace(*el.Priority), 10, 32)
	if err != nil {
		return 0, false, fmt.Errorf("<system_priority>%s</system_priority>: want a whole number", *el.Priority)
	}
	return int(p), true, nil
}

var (
	xmlTagRE  = regexp.MustCompile(`<plugin\b[^>]*>`)
	xmlAttrRE = regexp.MustCompile(`\b(name|filename)\s*=\s*"([^"]*)"`)
)

// xmlPluginName takes the type from a <plugin> element's name (preferred) or filename.
func xmlPluginName(x string) string {
	var name, file string
	for _, m := range xmlAttrRE.FindAllStringSubmatch(xmlTagRE.FindString(x), -1) {
		if m[1] == "name" && name == "" {
			name = m[2]
		} else if m[1] == "filename" && file == "" {
			file = m[2]
		}
	}
	if _, err := Lookup(name); name != "" && err == nil {
		return name
	}
	// Gazebo accepts filenames with or without the lib prefix and .so suffix.
	if bare := strings.TrimSuffix(strings.TrimPrefix(file, "lib"), ".so"); bare != file {
		if _, err := Lookup(bare); err == nil {
			return bare
		}
	}
	if file != "" {
		return file
	}
	return name
}

// decodeStrict decodes node onto dst rejecting unknown keys at every level. The top level is
// checked first so the error names the key plainly. Node itself is decoded, not a copy, so
// errors give the lines of the file it was read from, and key paths from "config" ("line 7:
// config.keyframes must be a list, not a number"); a number with a fraction for a
// whole-number setting is refused, not cut.
func decodeStrict(node *yaml.Node, dst any, id string) error {
	if node.Kind == yaml.MappingNode {
		known := yamlFields(reflect.TypeOf(dst))
		if known != nil {
			for i := 0; i+1 < len(node.Content); i += 2 {
				k := node.Content[i].Value
				if !known[k] {
					return fmt.Errorf("system %s: unknown config key %q (known: %s)", id, k,
						strings.Join(slices.Sorted(maps.Keys(known)), ", "))
				}
			}
		}
	}
	// Node.Decode has no KnownFields: the keys below the top are checked by the walk.
	doc := yamlkinds.Doc{Node: node, Type: reflect.TypeOf(dst), Path: "config"}
	if err := doc.CheckKeys(); err != nil {
		return fmt.Errorf("system %s: %w", id, err)
	}
	if err := node.Decode(dst); err != nil {
		return fmt.Errorf("system %s: %s", id, doc.Explain(err))
	}
	if err := doc.CheckWholeNumbers(); err != nil {
		return fmt.Errorf("system %s: %w", id, err)
	}
	return nil
}

// yamlFields lists the yaml keys of a struct (or pointer to struct), following inline fields;
// nil for other types.
func yamlFields(t reflect.Type) map[string]bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	out := map[string]bool{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("yaml")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" {
			continue
		}
		if strings.Contains(opts, "inline") {
			for k := range yamlFields(f.Type) {
				out[k] = true
			}
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		out[name] = true
	}
	return out
}
