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
