package editor

import (
	"strings"
	"testing"
	"time"

	"golang.design/x/clipboard"
)

// TestEditorClipboard pastes a path copied by another program into the open field with
// Ctrl+V (Enter then opens it: there is nothing there), and copies a field's text with Ctrl+A, Ctrl+C for another program to read.
func TestEditorClipboard(t *testing.T) {
	needDisplay(t)
	if err := clipboard.Init(); err != nil {
		t.Fatalf("the test's own clipboard: %v", err)
	}
	g := startEditor(t, "standalone", "RUSIM_HOME="+t.TempDir())
	const path = "/home/me/plugins/track.acme.tiles.v1"
	clipboard.Write(clipboard.FmtText, []byte(path+"\n"))
	g.click("field:open.path")
	g.wait("the open field focused", 5*time.Second, func(s State) bool { return s.Focus == "field:open.path" })
	g.key("ctrl+v")
	g.wait("the pasted path", 10*time.Second, func(s State) bool { return s.Values["field:open.path"] == path })
	g.key("Return") // Enter opens, as the Open button does
	g.wait("the open's answer", 10*time.Second, func(s State) bool { return strings.Contains(s.Status, "no such file") })

	g.set("descriptor.displayName", "Copied Rover")
	g.key("ctrl+a")
	g.wait("the name selected", 5*time.Second, func(s State) bool { return s.Selection == [2]int{0, len("Copied Rover")} })
	g.key("ctrl+c")
	deadline := time.Now().Add(10 * time.Second)
	for string(clipboard.Read(clipboard.FmtText)) != "Copied Rover" {
		if time.Now().After(deadline) {
			t.Fatalf("the clipboard holds %q after Ctrl+C", clipboard.Read(clipboard.FmtText))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestEditorKeysOverlay: F1 shows the editor's keys, Esc hides them, F1 again toggles.
func TestEditorKeysOverlay(t *testing.T) {
	needDisplay(t)
	g := startEditor(t, "standalone", "RUSIM_HOME="+t.TempDir())
	shown := func(s State) bool { _, ok := s.Targets["button:help.close"]; return ok }
	g.wait("the editor", 10*time.Second, func(s State) bool { return s.Type != "" })
	g.key("F1")
	g.wait("the keys shown", 10*time.Second, shown)
	g.key("Escape")
	g.wait("the keys hidden by Esc", 10*time.Second, func(s State) bool { return !shown(s) })
	g.key("F1")
	g.wait("the keys shown again", 10*time.Second, shown)
	g.key("F1")
	g.wait("the keys hidden by F1", 10*time.Second, func(s State) bool { return !shown(s) })
}
