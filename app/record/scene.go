package record

import (
	"errors"
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

// sceneStale says whether m is the world's pose list naming other robots than the last scene
// has. It looks once every sceneRefresh (a fleet's list is long, and comes every step).
func (r *Recorder) sceneStale(m transport.Message, logTime uint64) bool {
	list, ok := m.Msg.(*msgs.Pose_V)
	if !ok || r.views == nil || r.world.Scene == nil || logTime < r.sceneAt+sceneRefresh || !foxview.IsPoseInfo(m.Topic) {
		return false
	}
	r.sceneAt = logTime
	return !foxview.SameRobots(r.sceneRobots, list)
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
	r.sceneRobots = foxview.SceneRobots(s)
	// Stamped with the log time, as the views are (writeView).
	foxview.StampScene(s, timestamppb.New(time.Unix(0, int64(logTime))))
	// Its own buffer: vbuf holds the view of the message being written.
	data, err := proto.Marshal(s)
	if err != nil {
		return fmt.Errorf("marshal the scene: %w", err)
	}
	ch, ok := r.viewChs[foxview.SceneTopic]
	if !ok {
		if r.leftOut[foxview.SceneTopic] {
			return nil
		}
		if ch, err = r.addChannel(foxview.SceneTopic, string(s.ProtoReflect().Descriptor().FullName()), s); err != nil {
			if errors.Is(err, errTooManyChannels) {
				r.leaveOut(foxview.SceneTopic)
				return nil
			}
			return err
		}
		r.viewChs[foxview.SceneTopic] = ch
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
