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
// the change; after Save one close ends it at once. On the way, an Export over a file that
// is not the plugin's archive asks before replacing it.
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
	if g.Exited() || !strings.Contains(s.Status, "or Save them to "+folder) {
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

	// Export over a file that is not this plugin's archive asks first; the status keeps
	// saying what was exported while the folder's changes are not saved.
	notes := filepath.Join(dir, "notes.zip")
	if err := os.WriteFile(notes, []byte("my notes"), 0o644); err != nil {
		t.Fatal(err)
	}
	g = edit()
	g.set("export.path", notes)
	g.click("button:export")
	s = g.wait("the overwrite question", 10*time.Second, func(s State) bool { return strings.Contains(s.Status, "click Export again") })
	if b, _ := os.ReadFile(notes); string(b) != "my notes" || !strings.Contains(s.Status, "not a plugin archive") {
		t.Errorf("first Export over notes.zip: status %q, file %q", s.Status, b)
	}
	g.click("button:export")
	s = g.wait("the export", 10*time.Second, func(s State) bool { return strings.Contains(s.Status, "exported") })
	if archivePluginID(notes) != "vehicle.acme.close.v1" {
		t.Errorf("the second Export did not replace notes.zip: status %q", s.Status)
	}
	g.shot("export-replaced.png")
	g.key("ctrl+s") // as the Save button, with the keys in a text field
	g.wait("saved", 10*time.Second, func(s State) bool { return strings.Contains(s.Status, "saved") })
	xtest.AskClose(t, g.win)
	if !gone(g, 15*time.Second) {
		t.Fatalf("a close after Save did not end the editor; stderr:\n%s", g.stderr)
	}
	if now, _ := os.ReadFile(descriptor); !strings.Contains(string(now), `"Closing car"`) {
		t.Errorf("descriptor.json after Save:\n%s", now)
	}
}
