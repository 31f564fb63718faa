package editor

import (
	"fmt"
	"testing"
	"time"
)

// TestEditorDropdownPicksForItsOwnRow rests the pointer on one element's material drop-down,
// then moves to the next row's and clicks in one go, as a quick hand does on a loaded machine,
// and picks a material from the list that opens. debugui's stale hover opened the first
// drop-down's list too, under the second's, and the option clicked was picked in both: the
// element above got a material no one chose. Now only the drop-down clicked takes the pick.
func TestEditorDropdownPicksForItsOwnRow(t *testing.T) {
	g, _ := newTrackEditor(t)
	g.click("button:tab:" + tabGeometry)
	const above, below = "field:descriptor.elements[4].material", "field:descriptor.elements[5].material"
	g.reveal(below)
	s := g.wait("both drop-downs", 10*time.Second, func(s State) bool {
		_, a := s.Targets[above]
		_, b := s.Targets[below]
		return a && b
	})
	if s.Values[above] != "" || s.Values[below] != "" {
		t.Fatalf("the template's materials: %q, %q; want none", s.Values[above], s.Values[below])
	}
	a, b := s.Targets[above], s.Targets[below]
	g.moveTo((a[0]+a[2])/2, (a[1]+a[3])/2)
	// One xdotool call: the move and the click reach the editor in the same frame.
	bx, by := (b[0]+b[2])/2, (b[1]+b[3])/2
	g.xdo("mousemove", "--window", g.win, fmt.Sprint(bx), fmt.Sprint(by), "click", "1")
	s = g.wait("the click on the lower drop-down", 10*time.Second, func(st State) bool { return st.Clicks > s.Clicks })
	// The third option of the list opened below the lower drop-down (22 pixels an option),
	// where the upper one's list lay too.
	g.moveTo(bx, b[3]+2*22+11)
	g.xdo("click", "1")
	s = g.wait("a material picked", 10*time.Second, func(s State) bool { return s.Values[below] != "" })
	g.shot("dropdown-own-row.png")
	if s.Values[above] != "" {
		t.Errorf("picked %q for elements[5]; elements[4], not clicked, got %q", s.Values[below], s.Values[above])
	}
}
