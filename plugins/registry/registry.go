package registry

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"simgui/plugins"
	"simgui/plugins/archive"
)

// Names inside the registry's home folder.
const (
	FileName       = "plugin-registry.json"
	PluginsDir     = "plugins"
	TrustedKeysDir = "trusted-keys"
	// lockName is the file flock serialises changes on; it holds no data.
	lockName = ".plugin-registry.lock"
)

// Sources of plugins in List.
const (
	SourceBuiltin = "built-in"
	SourceUser    = "user"
)

// DefaultHome returns the registry's home: $RUSIM_HOME, else ~/.rusim.
func DefaultHome() (string, error) {
	if h := os.Getenv("RUSIM_HOME"); h != "" {
		if rest, ok := strings.CutPrefix(h, "~/"); ok {
			home, err := os.UserHomeDir()
			if err != nil {
				return "", fmt.Errorf("RUSIM_HOME %s: %w", h, err)
			}
			h = filepath.Join(home, rest)
		}
		return filepath.Abs(h)
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("find the plugin registry: %w (set RUSIM_HOME)", err)
	}
	return filepath.Join(home, ".rusim"), nil
}

// Options configure a Registry; the zero value is the product's.
type Options struct {
	// Builtin is the built-in tier; default plugins.Builtin().
	Builtin *plugins.Catalog
	// Runtime is the runtime version compatibleRuntime is checked against; default
	// plugins.RuntimeVersion.
	Runtime string
	// Logger receives the warnings of user plugins as they load (a rusim export simulated
	// with a fallback body, ...); default: discarded.
	Logger *slog.Logger
	// LockTimeout bounds the wait for another process's change; default one minute.
	LockTimeout time.Duration
	// Now stamps installs; default time.Now.
	Now func() time.Time
}

// Registry is the two-tier plugin registry rusim defines: the built-in catalog and the
// user registry in a home folder ($RUSIM_HOME): plugin-registry.json in rusim's format and the
// unpacked plugins in plugins/<id>/. It implements plugins.Resolver over both tiers.
//
// Lookups see installs and removals made by any process: each call stats
// plugin-registry.json and re-reads it when it changed (every change replaces the file, so a
// reader never sees half of one). Installed plugins are read, validated and checked against
// the runtime version on first use after a change. A Registry is safe for concurrent use.
type Registry struct {
	home    string
	builtin *plugins.Catalog
	opts    Options
	ops     fileOps

	mu      sync.Mutex
	stat    fs.FileInfo // of plugin-registry.json when last read; nil: absent
	data    registryFile
	readErr error
	version uint64
	loaded  map[string]*loaded
}

// loaded is a user plugin read from its folder, or why it could not be.
type loaded struct {
	plugin   *plugins.Plugin
	vehicle  *plugins.VehicleDescriptor // as simulated (fallback filled)
	files    []string
	warnings plugins.Problems
	signedBy string
	err      error
}

var _ plugins.Resolver = (*Registry)(nil)

// Open returns the registry in home. Nothing is created until something is installed.
func Open(home string, opts Options) *Registry {
	if opts.Builtin == nil {
		opts.Builtin = plugins.Builtin()
	}
	if opts.Runtime == "" {
		opts.Runtime = plugins.RuntimeVersion
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if opts.LockTimeout == 0 {
		opts.LockTimeout = time.Minute
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Registry{home: home, builtin: opts.Builtin, opts: opts, ops: osOps{}}
}

// Home returns the registry's home folder.
func (r *Registry) Home() string { return r.home }

// Path returns the folder a user plugin is (or would be) installed in.
func (r *Registry) Path(id string) string { return filepath.Join(r.home, PluginsDir, id) }

func (r *Registry) file() string { return filepath.Join(r.home, FileName) }

// refresh re-reads plugin-registry.json if it changed since the last read. r.mu is held.
func (r *Registry) refresh() {
	st, err := os.Stat(r.file())
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		r.readErr = err
		return
	}
	if r.version > 0 && r.readErr == nil && sameFile(r.stat, st) {
		return
	}
	r.stat = st
	r.data, r.readErr = readRegistry(r.file())
	r.loaded = map[string]*loaded{}
	r.version++
}

// sameFile reports whether two stats (nil: absent) are of the same unchanged file.
func sameFile(a, b fs.FileInfo) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}

// Version returns a number that changes whenever the user tier changes (a plugin installed,
// replaced or removed, by any process). It costs one stat: a window can call it every frame
// and refresh its spawn list when it changes.
func (r *Registry) Version() uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.refresh()
	return r.version
}

// Item is one plugin in List, as `simgui plugin list --json` prints it (rusim's keys).
type Item struct {
	PluginID    string `json:"pluginId"`
	Type        string `json:"type"`
	DisplayName string `json:"displayName"`
	Version     string `json:"version"`
	Source      string `json:"source"`
}

// List returns the built-in plugins sorted by id, then the user plugins in install order, as
// the registry file records them (without loading them).
func (r *Registry) List() ([]Item, error) {
	items := BuiltinItems(r.builtin)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.refresh()
	if r.readErr != nil {
		return items, r.readErr
	}
	for _, e := range r.data.Plugins {
		items = append(items, Item{e.PluginID, e.Type, e.DisplayName, e.Version, SourceUser})
	}
	return items, nil
}

// BuiltinItems lists catalogue b's plugins as List does its built-ins.
func BuiltinItems(b *plugins.Catalog) []Item {
	var items []Item
	for _, id := range b.IDs() {
		m, _ := b.Manifest(id)
		items = append(items, Item{m.PluginID, string(m.Type), m.DisplayName, m.Version, SourceBuiltin})
	}
	return items
}

// ShadowError is a user plugin with the id of a built-in (installed by another tool, such as
// rusim's CLI, whose built-ins differ). Neither is used in its place: a lookup of the id fails
// with this error, which names both, until the user plugin is removed.
type ShadowError struct {
	ID string
	// Builtin is the built-in's display name and version; User the user entry's, and where it
	// was installed from.
	Builtin, User, InstalledFrom string
}

func (e *ShadowError) Error() string {
	return fmt.Sprintf("%s is both the built-in plugin %s and a user plugin %s installed from %s: "+
		"remove the user plugin (simgui plugin remove %s) or reinstall it under another id",
		e.ID, e.Builtin, e.User, e.InstalledFrom, e.ID)
}

// Shadowing returns a ShadowError for every user plugin whose id is a built-in's, in install
// order.
func (r *Registry) Shadowing() ([]*ShadowError, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.refresh()
	if r.readErr != nil {
		return nil, r.readErr
	}
	var out []*ShadowError
	for _, e := range r.data.Plugins {
		if se := r.shadow(e); se != nil {
			out = append(out, se)
		}
	}
	return out, nil
}

// shadow returns the ShadowError for entry e, or nil when its id is not a built-in's.
func (r *Registry) shadow(e Entry) *ShadowError {
	m, err := r.builtin.Manifest(e.PluginID)
	if err != nil {
		return nil
	}
	return &ShadowError{ID: e.PluginID, Builtin: fmt.Sprintf("%q %s", m.DisplayName, m.Version),
		User: fmt.Sprintf("%q %s", e.DisplayName, e.Version), InstalledFrom: e.InstalledFrom}
}

// shadowed returns the ShadowError of id when a user entry has a built-in's id, else nil.
func (r *Registry) shadowed(id string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.refresh()
	if r.readErr != nil {
		return nil // the built-in stays usable while the user registry cannot be read
	}
	if i := r.data.find(id); i >= 0 {
		if se := r.shadow(r.data.Plugins[i]); se != nil {
			return se
		}
	}
	return nil
}

// Vehicle returns the vehicle with the id from either tier, as it is simulated (a user
// plugin without simulation data filled by WithFallback). A user plugin that fails to load
// (files changed, runtime incompatible, signature required) returns why; a user plugin with a
// built-in's id is a *ShadowError.
func (r *Registry) Vehicle(id string) (*plugins.VehicleDescriptor, error) {
	if v, err := r.builtin.Vehicle(id); err == nil {
		if err := r.shadowed(id); err != nil {
			return nil, err
		}
		return v, nil
	}
	l, err := r.lookup(id, plugins.TypeVehicle)
	if err != nil {
		return nil, err
	}
	return l.vehicle.Clone(), nil
}

// Track returns the track with the id from either tier (see Vehicle).
func (r *Registry) Track(id string) (*plugins.TrackDescriptor, error) {
	if t, err := r.builtin.Track(id); err == nil {
		if err := r.shadowed(id); err != nil {
			return nil, err
		}
		return t, nil
	}
	l, err := r.lookup(id, plugins.TypeTrack)
	if err != nil {
		return nil, err
	}
	return l.plugin.Track.Clone(), nil
}

// Vehicles lists the vehicle ids of both tiers, sorted.
func (r *Registry) Vehicles() []string { return r.list(plugins.TypeVehicle) }

// Tracks lists the track ids of both tiers, sorted.
func (r *Registry) Tracks() []string { return r.list(plugins.TypeTrack) }

func (r *Registry) list(typ plugins.Type) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.refresh()
	return r.known(typ)
}

// lookup finds and loads the user plugin id of type typ.
func (r *Registry) lookup(id string, typ plugins.Type) (*loaded, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.refresh()
	if r.readErr != nil {
		return nil, r.readErr
	}
	i := r.data.find(id)
	if i < 0 || r.data.Plugins[i].Type != string(typ) {
		return nil, r.unknown(id, typ)
	}
	l, ok := r.loaded[id]
	if !ok && r.interrupted(id) {
		// A change was interrupted (or is running in another process): complete it under the
		// lock, then read the registry again.
		if err := r.locked(func() error { return nil }); err == nil {
			r.refresh()
			if i = r.data.find(id); r.readErr != nil || i < 0 || r.data.Plugins[i].Type != string(typ) {
				return nil, r.unknown(id, typ)
			}
			l, ok = r.loaded[id]
		}
	}
	if !ok {
		l = r.load(r.data.Plugins[i])
		r.loaded[id] = l
		for _, w := range l.warnings {
			r.opts.Logger.Warn("plugin "+id, "warning", w.String())
		}
	}
	return l, l.err
}

// unknown is the error for an id the registry does not list with type typ. r.mu is held.
func (r *Registry) unknown(id string, typ plugins.Type) error {
	if r.readErr != nil {
		return r.readErr
	}
	field := "vehicleId"
	if typ == plugins.TypeTrack {
		field = "trackId"
	}
	return &plugins.UnknownPluginError{Field: field, ID: id, Known: r.known(typ)}
}

// interrupted reports whether an install is pending (its journal is there) or the folder of
// the listed plugin id is missing, which the lock holder's recovery may mend.
func (r *Registry) interrupted(id string) bool {
	return exists(r.journalPath()) || plugins.SafeID(id) && !exists(r.Path(id))
}

// known returns the ids of type typ in both tiers, sorted. r.mu is held.
func (r *Registry) known(typ plugins.Type) []string {
	ids := r.builtin.Vehicles()
	if typ == plugins.TypeTrack {
		ids = r.builtin.Tracks()
	}
	for _, e := range r.data.Plugins {
		if e.Type == string(typ) && !slices.Contains(ids, e.PluginID) {
			ids = append(ids, e.PluginID)
		}
	}
	slices.Sort(ids)
	return ids
}

// load reads an installed plugin's folder with the archive's rules, validates it, checks its
// runtime constraint and, when the registry requires signatures, its signature.
func (r *Registry) load(e Entry) *loaded {
	fail := func(err error) *loaded { return &loaded{err: fmt.Errorf("plugin %s: %w", e.PluginID, err)} }
	if !plugins.SafeID(e.PluginID) {
		return fail(errors.New("the registry entry's id is not a safe folder name"))
	}
	a, err := archive.ReadDir(r.Path(e.PluginID))
	if err != nil {
		return fail(fmt.Errorf("read the installed files: %w (reinstall it)", err))
	}
	p, ps := a.Plugin()
	if err := ps.Err(); err != nil {
		return fail(fmt.Errorf("the installed files are not a valid plugin: %w (reinstall it)", err))
	}
	if p.ID() != e.PluginID || string(p.Manifest.Type) != e.Type {
		return fail(fmt.Errorf("its folder holds the %s plugin %s", p.Manifest.Type, p.ID()))
	}
	if err := plugins.CheckRuntime(p.Manifest, r.opts.Runtime); err != nil {
		return &loaded{err: err} // it names the plugin
	}
	l := &loaded{plugin: p, vehicle: p.ForSimulation(), files: a.Names(), warnings: ps.Warnings(), signedBy: e.SignedBy}
	if r.data.RequireSigned {
		if l.signedBy, _, err = r.checkSignature(a, true); err != nil {
			return fail(err)
		}
	}
	return l
}

// Info describes one plugin for `simgui plugin info`.
type Info struct {
	PluginID          string `json:"pluginId"`
	Type              string `json:"type"`
	DisplayName       string `json:"displayName"`
	Version           string `json:"version"`
	Author            string `json:"author"`
	CompatibleRuntime string `json:"compatibleRuntime"`
	Description       string `json:"description"`
	Source            string `json:"source"`
	// Path, InstalledFrom, InstalledAt, SignedBy and Files are for user plugins.
	Path          string   `json:"path,omitempty"`
	InstalledFrom string   `json:"installedFrom,omitempty"`
	InstalledAt   string   `json:"installedAt,omitempty"`
	SignedBy      string   `json:"signedBy,omitempty"`
	Files         []string `json:"files,omitempty"`
	// DeviceType, Sensors (ids) and Actuators (ids) are for vehicles.
	DeviceType string   `json:"deviceType,omitempty"`
	Sensors    []string `json:"sensors,omitempty"`
	Actuators  []string `json:"actuators,omitempty"`
	// Fallback names the built-in whose simulation data a vehicle without its own borrows.
	Fallback string `json:"fallback,omitempty"`
	// Generator is a track's generator ("" for static geometry).
	Generator string `json:"generator,omitempty"`
	// Error says why a user plugin does not load; Warnings what loading it noticed.
	Error    string   `json:"error,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
}

// BuiltinInfo describes catalogue b's plugin id as Info does a built-in; false if b has no
// such plugin.
func BuiltinInfo(b *plugins.Catalog, id string) (*Info, bool) {
	m, err := b.Manifest(id)
	if err != nil {
		return nil, false
	}
	in := &Info{PluginID: id, Type: string(m.Type), DisplayName: m.DisplayName, Version: m.Version,
		Author: m.Author, CompatibleRuntime: m.CompatibleRuntime, Source: SourceBuiltin}
	p := &plugins.Plugin{Manifest: m}
	p.Vehicle, _ = b.Vehicle(id)
	p.Track, _ = b.Track(id)
	in.describe(p)
	return in, true
}

// Info describes the plugin with the id from either tier, or returns an
// *plugins.UnknownPluginError. A user plugin that fails to load is described from its registry
// entry, with Error set.
func (r *Registry) Info(id string) (*Info, error) {
	if in, ok := BuiltinInfo(r.builtin, id); ok {
		if err := r.shadowed(id); err != nil {
			in.Error = err.Error()
		}
		return in, nil
	}
	r.mu.Lock()
	r.refresh()
	if r.readErr != nil {
		defer r.mu.Unlock()
		return nil, r.readErr
	}
	i := r.data.find(id)
	if i < 0 {
		known := append(r.known(plugins.TypeVehicle), r.known(plugins.TypeTrack)...)
		r.mu.Unlock()
		slices.Sort(known)
		return nil, &plugins.UnknownPluginError{Field: "pluginId", ID: id, Known: known}
	}
	e := r.data.Plugins[i]
	r.mu.Unlock()
	in := &Info{PluginID: id, Type: e.Type, DisplayName: e.DisplayName, Version: e.Version, Author: e.Author,
		CompatibleRuntime: e.CompatibleRuntime, Source: SourceUser, Path: r.Path(id),
		InstalledFrom: e.InstalledFrom, InstalledAt: e.InstalledAt, SignedBy: e.SignedBy}
	l, err := r.lookup(id, plugins.Type(e.Type))
	if err != nil {
		in.Error = err.Error()
		return in, nil
	}
	in.Files = l.files
	for _, w := range l.warnings {
		in.Warnings = append(in.Warnings, w.String())
	}
	in.describe(l.plugin)
	return in, nil
}

// describe fills the descriptor-derived fields.
func (in *Info) describe(p *plugins.Plugin) {
	in.Description = descriptionOf(p)
	if v := p.Vehicle; v != nil {
		in.DeviceType = v.DeviceType
		if v.Contract != nil {
			for _, s := range v.Contract.Sensors {
				in.Sensors = append(in.Sensors, s.ID)
			}
			for _, a := range v.Contract.Actuators {
				in.Actuators = append(in.Actuators, a.ID)
			}
		}
		if !v.HasSimulationData() {
			in.Fallback = plugins.FallbackVehicle(v.DeviceType).ID
		}
	}
	if t := p.Track; t != nil {
		in.Generator = t.Generator
	}
}

func descriptionOf(p *plugins.Plugin) string {
	switch {
	case p.Vehicle != nil:
		return p.Vehicle.Description
	case p.Track != nil:
		return p.Track.Description
	}
	return ""
}
