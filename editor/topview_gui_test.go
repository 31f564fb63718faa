package editor

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// A track's top view a laptop screen leaves short has its hints in its caption rather than
// on it: at 1366×768 three lines of text hid a third of its 112 pixels, the spawn points'
// handles among them. A tall view keeps them on the view, by what they name.
func TestEditorShortTopViewHintsInTheCaption(t *testing.T) {
	needDisplay(t)
	g := startEditor(t, "standalone", envNewType+"=track", "RUSIM_HOME="+t.TempDir())
	const drag = "drag spawn points, waypoints and elements to move them (Shift: 1 cm steps)"
	s := g.wait("the short top view's hints in its caption", 30*time.Second, func(s State) bool {
		return strings.Contains(s.TopCaption, "drag points to move them") && len(s.PreviewViews) == 2
	})
	if top := s.Targets["preview:top"]; top[3]-top[1] >= compactTopH || slices.Contains(s.TopHints, drag) {
		t.Fatalf("the top view %v (%d px high) has hints %q on it; want none under %d px", top, top[3]-top[1], s.TopHints, compactTopH)
	}
	g.xdo("windowsize", "--sync", g.win, "1900", "1060")
	s = g.wait("the tall top view's hints on it", 30*time.Second, func(s State) bool {
		return slices.Contains(s.TopHints, drag) && s.TopCaption == "Top-down"
	})
	if top := s.Targets["preview:top"]; top[3]-top[1] < compactTopH {
		t.Fatalf("the top view %v is still short after the window grew", top)
	}
}
