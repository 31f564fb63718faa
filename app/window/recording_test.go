package window

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Two recordings started in one second go to two files; one that does not start leaves none.
func TestStartRecordingNamesFiles(t *testing.T) {
	base := filepath.Join(t.TempDir(), "recs", "simgui-20261207-111036")
	var opened []string
	ok := func(f *os.File) (func() error, error) {
		opened = append(opened, f.Name())
		return f.Close, nil
	}
	for _, want := range []string{base + ".mcap", base + "-2.mcap"} {
		stop, path, err := startRecording(ok, base)
		if err != nil || path != want {
			t.Fatalf("recording to %q (%v), want %q", path, err, want)
		}
		if err := stop(); err != nil {
			t.Fatal(err)
		}
	}
	failed := func(f *os.File) (func() error, error) {
		f.Close()
		return nil, errors.New("no world to record")
	}
	if _, _, err := startRecording(failed, base); err == nil {
		t.Fatal("a recording that did not start said it did")
	}
	if _, err := os.Stat(base + "-3.mcap"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the file of a recording that did not start is left: %v", err)
	}
	if len(opened) != 2 || opened[1] != base+"-2.mcap" {
		t.Errorf("opened %v", opened)
	}
}

func TestRecClock(t *testing.T) {
	for d, want := range map[time.Duration]string{0: "0:00", 61 * time.Second: "1:01", 59*time.Minute + 59*time.Second: "59:59", 3723 * time.Second: "1:02:03"} {
		if got := recClock(d); got != want {
			t.Errorf("recClock(%v) = %q, want %q", d, got, want)
		}
	}
}
