package foxview

import (
	"fmt"
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
