package editor

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"simgui/app/window/xtest"
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
	// The third option of the list the lower drop-down opened, where the upper one's list lay
	// too.
	g.moveTo(dropdownOption(b, g.windowHeight(), len(materialChoices(nil)), 2))
	g.xdo("click", "1")
	s = g.wait("a material picked", 10*time.Second, func(s State) bool { return s.Values[below] != "" })
	g.shot("dropdown-own-row.png")
	if s.Values[above] != "" {
		t.Errorf("picked %q for elements[5]; elements[4], not clicked, got %q", s.Values[below], s.Values[above])
	}
}

// TestEditorDropdownNearTheBottomOpensUp opens the drive model's drop-down where the form's
// scrolling first shows it whole, at the bottom of the window: its list, which opened below
// the window's edge with "quadcopter" out of sight and out of reach, opens above it, and its
// last option can be picked.
func TestEditorDropdownNearTheBottomOpensUp(t *testing.T) {
	needDisplay(t)
	g := startEditor(t, "hosted", "RUSIM_HOME="+t.TempDir())
	g.wait("a new vehicle", 10*time.Second, func(s State) bool { return s.Type == "vehicle" })
	g.click("button:tab:" + tabBody)
	const model = "field:descriptor.drive.model"
	g.reveal(model)
	s, _ := g.readState()
	b := s.Targets[model]
	winH := g.windowHeight()
	const options = 3 // ackermann, differential, quadcopter
	if b[3]+options*dropdownBox <= winH {
		t.Fatalf("the drop-down at %v has room for its list below it in a window %d high: the test needs it near the bottom", b, winH)
	}
	g.click(model)
	s = g.wait("the click on the drop-down", 10*time.Second, func(st State) bool { return st.Clicks > s.Clicks })
	g.shot("dropdown-near-bottom-open.png")
	// The list above the drop-down, its last option just over it.
	x, y := dropdownOption(b, winH, options, options-1)
	if y >= b[1] {
		t.Fatalf("the list's last option at y %d, not above the drop-down at %v", y, b)
	}
	g.moveTo(x, y)
	g.xdo("click", "1")
	s = g.wait("quadcopter picked", 10*time.Second, func(s State) bool { return s.Values[model] == "quadcopter" })
	g.shot("dropdown-near-bottom.png")
}

// The drop-down lists of debugui (app/window/debugui): each option takes dropdownBox pixels
// of the list's height, at most dropdownMaxBox in all (it scrolls past), and lies
// dropdownPitch pixels below the one before.
const dropdownBox, dropdownMaxBox, dropdownPitch = 24, 18 * 12, 22

// dropdownOption returns the centre of option i of the list of n options that the drop-down at
// b opens in a window winH pixels high: below it, or above it when the list has no room below
// and more room above.
func dropdownOption(b [4]int, winH, n, i int) (int, int) {
	h := min(n*dropdownBox, dropdownMaxBox)
	x := (b[0] + b[2]) / 2
	if b[3]+h > winH && b[1] > winH-b[3] {
		return x, b[1] - min(h, b[1]) + i*dropdownPitch + dropdownPitch/2
	}
	return x, b[3] + i*dropdownPitch + dropdownPitch/2
}

// windowHeight is the height of the editor's window in pixels.
func (g *gui) windowHeight() int {
	g.t.Helper()
	out, err := xtest.Xdotool("getwindowgeometry", "--shell", g.win)
	if err != nil {
		g.t.Fatal(err)
	}
	for _, l := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(l, "HEIGHT="); ok {
			if h, err := strconv.Atoi(v); err == nil {
				return h
			}
		}
	}
	g.t.Fatalf("no HEIGHT in xdotool's %q", out)
	return 0
}
