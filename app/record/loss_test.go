package record

import (
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"simgui/app/transport"
	"simgui/app/transport/msgs"
)

// A recording whose writer fell behind tells its readers what it lacks: each message's MCAP
// sequence counts the topic's publishes since the recording began, so the messages the queue
// dropped are gaps, and a metadata record "simgui.recording" gives the totals. Before, the
// sequence counted only the messages written: a time-scale-0 run that dropped 39 % of its
// messages read, in mcap and Foxglove alike, as a whole recording.
func TestDropsShowInTheFile(t *testing.T) {
	bus := transport.NewBus(transport.Options{Logger: slog.New(slog.DiscardHandler)})
	defer bus.Close()
	// Publishes before the recording are not losses of it.
	for range 5 {
		bus.Publish("/flood", &msgs.Double{Data: -1}, 0)
	}
	path := filepath.Join(t.TempDir(), "drops.mcap")
	_, st := flood(t, bus, path, slog.New(slog.DiscardHandler))
	if st.Dropped == 0 {
		t.Fatal("nothing dropped; the test needs a writer that falls behind")
	}

	r := openMCAP(t, path)
	it, err := r.Messages()
	if err != nil {
		t.Fatal(err)
	}
	var written, last uint32
	for {
		_, _, m, err := it.NextInto(nil)
		if errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		var d msgs.Double
		if err := proto.Unmarshal(m.Data, &d); err != nil {
			t.Fatal(err)
		}
		if want := uint32(d.Data) + 1; m.Sequence != want {
			t.Fatalf("message %v has sequence %d, want %d (its publish count in the recording)", d.Data, m.Sequence, want)
		}
		written++
		last = m.Sequence
	}
	if uint64(written) != st.Messages || last != floodN || uint64(last-written) != st.Dropped {
		t.Fatalf("written %d, last sequence %d, dropped %d: the gaps must be the drops", written, last, st.Dropped)
	}

	info, err := r.Info()
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]string
	for _, idx := range info.MetadataIndexes {
		if idx.Name != recordingMetadata {
			continue
		}
		md, err := r.GetMetadata(idx.Offset)
		if err != nil {
			t.Fatal(err)
		}
		got = md.Metadata
	}
	want := map[string]string{
		"messages": strconv.FormatUint(st.Messages, 10),
		"dropped":  strconv.FormatUint(st.Dropped, 10),
		"cut":      "0",
	}
	for k, v := range want {
		if got[k] != v {
			t.Fatalf("metadata %q: %v, want %v", recordingMetadata, got, want)
		}
	}
}

// floodN is how many messages flood publishes.
const floodN = 20000

// flood records bus into path with a one-message queue while floodN doubles (0, 1, ...) are
// published on /flood, faster than the writer keeps up, and returns the stopped recorder and
// its stats.
func flood(t *testing.T, bus *transport.Bus, path string, log *slog.Logger) (*Recorder, Stats) {
	t.Helper()
	rec, err := Start(bus, path, Options{QueueLen: 1, Compression: "none", Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	for i := range floodN {
		bus.Publish("/flood", &msgs.Double{Data: float64(i)}, time.Duration(i))
	}
	st, err := rec.Stop()
	if err != nil {
		t.Fatal(err)
	}
	return rec, st
}
