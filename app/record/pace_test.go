package record

import (
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"simgui/app/transport"
	"simgui/app/transport/msgs"
)

// A publisher that waits for the writer (as the record face makes the world it records do)
// loses nothing through a queue of 16; one that does not loses most of a burst.
func TestWaitWriterLosesNothing(t *testing.T) {
	for _, wait := range []bool{true, false} {
		quiet := slog.New(slog.DiscardHandler)
		bus := transport.NewBus(transport.Options{Logger: quiet})
		path := filepath.Join(t.TempDir(), "paced.mcap")
		rec, err := Start(bus, path, Options{QueueLen: 16, Logger: quiet})
		if err != nil {
			t.Fatal(err)
		}
		const n = 20000
		for i := range n {
			if wait {
				rec.WaitWriter(nil)
			}
			bus.Publish(transport.ClockTopic, &msgs.Clock{}, time.Duration(i)*time.Millisecond)
		}
		st, err := rec.Stop()
		bus.Close()
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case wait && (st.Dropped != 0 || st.Messages != n):
			t.Errorf("waiting for the writer: %d written, %d dropped; want all %d", st.Messages, st.Dropped, n)
		case !wait && st.Dropped == 0:
			t.Logf("not waiting: nothing dropped (the writer kept up with this burst)")
		case !wait:
			t.Logf("not waiting: %d of %d dropped", st.Dropped, n)
		}
		if wait && rec.Behind() {
			t.Error("a stopped recording says it is behind")
		}
	}
}
