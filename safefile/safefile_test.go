package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Every kind of file that is not regular is refused at once, naming what it is; a FIFO
// without a writer would block a plain os.Open forever.
func TestOpenRefusesNonRegularFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, what string }{
		{fifo, "a named pipe"},
		{dir, "a folder"},
		{"/dev/null", "a character device"},
	} {
		_, _, err := Open(tc.path)
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), tc.what) {
			t.Errorf("Open(%s): %v, want ErrNotRegular naming %s", tc.path, err, tc.what)
		}
		if _, err := ReadFile(tc.path, 10); !errors.Is(err, ErrNotRegular) {
			t.Errorf("ReadFile(%s): %v, want ErrNotRegular", tc.path, err)
		}
	}
}

func TestReadFileBoundsTheSize(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte("0123456789"), 0o600); err != nil {
		t.Fatal(err)
	}
	b, err := ReadFile(p, 10)
	if err != nil || string(b) != "0123456789" {
		t.Fatalf("at the limit: %q %v", b, err)
	}
	var tl *TooLargeError
	if _, err := ReadFile(p, 9); !errors.As(err, &tl) || tl.Size != 10 || tl.Limit != 9 {
		t.Fatalf("over the limit: %v", err)
	}
	// Through a symbolic link the target is what counts.
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(p, link); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(link, 10); err != nil || len(b) != 10 {
		t.Fatalf("symlink to a regular file: %q %v", b, err)
	}
}
