package window

import "fmt"

// helpTitle heads the F1 overlay; helpLines is the overlay when the window has room for it all.
const helpTitle = "Keys (F1 closes)"

var helpLines = append([]string{helpTitle, ""}, helpText...)

// helpBox is where the F1 overlay goes: centred, but below the HUD, which stays readable, and
// left of the camera panels where it fits there. In a window too short for all of it between
// the HUD and the toolbar it is cut to that room and the wheel scrolls it (helpShown): at
// 1024×600 it covered the toolbar's first row.
func (s *simScreen) helpBox() (x, y, w, h float32) {
	w, h = boxSize(helpLines)
	y = max(float32(s.hudBottom()), min((float32(s.h)-h)/2, float32(s.h-s.barH)-h-4))
	h = min(h, float32((1+s.helpKeyRows())*lineHeight+8))
	x = max(4, (float32(s.w)-w)/2)
	for _, r := range s.panels.rects {
		if float32(r.Min.X) < x+w && float32(r.Min.Y) < y+h && y < float32(r.Max.Y) {
			x = max(4, min(x, float32(r.Min.X)-w-4))
		}
	}
	return x, y, w, h
}

// helpKeyRows is how many lines of keys fit under the title between the HUD and the toolbar
// (at least a few, to scroll through, in a window shorter than the smallest one allowed).
func (s *simScreen) helpKeyRows() int {
	rows := (s.h - s.barH - 4 - s.hudBottom() - 8) / lineHeight
	return max(rows, 4) - 1
}

// helpShown is the overlay's lines as drawn: all of them, or, cut to the window, a title
// saying which show and that the wheel scrolls, then the keys from s.helpTop on (the blank
// line under the title goes: it is room for a key).
func (s *simScreen) helpShown() []string {
	n := s.helpKeyRows()
	switch {
	case n+1 >= len(helpLines):
		return helpLines
	case n >= len(helpText): // room for every key, not for the blank line
		return append([]string{helpTitle}, helpText...)
	}
	first := s.helpFirst()
	title := fmt.Sprintf("%s — the wheel scrolls: lines %d–%d of %d", helpTitle, first+1, first+n, len(helpText))
	return append([]string{title}, helpText[first:first+n]...)
}

// helpFirst is the first key line a cut overlay shows: s.helpTop, kept within the list.
func (s *simScreen) helpFirst() int {
	return max(0, min(s.helpTop, len(helpText)-s.helpKeyRows()))
}

// scrollHelp scrolls a cut overlay by two lines a notch of the wheel (wy > 0: towards the top).
func (s *simScreen) scrollHelp(wy float64) {
	s.helpTop = s.helpFirst()
	if wy > 0 {
		s.helpTop -= 2
	} else {
		s.helpTop += 2
	}
	s.helpTop = s.helpFirst()
}

// overHelp reports whether (x, y) is on the F1 overlay: the wheel there scrolls it rather
// than zooming the world hidden behind it.
func (s *simScreen) overHelp(x, y int) bool {
	if !s.show.help {
		return false
	}
	hx, hy, w, h := s.helpBox()
	return float32(x) >= hx && float32(x) < hx+w && float32(y) >= hy && float32(y) < hy+h
}
