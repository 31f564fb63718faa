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

func TestFitWindowKeepsToTheMonitorAboveTheLeast(t *testing.T) {
	for _, c := range []struct{ w, h, mw, mh, ww, wh int }{
		{1280, 800, 1920, 1080, 1280, 800}, // room: as asked
		{1280, 800, 1366, 768, 1280, 668},  // a laptop: the height shrinks
		{1280, 800, 1024, 600, 984, 600},   // smaller than the least: the least
		{1280, 800, 0, 0, 1280, 800},       // monitor unknown
	} {
		if w, h := fitWindow(c.w, c.h, 800, 600, c.mw, c.mh); w != c.ww || h != c.wh {
			t.Errorf("%dx%d on %dx%d: %dx%d, want %dx%d", c.w, c.h, c.mw, c.mh, w, h, c.ww, c.wh)
		}
	}
}
