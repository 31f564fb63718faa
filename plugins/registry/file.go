package registry

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"

	"simgui/safefile"
)

// Entry is one installed plugin in plugin-registry.json, in rusim's format (its CLI writes
// the same keys); SignedBy is simgui's addition, absent for unsigned plugins.
type Entry struct {
	PluginID          string `json:"pluginId"`
	Type              string `json:"type"`
	DisplayName       string `json:"displayName"`
	Version           string `json:"version"`
	Author            string `json:"author"`
	CompatibleRuntime string `json:"compatibleRuntime"`
	// InstalledFrom is the absolute path of the archive.
	InstalledFrom string `json:"installedFrom"`
	// InstalledAt is local time as rusim writes it: "2006-01-02T15:04:05".
	InstalledAt string `json:"installedAt"`
	// SignedBy is the id of the trusted key that signed the archive.
	SignedBy string `json:"signedBy,omitempty"`
}

// registryFile is plugin-registry.json. RequireSigned is simgui's setting: installs and loads
// refuse plugins without a trusted signature.
type registryFile struct {
	SchemaVersion int     `json:"schemaVersion"`
	RequireSigned bool    `json:"requireSigned,omitempty"`
	Plugins       []Entry `json:"plugins"`
}

// schemaVersion is the registry format simgui reads and writes (rusim's).
const schemaVersion = 1

// maxRegistryBytes bounds plugin-registry.json: some thousand bytes an entry, for many more
// plugins than anyone installs.
const maxRegistryBytes = 16 << 20

// readRegistry reads plugin-registry.json; a missing file is an empty registry. It is read
// through safefile: a pipe in its place must not hold startup, nor a huge file fill memory.
func readRegistry(path string) (registryFile, error) {
	b, err := safefile.ReadFile(path, maxRegistryBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return registryFile{SchemaVersion: schemaVersion, Plugins: []Entry{}}, nil
	}
	if err != nil {
		return registryFile{}, err
	}
	var f registryFile
	if err := json.Unmarshal(b, &f); err != nil {
		return registryFile{}, fmt.Errorf("%s is not a plugin registry: %w (fix or remove the file)", path, err)
	}
	if f.SchemaVersion != schemaVersion {
		return registryFile{}, fmt.Errorf("%s has schemaVersion %d; this simgui reads version %d", path, f.SchemaVersion, schemaVersion)
	}
	if f.Plugins == nil {
		f.Plugins = []Entry{}
	}
	return f, nil
}

// writeRegistry writes plugin-registry.json atomically, formatted as rusim's CLI formats it
// (two-space indent, non-ASCII as is, a final newline).
func (r *Registry) writeRegistry(f registryFile) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(f); err != nil {
		return err
	}
	return r.ops.WriteFile(r.file(), b.Bytes())
}

// put records e, replacing the entry of its id; it goes last, as rusim's CLI puts it.
func (f *registryFile) put(e Entry) {
	if i := f.find(e.PluginID); i >= 0 {
		f.Plugins = append(f.Plugins[:i], f.Plugins[i+1:]...)
	}
	f.Plugins = append(f.Plugins, e)
}

// find returns the index of the entry with id, or -1.
func (f *registryFile) find(id string) int {
	for i, e := range f.Plugins {
		if e.PluginID == id {
			return i
		}
	}
	return -1
}
