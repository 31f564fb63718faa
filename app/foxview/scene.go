package foxview

import (
	"fmt"
	"slices"
	"strings"

	"github.com/go-gl/mathgl/mgl64"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"simgui/app/foxview/foxglove"
	"simgui/app/transport/msgs"
	"simgui/app/world"
	"simgui/plugins"
	"simgui/render"
)

// SceneTopic is the topic of a recording's Foxglove scene (foxglove.SceneUpdate), written
// where each world's messages begin: the track in the world frame (entity "track"), each
// pushable box in its own frame (entity "box/<name>", its name in the pose list) and each
// robot's shape in its own frame (entity "robot/<name>"), frame-locked, so that they move with
// their frames from the pose list's view.
const SceneTopic = "/scene" + ViewSuffix

// MaxRobotMeshes is how many robots a scene draws as their meshes (some thousand points
// each); the others are drawn as their bodies' boxes, so that a fleet's scene stays small.
const MaxRobotMeshes = 32

// Scene is the Foxglove scene of the world snap shows: what the 3D panel draws around the
// frames and scans, the track, its pushable boxes and the robots as they are. It replaces the last scene written
// (a world recorded before, or the robots before some came or went); its stamps are left to
// the caller.
func Scene(snap *world.Snapshot) (*foxglove.SceneUpdate, error) {
	up := &foxglove.SceneUpdate{Deletions: []*foxglove.SceneEntityDeletion{{Type: foxglove.SceneEntityDeletion_ALL}}}
	if snap.Layout != nil {
		track := &foxglove.SceneEntity{FrameId: WorldFrame, Id: "track", Lifetime: forever}
		if err := render.LayoutTriangles(snap.Layout, byColour(&track.Triangles)); err != nil {
			return nil, fmt.Errorf("the track's scene: %w", err)
		}
		up.Entities = append(up.Entities, track)
	}
	bs, err := boxEntities(snap)
	if err != nil {
		return nil, err
	}
	up.Entities = append(up.Entities, bs...)
	meshes := map[string]*render.Mesh{}
	for i, m := range snap.Models {
		e := &foxglove.SceneEntity{FrameId: RobotFrame(m.Name), Id: robotEntity + m.Name, FrameLocked: true, Lifetime: forever}
		up.Entities = append(up.Entities, e) // with a shape or without: the scene knows the robot
		v := m.Vehicle
		if v == nil {
			continue
		}
		spec := render.VehicleSpecFor(v)
		if i < MaxRobotMeshes {
			mesh, ok := meshes[m.VehicleID]
			if !ok {
				var err error
				if mesh, err = render.NewVehicleMesh(spec); err != nil {
					return nil, fmt.Errorf("the scene's %s: %w", m.Name, err)
				}
				meshes[m.VehicleID] = mesh
			}
			mesh.EachTriangle(byColour(&e.Triangles))
		} else if b := v.Body; b != nil {
			col, _ := render.ParseColor(spec.Color)
			e.Cubes = []*foxglove.CubePrimitive{{
				Pose:  fgPose(nil, nil),
				Size:  &foxglove.Vector3{X: b.Length, Y: b.Width, Z: b.Height},
				Color: fgColour(col),
			}}
			e.Cubes[0].Pose.Position.Z = b.Height / 2
		}
	}
	return up, nil
}

// forever is an entity's lifetime until the next scene deletes it: zero, written out, as
// Foxglove's readers expect the field.
var forever = &durationpb.Duration{}

// byColour returns a triangle callback that adds each triangle to the list of its colour in
// *lists (one list a colour: the points alone, no colour per point).
func byColour(lists *[]*foxglove.TriangleListPrimitive) func(a, b, c mgl64.Vec3, col render.RGB) {
	of := map[render.RGB]*foxglove.TriangleListPrimitive{}
	return func(a, b, c mgl64.Vec3, col render.RGB) {
		l := of[col]
		if l == nil {
			l = &foxglove.TriangleListPrimitive{Pose: fgPose(nil, nil), Color: fgColour(col)}
			of[col] = l
			*lists = append(*lists, l)
		}
		for _, p := range [3]mgl64.Vec3{a, b, c} {
			l.Points = append(l.Points, &foxglove.Point3{X: p[0], Y: p[1], Z: p[2]})
		}
	}
}

func fgColour(c render.RGB) *foxglove.Color {
	return &foxglove.Color{R: float64(c.R) / 255, G: float64(c.G) / 255, B: float64(c.B) / 255, A: 1}
}

// StampScene stamps a scene's deletions and entities with ts.
func StampScene(s *foxglove.SceneUpdate, ts *timestamppb.Timestamp) {
	for _, d := range s.Deletions {
		d.Timestamp = ts
	}
	for _, e := range s.Entities {
		e.Timestamp = ts
	}
}

// robotEntity begins the ID of a robot's entity in a scene; boxEntity a pushable box's, whose
// ID is its name in the pose list (world.BoxPoseName).
const (
	robotEntity = "robot/"
	boxEntity   = world.BoxPosePrefix
)

// boxEntities returns the entities of snap's pushable boxes, each frame-locked to its frame
// in the pose list (world.BoxPoseName), so that the transforms move it as it is pushed: the
// mesh the cameras draw it with, in its own frame.
func boxEntities(snap *world.Snapshot) ([]*foxglove.SceneEntity, error) {
	meshes := map[*plugins.Element]*render.Mesh{}
	out := make([]*foxglove.SceneEntity, 0, len(snap.Boxes))
	for i := range snap.Boxes {
		b := &snap.Boxes[i]
		if b.Element == nil {
			continue
		}
		mesh := meshes[b.Element]
		if mesh == nil {
			var err error
			if mesh, err = render.NewElementMesh(snap.Layout, b.Element); err != nil {
				return nil, fmt.Errorf("the scene's %s: %w", b.PoseName(), err)
			}
			meshes[b.Element] = mesh
		}
		name := b.PoseName()
		e := &foxglove.SceneEntity{FrameId: RobotFrame(name), Id: name, FrameLocked: true, Lifetime: forever}
		mesh.EachTriangle(byColour(&e.Triangles))
		out = append(out, e)
	}
	return out, nil
}

// SameRobots says whether a world's pose list names the robots and boxes of a scene
// (SceneRobots), no more and no fewer: a scene that does not is to be made again.
func SameRobots(robots map[string]bool, list *msgs.Pose_V) bool {
	poses := list.GetPose()
	if len(poses) != len(robots) {
		return false
	}
	for _, p := range poses {
		if !robots[p.GetName()] {
			return false
		}
	}
	return true
}

// OnlyListed drops from scene s the robots and pushable boxes list does not name: a scene made
// from the world as it is now, for a pose list of some steps before (a recorder behind a fast
// world), shows what the list has and no robot that came since.
func OnlyListed(s *foxglove.SceneUpdate, list *msgs.Pose_V) {
	named := map[string]bool{}
	for _, p := range list.GetPose() {
		named[p.GetName()] = true
	}
	s.Entities = slices.DeleteFunc(s.Entities, func(e *foxglove.SceneEntity) bool {
		if name, ok := strings.CutPrefix(e.Id, robotEntity); ok {
			return !named[name]
		}
		return strings.HasPrefix(e.Id, boxEntity) && !named[e.Id]
	})
}

// SceneRobots returns the names in the pose list of the robots and pushable boxes a scene has.
func SceneRobots(s *foxglove.SceneUpdate) map[string]bool {
	out := map[string]bool{}
	for _, e := range s.Entities {
		if name, ok := strings.CutPrefix(e.Id, robotEntity); ok {
			out[name] = true
		} else if strings.HasPrefix(e.Id, boxEntity) {
			out[e.Id] = true
		}
	}
	return out
}
