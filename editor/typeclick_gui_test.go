package editor

import (
	"fmt"
	"testing"
	"time"
)

// TestEditorLastKeyStaysInItsField types a display name and, in the same frame as its last
// key, clicks the id field above it, as a quick hand does on a loaded machine. The click gave
// the id field the keyboard before the display name field, laid out after it, took the frame's
// keys, and the last letter was lost ("-0.4" typed into a box's length read "-0."). Now the
// keys go to the field that had the keyboard, and the click moves it after the frame.
func TestEditorLastKeyStaysInItsField(t *testing.T) {
	needDisplay(t)
	g := startEditor(t, "standalone", "RUSIM_HOME="+t.TempDir())
	const id, name = "field:descriptor.id", "field:descriptor.displayName"
	g.set("descriptor.displayName", "Hobby roo")
	s := g.wait("the id field", 10*time.Second, func(s State) bool { _, ok := s.Targets[id]; return ok })
	r := s.Targets[id]
	// One xdotool call: the key, the move and the click reach the editor in the same frame.
	g.xdo("type", "--args", "1", "m", "mousemove", "--window", g.win, fmt.Sprint((r[0]+r[2])/2), fmt.Sprint((r[1]+r[3])/2), "click", "1")
	s = g.wait("the id field focused", 10*time.Second, func(s State) bool { return s.Focus == id })
	if s.Values[name] != "Hobby room" || s.Values[id] != "" {
		t.Errorf("typed m into %q and clicked the id field: the display name reads %q, the id %q", "Hobby roo", s.Values[name], s.Values[id])
	}
}
