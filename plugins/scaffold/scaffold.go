package scaffold

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/text/cases"
	"golang.org/x/text/language"

	"simgui/assets"
	"simgui/plugins"
)

// Options say what to make. Empty DisplayName, Description and OutputDir get rusim's defaults:
// the id title-cased with '.' and '_' as spaces, "<display name> plugin for simgui.", ".".
type Options struct {
	Type        plugins.Type
	ID          string
	DisplayName string
	Description string
	Author      string
	OutputDir   string
}

// Report is what `simgui plugin new` prints: rusim's keys (CreatedAt is the project folder, as
// rusim has it).
type Report struct {
	Action      string   `json:"action"`
	PluginID    string   `json:"pluginId"`
	Type        string   `json:"type"`
	DisplayName string   `json:"displayName"`
	CreatedAt   string   `json:"createdAt"`
	Files       []string `json:"files"`
}

// New makes the project folder <OutputDir>/<ID> from the template of Type, replacing the
// placeholders (JSON-escaped in .json files). The id must follow the naming convention for the
// type and end in .v1: a new plugin starts at version 1.0.0. The folder must not exist; it
// appears complete or not at all (it is written under a temporary name and renamed).
func New(o Options) (*Report, error) {
	if o.Type != plugins.TypeVehicle && o.Type != plugins.TypeTrack {
		//lint:ignore ST1005 rusim's own wording, which its clients and users know
		return nil, fmt.Errorf("Invalid plugin type: '%s' (expected 'vehicle' or 'track')", o.Type) // rusim's text
	}
	typ, major, err := plugins.ParseID(o.ID)
	switch {
	case err != nil:
		return nil, fmt.Errorf("plugin id %w", err)
	case typ != o.Type:
		return nil, fmt.Errorf("plugin id %q is a %s id, but --type is %s", o.ID, typ, o.Type)
	case major != 1:
		return nil, fmt.Errorf("plugin id %q says v%d, but a new plugin starts at version 1.0.0: use .v1 (to make v%d, copy the v%d project and raise its version)", o.ID, major, major, major-1)
	}
	if o.DisplayName == "" {
		o.DisplayName = cases.Title(language.Und).String(strings.NewReplacer(".", " ", "_", " ").Replace(o.ID))
	}
	if o.Description == "" {
		o.Description = o.DisplayName + " plugin for simgui."
	}
	if o.OutputDir == "" {
		o.OutputDir = "."
	}
	out, err := filepath.Abs(o.OutputDir)
	if err != nil {
		return nil, err
	}
	root := filepath.Join(out, o.ID)
	if _, err := os.Lstat(root); err == nil {
		//lint:ignore ST1005 rusim's own wording, which its clients and users know
		return nil, fmt.Errorf("Output directory already exists: %s", root) // rusim's text
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(out, "."+o.ID+".new-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp) // gone by rename on success
	files, err := render(string(o.Type), map[string]string{
		"{{PLUGIN_ID}}": o.ID, "{{DISPLAY_NAME}}": o.DisplayName, "{{DESCRIPTION}}": o.Description, "{{AUTHOR}}": o.Author,
	})
	if err != nil {
		return nil, err
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		p := filepath.Join(tmp, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, files[name], 0o644); err != nil {
			return nil, err
		}
	}
	if err := os.Rename(tmp, root); err != nil {
		return nil, err
	}
	return &Report{Action: "new", PluginID: o.ID, Type: string(o.Type), DisplayName: o.DisplayName,
		CreatedAt: root, Files: slices.Sorted(maps.Keys(files))}, nil
}

// render returns the template files of typ with the placeholders replaced.
func render(typ string, values map[string]string) (map[string][]byte, error) {
	dir := path.Join("templates", "plugin-"+typ)
	plain := make([]string, 0, 2*len(values))
	escaped := make([]string, 0, 2*len(values))
	for k, v := range values {
		q, _ := json.Marshal(v)
		plain = append(plain, k, v)
		escaped = append(escaped, k, string(q[1:len(q)-1]))
	}
	plainR, jsonR := strings.NewReplacer(plain...), strings.NewReplacer(escaped...)
	files := map[string][]byte{}
	err := fs.WalkDir(assets.Templates, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(assets.Templates, p)
		if err != nil {
			return err
		}
		r := plainR
		if strings.HasSuffix(p, ".json") {
			r = jsonR
		}
		files[strings.TrimPrefix(p, dir+"/")] = []byte(r.Replace(string(b)))
		return nil
	})
	return files, err
}
