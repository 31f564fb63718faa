package editor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"simgui/app/window/xtest"
)

// TestEditorCloseAsksFirst closes the editor's window as a window manager's close button
// does: with a change not saved it stays open once, saying so, and a second close discards
// the change; after Save one close ends it at once.
func TestEditorCloseAsksFirst(t *testing.T) {
	needDisplay(t)
	home, dir := t.TempDir(), shortDir(t)
	if out, err := simgui(t, home, "plugin", "new", "--type", "vehicle", "vehicle.acme.close.v1", "--output-dir", dir); err != nil {
		t.Fatalf("plugin new: %v\n%s", err, out)
	}
	folder := filepath.Join(dir, "vehicle.acme.close.v1")
	descriptor := filepath.Join(folder, "descriptor.json")
	was, err := os.ReadFile(descriptor)
	if err != nil {
		t.Fatal(err)
	}
	edit := func() *gui {
		g := startEditor(t, "standalone", "RUSIM_HOME="+home)
		g.set("open.path", folder)
		g.click("button:open")
		g.wait("the folder opened", 10*time.Second, func(s State) bool { return s.ID == "vehicle.acme.close.v1" })
		g.set("descriptor.displayName", "Closing car")
		return g
	}
	gone := func(g *gui, within time.Duration) bool {
		for deadline := time.Now().Add(within); time.Now().Before(deadline); time.Sleep(40 * time.Millisecond) {
			if g.Exited() {
				return true
			}
		}
		return false
	}

	g := edit()
	xtest.AskClose(t, g.win)
	s := g.wait("the question", 10*time.Second, func(s State) bool { return strings.Contains(s.Status, "close the window again") })
	if g.Exited() || !strings.Contains(s.Status, "Save them to "+folder) {
		t.Errorf("first close: exited %v, status %q", g.Exited(), s.Status)
	}
	g.shot("close-asks.png")
	xtest.AskClose(t, g.win)
	if !gone(g, 15*time.Second) {
		t.Fatal("the second close did not end the editor")
	}
	if now, _ := os.ReadFile(descriptor); string(now) != string(was) {
		t.Error("the discarded change reached descriptor.json")
	}

	g = edit()
	g.click("button:save")
	g.wait("saved", 10*time.Second, func(s State) bool { return strings.Contains(s.Status, "saved") })
	xtest.AskClose(t, g.win)
	if !gone(g, 15*time.Second) {
		t.Fatalf("a close after Save did not end the editor; stderr:\n%s", g.stderr)
	}
	if now, _ := os.ReadFile(descriptor); !strings.Contains(string(now), "Closing car") {
		t.Errorf("descriptor.json after Save:\n%s", now)
	}
}
