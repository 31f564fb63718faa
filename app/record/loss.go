package record

import (
	"strconv"

	"github.com/foxglove/mcap/go/mcap"

	"simgui/app/transport"
)

// recordingMetadata is the metadata record Stop writes with the recording's totals (messages,
// dropped, cut), so that a reader of the file learns whether it lacks messages: the log line
// saying so is seen only by whoever ran the simulator.
const recordingMetadata = "simgui.recording"

// pubSeqs numbers one subscription's messages in the file by their topics' publish counts
// (transport.Message.Seq), so that a message the queue dropped leaves a gap in its channel's
// MCAP sequence, the field MCAP has for readers to find lost messages.
type pubSeqs struct {
	// base is each topic's publish count when the subscription began: its next message is
	// the first of the recording.
	base map[string]uint64
	// start is each channel's sequence before the subscription's first message on it, so
	// that a channel's sequence goes on increasing across worlds and resets.
	start map[string]uint32
}

// newPubSeqs begins numbering a subscription to bus, made just before: a topic published
// between the two has its base lowered at its first message (sequence).
func newPubSeqs(bus *transport.Bus) pubSeqs {
	s := pubSeqs{base: map[string]uint64{}, start: map[string]uint32{}}
	for _, ti := range bus.Topics() {
		s.base[ti.Name] = ti.Published
	}
	return s
}

// sequence returns m's MCAP sequence on channel ch, whose last one written is last.
func (s *pubSeqs) sequence(m transport.Message, last uint32) uint32 {
	start, seen := s.start[m.Topic]
	if !seen {
		start = last
		s.start[m.Topic] = start
		if m.Seq > 0 && m.Seq <= s.base[m.Topic] {
			s.base[m.Topic] = m.Seq - 1 // published after subscribing, before the count
		}
	}
	if base := s.base[m.Topic]; m.Seq > base {
		return start + uint32(m.Seq-base) // MCAP's sequence is 32 bits: it wraps
	}
	return last + 1 // not numbered by a bus
}

// writeTotals writes the recording's totals as metadata, before its summary.
func (r *Recorder) writeTotals(st Stats) error {
	return r.w.WriteMetadata(&mcap.Metadata{Name: recordingMetadata, Metadata: map[string]string{
		"messages": strconv.FormatUint(st.Messages, 10),
		"dropped":  strconv.FormatUint(st.Dropped, 10),
		"cut":      strconv.FormatUint(st.Cut, 10),
	}})
}
