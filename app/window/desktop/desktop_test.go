package desktop

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestStateFileKeepsTheNewestAndWritesWhole(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	w := NewStateFile[map[string]int](path, time.Hour)
	if !w.Due(time.Now()) {
		t.Fatal("a new writer is not due")
	}
	for i := 1; i <= 50; i++ {
		w.Put(map[string]int{"n": i})
	}
	if w.Due(time.Now()) {
		t.Fatal("due again within the interval")
	}
	w.Close()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]int
	if err := json.Unmarshal(data, &got); err != nil || got["n"] != 50 {
		t.Fatalf("file holds %q (%v), want the last state n=50", data, err)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*")); len(left) != 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}
