package safefile

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestMkdirAllReturnsWhatItMade(t *testing.T) {
	dir := t.TempDir()
	want := []string{filepath.Join(dir, "a"), filepath.Join(dir, "a", "b"), filepath.Join(dir, "a", "b", "c")}
	made, err := MkdirAll(want[2], 0o755)
	if err != nil || !slices.Equal(made, want) {
		t.Fatalf("made %v, %v; want %v", made, err, want)
	}
	if again, err := MkdirAll(want[2], 0o755); err != nil || len(again) != 0 {
		t.Fatalf("again: made %v, %v; want nothing", again, err)
	}
	// A folder something was put in since stays, with its parents.
	if err := os.WriteFile(filepath.Join(want[1], "keep"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	RemoveMade(made)
	if _, err := os.Stat(want[2]); !os.IsNotExist(err) {
		t.Errorf("%s is left: %v", want[2], err)
	}
	if _, err := os.Stat(filepath.Join(want[1], "keep")); err != nil {
		t.Errorf("the file put there since is gone: %v", err)
	}
	RemoveMade(made[:1])
	if _, err := os.Stat(want[0]); err != nil {
		t.Errorf("a folder not empty was removed: %v", err)
	}
}
