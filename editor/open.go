package editor

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"

	"simgui/assets"
	"simgui/plugins"
	"simgui/plugins/archive"
	"simgui/plugins/registry"
	"simgui/safefile"
)

// newDraft starts a plugin of type typ from the template `simgui plugin new` uses, with the id,
// display name and description left empty for the author to fill.
func newDraft(typ plugins.Type) (*draft, error) {
	if typ != plugins.TypeVehicle && typ != plugins.TypeTrack {
		return nil, fmt.Errorf("unknown plugin type %q (expected vehicle or track)", typ)
	}
	// The manifest reader needs an id and a name to decode the template; both are cleared.
	r := strings.NewReplacer("{{PLUGIN_ID}}", string(typ)+".template.v1", "{{DISPLAY_NAME}}", "template",
		"{{DESCRIPTION}}", "", "{{AUTHOR}}", "")
	dir := "templates/plugin-" + string(typ)
	files := map[string][]byte{}
	err := fs.WalkDir(assets.Templates, dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := fs.ReadFile(assets.Templates, p)
		files[strings.TrimPrefix(p, dir+"/")] = []byte(r.Replace(string(b)))
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("read the %s template: %w", typ, err)
	}
	delete(files, plugins.ReadmeFile) // written for the id the author gives
	d, _, err := draftFromFiles(files, "new "+string(typ))
	if err != nil {
		return nil, err
	}
	b := d.base()
	b.ID, b.DisplayName, b.Description = "", "", ""
	return d, nil
}

// draftFromFiles reads a plugin from its files for editing (plugins.DecodePlugin: no
// validation, an invalid plugin opens so that it can be fixed). notes says what the form
// changed on the way in (fallback data shown, mounts dropped).
func draftFromFiles(files map[string][]byte, source string) (*draft, []string, error) {
	p, ps := plugins.DecodePlugin(files)
	var notes []string
	if p == nil {
		// Values of the wrong type are left out, and said, so that the plugin opens to be
		// fixed; anything else stops the open.
		if read, left := readable(files); len(left) > 0 {
			if p, ps = plugins.DecodePlugin(read); p != nil {
				files = read
				what := make([]string, len(left))
				for i, l := range left {
					what[i] = l.String()
				}
				notes = append(notes, "values that could not be read were left out (type them again): "+strings.Join(what, "; "))
			}
		}
		if p == nil {
			return nil, nil, fmt.Errorf("%s cannot be opened: %w", source, ps.Err())
		}
	}
	if n := notKept(ps); n != "" {
		notes = append(notes, n)
	}
	d := &draft{typ: p.Manifest.Type, source: source, extra: map[string][]byte{}}
	switch {
	case p.Vehicle != nil:
		if !p.Vehicle.HasSimulationData() {
			notes = append(notes, "it had no simulation data: the form shows the fallback simgui simulates it with, and an export writes it")
		}
		if v, ok := plugins.WrappedContractVersion(files[plugins.ContractFile]); ok {
			d.wrapped = &v
		}
		var dropped []string
		d.vehicle, dropped = vehicleFormFrom(p.Manifest, p.Vehicle)
		if len(dropped) > 0 {
			notes = append(notes, "mounts of sensors the contract does not have were left out: "+strings.Join(dropped, ", "))
		}
	case p.Track != nil:
		d.track = trackFormFrom(p.Manifest, p.Track)
	default:
		return nil, nil, fmt.Errorf("%s: no descriptor", source)
	}
	for name, b := range files {
		switch name {
		case plugins.ManifestFile, plugins.DescriptorFile, plugins.ContractFile, plugins.SignatureFile:
		default:
			d.extra[name] = b
		}
	}
	if _, ok := files[plugins.ReadmeFile]; ok {
		d.readmeID = p.Manifest.PluginID
	}
	return d, notes, nil
}

// notKept names the fields of the plugin's JSON files that simgui does not read (the
// decoder's unknown-field warnings): the form has no place for them, so Save and Export leave
// them out — a typo such as "mas" with its value, the Unity fields of a rusim export.
func notKept(ps plugins.Problems) string {
	var fields []string
	for _, w := range ps.Warnings() {
		var key string
		if _, err := fmt.Sscanf(w.Message, "unknown field %q is ignored", &key); err == nil {
			fields = append(fields, fmt.Sprintf("%s: %q", w.Path, key))
		} else if strings.HasSuffix(w.Message, " more unknown fields are ignored") {
			fields = append(fields, strings.TrimSuffix(w.Message, " unknown fields are ignored"))
		}
	}
	if len(fields) == 0 {
		return ""
	}
	return "Save and Export leave out fields simgui does not read: " + strings.Join(fields, ", ")
}

// openPath reads a plugin folder or .rusim-plugin.zip archive (with the archive's rules, as
// `simgui plugin validate` reads them). Its errors name the path once, as typed.
func openPath(p string) (*draft, []string, error) {
	p = expandHome(strings.TrimSpace(p))
	if p == "" {
		return nil, nil, fmt.Errorf("no plugin to open: type a folder or archive path, or choose one with Browse")
	}
	st, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil, fmt.Errorf("no such file or folder: %s", p)
	case err != nil:
		return nil, nil, fmt.Errorf("cannot open %s: %w", p, unnamed(err, p))
	case !st.IsDir() && !st.Mode().IsRegular():
		return nil, nil, fmt.Errorf("cannot open %s: it is %s, not a plugin folder or archive", p, safefile.Describe(st.Mode()))
	}
	var a *archive.Archive
	if st.IsDir() {
		a, err = archive.ReadDir(p)
	} else {
		a, err = readArchive(p)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("cannot open %s: %w", p, unnamed(err, p))
	}
	d, notes, err := draftFromFiles(a.Files(), p)
	if err == nil && st.IsDir() {
		d.folder = p
	}
	return d, notes, err
}

// unnamed drops p from err when err is a file system error about p itself (openPath names p
// once); errors about files inside a folder keep their names.
func unnamed(err error, p string) error {
	if pe, ok := errors.AsType[*fs.PathError](err); ok && pe.Path == p {
		return pe.Err
	}
	return err
}

// readArchive reads the archive file p as archive.Open does, with errors that do not name
// it (openPath does): a file that is not a zip archive says so in a word.
func readArchive(p string) (*archive.Archive, error) {
	f, st, err := safefile.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	a, err := archive.Read(f, st.Size())
	if errors.Is(err, archive.ErrNotZip) {
		return nil, errors.New("not a zip archive")
	}
	return a, err
}

// openInstalled reads an installed plugin: a built-in from the embedded catalog's files, a
// user plugin from its folder in the registry.
func openInstalled(reg *registry.Registry, id string) (*draft, []string, error) {
	if plugins.Builtin().Has(id) {
		files := map[string][]byte{}
		dir := path.Join("plugins", id)
		entries, err := fs.ReadDir(assets.Plugins, dir)
		if err != nil {
			return nil, nil, fmt.Errorf("open built-in %s: %w", id, err)
		}
		for _, e := range entries {
			if e.IsDir() {
				continue
			}
			b, err := fs.ReadFile(assets.Plugins, path.Join(dir, e.Name()))
			if err != nil {
				return nil, nil, err
			}
			files[e.Name()] = b
		}
		d, notes, err := draftFromFiles(files, "built-in "+id)
		if err == nil {
			notes = append(notes, "built-in plugins cannot be replaced: give it a new id before you install it")
		}
		return d, notes, err
	}
	items, _ := reg.List()
	known := make([]string, 0, len(items))
	for _, it := range items {
		if it.PluginID == id {
			known = nil
			break
		}
		known = append(known, it.PluginID)
	}
	if known != nil {
		return nil, nil, fmt.Errorf("%s is not a folder or archive here, nor an installed plugin (installed: %s)", id, strings.Join(known, ", "))
	}
	a, err := archive.ReadDir(reg.Path(id))
	if err != nil {
		return nil, nil, fmt.Errorf("open installed %s: %w", id, err)
	}
	return draftFromFiles(a.Files(), "installed "+id)
}
