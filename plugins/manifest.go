package plugins

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/Masterminds/semver/v3"
)

// Manifest is an archive's manifest.json (seed 002 §5.6.1): who the plugin is, its version as
// "major.minor.patch" and the runtime versions it works with.
type Manifest struct {
	PluginID    string `json:"pluginId"`
	Type        Type   `json:"type"`
	DisplayName string `json:"displayName"`
	// Version is the plugin version as "major.minor.patch" (see ParseContractVersion).
	Version string `json:"version"`
	// CompatibleRuntime is a version constraint such as ">=0.1.0" or ">=1.0.0,<2.0.0"; empty
	// means any runtime.
	CompatibleRuntime string `json:"compatibleRuntime,omitempty"`
	Author            string `json:"author"`
}

// ContractVersion returns the parsed Version; ReadManifest has already checked it parses.
func (m Manifest) ContractVersion() ContractVersion {
	v, _ := ParseContractVersion(m.Version)
	return v
}

// ReadManifest parses manifest.json and checks what rusim's CLI checks on install: the required
// keys pluginId, type, displayName and version are present, type is vehicle or track, version
// is "major.minor.patch", and compatibleRuntime (when set) is a valid version constraint.
func ReadManifest(b []byte) (Manifest, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return Manifest{}, fmt.Errorf("manifest.json: %w", err)
	}
	var missing []string
	for _, k := range []string{"pluginId", "type", "displayName", "version"} {
		if v, ok := raw[k]; !ok || string(v) == "null" || string(v) == `""` {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return Manifest{}, fmt.Errorf("manifest.json missing required keys: %s", strings.Join(missing, ", "))
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return Manifest{}, fmt.Errorf("manifest.json: %w", err)
	}
	if m.Type != TypeVehicle && m.Type != TypeTrack {
		return Manifest{}, fmt.Errorf("manifest.json: invalid plugin type: %q (expected 'vehicle' or 'track')", m.Type)
	}
	if _, ok := ParseContractVersion(m.Version); !ok {
		return Manifest{}, fmt.Errorf("manifest.json: version %q is not major.minor.patch", m.Version)
	}
	if m.CompatibleRuntime != "" {
		if _, err := semver.NewConstraint(m.CompatibleRuntime); err != nil {
			return Manifest{}, fmt.Errorf("manifest.json: compatibleRuntime %q: %w", m.CompatibleRuntime, err)
		}
	}
	return m, nil
}
