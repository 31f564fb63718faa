package window

import "testing"

// TestTagSpacePlacesNoTagOverAnother: a tag overlapping one placed before, or off the screen,
// is not placed; one beside it is, also across cells; a new frame starts empty.
func TestTagSpacePlacesNoTagOverAnother(t *testing.T) {
	var ts tagSpace
	ts.reset(640, 480)
	for _, c := range []struct {
		r    rect32
		want bool
	}{
		{rect32{100, 100, 60, 16}, true},
		{rect32{150, 110, 60, 16}, false}, // over the first
		{rect32{161, 100, 60, 16}, true},  // beside it, in the next cell
		{rect32{100, 117, 60, 16}, true},  // below it
		{rect32{-70, 10, 60, 16}, false},  // off the left edge
		{rect32{10, 470, 60, 16}, true},   // partly on the screen
		{rect32{200, 112, 10, 2}, false},  // inside the third
	} {
		if got := ts.place(c.r); got != c.want {
			t.Errorf("place(%+v) = %v, want %v", c.r, got, c.want)
		}
	}
	ts.reset(640, 480)
	if !ts.place(rect32{150, 110, 60, 16}) {
		t.Error("after reset, a tag where one was last frame is not placed")
	}
}

// TestTagSpaceKeepsTagsOffRobots: a tag may not cover a robot added before it.
func TestTagSpaceKeepsTagsOffRobots(t *testing.T) {
	var ts tagSpace
	ts.reset(640, 480)
	ts.add(rect32{100, 100, 20, 20})
	ts.add(rect32{100, 100, 20, 20}) // robots may overlap each other
	if ts.place(rect32{90, 110, 60, 16}) {
		t.Error("a tag over a robot was placed")
	}
	if !ts.place(rect32{90, 121, 60, 16}) {
		t.Error("a tag just below the robot was not placed")
	}
}
