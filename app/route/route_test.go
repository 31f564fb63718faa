package route

import (
	"math"
	"testing"

	"simgui/plugins"
)

func TestProgressReachesWaypointsInOrder(t *testing.T) {
	l := &plugins.Layout{Route: &plugins.Route{Waypoints: [][2]float64{{0, 1}, {0, 2}, {1, 2}}, ReachDistance: 0.25}}
	r := New(l)
	r.Update(0, 0)
	if r.Index != 0 || math.Abs(r.Distance-1) > 1e-12 {
		t.Fatalf("at the start: index %d distance %g", r.Index, r.Distance)
	}
	// Near the second waypoint but not the first: the first must come first.
	r.Update(0, 1.9)
	if r.Index != 0 {
		t.Fatalf("skipped a waypoint: index %d", r.Index)
	}
	r.Update(0, 0.8)
	if r.Index != 1 || math.Abs(r.Distance-1.2) > 1e-12 {
		t.Fatalf("after the first: index %d distance %g", r.Index, r.Distance)
	}
	r.Update(0, 1.9)
	r.Update(0.9, 2)
	if !r.Completed || r.Index != 3 || r.Distance != 0 {
		t.Fatalf("at the end: %+v", r)
	}
}

func TestProgressLoopsOneLapPerUpdate(t *testing.T) {
	// Every waypoint is within reach of the origin: one update may pass each once, not spin.
	l := &plugins.Layout{Route: &plugins.Route{Waypoints: [][2]float64{{0, 0.1}, {0.1, 0}}, Loop: true}}
	r := New(l)
	if r.Reach != DefaultReach {
		t.Fatalf("reach %g, want the default %g", r.Reach, DefaultReach)
	}
	r.Update(0, 0)
	if r.Completed || r.Index != 0 {
		t.Fatalf("a looping route: %+v", r)
	}
}

func TestNoRoute(t *testing.T) {
	if New(nil) != nil || New(&plugins.Layout{}) != nil {
		t.Fatal("a layout without a route gave progress")
	}
}
