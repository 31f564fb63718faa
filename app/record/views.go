package record

import (
	"fmt"

	"github.com/foxglove/mcap/go/mcap"
	"google.golang.org/protobuf/proto"

	"simgui/app/transport"
)

// view is a Foxglove view of a message to write beside it.
type view struct {
	msg   proto.Message
	topic string
}

// viewsOf returns m's Foxglove views — its view (Viewer.View) and, for a camera's frame, its
// camera's calibration — and about how many bytes they take (none when it has none). A view
// that fails is left out, and the first failure logged: the message itself is what the
// recording is for. So is a view whose topic a publisher on the bus has taken.
func (r *Recorder) viewsOf(m transport.Message) (views [2]view, size int) {
	if r.views == nil {
		return views, 0
	}
	r.views.World = r.world.Snapshot
	v, topic, err := r.views.View(m)
	if err != nil {
		if !r.viewErr {
			r.viewErr = true
			r.log.Warn("recording leaves out a Foxglove view", "path", r.path, "topic", m.Topic, "err", err)
		}
		return views, 0
	}
	c, ctopic := r.views.Calibration(m)
	for i, o := range []view{{v, topic}, {c, ctopic}} {
		if _, taken := r.channels[o.topic]; o.msg != nil && !taken {
			views[i] = o
			size += proto.Size(o.msg) + 16 // and the stamps written later
		}
	}
	return views, size
}

// writeView writes view on topic beside its message (sequence seq), stamped with the
// message's log time: Foxglove orders transforms by their stamps, and a world's sim time
// starts again at each reset and in each training episode while the file's time goes on.
func (r *Recorder) writeView(view proto.Message, topic string, seq uint32, logTime, publish uint64) error {
	r.views.SetStamp(logTime)
	var err error
	if r.vbuf, err = (proto.MarshalOptions{}).MarshalAppend(r.vbuf[:0], view); err != nil {
		return fmt.Errorf("marshal the view on %s: %w", topic, err)
	}
	ch, ok, err := r.channelOf(r.viewChs, topic, string(view.ProtoReflect().Descriptor().FullName()), view)
	if !ok {
		return err
	}
	return r.w.WriteMessage(&mcap.Message{ChannelID: ch, Sequence: seq, LogTime: logTime, PublishTime: publish, Data: r.vbuf})
}
