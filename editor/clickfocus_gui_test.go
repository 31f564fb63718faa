package editor

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestEditorTypingRightAfterAClickIsKept clicks the open field while no field has the keyboard
// and types in the same burst, as a hand does that clicks and types at once on a loaded
// machine, where a slow frame sees the click and the first keys together. Those keys were read
// only once a field had the keyboard, and lost ("/tmp/x" typed into the open field read "x").
// A burst lands in one tick now and then, so the test makes several.
func TestEditorTypingRightAfterAClickIsKept(t *testing.T) {
	needDisplay(t)
	g := startEditor(t, "standalone", "RUSIM_HOME="+t.TempDir())
	const open, rounds = "field:open.path", 10
	for i := range rounds {
		s := g.wait("the open field, no field focused", 10*time.Second, func(s State) bool { _, ok := s.Targets[open]; return ok && s.Focus == "" })
		r := s.Targets[open]
		// One xdotool call: the move, the click and the keys reach the editor together.
		g.xdo("mousemove", "--window", g.win, fmt.Sprint((r[0]+r[2])/2), fmt.Sprint((r[1]+r[3])/2), "click", "1", "type", "--args", "1", "/tmp")
		want := strings.Repeat("/tmp", i+1)
		// Keys lost stay lost: the field reads the path typed, or the wait fails.
		g.wait(fmt.Sprintf("round %d: the open field, clicked with /tmp typed at once, to read %q", i+1, want), 10*time.Second,
			func(s State) bool { return s.Focus == open && s.Values[open] == want })
		g.key("Escape")
	}
}
