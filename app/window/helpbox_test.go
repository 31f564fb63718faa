package window

import (
	"image"
	"testing"
)

// The keys overlay goes left of a camera panel it would cover, where the window has room; in
// a window too narrow it stays at the left edge.
func TestHelpBoxClearsTheCameraPanel(t *testing.T) {
	s := &simScreen{w: 1280, h: 800, barH: 30}
	s.panels = &panels{rects: []image.Rectangle{image.Rect(950, 8, 1272, 266)}}
	x, y, w, h := s.helpBox()
	box := image.Rect(int(x), int(y), int(x+w), int(y+h))
	if box.Overlaps(s.panels.rects[0]) || x < 4 {
		t.Errorf("the overlay %v covers the panel %v", box, s.panels.rects[0])
	}
	s.w, s.panels.rects[0] = 700, image.Rect(400, 8, 692, 266)
	if x, _, _, _ := s.helpBox(); x != 4 {
		t.Errorf("in a 700-pixel window the overlay starts at %g, want 4", x)
	}
}

// In a window too short for the whole overlay between the HUD and the toolbar (600 high,
// the toolbar in two rows) it keeps off both, its lines fill it exactly, and the wheel
// scrolls it to the last key and back: at 1024×600 it covered the toolbar's first row.
func TestHelpBoxFitsAShortWindow(t *testing.T) {
	for _, w := range []int{800, 1024} {
		s := &simScreen{w: w, h: 600, barH: 54, hud: make([]string, 7), panels: &panels{}}
		_, y, _, h := s.helpBox()
		if top, bottom := float32(s.hudBottom()), float32(s.h-s.barH); y < top || y+h > bottom {
			t.Errorf("%d×600: the overlay spans y %g..%g, beyond the room between the HUD (%g) and the toolbar (%g)", w, y, y+h, top, bottom)
		}
		lines := s.helpShown()
		if _, lh := boxSize(lines); lh != h {
			t.Errorf("%d×600: %d lines (%g px) drawn in a box %g px high", w, len(lines), lh, h)
		}
		for range len(helpText) {
			s.scrollHelp(-1)
		}
		if last := s.helpShown(); last[len(last)-1] != helpText[len(helpText)-1] {
			t.Errorf("%d×600: scrolled down, the overlay ends at %q", w, last[len(last)-1])
		}
		for range len(helpText) {
			s.scrollHelp(1)
		}
		if first := s.helpShown(); first[1] != helpText[0] {
			t.Errorf("%d×600: scrolled up, the overlay starts at %q", w, first[1])
		}
	}
	// Where all of it fits it is drawn as it always was.
	s := &simScreen{w: 1280, h: 800, barH: 30, hud: make([]string, 7), panels: &panels{}}
	if got := s.helpShown(); len(got) != len(helpLines) {
		t.Errorf("1280×800: %d lines shown, want all %d", len(got), len(helpLines))
	}
}
