package record

import (
	"fmt"
	"time"

	"github.com/foxglove/mcap/go/mcap"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	"simgui/app/foxview"
	"simgui/app/transport"
	"simgui/app/transport/msgs"
)

// sceneRefresh is how often, in the file's time, the scene may be written again for robots
// that came or went.
const sceneRefresh = uint64(time.Second)

// sceneStale returns m, the world's pose list, when it names other robots than the last scene
// has, else nil. It looks once every sceneRefresh (a fleet's list is long, and comes every
// step).
func (r *Recorder) sceneStale(m transport.Message, logTime uint64) *msgs.Pose_V {
	list, ok := m.Msg.(*msgs.Pose_V)
	if !ok || r.views == nil || r.world.Scene == nil || logTime < r.sceneAt+sceneRefresh || !foxview.IsPoseInfo(m.Topic) {
		return nil
	}
	r.sceneAt = logTime
	if foxview.SameRobots(r.sceneRobots, list) {
		return nil
	}
	return list
}

// writeScene writes the world's scene as it is now (World.Scene; none without it or without
// the views), with only the robots list names when it is not nil: the world may be steps
// ahead of the message being written. Writer goroutine only.
func (r *Recorder) writeScene(logTime, publish uint64, list *msgs.Pose_V) error {
	if r.views == nil || r.world.Scene == nil {
		return nil
	}
	s := r.world.Scene()
	r.sceneAt = logTime
	if s == nil {
		return nil
	}
	if list != nil {
		foxview.OnlyListed(s, list)
	}
	r.sceneRobots = foxview.SceneRobots(s)
	// Stamped with the log time, as the views are (writeView).
	foxview.StampScene(s, timestamppb.New(time.Unix(0, int64(logTime))))
	// Its own buffer: vbuf holds the view of the message being written.
	data, err := proto.Marshal(s)
	if err != nil {
		return fmt.Errorf("marshal the scene: %w", err)
	}
	ch, ok, err := r.channelOf(r.viewChs, foxview.SceneTopic, string(s.ProtoReflect().Descriptor().FullName()), s)
	if !ok {
		return err
	}
	r.scenes++
	if err := r.w.WriteMessage(&mcap.Message{ChannelID: ch, Sequence: r.scenes, LogTime: logTime, PublishTime: publish, Data: data}); err != nil {
		return err
	}
	r.messages.Add(1)
	r.mu.Lock()
	r.perTopic[foxview.SceneTopic]++
	r.mu.Unlock()
	return nil
}
