package safefile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestCheckWritableSaysWhy(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain")
	if err := os.WriteFile(plain, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ file, want string }{
		{filepath.Join(dir, "new.yaml"), ""},
		{plain, ""},
		{filepath.Join(dir, "no", "such", "x.yaml"), "cannot write " + filepath.Join(dir, "no", "such", "x.yaml") + ": folder " + filepath.Join(dir, "no", "such") + " does not exist"},
		{filepath.Join(plain, "x.yaml"), "cannot write " + filepath.Join(plain, "x.yaml") + ": " + plain + " is a regular file, not a folder"},
		{filepath.Join(plain, "a", "x.yaml"), "cannot write " + filepath.Join(plain, "a", "x.yaml") + ": " + plain + " is not a folder"},
		{dir, "cannot write " + dir + ": it is a folder"},
		{fifo, "cannot write " + fifo + ": it is a named pipe"},
	} {
		err := CheckWritable(tc.file)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if len(got) < len(tc.want) || got[:len(tc.want)] != tc.want || (tc.want == "") != (got == "") {
			t.Errorf("%s: got %q, want %q", tc.file, got, tc.want)
		}
	}
}

// CanCreateIn leaves nothing behind where it can create a file, and gives the file system's
// reason, without the probe's name, where it cannot.
func TestCanCreateIn(t *testing.T) {
	dir := t.TempDir()
	if err := CanCreateIn(dir); err != nil {
		t.Fatalf("a temporary folder: %v", err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("the probe left %s", left[0].Name())
	}
	plain := filepath.Join(dir, "plain")
	if err := os.WriteFile(plain, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := CanCreateIn(plain); err != syscall.ENOTDIR {
		t.Errorf("a file as the folder: %v, want ENOTDIR alone", err)
	}
	// sysfs takes no new file, even from root.
	if err := CanCreateIn("/sys/kernel"); err == nil {
		t.Error("/sys/kernel took a file")
	}
}
