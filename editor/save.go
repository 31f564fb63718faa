package editor

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"simgui/plugins"
	"simgui/plugins/archive"
	"simgui/safefile"
)

// save writes the plugin's files back into the folder it was opened from, each file replaced
// whole through a temporary file and only when it changed, so that the folder, `simgui plugin
// export` of it and the editor agree. Files the form does not make (assets/) stay as they
// are. A plugin with problems is saved too (work in progress), but not text that is not a
// number (the files would hold 0 in its place), nor files past the archive's limits (the
// folder would not open again).
//
// A plugin from no folder (new, an archive, an installed one) is saved as a new plugin folder
// named for its id beside where Export writes, which Save then writes back to. So is a plugin
// whose folder is named for another id, beside that folder: a v1 folder opened and given the
// id v2 is a new version, and writing v2 into the v1 folder lost the v1 plugin.
func (e *Editor) save() {
	from := e.d.folder
	folder, fresh := from, false
	if id := e.d.id(); folder == "" || renamed(folder, id) {
		if _, _, err := plugins.ParseID(id); err != nil {
			e.failed("Save makes a plugin folder named for the plugin's id: give it an id first (" + err.Error() + ")")
			return
		}
		dir := e.opts.ExportDir
		if folder != "" {
			dir = filepath.Dir(folder)
		}
		folder, fresh = filepath.Join(dir, id), true
		if _, err := os.Lstat(folder); err == nil {
			e.failed(folder + " exists already: Open it to edit it there, or change the id")
			return
		}
	}
	e.check()
	b := e.current
	if b == nil {
		return
	}
	if len(b.parse) > 0 {
		e.failed(fmt.Sprintf("nothing saved: %s %s (fix the text that is not a number first)", b.parse[0].Path, b.parse[0].Message))
		return
	}
	if err := archiveProblem(b.files); err != nil {
		e.failed("nothing saved: " + err.Error() + " (saved, the folder would not open again)")
		return
	}
	files, key, problems := maps.Clone(b.files), e.liveKey, len(e.live.Errors())
	d := e.d
	seen, hadReadme := d.extra[plugins.ReadmeFile] // the README as opened or last saved
	e.run("saving to "+folder, func() func() {
		n, err := 0, error(nil)
		var disk []byte // a README changed in the folder since: kept, not written over
		if !fresh && hadReadme {
			if cur, rerr := safefile.ReadFile(filepath.Join(folder, plugins.ReadmeFile), archive.DefaultLimits.MaxTotal); rerr == nil && !bytes.Equal(cur, seen) {
				disk = cur
				delete(files, plugins.ReadmeFile)
			}
		}
		if fresh {
			err = os.Mkdir(folder, 0o755) // not MkdirAll: a folder made meanwhile is not taken over
		}
		if err == nil {
			if n, err = saveFiles(folder, files); err != nil && fresh {
				os.RemoveAll(folder) // made here: no half-written plugin folder is left
			}
		}
		return func() {
			if err != nil {
				e.failedErr(fmt.Errorf("saving to %s: %w (%d files written before)", folder, err, n))
				return
			}
			if e.d == d {
				if fresh {
					d.folder, d.source = folder, folder
				}
				// The README now in the folder is the one later saves compare with.
				if disk != nil {
					d.extra[plugins.ReadmeFile] = disk
				} else if r, ok := files[plugins.ReadmeFile]; ok {
					d.extra[plugins.ReadmeFile] = r
				}
				d.readmeID = d.id()
			}
			e.savedKey = key
			e.record.Saved = append(e.record.Saved, folder)
			msg := fmt.Sprintf("saved to %s (%s)", folder, count(n, "changed file"))
			if fresh && from != "" {
				msg = fmt.Sprintf("saved to %s, a new folder for the new id (%s is left as it was)", folder, from)
			}
			if disk != nil {
				msg += "; README.md changed in the folder since it was opened, and is kept as it is there"
			}
			if problems > 0 {
				msg += fmt.Sprintf(", with %s: Validate lists them", count(problems, "problem"))
			}
			e.done(msg)
		}
	})
}

// renamed reports whether folder is named for a plugin id other than id: a folder of another
// name (a user's own "my-robot") is the plugin's whatever its id.
func renamed(folder, id string) bool {
	name := filepath.Base(folder)
	if _, _, err := plugins.ParseID(name); err != nil {
		return false
	}
	return name != id
}

// saveFiles writes files (archive names) under folder, each through a temporary file, leaving
// those that hold the same bytes already, or the same JSON written otherwise (a template's
// 1.0 for the editor's 1, its key order): a save with nothing changed rewrote two files,
// noise in a plugin kept under version control. It returns how many it wrote.
func saveFiles(folder string, files map[string][]byte) (int, error) {
	n := 0
	for _, name := range slices.Sorted(maps.Keys(files)) {
		path := filepath.Join(folder, filepath.FromSlash(name))
		// Through safefile: a pipe put in the folder must not hold the window. A file much
		// larger than the new one is not the same, and is not read.
		if old, err := safefile.ReadFile(path, 2*int64(len(files[name]))+4096); err == nil && (bytes.Equal(old, files[name]) || sameJSON(old, files[name])) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return n, err
		}
		err := archive.WriteAtomic(path, 0o644, func(w io.Writer) error {
			_, err := w.Write(files[name])
			return err
		})
		if err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// sameJSON reports whether a and b are JSON texts that read the same: equal values once keys
// holding zero values (0, false, "", null), which the editor leaves out, are dropped, and JSON
// text inside a string (parametersSchemaJson, which the form holds on one line) is compacted.
func sameJSON(a, b []byte) bool {
	var va, vb any
	if json.Unmarshal(a, &va) != nil || json.Unmarshal(b, &vb) != nil {
		return false
	}
	return reflect.DeepEqual(canonicalJSON(va), canonicalJSON(vb))
}

// canonicalJSON is v as sameJSON compares it.
func canonicalJSON(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if e = canonicalJSON(e); e != nil {
				out[k] = e
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = canonicalJSON(e)
		}
		return out
	case string:
		if x == "" {
			return nil
		}
		var c bytes.Buffer
		if t := strings.TrimSpace(x); strings.HasPrefix(t, "{") && json.Compact(&c, []byte(t)) == nil {
			return c.String()
		}
		return x
	case float64:
		if x == 0 {
			return nil
		}
	case bool:
		if !x {
			return nil
		}
	}
	return v
}
