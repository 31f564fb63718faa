package record

import (
	"fmt"
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

// A world that waits for the writer once a step, as the record face makes it, and then
// publishes three messages for each of its robots (a KS0223's pose, wheels and MICOM) loses
// none of them, however small Options.QueueLen: the queue has room for the step of every robot
// the World names. With the same queue for any world, a fleet's step overran it.
func TestFleetStepsLoseNothing(t *testing.T) {
	quiet := slog.New(slog.DiscardHandler)
	bus := transport.NewBus(transport.Options{Logger: quiet})
	const robots, steps = 500, 40
	topics := make([]string, 3*robots)
	for i := range topics {
		topics[i] = transport.PoseTopic(fmt.Sprintf("r%d_%d", i/3, i%3))
	}
	path := filepath.Join(t.TempDir(), "fleet.mcap")
	rec, err := Start(bus, path, Options{QueueLen: 16, Logger: quiet, Compression: "none", World: World{ID: "fleet", Models: robots}})
	if err != nil {
		t.Fatal(err)
	}
	for s := range steps {
		rec.WaitWriter(nil)
		for _, topic := range topics {
			bus.Publish(topic, &msgs.Pose{Name: topic}, time.Duration(s)*time.Millisecond)
		}
	}
	st, err := rec.Stop()
	bus.Close()
	if err != nil {
		t.Fatal(err)
	}
	if want := uint64(steps * len(topics)); st.Dropped != 0 || st.Messages != want {
		t.Errorf("%d robots, %d steps: %d messages written, %d dropped; want all %d", robots, steps, st.Messages, st.Dropped, want)
	}
}
