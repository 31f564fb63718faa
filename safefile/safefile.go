// Package safefile opens files named by someone else (a CLI argument, a scenario, a plugin
// archive) the way a hostile name requires: only regular files, checked on the open file so
// a swap between the check and the open does not matter, without ever blocking on a named
// pipe or a device, and read within a size bound decided before anything is allocated.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// ErrNotRegular is wrapped by the errors of Open and ReadFile for a path that names a folder,
// a named pipe, a socket or a device.
var ErrNotRegular = errors.New("not a regular file")

// TooLargeError is a file over the size bound of ReadFile.
type TooLargeError struct {
	Path  string
	Size  int64 // bytes, as far as they were counted
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is %d bytes; the limit is %d", e.Path, e.Size, e.Limit)
}

// Open opens path for reading if it is a regular file. O_NONBLOCK makes opening a named pipe
// return at once instead of waiting for a writer (it does nothing to regular files); the
// type is then checked with fstat on the descriptor, so it is the file opened that was
// checked.
func Open(path string) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("%s: %w (%s)", path, ErrNotRegular, Describe(st.Mode()))
	}
	return f, st, nil
}

// ReadFile reads the regular file path, refusing one over limit bytes with a
// *TooLargeError before reading it. A file that grows while it is read is cut at limit+1
// bytes and refused the same way.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, st, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st.Size() > limit {
		return nil, &TooLargeError{Path: path, Size: st.Size(), Limit: limit}
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, &TooLargeError{Path: path, Size: int64(len(b)), Limit: limit}
	}
	return b, nil
}

// Describe names a file type in words: "a folder", "a named pipe", ...
func Describe(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "mode " + m.String()
}
