package record

import (
	"fmt"
	"time"

	"github.com/foxglove/mcap/go/mcap"
	"github.com/go-gl/mathgl/mgl64"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"simgui/app/record/foxglove"
	"simgui/app/world"
	"simgui/render"
)

// SceneTopic is the topic of a recording's Foxglove scene (foxglove.SceneUpdate), written
// where each world's messages begin: the track in the world frame (entity "track") and each
// robot's shape in its own frame (entity "robot/<name>", frame-locked, so that it moves with
// the robot's frame from the pose list's view).
const SceneTopic = "/scene" + ViewSuffix

// maxRobotMeshes is how many robots a scene draws as their meshes (some thousand points
// each); the others are drawn as their bodies' boxes, so that a fleet's scene stays small.
const maxRobotMeshes = 32

// sceneOf is the Foxglove scene of the world snap shows: what the 3D panel draws around the
// frames and scans, the track and the robots as they are (robots spawned later have frames
// but no shape). It replaces the scene of a world recorded before it.
func sceneOf(snap *world.Snapshot) (*foxglove.SceneUpdate, error) {
	ts := timestamppb.New(time.Unix(0, 0).Add(max(snap.SimTime, 0)))
	up := &foxglove.SceneUpdate{Deletions: []*foxglove.SceneEntityDeletion{{Timestamp: ts, Type: foxglove.SceneEntityDeletion_ALL}}}
	if snap.Layout != nil {
		track := &foxglove.SceneEntity{Timestamp: ts, FrameId: WorldFrame, Id: "track", Lifetime: forever}
		if err := render.LayoutTriangles(snap.Layout, byColour(&track.Triangles)); err != nil {
			return nil, fmt.Errorf("the track's scene: %w", err)
		}
		up.Entities = append(up.Entities, track)
	}
	meshes := map[string]*render.Mesh{}
	for i, m := range snap.Models {
		e := &foxglove.SceneEntity{Timestamp: ts, FrameId: m.Name, Id: "robot/" + m.Name, FrameLocked: true, Lifetime: forever}
		v := m.Vehicle
		if v == nil {
			continue
		}
		spec := render.VehicleSpecFor(v)
		if i < maxRobotMeshes {
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
		up.Entities = append(up.Entities, e)
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

// writeScene writes a world's scene where its messages begin. Writer goroutine only.
func (r *Recorder) writeScene(s *foxglove.SceneUpdate, logTime, publish uint64) error {
	var err error
	if r.vbuf, err = (proto.MarshalOptions{}).MarshalAppend(r.vbuf[:0], s); err != nil {
		return fmt.Errorf("marshal the scene: %w", err)
	}
	ch, ok := r.viewChs[SceneTopic]
	if !ok {
		if ch, err = r.addChannel(SceneTopic, string(s.ProtoReflect().Descriptor().FullName()), s); err != nil {
			return err
		}
		r.viewChs[SceneTopic] = ch
	}
	r.scenes++
	if err := r.w.WriteMessage(&mcap.Message{ChannelID: ch, Sequence: r.scenes, LogTime: logTime, PublishTime: publish, Data: r.vbuf}); err != nil {
		return err
	}
	r.messages.Add(1)
	r.mu.Lock()
	r.perTopic[SceneTopic]++
	r.mu.Unlock()
	return nil
}
