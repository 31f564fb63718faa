package window

import (
	"slices"
	"testing"

	"simgui/app/world"
)

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

// A flying robot's name tag in the top-down view carries its altitude (a drone 6 m up looked
// as one 1 m up, and only the selected robot's altitude was in the HUD); a car's carries its
// name alone.
func TestNameTagShowsAFlyersAltitude(t *testing.T) {
	drone := builtinVehicle(t, "vehicle.drone.simple.v1")
	car := builtinVehicle(t, "vehicle.arcade.red.v1")
	s := &simScreen{w: 640, h: 480}
	s.view = view{Scale: 100, W: 640, H: 480}
	s.nameTags.reset(640, 480)
	var b batch
	for _, m := range []world.ModelState{
		{Name: "drone", Vehicle: drone, Pose: world.Pose{X: -1, Z: 6.04}},
		{Name: "low", Vehicle: drone, Pose: world.Pose{X: 1, Z: 0.35}},
		{Name: "arcade", Vehicle: car, Pose: world.Pose{Y: 1.5}},
	} {
		s.nameTag(&b, &m, false, true)
	}
	var got []string
	for _, l := range s.labels {
		got = append(got, l.text)
	}
	if want := []string{"drone  6.04 m", "low  0.35 m", "arcade"}; !slices.Equal(got, want) {
		t.Errorf("name tags %q, want %q", got, want)
	}
}
