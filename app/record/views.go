package record

import (
	"fmt"

	"github.com/foxglove/mcap/go/mcap"
	"google.golang.org/protobuf/proto"

	"simgui/app/transport"
)

// view returns m's Foxglove view, its topic and about how many bytes it takes (nil when it has
// none). A view that fails is left out, and the first failure logged: the message itself is
// what the recording is for. So is a view whose topic a publisher on the bus has taken.
func (r *Recorder) view(m transport.Message) (proto.Message, string, int) {
	if r.views == nil {
		return nil, "", 0
	}
	v, topic, err := r.views.View(m)
	if err != nil {
		if !r.viewErr {
			r.viewErr = true
			r.log.Warn("recording leaves out a Foxglove view", "path", r.path, "topic", m.Topic, "err", err)
		}
		return nil, "", 0
	}
	if _, taken := r.channels[topic]; v == nil || taken {
		return nil, "", 0
	}
	return v, topic, proto.Size(v) + 16 // and the stamps written later
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
