package safefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// CheckWritable says, in words about the file the user asked for, why file cannot be written
// where it is: its folder is missing or is not a folder, or file is already a folder, a pipe
// or a device. Nil when the folder is there (permissions are left to the write).
func CheckWritable(file string) error {
	dir := filepath.Dir(file)
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("cannot write %s: folder %s does not exist", file, dir)
	case errors.Is(err, syscall.ENOTDIR):
		return fmt.Errorf("cannot write %s: %s is not a folder", file, nearestNonFolder(dir))
	case err != nil:
		return fmt.Errorf("cannot write %s: %w", file, Cause(err))
	case !st.IsDir():
		return fmt.Errorf("cannot write %s: %s is %s, not a folder", file, dir, Describe(st.Mode()))
	}
	if st, err := os.Stat(file); err == nil && !st.Mode().IsRegular() {
		return fmt.Errorf("cannot write %s: it is %s", file, Describe(st.Mode()))
	}
	return nil
}

// nearestNonFolder returns the deepest element of dir that exists: the file that stands where
// dir needs a folder (dir itself when it finds none).
func nearestNonFolder(dir string) string {
	for p := dir; filepath.Dir(p) != p; p = filepath.Dir(p) {
		if st, err := os.Stat(p); err == nil {
			if !st.IsDir() {
				return p
			}
			break
		}
	}
	return dir
}

// Cause is the reason of a file system error without the file it names: the file system
// names the files it works on (a temporary file, for one), a message to the user names the
// file they asked for.
func Cause(err error) error {
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return pe.Err
	}
	if le, ok := errors.AsType[*os.LinkError](err); ok {
		return le.Err
	}
	return err
}

// CanCreateIn checks that a file can be created in the folder dir, by creating one and
// removing it: a folder that is there but takes no file (another user's, a read-only mount)
// is told before a command starts its work rather than at its first write. The error is the
// file system's reason (Cause).
func CanCreateIn(dir string) error {
	probe, err := os.CreateTemp(dir, ".simgui-write-check-*")
	if err != nil {
		return Cause(err)
	}
	probe.Close()
	return os.Remove(probe.Name())
}
