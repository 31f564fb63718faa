package plugins

import (
	"slices"
	"strings"
	"sync"

	"github.com/Masterminds/semver/v3"
)

// ValidateManifest checks a manifest's values: pluginId set and safe as a folder name, type
// vehicle or track, displayName set, version "major.minor.patch", compatibleRuntime (when set)
// a version constraint. Paths start with "manifest.".
func ValidateManifest(m Manifest) Problems {
	var ps Problems
	switch {
	case m.PluginID == "":
		ps.add("manifest.pluginId", "is empty")
	case !SafeID(m.PluginID):
		ps.add("manifest.pluginId", "%q is not a safe folder name (letters, digits, '.', '_' and '-', not starting with '.' or '-')", m.PluginID)
	}
	if m.Type != TypeVehicle && m.Type != TypeTrack {
		ps.add("manifest.type", "invalid plugin type %s (expected 'vehicle' or 'track')", pyRepr(string(m.Type)))
	}
	if m.DisplayName == "" {
		ps.add("manifest.displayName", "is empty")
	}
	if _, ok := ParseContractVersion(m.Version); !ok {
		ps.add("manifest.version", "%q is not major.minor.patch", m.Version)
	}
	if m.CompatibleRuntime != "" {
		if _, err := semver.NewConstraint(m.CompatibleRuntime); err != nil {
			ps.add("manifest.compatibleRuntime", "%q is not a version constraint such as >=0.2.0 or >=1.0.0,<2.0.0: %v", m.CompatibleRuntime, err)
		}
	}
	return ps
}

// ValidateVehicle checks a vehicle plugin as its values stand — what the CLI, the registry and
// the editor all use. m may be nil (no manifest to check); the device contract is
// v.Contract. It applies rusim's rules (id, displayName, version, contract with
// sensors and actuators), the id convention with the id's major equal to version.major, the
// manifest's agreement with the descriptor, the device contract's rules (deviceId is the
// plugin id; unique sensor and actuator ids; a sensorType the runtime handles with a matching
// format and shape; rateHz > 0; actuator min < max) and the simulation data (body, drive,
// visual, one mount per contract sensor of a kind that produces it). A descriptor without
// any simulation data (a rusim Unity export) gets a warning and is checked as WithFallback
// fills it.
func ValidateVehicle(m *Manifest, v *VehicleDescriptor) Problems {
	var ps Problems
	if v == nil {
		ps.add("descriptor.json", "missing")
		return ps
	}
	if m != nil {
		ps = append(ps, ValidateManifest(*m)...)
		ps.agree(*m, v.ID, v.Version)
	}
	ps.base(TypeVehicle, v.ID, v.DisplayName, v.Version, true)
	ps.contract(v)
	sim := v
	if !v.HasSimulationData() {
		dt := v.DeviceType
		if dt == "" && v.Contract != nil {
			dt = v.Contract.DeviceType
		}
		ps.warn("descriptor", "no simulation data (body, drive, visual, sensor mounts): simgui simulates it with those of %s, the fallback for deviceType %q",
			fallbackID(dt), dt)
		sim = v.WithFallback()
	}
	ps.vehicleSimulation(sim)
	return ps
}

// ValidateTrack checks a track plugin as its values stand. m may be nil. It applies rusim's
// rules (id, displayName, version, parametersSchemaJson), the id convention, the
// manifest's agreement with the descriptor, that parametersSchemaJson compiles as a JSON
// Schema (without fetching anything it references), that the generator is one the runtime
// registered, and the geometry (floor, elements, route). A track without any layout (a rusim
// Unity export) gets a warning: it simulates as an empty floor.
func ValidateTrack(m *Manifest, t *TrackDescriptor) Problems {
	var ps Problems
	if t == nil {
		ps.add("descriptor.json", "missing")
		return ps
	}
	if m != nil {
		ps = append(ps, ValidateManifest(*m)...)
		ps.agree(*m, t.ID, t.Version)
	}
	ps.base(TypeTrack, t.ID, t.DisplayName, t.Version, true)
	if t.Generator != "" {
		if known := DeclaredGenerators(); len(known) > 0 && !slices.Contains(known, t.Generator) {
			ps.add("descriptor.generator", "unknown track generator %q (known: %s)", t.Generator, strings.Join(known, ", "))
		}
	} else if t.Floor == nil && len(t.Elements) == 0 {
		ps.warn("descriptor", "no layout (generator, floor, elements): simgui lays the track out as an empty 20 m floor")
	}
	ps.trackSimulation(t)
	return ps
}

// Validate checks p with ValidateVehicle or ValidateTrack, as its manifest's type says.
func (p *Plugin) Validate() Problems {
	switch {
	case p.Vehicle != nil:
		return ValidateVehicle(&p.Manifest, p.Vehicle)
	case p.Track != nil:
		return ValidateTrack(&p.Manifest, p.Track)
	}
	ps := ValidateManifest(p.Manifest)
	ps.add("descriptor.json", "missing")
	return ps
}

// agree checks that the manifest says what the descriptor says.
func (ps *Problems) agree(m Manifest, id string, v ContractVersion) {
	if m.PluginID != "" && id != "" && m.PluginID != id {
		ps.add("manifest.pluginId", "%q differs from descriptor.id %q", m.PluginID, id)
	}
	if mv, ok := ParseContractVersion(m.Version); ok && mv != v {
		ps.add("manifest.version", "%q differs from descriptor.version %s", m.Version, v)
	}
}

// base checks PluginDescriptorBase: id (and, when convention is set, its form, type and major),
// displayName and version.
func (ps *Problems) base(typ Type, id, displayName string, v ContractVersion, convention bool) {
	if id == "" {
		ps.add("descriptor.id", "is empty")
	} else if convention {
		switch idType, major, err := ParseID(id); {
		case err != nil:
			ps.add("descriptor.id", "%v", err)
		case idType != typ:
			ps.add("descriptor.id", "%q is a %s id, but this is a %s plugin", id, idType, typ)
		case v.IsValid() && major != v.Major:
			ps.add("descriptor.id", "%q says v%d, but version.major is %d", id, major, v.Major)
		}
	}
	if displayName == "" {
		ps.add("descriptor.displayName", "is empty")
	}
	if !v.IsValid() {
		ps.add("descriptor.version", "%s has a negative component", v)
	}
}

// HasSimulationData reports whether v carries any simulation data of its own (body, drive,
// visual or sensor mounts). Descriptors exported by rusim's Unity SDK carry none; they are
// simulated as WithFallback fills them. A descriptor with some must carry all.
func (v *VehicleDescriptor) HasSimulationData() bool {
	return v.Body != nil || v.Drive != nil || v.Visual != nil || len(v.Sensors) > 0
}

// HasLayout reports whether t describes geometry of its own: a generator, a floor or
// elements.
func (t *TrackDescriptor) HasLayout() bool {
	return t.Generator != "" || t.Floor != nil || len(t.Elements) > 0
}

var generators = struct {
	sync.RWMutex
	names  []string
	floors map[string]FloorUse
}{}

// FloorUse is how much of a track descriptor's floor its generator takes.
type FloorUse int

const (
	// FloorWhole: the floor as given, its size, place and look (the static generator, and a
	// track without a generator).
	FloorWhole FloorUse = iota
	// FloorLook: the floor's texture and colour; the generator sizes and places it.
	FloorLook
	// FloorNone: none of it; the generator lays a floor of its own.
	FloorNone
)

// StaticGenerator is the track generator whose layout is the descriptor's own geometry; a
// track that names no generator uses it.
const StaticGenerator = "static"

// DescriptorIsLayout reports whether a track with this generator is laid out as its
// descriptor's geometry says, so that its places can be checked and edited where written.
func DescriptorIsLayout(generator string) bool {
	return generator == "" || generator == StaticGenerator
}

// DeclareGenerator records that a track generator called name exists and how much of a
// descriptor's floor it takes, so that validation can name unknown generators and floor
// fields nothing reads without importing plugins/trackgen (which imports this package).
// trackgen.Register calls it. Until some generator is declared, generator names are not
// checked (nor the floor sizes of a track that names one).
func DeclareGenerator(name string, floor FloorUse) {
	generators.Lock()
	defer generators.Unlock()
	if !slices.Contains(generators.names, name) {
		generators.names = append(generators.names, name)
		slices.Sort(generators.names)
	}
	if generators.floors == nil {
		generators.floors = map[string]FloorUse{}
	}
	generators.floors[name] = floor
}

// DeclaredGenerators returns the declared generator names, sorted.
func DeclaredGenerators() []string {
	generators.RLock()
	defer generators.RUnlock()
	return slices.Clone(generators.names)
}

// GeneratorFloor returns how much of its floor a track with generator name uses: the whole
// of it without a generator; for a generator not declared (its own problem, or no generators
// linked in), only the look, since most generators place the floor themselves.
func GeneratorFloor(name string) FloorUse {
	use, _ := generatorFloor(name)
	return use
}

// generatorFloor is GeneratorFloor, and whether the generator was declared.
func generatorFloor(name string) (FloorUse, bool) {
	if name == "" {
		return FloorWhole, true
	}
	generators.RLock()
	defer generators.RUnlock()
	if f, ok := generators.floors[name]; ok {
		return f, true
	}
	return FloorLook, false
}

// fallbackID names the built-in FallbackVehicle uses for deviceType.
func fallbackID(deviceType string) string {
	if id, ok := fallbackByDeviceType[deviceType]; ok {
		return id
	}
	return fallbackDefault
}
