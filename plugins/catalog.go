package plugins

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"

	"simgui/assets"
)

// ErrUnknownPlugin is matched (errors.Is) by every UnknownPluginError.
var ErrUnknownPlugin = errors.New("unknown plugin")

// UnknownPluginError is a lookup of an id a Catalog does not hold. Its text lists the known
// ids: `unknown vehicleId "x" (known: a, b)`.
type UnknownPluginError struct {
	Field string // vehicleId, trackId or pluginId
	ID    string
	Known []string
}

func (e *UnknownPluginError) Error() string {
	return fmt.Sprintf("unknown %s %q (known: %s)", e.Field, e.ID, strings.Join(e.Known, ", "))
}

// Is makes errors.Is(err, ErrUnknownPlugin) true.
func (e *UnknownPluginError) Is(target error) bool { return target == ErrUnknownPlugin }

// Resolver finds descriptors by plugin id. Catalog (the built-ins) implements it; the user
// registry implements it for installed plugins. Results are the caller's to modify.
type Resolver interface {
	Vehicle(id string) (*VehicleDescriptor, error)
	Track(id string) (*TrackDescriptor, error)
}

// Lister is a Resolver that also lists the ids it resolves, sorted. Catalog and the user
// registry (built-in and installed plugins) are Listers.
type Lister interface {
	Resolver
	Vehicles() []string
	Tracks() []string
}

// Catalog is a read-only set of plugins loaded from folders in the archive layout
// (<id>/manifest.json, descriptor.json, device-contract.json for vehicles, README.md). It is
// safe for concurrent use: lookups return deep copies.
type Catalog struct {
	manifests map[string]Manifest
	vehicles  map[string]*VehicleDescriptor
	tracks    map[string]*TrackDescriptor
}

var _ Resolver = (*Catalog)(nil)

// LoadCatalog reads every folder directly under root in fsys as one plugin. Each must hold a
// valid manifest whose pluginId is the folder name and whose version matches the descriptor's,
// and a descriptor that passes CheckSimulation (vehicles also a device contract). It returns all
// problems joined, so a broken catalog is reported in one go.
func LoadCatalog(fsys fs.FS, root string) (*Catalog, error) {
	entries, err := fs.ReadDir(fsys, root)
	if err != nil {
		return nil, fmt.Errorf("load catalog: %w", err)
	}
	c := &Catalog{manifests: map[string]Manifest{}, vehicles: map[string]*VehicleDescriptor{}, tracks: map[string]*TrackDescriptor{}}
	var errs []error
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if err := c.load(fsys, path.Join(root, e.Name()), e.Name()); err != nil {
			errs = append(errs, fmt.Errorf("load %s: %w", e.Name(), err))
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return c, nil
}

func (c *Catalog) load(fsys fs.FS, dir, name string) error {
	mb, err := fs.ReadFile(fsys, path.Join(dir, "manifest.json"))
	if err != nil {
		return err
	}
	m, err := ReadManifest(mb)
	if err != nil {
		return err
	}
	if m.PluginID != name {
		return fmt.Errorf("manifest pluginId %q differs from the folder name", m.PluginID)
	}
	db, err := fs.ReadFile(fsys, path.Join(dir, "descriptor.json"))
	if err != nil {
		return err
	}
	var id string
	var version ContractVersion
	switch m.Type {
	case TypeVehicle:
		cb, err := fs.ReadFile(fsys, path.Join(dir, "device-contract.json"))
		if err != nil {
			return err
		}
		v, err := ReadVehicle(db, cb)
		if err != nil {
			return err
		}
		if err := v.CheckSimulation(); err != nil {
			return err
		}
		c.vehicles[v.ID] = v
		id, version = v.ID, v.Version
	case TypeTrack:
		t, err := ReadTrack(db)
		if err != nil {
			return err
		}
		if err := t.CheckSimulation(); err != nil {
			return err
		}
		c.tracks[t.ID] = t
		id, version = t.ID, t.Version
	}
	if id != name {
		return fmt.Errorf("descriptor id %q differs from the folder name", id)
	}
	if mv := m.ContractVersion(); mv != version {
		return fmt.Errorf("manifest version %s differs from the descriptor version %s", mv, version)
	}
	c.manifests[id] = m
	return nil
}

var builtin = sync.OnceValue(func() *Catalog {
	c, err := LoadCatalog(assets.Plugins, "plugins")
	if err != nil {
		panic("plugins: built-in catalog: " + err.Error()) // embedded data; the tests keep it loading
	}
	return c
})

// Builtin returns the built-in catalog embedded in the binary (assets/plugins), parsed on first
// use.
func Builtin() *Catalog { return builtin() }

// Vehicle returns a deep copy of the vehicle with the id, or an *UnknownPluginError.
func (c *Catalog) Vehicle(id string) (*VehicleDescriptor, error) {
	v, ok := c.vehicles[id]
	if !ok {
		return nil, &UnknownPluginError{Field: "vehicleId", ID: id, Known: c.Vehicles()}
	}
	return v.Clone(), nil
}

// Track returns a deep copy of the track with the id, or an *UnknownPluginError.
func (c *Catalog) Track(id string) (*TrackDescriptor, error) {
	t, ok := c.tracks[id]
	if !ok {
		return nil, &UnknownPluginError{Field: "trackId", ID: id, Known: c.Tracks()}
	}
	return t.Clone(), nil
}

// Manifest returns the manifest of a plugin of either type.
func (c *Catalog) Manifest(id string) (Manifest, error) {
	m, ok := c.manifests[id]
	if !ok {
		return Manifest{}, &UnknownPluginError{Field: "pluginId", ID: id, Known: c.IDs()}
	}
	return m, nil
}

// Has reports whether the catalog holds a plugin with the id.
func (c *Catalog) Has(id string) bool {
	_, ok := c.manifests[id]
	return ok
}

// Vehicles returns the vehicle ids, sorted.
func (c *Catalog) Vehicles() []string { return sortedKeys(c.vehicles) }

// Tracks returns the track ids, sorted.
func (c *Catalog) Tracks() []string { return sortedKeys(c.tracks) }

// IDs returns every plugin id, sorted.
func (c *Catalog) IDs() []string { return slices.Sorted(maps.Keys(c.manifests)) }
