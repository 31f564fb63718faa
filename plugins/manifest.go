package plugins

import (
	"fmt"
	"strings"
)

// Manifest is an archive's manifest.json: who the plugin is, its version as
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

// ReadManifest parses manifest.json and checks what rusim's CLI checks on install, with its
// error texts: the required keys pluginId, type, displayName and version are present and not
// empty ("manifest.json missing required keys: ..."), type is vehicle or track ("Invalid
// plugin type: 'robot' (expected 'vehicle' or 'track')"); and then that version is
// "major.minor.patch" and compatibleRuntime (when set) a valid version constraint.
// DecodePlugin reports the same with field paths.
func ReadManifest(b []byte) (Manifest, error) {
	m, ps := decodeManifest(b)
	errs := ps.Errors()
	if len(errs) == 0 {
		return m, nil
	}
	var missing []string
	for _, p := range errs {
		if p.Message == missingKey {
			missing = append(missing, strings.TrimPrefix(p.Path, "manifest."))
		}
	}
	if len(missing) > 0 {
		return Manifest{}, fmt.Errorf("manifest.json missing required keys: %s", strings.Join(missing, ", "))
	}
	for _, p := range errs {
		if p.Path == "manifest.type" && m.Type != "" {
			//lint:ignore ST1005 rusim's own wording, which its clients and users know
			return Manifest{}, fmt.Errorf("Invalid plugin type: %s (expected 'vehicle' or 'track')", pyRepr(string(m.Type))) // rusim's text, capitalised
		}
	}
	return Manifest{}, errs.Err()
}
