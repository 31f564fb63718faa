package plugins

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The files of a plugin archive, all at its root, plus the optional assets
// folder and the signature simgui adds (see plugins/signing).
const (
	ManifestFile   = "manifest.json"
	DescriptorFile = "descriptor.json"
	ContractFile   = "device-contract.json"
	ReadmeFile     = "README.md"
	SignatureFile  = "SIGNATURE.json"
	AssetsDir      = "assets"
)

// Plugin is one plugin as its files describe it. Exactly one of Vehicle (with its Contract)
// and Track is set, as Manifest.Type says.
type Plugin struct {
	Manifest Manifest
	Vehicle  *VehicleDescriptor
	Track    *TrackDescriptor
}

// ID returns the plugin id from the manifest.
func (p *Plugin) ID() string { return p.Manifest.PluginID }

// DecodePlugin reads a plugin from its files by name (manifest.json, descriptor.json,
// device-contract.json, README.md; other names are ignored here, the archive reader polices
// them). It reports every decoding problem with its path: a missing file, bytes that are not
// UTF-8, malformed JSON (with line and column), a value of the wrong JSON type, a manifest key
// that is missing. The plugin is nil when the manifest or the descriptor cannot be read. A
// field simgui does not know is ignored with a warning. DecodePlugin does not validate values:
// see ReadPlugin.
func DecodePlugin(files map[string][]byte) (*Plugin, Problems) {
	var ps Problems
	mb, ok := files[ManifestFile]
	if !ok {
		ps.add(ManifestFile, "missing: a plugin archive has manifest.json at its root")
		return nil, ps
	}
	m, mps := decodeManifest(mb)
	ps = append(ps, mps...)
	if len(mps.Errors()) > 0 {
		return nil, ps
	}
	if _, ok := files[ReadmeFile]; !ok {
		// rusim's installer asks for manifest.json alone.
		ps.warn(ReadmeFile, "missing: a plugin archive usually has a README.md at its root saying what the plugin is")
	}
	db, ok := files[DescriptorFile]
	if !ok && m.Type == TypeTrack {
		// rusim's track template (`rusim plugin new --type track`) has none.
		ps.warn(DescriptorFile, "missing: simgui uses a descriptor made from manifest.json (id, displayName, version) with no layout")
		return &Plugin{Manifest: m, Track: TrackFromManifest(m)}, ps
	}
	if !ok {
		ps.add(DescriptorFile, "missing: a plugin archive has descriptor.json at its root")
		return nil, ps
	}
	p := &Plugin{Manifest: m}
	switch m.Type {
	case TypeVehicle:
		var v VehicleDescriptor
		dps := decodeJSON(DescriptorFile, "descriptor", db, &v)
		ps = append(ps, dps...)
		if len(dps.Errors()) > 0 {
			return nil, ps
		}
		if cb, ok := files[ContractFile]; !ok {
			ps.add(ContractFile, "missing: a vehicle plugin has device-contract.json at its root")
		} else {
			c, cps := decodeContract(cb)
			ps = append(ps, cps...)
			v.Contract = c
		}
		if v.DeviceType == "" && v.Contract != nil {
			v.DeviceType = v.Contract.DeviceType
		}
		LoadMaterialImages(v.Materials, files)
		p.Vehicle = &v
	case TypeTrack:
		var t TrackDescriptor
		dps := decodeJSON(DescriptorFile, "descriptor", db, &t)
		ps = append(ps, dps...)
		if len(dps.Errors()) > 0 {
			return nil, ps
		}
		if _, ok := files[ContractFile]; ok {
			ps.add(ContractFile, "a track plugin has no device contract; remove the file")
		}
		LoadMaterialImages(t.Materials, files)
		p.Track = &t
	}
	return p, ps
}

// TrackFromManifest is the descriptor of a track plugin that has no descriptor.json, as
// rusim's track template has none: the manifest's id, display name and version, no parameters
// schema (the common parameters are checked) and no layout, which simulates as an empty floor.
func TrackFromManifest(m Manifest) *TrackDescriptor {
	v, _ := ParseContractVersion(m.Version)
	return &TrackDescriptor{ID: m.PluginID, DisplayName: m.DisplayName, Version: v}
}

// ReadPlugin decodes a plugin from its files and validates it (Plugin.Validate): the one
// check the CLI's validate, export and install and the registry's load all run. The plugin is
// nil when it could not be decoded; problems hold errors and warnings.
func ReadPlugin(files map[string][]byte) (*Plugin, Problems) {
	p, ps := DecodePlugin(files)
	if p == nil {
		return nil, ps
	}
	vps := append(p.Validate(), checkAssetImages(files)...)
	if slices.ContainsFunc(ps.Errors(), func(pr Problem) bool { return strings.HasPrefix(pr.Path, "device-contract") }) {
		// The contract is there but did not decode: that was said; "missing" would mislead.
		vps = slices.DeleteFunc(vps, func(pr Problem) bool { return pr.Path == ContractFile })
	}
	return p, append(ps, vps...)
}

// ForSimulation returns the vehicle as the runtime spawns it: a copy of p.Vehicle, filled by
// WithFallback when it has no simulation data. Nil for tracks.
func (p *Plugin) ForSimulation() *VehicleDescriptor {
	if p.Vehicle == nil {
		return nil
	}
	if !p.Vehicle.HasSimulationData() {
		return p.Vehicle.WithFallback()
	}
	return p.Vehicle.Clone()
}

// missingKey is the message of a required manifest key that is absent or empty.
const missingKey = "required key is missing or empty"

// manifestKeys are the keys rusim's CLI requires, in the order it names them.
var manifestKeys = []string{"pluginId", "type", "displayName", "version"}

// decodeManifest reads manifest.json: JSON problems, missing keys, values (ValidateManifest).
func decodeManifest(b []byte) (Manifest, Problems) {
	var raw map[string]json.RawMessage
	if ps := decodeJSON(ManifestFile, "manifest", b, &raw); len(ps) > 0 {
		return Manifest{}, ps
	}
	var ps Problems
	for _, k := range manifestKeys {
		if falsy(raw[k]) {
			ps.add("manifest."+k, missingKey)
		}
	}
	var m Manifest
	ps = append(ps, decodeJSON(ManifestFile, "manifest", b, &m)...)
	if len(ps) > 0 {
		return m, ps
	}
	return m, ValidateManifest(m)
}

// falsy reports whether a JSON value is absent or false as Python sees it (null, "", 0, false,
// [], {}), which is how rusim's CLI decides a required key is missing.
func falsy(v json.RawMessage) bool {
	var c bytes.Buffer
	if len(v) == 0 || json.Compact(&c, v) != nil {
		return true
	}
	switch c.String() {
	case "null", `""`, "false", "[]", "{}":
		return true
	}
	var x float64
	return json.Unmarshal(v, &x) == nil && x == 0
}

// decodeContract reads device-contract.json in either shape ReadDeviceContract accepts: the
// bare contract or the Editor asset's {"contractVersion", "descriptor"} wrapper.
func decodeContract(b []byte) (*DeviceContract, Problems) {
	var raw map[string]json.RawMessage
	if ps := decodeJSON(ContractFile, "device-contract", b, &raw); len(ps) > 0 {
		return nil, ps
	}
	var ps Problems
	body, prefix := b, "device-contract"
	if d := raw["descriptor"]; len(d) > 0 && !bytes.Equal(bytes.TrimSpace(d), []byte("null")) {
		body, prefix = d, "device-contract.descriptor"
		if cv := raw["contractVersion"]; len(cv) > 0 {
			var v ContractVersion
			ps = append(ps, decodeJSON(ContractFile, "device-contract.contractVersion", cv, &v)...)
			if !v.IsValid() {
				ps.add("device-contract.contractVersion", "%s has a negative component", v)
			}
		}
	}
	var c DeviceContract
	cps := decodeJSON(ContractFile, prefix, body, &c)
	ps = append(ps, cps...)
	if len(cps.Errors()) > 0 {
		return nil, ps
	}
	return &c, ps
}

// decodeJSON unmarshals b into v, returning problems at prefix paths. Fields v does not have
// are ignored with a warning (rusim's exports carry Unity fields).
func decodeJSON(file, prefix string, b []byte, v any) Problems {
	var ps Problems
	if !utf8.Valid(b) {
		ps.add(file, "is not UTF-8 text")
		return ps
	}
	if err := json.Unmarshal(b, v); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			line, col := position(b, se.Offset)
			ps.add(file, "malformed JSON at line %d, column %d: %s", line, col, strings.TrimPrefix(se.Error(), "json: "))
		case errors.As(err, &te):
			path := prefix + jsonPathAt(b, te.Offset)
			ps.add(path, "%s", typeProblem(te))
		default:
			ps.add(file, "%v", strings.TrimPrefix(err.Error(), "json: "))
		}
		return ps
	}
	if _, isMap := v.(*map[string]json.RawMessage); isMap {
		return ps
	}
	if at := duplicateKey(b); at != "" {
		ps.add(prefix+at, "the key appears twice in its object: JSON readers disagree on which one counts")
		return ps
	}
	ps.warnUnknownFields(prefix, b, reflect.TypeOf(v))
	return ps
}

// jsonPathAt returns the path (".a[2].b") of the value in b that starts at or ends at byte
// off — where json.UnmarshalTypeError points: after the opening delimiter of an object or an
// array, after the last byte of any other value. Its Field names no array indices.
func jsonPathAt(b []byte, off int64) string {
	w := newJSONWalker(b)
	for {
		t, err := w.d.Token()
		if err != nil {
			return ""
		}
		if _, isKey := w.key(t); isKey {
			continue
		}
		if w.close(t) {
			continue
		}
		if w.d.InputOffset() == off {
			return w.path()
		}
		w.open(t)
	}
}

// position turns a byte offset into a 1-based line and column.
func position(b []byte, off int64) (line, col int) {
	if off > int64(len(b)) {
		off = int64(len(b))
	}
	before := b[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(off) - (bytes.LastIndexByte(before, '\n') + 1)
	if col < 1 {
		col = 1
	}
	return line, col
}

// typeProblem says what is wrong with a value json could not store: a number that does not fit
// its field (1e999, 2.5 for a whole number, 1e30 for an int), or a value of another kind.
func typeProblem(te *json.UnmarshalTypeError) string {
	want := goKind(te.Type)
	num, isNum := strings.CutPrefix(te.Value, "number ")
	switch {
	case !isNum || !strings.HasSuffix(want, "number"):
		return fmt.Sprintf("is %s, want %s", jsonKind(te.Value), want)
	case want == "a whole number" && strings.ContainsAny(num, ".eE"):
		if f, err := strconv.ParseFloat(num, 64); err == nil && f != math.Trunc(f) {
			return fmt.Sprintf("%s is not a whole number", num)
		}
	}
	return fmt.Sprintf("%s is out of range for %s", num, want)
}

// jsonKind names a JSON value the way UnmarshalTypeError's Value does: "a number", ...
func jsonKind(v string) string {
	switch {
	case v == "object" || v == "array":
		return "an " + v
	case strings.HasPrefix(v, "number"):
		return "a number"
	case v == "string" || v == "bool":
		return "a " + map[string]string{"string": "string", "bool": "boolean"}[v]
	}
	return v
}

// goKind names the JSON kind a Go type wants.
func goKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Pointer:
		return goKind(t.Elem())
	}
	return fmt.Sprint(t)
}
