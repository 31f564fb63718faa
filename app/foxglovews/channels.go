package foxglovews

import (
	"context"
	"encoding/base64"
	"path"
	"slices"
	"strings"
	"time"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"simgui/app"
	"simgui/app/foxview"
	"simgui/app/foxview/foxglove"
	"simgui/app/sensors"
	"simgui/app/transport"
	"simgui/app/transport/msgs"
	"simgui/app/world"
)

// kind is what a channel's messages are made of.
type kind int

const (
	// raw channels carry a bus topic's messages as they are (gz.msgs, which Foxglove's Raw
	// Messages and Plot panels read).
	raw kind = iota
	// view channels carry the Foxglove view of a bus topic's messages (foxview.Viewer),
	// which its Image and 3D panels draw.
	view
	// scene channels carry the world's scene (foxview.Scene), sent when a client subscribes
	// and again when robots come or go.
	scene
	// calibration channels carry the calibration of a camera (foxview.Viewer.Calibration)
	// with each of its frames, as a ROS camera sends its camera_info.
	calibration
)

// spec is a channel a world offers: its topic, the bus topic its messages come from and
// their type.
type spec struct {
	topic  string
	source string
	kind   kind
	md     protoreflect.MessageDescriptor
}

// key names a channel across worlds: a world that offers the same topic with the same type
// gets the channel's ID again, as the protocol allows.
func (s spec) key() string { return s.topic + "\x00" + string(s.md.FullName()) }

// specTimeout bounds how long listing a world's sensors waits for its loop.
const specTimeout = 2 * time.Second

// specsOf lists the channels a world offers: each sensor's topic and its view, each camera's
// calibration, the world's
// pose list and its transforms, the scene, and every other topic on its
// bus of a known type; a robot's own topics (/model/<name>/...) for the world's robots, the
// first maxRobots only, unlisted saying how many more there are. ok is false when the world's loop did
// not answer (the last list stands).
func specsOf(ctx context.Context, a *app.Sim, maxRobots int) (out []spec, unlisted int, ok bool) {
	if a == nil {
		return nil, 0, true
	}
	var infos []sensors.Info
	var name string
	listed := map[string]bool{}
	ctx, cancel := context.WithTimeout(ctx, specTimeout)
	defer cancel()
	err := a.Loop.Call(ctx, func(w *world.World) error {
		infos, name = a.Sensors.Sensors(), w.Name()
		for i, m := range w.Models() {
			if i == maxRobots {
				unlisted = len(w.Models()) - maxRobots
				break
			}
			listed[m.Name] = true
		}
		return nil
	})
	if err != nil {
		return nil, 0, false
	}
	// A robot's topic of one left out, or of one no longer in the world (the bus keeps the
	// topics it has known); a topic of no robot is listed.
	leftOut := func(topic string) bool {
		rest, ok := strings.CutPrefix(topic, "/model/")
		if !ok {
			return false
		}
		model, _, _ := strings.Cut(rest, "/")
		return !listed[model]
	}
	seen := map[string]bool{}
	add := func(s spec) {
		if !seen[s.topic] {
			seen[s.topic] = true
			out = append(out, s)
		}
	}
	for _, in := range infos {
		if leftOut(in.Topic) {
			continue
		}
		kind := path.Base(in.Topic)
		md, known := sensors.TopicMessage(kind)
		if !known {
			continue
		}
		add(spec{topic: in.Topic, source: in.Topic, kind: raw, md: md})
		if vmd := foxview.ViewOf(kind); vmd != nil {
			add(spec{topic: in.Topic + foxview.ViewSuffix, source: in.Topic, kind: view, md: vmd})
		}
		if kind == sensors.TopicImage || kind == sensors.TopicDepthImage {
			add(spec{topic: foxview.CalibrationTopic(in.Topic), source: in.Topic, kind: calibration,
				md: (&foxglove.CameraCalibration{}).ProtoReflect().Descriptor()})
		}
	}
	info := transport.PoseInfoTopic(name)
	add(spec{topic: info, source: info, kind: raw, md: (&msgs.Pose_V{}).ProtoReflect().Descriptor()})
	add(spec{topic: info + foxview.ViewSuffix, source: info, kind: view, md: (&foxglove.FrameTransforms{}).ProtoReflect().Descriptor()})
	add(spec{topic: foxview.SceneTopic, source: info, kind: scene, md: (&foxglove.SceneUpdate{}).ProtoReflect().Descriptor()})
	for _, t := range a.Bus.Topics() {
		if t.Type == "" || strings.HasSuffix(t.Name, foxview.ViewSuffix) || leftOut(t.Name) {
			continue
		}
		mt, err := protoregistry.GlobalTypes.FindMessageByName(protoreflect.FullName(t.Type))
		if err != nil {
			continue
		}
		add(spec{topic: t.Name, source: t.Name, kind: raw, md: mt.Descriptor()})
	}
	slices.SortFunc(out, func(a, b spec) int { return strings.Compare(a.topic, b.topic) })
	return out, unlisted, true
}

// advertisement describes channel id of s, its schema a base64 FileDescriptorSet.
func advertisement(id uint32, s spec) (advertised, error) {
	data, err := foxview.SchemaData(s.md)
	if err != nil {
		return advertised{}, err
	}
	return advertised{ID: id, Topic: s.topic, Encoding: "protobuf", SchemaName: string(s.md.FullName()),
		Schema: base64.StdEncoding.EncodeToString(data), SchemaEncoding: "protobuf"}, nil
}
