package window

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"simgui/app/foxview"
	"simgui/app/record"
)

// TestWindowF9Records presses F9, drives, and presses it again: the recording holds the
// drive, the camera's frames with their Foxglove views, and ends whole.
func TestWindowF9Records(t *testing.T) {
	needDisplay(t)
	dir := t.TempDir()
	g := startGUI(t, buildSimgui(t), append([]string{"--record-dir", dir}, quiet...))
	g.key("F9")
	s := g.waitState("the recording", 20*time.Second, func(s State) bool { return s.Recording != "" })
	path := s.Recording
	if filepath.Dir(path) != dir || !strings.HasSuffix(path, ".mcap") {
		t.Errorf("recording to %s, want an .mcap file in %s", path, dir)
	}
	started := s.SimTime
	g.keyDown("w")
	g.waitState("a second driven", 20*time.Second, func(s State) bool { return s.SimTime > started+1 })
	g.keyUp("w")
	g.key("F9")
	s = g.waitState("the recording saved", 20*time.Second, func(s State) bool {
		return s.Recording == "" && strings.Contains(s.Status, "recording saved to "+path)
	})
	rec, err := record.ReadFile(path)
	if err != nil || !rec.Complete {
		t.Fatalf("read %s: %v (complete %v)", path, err, rec != nil && rec.Complete)
	}
	counts := rec.Counts()
	image := "/model/ego/sensor/camera.front.rgb/image"
	// A second or more of the 15 Hz camera, each frame with its view.
	if counts[image] < 15 || counts[image+foxview.ViewSuffix] != counts[image] {
		t.Errorf("%d camera frames, %d views; want 15 or more, a view each", counts[image], counts[image+foxview.ViewSuffix])
	}
	var driven bool
	for _, m := range rec.Messages {
		driven = driven || m.Topic == "/model/ego/command"
	}
	if !driven {
		t.Errorf("no command recorded while W was held: %v", counts)
	}
}
