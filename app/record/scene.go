package record

import (
	"fmt"
	"strings"
	"time"

	"github.com/foxglove/mcap/go/mcap"
	"github.com/go-gl/mathgl/mgl64"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"simgui/app/record/foxglove"
	"simgui/app/transport"
	"simgui/app/transport/msgs"
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
// frames and scans, the track and the robots as they are. It replaces the last scene written
// (a world recorded before, or the robots before some came or went); its stamps are left to
// writeScene.
func sceneOf(snap *world.Snapshot) (*foxglove.SceneUpdate, error) {
	up := &foxglove.SceneUpdate{Deletions: []*foxglove.SceneEntityDeletion{{Type: foxglove.SceneEntityDeletion_ALL}}}
	if snap.Layout != nil {
		track := &foxglove.SceneEntity{FrameId: WorldFrame, Id: "track", Lifetime: forever}
		if err := render.LayoutTriangles(snap.Layout, byColour(&track.Triangles)); err != nil {
			return nil, fmt.Errorf("the track's scene: %w", err)
		}
		up.Entities = append(up.Entities, track)
	}
	meshes := map[string]*render.Mesh{}
	for i, m := range snap.Models {
		e := &foxglove.SceneEntity{FrameId: robotFrame(m.Name), Id: "robot/" + m.Name, FrameLocked: true, Lifetime: forever}
		up.Entities = append(up.Entities, e) // with a shape or without: the scene knows the robot
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

// sceneRefresh is how often, in the file's time, the scene may be written again for robots
// that came or went.
const sceneRefresh = uint64(time.Second)

// sceneStale says whether m is the world's pose list naming other robots than the last scene
// has. It looks once every sceneRefresh (a fleet's list is long, and comes every step).
func (r *Recorder) sceneStale(m transport.Message, logTime uint64) bool {
	list, ok := m.Msg.(*msgs.Pose_V)
	if !ok || r.views == nil || r.world.Scene == nil || logTime < r.sceneAt+sceneRefresh || !isPoseInfo(m.Topic) {
		return false
	}
	r.sceneAt = logTime
	poses := list.GetPose()
	if len(poses) != len(r.sceneRobots) {
		return true
	}
	for _, p := range poses {
		if !r.sceneRobots[p.GetName()] {
			return true
		}
	}
	return false
}

// writeScene writes the world's scene as it is now (World.Scene; none without it or without
// the views). Writer goroutine only.
func (r *Recorder) writeScene(logTime, publish uint64) error {
	if r.views == nil || r.world.Scene == nil {
		return nil
	}
	s := r.world.Scene()
	r.sceneAt = logTime
	if s == nil {
		return nil
	}
	// Stamped with the log time, as the views are (writeView).
	ts := timestamppb.New(time.Unix(0, int64(logTime)))
	for _, d := range s.Deletions {
		d.Timestamp = ts
	}
	r.sceneRobots = map[string]bool{}
	for _, e := range s.Entities {
		e.Timestamp = ts
		if name, ok := strings.CutPrefix(e.Id, "robot/"); ok {
			r.sceneRobots[name] = true
		}
	}
	// Its own buffer: vbuf holds the view of the message being written.
	data, err := proto.Marshal(s)
	if err != nil {
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
	if err := r.w.WriteMessage(&mcap.Message{ChannelID: ch, Sequence: r.scenes, LogTime: logTime, PublishTime: publish, Data: data}); err != nil {
		return err
	}
	r.messages.Add(1)
	r.mu.Lock()
	r.perTopic[SceneTopic]++
	r.mu.Unlock()
	return nil
}
