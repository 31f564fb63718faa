package foxview

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"simgui/app/foxview/foxglove"
	"simgui/app/transport/msgs"
	"simgui/app/world"
	"simgui/plugins"
)

var testVehicle = &plugins.VehicleDescriptor{
	ID: "vehicle.test.car.v1", Version: plugins.ContractVersion{Major: 1},
	Body:  &plugins.Body{Shape: "box", Length: 0.25, Width: 0.15, Height: 0.12, Mass: 1, Friction: 0.9},
	Drive: &plugins.Drive{Model: "differential"},
}

// sceneSnapshot is a world of one wall and n test cars.
func sceneSnapshot(n int) *world.Snapshot {
	wall := plugins.Element{Kind: "wall", Name: "north", X: 0, Y: 2, Length: 4, Width: 0.02, Height: 0.25}
	s := &world.Snapshot{SimTime: 2 * time.Second, Layout: &plugins.Layout{Elements: []plugins.Element{wall}}}
	for i := range n {
		s.Models = append(s.Models, world.ModelState{Name: fmt.Sprintf("car%d", i), VehicleID: testVehicle.ID, Vehicle: testVehicle})
	}
	return s
}

func TestSceneOfAWorld(t *testing.T) {
	up, err := Scene(sceneSnapshot(MaxRobotMeshes + 1))
	if err != nil {
		t.Fatal(err)
	}
	if len(up.Deletions) != 1 || up.Deletions[0].Type != foxglove.SceneEntityDeletion_ALL {
		t.Errorf("deletions %v, want one of ALL (the scene replaces the last world's)", up.Deletions)
	}
	if len(up.Entities) != MaxRobotMeshes+2 {
		t.Fatalf("%d entities, want the track and %d robots", len(up.Entities), MaxRobotMeshes+1)
	}
	track := up.Entities[0]
	points := 0
	for _, l := range track.Triangles {
		points += len(l.Points)
	}
	// The north wall: a box of 12 triangles.
	if track.Id != "track" || track.FrameId != WorldFrame || track.FrameLocked || points != 36 || track.Lifetime == nil {
		t.Errorf("track entity %s in %q (locked %v), %d points, lifetime %v", track.Id, track.FrameId, track.FrameLocked, points, track.Lifetime)
	}
	for i, e := range up.Entities[1:] {
		name := fmt.Sprintf("car%d", i)
		if e.Id != "robot/"+name || e.FrameId != name || !e.FrameLocked {
			t.Errorf("robot entity %d: %s in %q, locked %v", i, e.Id, e.FrameId, e.FrameLocked)
		}
		mesh, cube := len(e.Triangles) > 0, len(e.Cubes) == 1
		if i < MaxRobotMeshes && (!mesh || cube) || i >= MaxRobotMeshes && (mesh || !cube) {
			t.Errorf("robot %d: %d triangle lists, %d cubes; want its mesh for the first %d, a box after", i, len(e.Triangles), len(e.Cubes), MaxRobotMeshes)
		}
		if cube {
			c := e.Cubes[0]
			b := testVehicle.Body
			if c.Size.X != b.Length || c.Size.Y != b.Width || c.Size.Z != b.Height || c.Pose.Position.Z != b.Height/2 {
				t.Errorf("robot %d's box %v, want the body's %+v standing on the floor", i, c, b)
			}
		}
	}
}

// A scene's robots are its robot entities' names.
func TestSceneRobots(t *testing.T) {
	up, err := Scene(sceneSnapshot(3))
	if err != nil {
		t.Fatal(err)
	}
	got := SceneRobots(up)
	if len(got) != 3 || !got["car0"] || !got["car2"] || got["track"] {
		t.Errorf("robots %v, want car0..car2", got)
	}
}

// A pose list names a scene's robots when it has the same names, no more and no fewer.
func TestSameRobots(t *testing.T) {
	robots := map[string]bool{"car0": true, "car1": true}
	list := func(names ...string) *msgs.Pose_V {
		l := &msgs.Pose_V{}
		for _, n := range names {
			l.Pose = append(l.Pose, &msgs.Pose{Name: n})
		}
		return l
	}
	for _, tc := range []struct {
		names []string
		want  bool
	}{{[]string{"car1", "car0"}, true}, {[]string{"car0"}, false}, {[]string{"car0", "car2"}, false}, {[]string{"car0", "car1", "car2"}, false}} {
		if got := SameRobots(robots, list(tc.names...)); got != tc.want {
			t.Errorf("SameRobots(%v) = %v, want %v", tc.names, got, tc.want)
		}
	}
}

// boxSnapshot is a world with one pushable crate at (x, y), turned yaw, and one without a name.
func boxSnapshot(layout uint64, x, y, yaw float64) *world.Snapshot {
	l := &plugins.Layout{Elements: []plugins.Element{
		{Kind: "box", Name: "crate", X: 1, Y: 1, Length: 0.3, Width: 0.2, Height: 0.1, Movable: true, Color: "#a07040"},
		{Kind: "box", X: 3, Y: 0, Length: 0.1, Width: 0.1, Height: 0.1, Movable: true},
	}}
	return &world.Snapshot{Layout: l, LayoutVersion: layout, Boxes: []world.BoxState{
		{ID: 7, Name: "crate", Pose: world.Pose{X: x, Y: y, Yaw: yaw}, Length: 0.3, Width: 0.2, Height: 0.1, Element: &l.Elements[0]},
		{ID: 8, Pose: world.Pose{X: 3}, Length: 0.1, Width: 0.1, Height: 0.1, Element: &l.Elements[1]},
	}}
}

// The scene has each pushable box frame-locked to its frame in the pose list, drawn with the
// cameras' mesh in its own frame: the transforms move it.
func TestSceneHasTheBoxes(t *testing.T) {
	up, err := Scene(boxSnapshot(1, 1, 1, 0))
	if err != nil {
		t.Fatal(err)
	}
	var boxes []*foxglove.SceneEntity
	for _, e := range up.Entities {
		if strings.HasPrefix(e.Id, "box/") {
			boxes = append(boxes, e)
		}
	}
	if len(boxes) != 2 {
		t.Fatalf("%d box entities, want 2", len(boxes))
	}
	crate, other := boxes[0], boxes[1]
	if crate.Id != "box/crate" || other.Id != "box/8" || crate.FrameId != "box/crate" || !crate.FrameLocked {
		t.Errorf("entities %s and %s in %q (locked %v), want box/crate and box/8, each locked to its frame", crate.Id, other.Id, crate.FrameId, crate.FrameLocked)
	}
	points := 0
	for _, l := range crate.Triangles {
		points += len(l.Points)
		// The element's colour, shaded per face by the mesh: brown, red above blue.
		if c := l.Color; !(c.R > c.B) {
			t.Errorf("crate's colour %v is not the element's brown", c)
		}
		for _, p := range l.Points {
			// In its own frame: the box's half sizes about the origin, from its base up.
			if math.Abs(p.X) > 0.15+1e-6 || math.Abs(p.Y) > 0.1+1e-6 || p.Z < -1e-6 || p.Z > 0.1+1e-6 { // float32 vertices
				t.Fatalf("crate point %v outside the box in its own frame", p)
			}
		}
	}
	if points != 36 {
		t.Errorf("crate of %d points, want a box of 12 triangles", points)
	}
	// The pose list naming the robots and boxes is the scene's; without a box it is not.
	list := &msgs.Pose_V{Pose: []*msgs.Pose{{Name: "box/crate"}, {Name: "box/8"}}}
	if !SameRobots(SceneRobots(up), list) {
		t.Errorf("the pose list of the boxes is not the scene's (%v)", SceneRobots(up))
	}
	list.Pose = list.Pose[:1]
	if SameRobots(SceneRobots(up), list) {
		t.Error("a pose list without a box is the scene's")
	}
	// Kept to what a list names, the scene is that list's.
	OnlyListed(up, list)
	if !SameRobots(SceneRobots(up), list) || len(up.Entities) != 2 || up.Entities[0].Id != "track" || up.Entities[1].Id != "box/crate" {
		t.Errorf("the scene kept to box/crate has %d entities (%v), want the track and the crate", len(up.Entities), SceneRobots(up))
	}
}
