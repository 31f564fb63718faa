package archive

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"time"
)

// zipTime is the modification time written for every entry, so that the same files always
// make the same archive bytes.
var zipTime = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)

// Write writes a as a zip archive: files in name order, deflated, mode 0644, a fixed time, no
// folder entries. The same files give the same bytes.
func (a *Archive) Write(w io.Writer) error {
	zw := zip.NewWriter(w)
	for _, name := range a.Names() {
		h := &zip.FileHeader{Name: name, Method: zip.Deflate, Modified: zipTime}
		h.SetMode(0o644)
		fw, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		if _, err := fw.Write(a.files[name]); err != nil {
			return err
		}
	}
	return zw.Close()
}

// WriteFile writes a as a zip archive to path atomically: a temporary file in the same folder,
// synced, then renamed over path.
func (a *Archive) WriteFile(name string) error {
	return WriteAtomic(name, 0o644, a.Write)
}

// Unpack writes a's files under dir, which must exist and be empty: folders 0755, files
// 0644, each file and folder synced so that a rename of dir afterwards publishes complete
// files.
func (a *Archive) Unpack(dir string) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	dirs := map[string]bool{".": true}
	for _, name := range a.Names() {
		for d := path.Dir(name); !dirs[d]; d = path.Dir(d) {
			if err := root.MkdirAll(d, 0o755); err != nil {
				return err
			}
			dirs[d] = true
		}
		f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return err
		}
		_, err = f.Write(a.files[name])
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("unpack %s: %w", name, err)
		}
	}
	for d := range dirs {
		if err := syncDir(filepath.Join(dir, filepath.FromSlash(d))); err != nil {
			return err
		}
	}
	return nil
}

// WriteAtomic writes the file name through write: into a temporary file in the same folder,
// synced, closed and renamed over name, then the folder synced. A crash leaves the old file or
// the new one, never a torn one. The registry writes plugin-registry.json with it. Its errors
// name name, never the temporary file (an *fs.PathError with the cause, for errors.Is).
func WriteAtomic(name string, perm fs.FileMode, write func(io.Writer) error) error {
	dir := filepath.Dir(name)
	f, err := os.CreateTemp(dir, "."+filepath.Base(name)+".tmp-*")
	if err != nil {
		return &fs.PathError{Op: "create", Path: name, Err: cause(err)}
	}
	tmp := f.Name()
	err = write(f)
	if err == nil {
		err = f.Chmod(perm)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, name)
	}
	if err != nil {
		os.Remove(tmp)
		return hideTemp(err, tmp, name)
	}
	return syncDir(dir)
}

// cause is the reason of a file system error, without the file it names.
func cause(err error) error {
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return pe.Err
	}
	return err
}

// hideTemp reports an error about the temporary file tmp (writing, syncing, closing or
// renaming it) as one about name; other errors (write's own) are returned as they are.
func hideTemp(err error, tmp, name string) error {
	if pe, ok := errors.AsType[*fs.PathError](err); ok && pe.Path == tmp {
		return &fs.PathError{Op: "write", Path: name, Err: pe.Err}
	}
	if le, ok := errors.AsType[*os.LinkError](err); ok && le.Old == tmp {
		return &fs.PathError{Op: "replace", Path: name, Err: le.Err}
	}
	return err
}

// syncDir makes a folder's entries (a rename, new files) durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
