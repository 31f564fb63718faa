package registry

import (
	"io"
	"os"
	"path/filepath"

	"simgui/plugins/archive"
)

// fileOps are the calls that change the registry's home folder. Every change goes through
// them so that tests can stop a change at any one of them, as a crash would, and check that
// the next command recovers (crash_test.go).
type fileOps interface {
	MkdirTemp(dir, pattern string) (string, error)
	Unpack(a *archive.Archive, dir string) error
	// WriteFile replaces name atomically (archive.WriteAtomic: a synced temporary file renamed
	// over it).
	WriteFile(name string, data []byte) error
	Rename(from, to string) error
	Remove(name string) error
	RemoveAll(path string) error
}

// osOps are the real file operations.
type osOps struct{}

func (osOps) MkdirTemp(dir, pattern string) (string, error) { return os.MkdirTemp(dir, pattern) }
func (osOps) Unpack(a *archive.Archive, dir string) error   { return a.Unpack(dir) }
func (osOps) Remove(name string) error                      { return os.Remove(name) }
func (osOps) RemoveAll(path string) error                   { return os.RemoveAll(path) }

func (osOps) WriteFile(name string, data []byte) error {
	return archive.WriteAtomic(name, 0o644, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Rename renames and syncs both folders, so that after a power cut the rename is there or
// not, in order with the changes after it.
func (osOps) Rename(from, to string) error {
	if err := os.Rename(from, to); err != nil {
		return err
	}
	for _, dir := range []string{filepath.Dir(from), filepath.Dir(to)} {
		d, err := os.Open(dir)
		if err != nil {
			return err
		}
		err = d.Sync()
		d.Close()
		if err != nil {
			return err
		}
	}
	return nil
}
