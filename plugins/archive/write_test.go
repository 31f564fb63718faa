package archive

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteAtomicErrorsNameTheFile: whatever step fails, the error names the file asked for,
// never the temporary file, keeps its cause for errors.Is, and leaves no temporary file.
func TestWriteAtomicErrorsNameTheFile(t *testing.T) {
	dir := t.TempDir()
	full := filepath.Join(dir, "full") // a folder at the name: the rename over it fails
	if err := os.MkdirAll(filepath.Join(full, "inside"), 0o755); err != nil {
		t.Fatal(err)
	}
	errOwn := errors.New("the writer's own error")
	for _, c := range []struct {
		name, file string
		write      func(io.Writer) error
		is         error
	}{
		{"missing folder", filepath.Join(dir, "none", "x.zip"), nil, fs.ErrNotExist},
		{"folder at the name", full, nil, nil},
		{"writer fails", filepath.Join(dir, "w.zip"), func(io.Writer) error { return errOwn }, errOwn},
	} {
		t.Run(c.name, func(t *testing.T) {
			write := c.write
			if write == nil {
				write = func(w io.Writer) error { _, err := w.Write([]byte("data")); return err }
			}
			err := WriteAtomic(c.file, 0o644, write)
			if err == nil {
				t.Fatal("no error")
			}
			if strings.Contains(err.Error(), ".tmp-") {
				t.Errorf("the error names the temporary file: %v", err)
			}
			if c.is != nil && !errors.Is(err, c.is) {
				t.Errorf("%v is not %v", err, c.is)
			}
			if pe, ok := errors.AsType[*fs.PathError](err); c.is != errOwn && (!ok || pe.Path != c.file) {
				t.Errorf("%v does not name %s", err, c.file)
			}
			left, _ := filepath.Glob(filepath.Join(filepath.Dir(c.file), ".*.tmp-*"))
			if len(left) > 0 {
				t.Errorf("temporary files left: %v", left)
			}
		})
	}
}
