package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// MkdirAll makes dir and its missing parents as os.MkdirAll does, and returns the folders it
// made, outermost first: a file that then cannot be written takes them away again with
// RemoveMade, so that a failed command leaves nothing behind.
func MkdirAll(dir string, perm fs.FileMode) ([]string, error) {
	var missing []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); !errors.Is(err, fs.ErrNotExist) {
			break // there, or not ours to claim
		}
		missing = append(missing, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	if err := os.MkdirAll(dir, perm); err != nil {
		return nil, err
	}
	slices.Reverse(missing)
	return missing, nil
}

// RemoveMade removes the folders MkdirAll made, innermost first, each only if it is empty
// (another program may have put something there since).
func RemoveMade(made []string) {
	for i := len(made) - 1; i >= 0; i-- {
		os.Remove(made[i])
	}
}
