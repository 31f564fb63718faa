package record

// The writer goroutine's side of a Recorder: each message to its channel (made at its topic's
// first message, with its schema), the Foxglove views beside it, and the topics left out.

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/foxglove/mcap/go/mcap"
	"google.golang.org/protobuf/proto"

	"simgui/app/foxview"
	"simgui/app/transport"
)

func (r *Recorder) write(m transport.Message, epoch int) error {
	r.mu.Lock()
	failed := r.err != nil
	r.mu.Unlock()
	if failed {
		return nil // after a write error the file is abandoned; keep draining
	}
	ch, ok, err := r.channelOf(r.channels, m.Topic, m.Type, m.Msg)
	if !ok {
		return err
	}
	r.buf, err = proto.MarshalOptions{}.MarshalAppend(r.buf[:0], m.Msg)
	if err != nil {
		return fmt.Errorf("marshal %s on %s: %w", m.Type, m.Topic, err)
	}
	var views [2]view
	var viewSize int
	if !r.full {
		views, viewSize = r.viewsOf(m)
	}
	// The bound is on the file, which is what fills a disk (compressed camera frames of the
	// flat look are a three-hundredth of their message data): the chunks written so far, plus
	// this message and its view as if they did not compress. The open chunk, at most
	// ChunkSize, comes on top.
	if r.full || int64(r.w.Offset())+int64(len(r.buf))+int64(viewSize) > r.maxBytes {
		if !r.full {
			r.full = true
			r.letGo()
			r.log.Warn("the recording reached its size limit; later messages are not written and the recorder no longer subscribes to the world's topics (stop_record closes the file whole)",
				"path", r.path, "limit_bytes", r.maxBytes)
		}
		r.cut.Add(1) // after letGo: whoever sees a cut sees the bus let go
		return nil
	}
	t := uint64(max(m.Stamp, 0))
	if r.rebase || epoch > r.epoch {
		// Another world, or the same one reset: its time continues the file's, a nanosecond
		// after the last message written, so that no log time has messages of both (a
		// world's mark in the file gives the log time its messages begin at).
		start := r.lastLog
		if r.messages.Load() > 0 {
			start++
		}
		r.offset, r.rebase = start-min(t, start), false
		r.epoch = max(r.epoch, epoch)
	}
	logTime := max(t+r.offset, r.lastLog)
	r.lastLog = logTime
	if r.announce {
		r.announce = false
		w := r.world
		if err := r.w.WriteMetadata(&mcap.Metadata{Name: worldMetadata, Metadata: map[string]string{
			"id": w.ID, "kind": w.Kind, "label": w.Label, "logTime": strconv.FormatUint(logTime, 10),
		}}); err != nil {
			return err
		}
		if err := r.writeScene(logTime, t, nil); err != nil {
			return err
		}
	}
	seq := r.pub.sequence(m, r.seq[ch])
	r.seq[ch] = max(r.seq[ch], seq)
	if err := r.w.WriteMessage(&mcap.Message{ChannelID: ch, Sequence: seq, LogTime: logTime, PublishTime: t, Data: r.buf}); err != nil {
		return err
	}
	if list := r.sceneStale(m, logTime); list != nil {
		if err := r.writeScene(logTime, t, list); err != nil {
			return err
		}
	}
	n := uint64(1)
	for i, v := range views {
		if v.msg == nil {
			continue
		}
		if err := r.writeView(v.msg, v.topic, seq, logTime, t); err != nil {
			return err
		}
		if r.leftOut[v.topic] {
			views[i].msg = nil // not written: not counted
		} else {
			n++
		}
	}
	r.messages.Add(n)
	r.mu.Lock()
	r.perTopic[m.Topic]++
	for _, v := range views {
		if v.msg != nil {
			r.perTopic[v.topic]++
		}
	}
	r.mu.Unlock()
	return nil
}

// leaveOut notes that topic is not written for want of channels, warning at the first.
// Writer goroutine only.
func (r *Recorder) leaveOut(topic string) {
	if r.leftOut == nil {
		r.leftOut = map[string]bool{}
		r.log.Warn("the recording holds as many topics as a file can; later topics are left out of it", "path", r.path, "limit", MaxChannels)
	}
	r.leftOut[topic] = true
	r.mu.Lock()
	r.topicsLeftOut++
	r.mu.Unlock()
}

// letGo closes the recording's subscriptions once it is full or has failed. A subscription to every topic
// makes every camera of the world draw each frame for it: a recording left running by a
// client that went away, past its limit, held an idle four-camera world at 11 % of a core
// instead of 2 % and halved the training API's steps a second, for nothing written. The
// writer drains what the subscriptions still hold (counted as cut) and then waits for Stop.
// Writer goroutine only.
func (r *Recorder) letGo() {
	r.subMu.Lock()
	r.detached = true
	subs := []*transport.Subscription{r.sub}
	for _, q := range r.queued {
		subs = append(subs, q.sub)
	}
	r.subMu.Unlock()
	for _, s := range subs {
		s.Close()
	}
}

// channelOf returns the channel of topic in chans (the topics' or the views'), adding it (with
// addChannel) the first time. ok is false when it has none: an error, or the topic left out
// for want of channels (leaveOut; err nil).
func (r *Recorder) channelOf(chans map[string]uint16, topic, typ string, msg proto.Message) (ch uint16, ok bool, err error) {
	if ch, ok := chans[topic]; ok {
		return ch, true, nil
	}
	if r.leftOut[topic] {
		return 0, false, nil
	}
	ch, err = r.addChannel(topic, typ, msg)
	if errors.Is(err, errTooManyChannels) {
		r.leaveOut(topic)
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	chans[topic] = ch
	return ch, true, nil
}

// addChannel writes the channel of topic, whose messages are msg's type typ (and its schema,
// the first time), and returns its ID.
func (r *Recorder) addChannel(topic, typ string, msg proto.Message) (uint16, error) {
	sid, ok := r.schemas[typ]
	if !ok {
		data, err := foxview.SchemaData(msg.ProtoReflect().Descriptor())
		if err != nil {
			return 0, fmt.Errorf("schema %s: %w", typ, err)
		}
		sid = uint16(len(r.schemas) + 1)
		if err := r.w.WriteSchema(&mcap.Schema{ID: sid, Name: typ, Encoding: "protobuf", Data: data}); err != nil {
			return 0, err
		}
		r.schemas[typ] = sid
	}
	if len(r.channels)+len(r.viewChs) >= MaxChannels {
		return 0, errTooManyChannels
	}
	ch := uint16(len(r.channels) + len(r.viewChs) + 1)
	if err := r.w.WriteChannel(&mcap.Channel{ID: ch, SchemaID: sid, Topic: topic, MessageEncoding: "protobuf"}); err != nil {
		return 0, err
	}
	return ch, nil
}
