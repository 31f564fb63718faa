package record

// The vendored MCAP writer (third_party/mcap, a module of its own without test files) as the
// recorder relies on it.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"testing"

	"github.com/foxglove/mcap/go/mcap"
)

// writeFewOfMany writes a chunked file of channels channels (created in descending ID order)
// whose messages, phase after phase, fall on a few of them: perPhase channels a phase, msgs
// messages on each, round robin. It returns the file and the channels in creation order.
func writeFewOfMany(tb testing.TB, channels, phases, perPhase, msgs int) ([]byte, []uint16) {
	tb.Helper()
	var buf bytes.Buffer
	w, err := mcap.NewWriter(&buf, &mcap.WriterOptions{Chunked: true, ChunkSize: 4 << 10, Compression: mcap.CompressionNone})
	if err != nil {
		tb.Fatal(err)
	}
	if err := w.WriteHeader(&mcap.Header{Profile: "test"}); err != nil {
		tb.Fatal(err)
	}
	var order []uint16
	for i := range channels {
		id := uint16(channels - i)
		if err := w.WriteChannel(&mcap.Channel{ID: id, Topic: fmt.Sprintf("/t%d", id), MessageEncoding: "raw"}); err != nil {
			tb.Fatal(err)
		}
		order = append(order, id)
	}
	data := bytes.Repeat([]byte{7}, 100)
	t := uint64(0)
	for p := range phases {
		for k := range perPhase * msgs {
			// The phase's channels, and channel 1 (created last) now and then.
			id := order[(p*perPhase*7+k%perPhase)%channels]
			if k%9 == 0 {
				id = 1
			}
			t++
			if err := w.WriteMessage(&mcap.Message{ChannelID: id, LogTime: t, PublishTime: t, Data: data}); err != nil {
				tb.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes(), order
}

// Each chunk is followed by the message indexes of exactly the channels it holds messages of,
// in the order the channels were created, each listing its messages' log times in order; none
// is left out or repeated (a chunk's indexes are gathered from the channels it used, not from
// every channel of the file).
func TestChunkIndexesListTheChunksChannels(t *testing.T) {
	file, order := writeFewOfMany(t, 500, 12, 4, 30)
	rank := map[uint16]int{}
	for i, id := range order {
		rank[id] = i
	}
	lex, err := mcap.NewLexer(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	inChunk := map[uint16][]uint64{} // the chunk's messages' log times, by channel
	var indexed []uint16             // the channels of the indexes after it, in file order
	chunks, messages, entries := 0, 0, 0
	check := func() {
		if len(inChunk) == 0 && len(indexed) == 0 {
			return
		}
		chunks++
		var want []uint16
		for id := range inChunk {
			want = append(want, id)
		}
		slices.SortFunc(want, func(a, b uint16) int { return rank[a] - rank[b] })
		if !slices.Equal(indexed, want) {
			t.Fatalf("chunk %d: message indexes for channels %v, want %v (its channels, in creation order)", chunks, indexed, want)
		}
		clear(inChunk)
		indexed = indexed[:0]
	}
	buf := make([]byte, 1<<16)
	for {
		tok, rec, err := lex.Next(buf)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		switch tok {
		case mcap.TokenMessage:
			if len(indexed) > 0 {
				check() // the next chunk begins
			}
			m, err := mcap.ParseMessage(rec)
			if err != nil {
				t.Fatal(err)
			}
			inChunk[m.ChannelID] = append(inChunk[m.ChannelID], m.LogTime)
			messages++
		case mcap.TokenMessageIndex:
			idx, err := mcap.ParseMessageIndex(rec)
			if err != nil {
				t.Fatal(err)
			}
			var times []uint64
			for _, e := range idx.Records {
				times = append(times, e.Timestamp)
			}
			if !slices.Equal(times, inChunk[idx.ChannelID]) {
				t.Fatalf("chunk %d: channel %d's index lists log times %v, want %v", chunks+1, idx.ChannelID, times, inChunk[idx.ChannelID])
			}
			entries += len(times)
			indexed = append(indexed, idx.ChannelID)
		case mcap.TokenFooter:
			check()
		}
		if len(rec) > len(buf) {
			buf = rec
		}
	}
	if want := 12 * 4 * 30; messages != want || entries != want || chunks < 12 {
		t.Fatalf("%d messages, %d index entries, %d chunks; want %d, %d and 12 or more", messages, entries, chunks, want, want)
	}
}

// BenchmarkChunksOfFewChannelsAmongMany writes a file of 10,000 channels whose chunks each
// hold messages of a few (a fleet's recording: every robot has its topics, a chunk fills in a
// fraction of a step). ns/op is per file of 20,000 messages.
func BenchmarkChunksOfFewChannelsAmongMany(b *testing.B) {
	for b.Loop() {
		writeFewOfMany(b, 10000, 50, 8, 50)
	}
}
