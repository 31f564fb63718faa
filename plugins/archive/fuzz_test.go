package archive

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"simgui/plugins"
)

// FuzzRead feeds the archive reader mutations of real archives: every built-in plugin
// zipped, and rusim's two exports. Whatever the bytes, Read must not panic or exceed its
// limits, and what it accepts must have only allowed names, write back to the same files and
// decode (or fail to decode) without panicking.
func FuzzRead(f *testing.F) {
	for _, id := range plugins.Builtin().IDs() {
		f.Add(zipBytes(f, builtinArchive(f, id)))
	}
	fixtures, _ := filepath.Glob(filepath.Join("..", "testdata", "*.rusim-plugin.zip"))
	if len(fixtures) == 0 {
		f.Fatal("no fixtures in ../testdata")
	}
	for _, p := range fixtures {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := Read(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			return
		}
		if a.Size() > DefaultLimits.MaxTotal || len(a.Names()) > DefaultLimits.MaxEntries {
			t.Fatalf("accepted %d bytes in %d files", a.Size(), len(a.Names()))
		}
		for _, name := range a.Names() {
			if reason := checkName(name); reason != "" {
				t.Fatalf("accepted %q: %s", name, reason)
			}
		}
		var out bytes.Buffer
		if err := a.Write(&out); err != nil {
			t.Fatal(err)
		}
		back, err := Read(bytes.NewReader(out.Bytes()), int64(out.Len()))
		if err != nil {
			t.Fatalf("cannot read what it wrote: %v", err)
		}
		if !reflect.DeepEqual(back.files, a.files) {
			t.Fatal("write and read back changed the files")
		}
		a.Plugin()
	})
}
