package record

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"simgui/app/transport"
	"simgui/app/transport/msgs"
)

// writeCalls reads how many write system calls the process has made (Linux's /proc/self/io).
func writeCalls(t *testing.T) int {
	t.Helper()
	data, err := os.ReadFile("/proc/self/io")
	if err != nil {
		t.Skipf("no write count: %v", err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "syscw: "); ok {
			n, err := strconv.Atoi(v)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Skip("no syscw in /proc/self/io")
	return 0
}

// A fleet's recording, whose every chunk holds messages of hundreds of topics, goes to the file
// in a few writes a chunk, not two for each topic's message index, and the file holds every
// message.
func TestFleetChunksWriteInFewCalls(t *testing.T) {
	quiet := slog.New(slog.DiscardHandler)
	bus := transport.NewBus(transport.Options{Logger: quiet})
	const topics, rounds = 600, 20
	names := make([]string, topics)
	for i := range names {
		names[i] = transport.PoseTopic(fmt.Sprintf("r%d", i))
	}
	path := filepath.Join(t.TempDir(), "fleet.mcap")
	rec, err := Start(bus, path, Options{Logger: quiet, Compression: "none", World: World{Models: topics}})
	if err != nil {
		t.Fatal(err)
	}
	before := writeCalls(t)
	for i := range rounds {
		rec.WaitWriter(nil)
		for _, name := range names {
			bus.Publish(name, &msgs.Pose{Name: name}, time.Duration(i)*time.Millisecond)
		}
	}
	st, err := rec.Stop()
	bus.Close()
	if err != nil {
		t.Fatal(err)
	}
	calls := writeCalls(t) - before
	if st.Messages != topics*rounds || st.Dropped != 0 {
		t.Fatalf("%d messages written, %d dropped; want %d", st.Messages, st.Dropped, topics*rounds)
	}
	if n := readAll(t, path); n != topics*rounds {
		t.Fatalf("the file holds %d messages, want %d", n, topics*rounds)
	}
	// About ten 64 KiB chunks, their indexes and the summary: unbuffered, 2 writes for each
	// topic's index in each chunk, some 12,000.
	if calls > 200 {
		t.Errorf("%d write calls for %d messages of %d topics; want at most 200", calls, topics*rounds, topics)
	}
}
