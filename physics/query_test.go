package physics

import (
	"math"
	"testing"

	"simgui/plugins"
)

// bothModes runs f on a fresh space in each physics mode: the placement and sight queries
// must answer alike in both.
func bothModes(t *testing.T, f func(t *testing.T, s *Space)) {
	for _, m := range []Mode{Dynamic, Kinematic} {
		t.Run(m.String(), func(t *testing.T) { f(t, NewSpace(Options{Mode: m})) })
	}
}

func TestClearAndSweepClear(t *testing.T) { bothModes(t, testClearAndSweepClear) }

func testClearAndSweepClear(t *testing.T, s *Space) {
	mustAdd(t, s, plugins.Element{Kind: "wall", Name: "w", X: 1, Length: 0.02, Width: 2, Height: 0.3})
	mustAdd(t, s, plugins.Element{Kind: "wall", Name: "lintel", X: 3, Length: 0.02, Width: 2, Z: 0.5, Height: 0.1})
	car, err := s.AddVehicle(VehicleSpec{Name: "car", Body: carBody, Pose: Pose{X: -1}})
	if err != nil {
		t.Fatal(err)
	}
	vehicles := func(b *Body) bool { return b.Kind == KindVehicle }
	for _, c := range []struct {
		x, r float64
		skip func(*Body) bool
		want bool
	}{
		{0, 0.2, nil, true},
		{0.8, 0.2, nil, false}, // 0.19 m from the wall's face
		{0.7, 0.2, nil, true},  // 0.29 m
		{1, 0.05, nil, false},  // inside it
		{3, 0.2, nil, true},    // under the lintel: above the vehicle's band
		{-1, 0.2, nil, false},  // on the car
		{-1, 0.2, vehicles, true},
	} {
		if got := s.Clear(c.x, 0, c.r, 0, 0.12, c.skip); got != c.want {
			t.Errorf("Clear(%g, 0, r %g) = %v, want %v", c.x, c.r, got, c.want)
		}
	}
	if s.SweepClear(0, 0, 2, 0, 0.1, 0, 0.12, nil) {
		t.Error("a sweep through the wall is clear")
	}
	if !s.SweepClear(0, -0.5, 0.85, -0.5, 0.1, 0, 0.12, nil) {
		t.Error("a sweep stopping short of the wall is not clear")
	}
	if !s.SweepClear(2, 0, 4, 0, 0.1, 0, 0.12, nil) {
		t.Error("a sweep under the lintel is not clear")
	}
	if s.SweepClear(-2, 0, 0, 0, 0.1, 0, 0.12, nil) || !s.SweepClear(-2, 0, 0, 0, 0.1, 0, 0.12, func(b *Body) bool { return b == car }) {
		t.Error("the skipped car still blocks a sweep, or the car does not")
	}
}

func TestSightLine(t *testing.T) { bothModes(t, testSightLine) }

func testSightLine(t *testing.T, s *Space) {
	mustAdd(t, s, plugins.Element{Kind: "wall", Name: "w", X: 1, Length: 0.02, Width: 2, Height: 0.3})
	// From the floor on one side to 1 m up on the other: the line passes x = 0.99 at 0.2475 m.
	if a := s.SightLine(0, 0, 0, 4, 0, 1, nil); math.Abs(a-0.99/4) > 1e-6 {
		t.Errorf("sight line into the wall: %g, want %g", a, 0.99/4)
	}
	// Higher up it clears the wall's top.
	if a := s.SightLine(0, 0, 0.2, 2, 0, 1, nil); a != 1 {
		t.Errorf("sight line over the wall: %g, want 1", a)
	}
	if a := s.SightLine(0, 0, 0.1, 0.9, 0, 0.1, nil); a != 1 {
		t.Errorf("sight line short of the wall: %g", a)
	}
}

func TestTopUnder(t *testing.T) { bothModes(t, testTopUnder) }

func testTopUnder(t *testing.T, s *Space) {
	mustAdd(t, s, plugins.Element{Kind: "box", Name: "roof", X: 0, Length: 4, Width: 4, Height: 6})
	mustAdd(t, s, plugins.Element{Kind: "box", Name: "shed", X: 5, Length: 2, Width: 2, Height: 2})
	if _, err := s.AddVehicle(VehicleSpec{Name: "car", Body: carBody, Pose: Pose{X: -5}}); err != nil {
		t.Fatal(err)
	}
	mustAdd(t, s, plugins.Element{Kind: "box", Name: "crate", X: 8, Length: 0.3, Width: 0.3, Height: 0.3, Movable: true, Mass: 1})
	for _, c := range []struct {
		x, r, below float64
		want        float64
	}{
		{0, 0.2, 10, 6},   // over the roof
		{2.1, 0.2, 10, 6}, // over its edge
		{2.3, 0.2, 10, 0}, // beside it
		{0, 0.2, 5, 0},    // below its top: not under it
		{4.5, 3, 10, 6},   // over both, the higher one
		{4.5, 3, 4, 2},    // over both, below the roof
		{-5, 0.2, 1, 0},   // over the car: not landed on
		{8, 0.2, 1, 0.3},  // over the crate
	} {
		if got := s.TopUnder(c.x, 0, c.r, c.below); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("TopUnder(%g, 0, r %g, below %g) = %g, want %g", c.x, c.r, c.below, got, c.want)
		}
	}
}
