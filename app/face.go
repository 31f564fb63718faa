package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"simgui/app/yamlkinds"
)

// Face is an outside face of the process — the window, the device bridge, /control, the
// recorder, the training API. A face works on the host's worlds and nothing else: it imports
// no other face, and meets the others through the Host.
type Face interface {
	// Start brings the face up: when it returns nil the face is serving (ports bound,
	// offers registered with h). ctx ends when the host shuts down.
	Start(ctx context.Context, h *Host) error
	// Shutdown stops the face and waits for what it started, within ctx's deadline.
	Shutdown(ctx context.Context) error
}

// MainRunner is a face that needs the process's main goroutine (the window, whose toolkit
// insists on it). Host.Run calls RunMain there once every face has started; when it returns,
// the host shuts down.
type MainRunner interface {
	RunMain(ctx context.Context) error
}

// FaceValidator is a face that checks its configuration after it is decoded.
type FaceValidator interface {
	Validate() error
}

// FaceReadyChecker is implemented by a face with a setting it cannot run without that a face
// left off may lack (the fast path's socket). Faces checks it for the faces it turns on, so
// that the run is refused naming the setting before any face starts, rather than after the
// others are listening.
type FaceReadyChecker interface {
	CheckReady() error
}

// FaceModule describes a face type for the registry.
type FaceModule struct {
	// ID is the dotted registry name, "faces.<name>"; the name alone also finds it.
	ID string
	// New returns a face with its defaults, not yet started: a pointer to its configuration,
	// onto which a face's settings (yaml keys) are decoded strictly.
	New func() Face
	// Default is whether the face is on unless its settings turn it off.
	Default bool
	// OnWith names a setting that turns a face off by default on when given (the fast path's
	// socket): it says the face is wanted, where its other settings only tune it.
	OnWith string
	// Doc is one line for listings.
	Doc string
	// Absent, when set, says why this build lacks the face (the headless build has no
	// window). New is then nil: a scenario written for the full build still loads, its
	// settings for the face are ignored, and turning the face on is an error saying why.
	Absent string
	// Settings, for an Absent face, are the setting names the builds that have it take: a
	// name not among them is refused as it is there.
	Settings []string
}

// WindowSettings are the window face's setting names (its Face's yaml keys), for the headless
// build, which has no window but refuses what the window would.
var WindowSettings = []string{"height", "recordDir", "screenshotDir", "width"}

// WindowFaceID is the window's face in the registry: app/window registers it, and the headless
// build, which cannot import that package, registers it as absent.
const WindowFaceID = "faces.window"

// Name returns the module's short name ("bridge" for "faces.bridge").
func (m FaceModule) Name() string { return m.ID[strings.LastIndexByte(m.ID, '.')+1:] }

var (
	facesMu sync.RWMutex
	faces   = map[string]FaceModule{}
	faceID  = regexp.MustCompile(`^faces\.[a-z][a-z0-9_]*$`)
)

// RegisterFace adds a face type; faces register in their package's init. It panics on a
// malformed or duplicate ID: both are programming errors found at start.
func RegisterFace(m FaceModule) {
	if !faceID.MatchString(m.ID) || (m.New == nil) == (m.Absent == "") {
		panic(fmt.Sprintf("app: bad face module %q (IDs are faces.<name>; New or Absent is required, not both)", m.ID))
	}
	facesMu.Lock()
	defer facesMu.Unlock()
	if _, dup := faces[m.ID]; dup {
		panic("app: duplicate face " + m.ID)
	}
	faces[m.ID] = m
}

// FaceModules returns the registered face types, sorted by ID.
func FaceModules() []FaceModule {
	facesMu.RLock()
	defer facesMu.RUnlock()
	out := make([]FaceModule, 0, len(faces))
	for _, id := range slices.Sorted(maps.Keys(faces)) {
		out = append(out, faces[id])
	}
	return out
}

// LookupFace finds a face type by ID or short name.
func LookupFace(name string) (FaceModule, error) {
	facesMu.RLock()
	defer facesMu.RUnlock()
	if m, ok := faces[name]; ok {
		return m, nil
	}
	if m, ok := faces["faces."+name]; ok {
		return m, nil
	}
	return FaceModule{}, fmt.Errorf("unknown face %q (known: %s)", name, strings.Join(slices.Sorted(maps.Keys(faces)), ", "))
}

// FaceSettings turn faces on or off and configure them: by face name or ID, either false (off),
// true (on with defaults) or a mapping of the face's settings, optionally with enabled. A
// scenario's faces block and the command line's flags are both FaceSettings; later layers win
// key by key.
type FaceSettings map[string]any

// TurnsOff says whether s turns the face name off: false, or a mapping with enabled: false.
func (s FaceSettings) TurnsOff(name string) bool {
	want, err := LookupFace(name)
	if err != nil {
		return false
	}
	for k, v := range s {
		if m, err := LookupFace(k); err != nil || m.ID != want.ID {
			continue
		}
		switch v := v.(type) {
		case bool:
			return !v
		case map[string]any:
			if on, ok := v["enabled"].(bool); ok {
				return !on
			}
		}
	}
	return false
}

// Faces makes the faces the settings turn on, each with its settings decoded strictly (an
// unknown key is an error naming the face, also for a face that stays off), in registry order.
// A face that is off by default (the window, the fast path) comes up with true, enabled: true
// or its OnWith setting (the fast path's socket), unless some layer says enabled: false (or
// false).
func Faces(layers ...FaceSettings) ([]Face, error) {
	merged := map[string]map[string]any{}
	for _, layer := range layers {
		for _, name := range slices.Sorted(maps.Keys(layer)) {
			m, err := LookupFace(name)
			if err != nil {
				return nil, err
			}
			cfg := merged[m.ID]
			if cfg == nil {
				cfg = map[string]any{}
				merged[m.ID] = cfg
			}
			switch v := layer[name].(type) {
			case bool:
				cfg["enabled"] = v
			case nil:
				cfg["enabled"] = true
			case map[string]any:
				maps.Copy(cfg, v)
			default:
				return nil, fmt.Errorf("faces.%s: want true, false or a mapping of settings, not %s", m.Name(), yamlkinds.KindOfValue(v))
			}
		}
	}
	var out []Face
	for _, m := range FaceModules() {
		cfg := maps.Clone(merged[m.ID])
		if m.Absent != "" {
			if e, ok := cfg["enabled"]; ok && e == true {
				return nil, fmt.Errorf("faces.%s: %s", m.Name(), m.Absent)
			}
			if m.Settings != nil {
				for _, k := range slices.Sorted(maps.Keys(cfg)) {
					if k != "enabled" && !slices.Contains(m.Settings, k) {
						return nil, fmt.Errorf("faces.%s: unknown setting %q (known: %s)", m.Name(), k, strings.Join(append(slices.Clone(m.Settings), "enabled"), ", "))
					}
				}
			}
			continue
		}
		on := m.Default
		if _, ok := cfg[m.OnWith]; ok && m.OnWith != "" {
			on = true
		}
		if e, ok := cfg["enabled"]; ok {
			b, isBool := e.(bool)
			if !isBool {
				return nil, fmt.Errorf("faces.%s.enabled: want true or false, not %s", m.Name(), yamlkinds.KindOfValue(e))
			}
			on = b
			delete(cfg, "enabled")
		}
		// Settings are checked even for a face that stays off, so a typo never goes unseen.
		f := m.New()
		if len(cfg) > 0 {
			if err := decodeFace(f, cfg, "faces."+m.Name()); err != nil {
				return nil, err
			}
		}
		if v, ok := f.(FaceValidator); ok {
			if err := v.Validate(); err != nil {
				return nil, fmt.Errorf("faces.%s: %w", m.Name(), err)
			}
		}
		if on {
			if c, ok := f.(FaceReadyChecker); ok {
				if err := c.CheckReady(); err != nil {
					return nil, fmt.Errorf("faces.%s: %w", m.Name(), err)
				}
			}
			out = append(out, f)
		}
	}
	return out, nil
}

// decodeFace decodes settings onto f through YAML, refusing unknown keys and numbers with a
// fraction for whole-number settings. path is the face's key path ("faces.api"); errors start
// with it and name the setting and the kinds wanted and found, without line numbers: the
// settings are values by now (a scenario's faces block or flags), re-encoded here.
func decodeFace(f Face, cfg map[string]any, path string) error {
	known := settingNames(f)
	for _, k := range slices.Sorted(maps.Keys(cfg)) {
		if !slices.Contains(known, k) {
			return fmt.Errorf("%s: unknown setting %q (known: %s)", path, k, strings.Join(append(known, "enabled"), ", "))
		}
	}
	raw, err := yaml.Marshal(cfg)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	doc := yamlkinds.Doc{Node: new(yaml.Node), Type: reflect.TypeOf(f), Path: path, HideLines: true}
	if err := yaml.Unmarshal(raw, doc.Node); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := doc.CheckKeys(); err != nil {
		return err // a key below the top, in a setting that is a mapping
	}
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	dec.KnownFields(true)
	if err := dec.Decode(f); err != nil {
		var te *yaml.TypeError
		if errors.As(err, &te) {
			return errors.New(doc.Explain(err))
		}
		return fmt.Errorf("%s: %w", path, err)
	}
	return doc.CheckWholeNumbers()
}

// settingNames lists the yaml keys of a face's exported fields, sorted.
func settingNames(f Face) []string {
	t := reflect.TypeOf(f)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var out []string
	for i := range t.NumField() {
		fl := t.Field(i)
		name, _, _ := strings.Cut(fl.Tag.Get("yaml"), ",")
		if !fl.IsExported() || name == "-" {
			continue
		}
		if name == "" {
			name = strings.ToLower(fl.Name)
		}
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// FaceName names a face for logs and the start tracker: its registry ID.
func FaceName(f Face) string {
	for _, m := range FaceModules() {
		if m.New != nil && fmt.Sprintf("%T", m.New()) == fmt.Sprintf("%T", f) {
			return m.ID
		}
	}
	return fmt.Sprintf("face %T", f)
}
