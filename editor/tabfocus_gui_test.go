package editor

import (
	"testing"
	"time"
)

// TestEditorTabWithTypingMovesToTheNextField types the id's last letter, Tab and the display
// name's first letters in one burst, as a quick hand does on a loaded machine, where they reach
// the editor in one tick. The capital's Shift was taken for Shift+Tab, and the keyboard went
// back to the open field above the form, where the rest of the name was typed. A Shift+Tab
// of its own still goes back.
func TestEditorTabWithTypingMovesToTheNextField(t *testing.T) {
	needDisplay(t)
	g := startEditor(t, "standalone", "RUSIM_HOME="+t.TempDir())
	const id, name = "field:descriptor.id", "field:descriptor.displayName"
	g.set("descriptor.id", "vehicle.acme.rover.v")
	// One xdotool call: the letter, Tab and the next letters reach the editor in one tick.
	g.xdo("type", "--args", "1", "1", "key", "Tab", "type", "--args", "1", "Ac")
	s := g.wait("the keyboard to leave the id field", 10*time.Second, func(s State) bool { return s.Focus != id && s.Focus != "" })
	if s.Focus != name {
		t.Fatalf("Tab in the id field, typed with the letters around it, gave the keyboard to %q, not the display name; id %q, display name %q, open %q",
			s.Focus, s.Values[id], s.Values[name], s.Values["field:open.path"])
	}
	g.key("shift+Tab")
	g.wait("Shift+Tab to go back to the id field", 10*time.Second, func(s State) bool { return s.Focus == id })
}
