package window

import (
	"fmt"
	"testing"

	"simgui/app/markers"
	"simgui/app/world"
)

// fleetSnapshot is a snapshot of n robots named agent-1 ... agent-n, robot i at (i, -i).
func fleetSnapshot(n int) *world.Snapshot {
	s := &world.Snapshot{}
	for i := 1; i <= n; i++ {
		s.Models = append(s.Models, world.ModelState{Name: fmt.Sprintf("agent-%d", i), Pose: world.Pose{X: float64(i), Y: -float64(i)}})
	}
	return s
}

// The finder answers as Snapshot.Model does — before and after it indexes the snapshot, for
// a name that is missing and for one two robots have — and follows a new snapshot.
func TestModelFinderAnswersAsTheSnapshot(t *testing.T) {
	snap := fleetSnapshot(200)
	snap.Models = append(snap.Models, world.ModelState{Name: "agent-7", Pose: world.Pose{X: 99}}) // a second agent-7
	var f modelFinder
	f.use(snap)
	for round := range 3 * scanLookups {
		for _, name := range []string{"agent-1", "agent-200", "agent-7", "nobody", ""} {
			got, gotOK := f.find(name)
			want, wantOK := snap.Model(name)
			if got != want || gotOK != wantOK {
				t.Fatalf("look-up %d of %q: %+v %v, the snapshot says %+v %v", round, name, got, gotOK, want, wantOK)
			}
		}
	}
	if !f.made {
		t.Fatalf("after %d look-ups the snapshot is not indexed", 15*scanLookups)
	}
	next := fleetSnapshot(3)
	f.use(next)
	if m, ok := f.find("agent-200"); ok {
		t.Fatalf("agent-200 found in a snapshot of 3 robots: %+v", m)
	}
	if m, ok := f.find("agent-3"); !ok || m.Pose.X != 3 {
		t.Fatalf("agent-3 of the new snapshot: %+v %v", m, ok)
	}
}

// A text marker following a robot stands at the robot's pose plus its point; one following
// a robot that is not there stands at its point.
func TestTextAnchorFollowsItsRobot(t *testing.T) {
	var f modelFinder
	f.use(fleetSnapshot(10))
	m := markers.Marker{Kind: "Text", Text: "r4", Following: "agent-4", Point: markers.Vec3{X: 0.5, Y: 0.25}}
	if x, y := textAnchor(&m, &f); x != 4.5 || y != -3.75 {
		t.Fatalf("text following agent-4 at (%g, %g), want (4.5, -3.75)", x, y)
	}
	m.Following = "agent-11"
	if x, y := textAnchor(&m, &f); x != 0.5 || y != 0.25 {
		t.Fatalf("text following a missing robot at (%g, %g), want its point (0.5, 0.25)", x, y)
	}
}

// BenchmarkMarkerTextAnchors: one frame's anchors of a fleet's labels, the most the marker
// store holds (4,096) following the last robots of 5,000; scan is each label's own
// Snapshot.Model (the window before the finder), finder the window's way. No display needed:
//
//	go test -run '^$' -bench MarkerTextAnchors ./app/window
func BenchmarkMarkerTextAnchors(b *testing.B) {
	snap := fleetSnapshot(5000)
	labels := make([]markers.Marker, markers.MaxMarkers)
	for i := range labels {
		labels[i] = markers.Marker{Kind: "Text", Text: "ok", Following: fmt.Sprintf("agent-%d", 5000-i)}
	}
	b.Run("scan", func(b *testing.B) {
		for b.Loop() {
			for i := range labels {
				if _, ok := snap.Model(labels[i].Following); !ok {
					b.Fatal("missing")
				}
			}
		}
	})
	b.Run("finder", func(b *testing.B) {
		var f modelFinder
		for b.Loop() {
			f.use(&world.Snapshot{Models: snap.Models}) // a new snapshot each frame, as a running world gives
			for i := range labels {
				textAnchor(&labels[i], &f)
			}
		}
	})
}
