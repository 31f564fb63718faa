package clock

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"simgui/app/transport"
	"simgui/app/transport/msgs"
	"simgui/app/world"
	"simgui/plugins"
)

func asIs(t *plugins.TrackDescriptor, _ map[string]any, _ int64) (*plugins.Layout, error) {
	return &plugins.Layout{}, nil
}

// startClock runs a lockstep world "w1" with the clock on a bus of its own, until the test ends.
func startClock(t *testing.T) (*transport.Bus, *world.Loop, context.Context) {
	t.Helper()
	bus := transport.NewBus(transport.Options{})
	t.Cleanup(bus.Close)
	w, err := world.New(world.Config{Name: "w1", Track: &plugins.TrackDescriptor{ID: "track.t.v1"}, BuildLayout: asIs,
		Bus: bus, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	l := world.NewLoop(w, world.LoopOptions{Lockstep: true})
	if err := w.AddSystem(&Clock{}, world.SystemOptions{Name: ID}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() { cancel(); <-l.Done() })
	go l.Run(ctx)
	return bus, l, ctx
}

func TestClockAndStats(t *testing.T) {
	bus, l, ctx := startClock(t)
	clock := bus.Subscribe(transport.ClockTopic)
	stats := bus.Subscribe(transport.StatsTopic("w1"))
	l.Step(ctx, 3)
	var c *msgs.Clock
	for range 3 {
		c = (<-clock.C()).Msg.(*msgs.Clock)
	}
	if c.GetSim().AsDuration() != 15*time.Millisecond {
		t.Fatalf("clock after 3 steps: %v", c)
	}
	var st *msgs.WorldStatistics
	for st == nil || st.GetIterations() < 3 {
		st = (<-stats.C()).Msg.(*msgs.WorldStatistics)
	}
	if st.GetSimTime().AsDuration() != 15*time.Millisecond || !st.GetStepping() || st.GetPaused() ||
		st.GetStepSize().AsDuration() != 5*time.Millisecond {
		t.Fatalf("stats %v", st)
	}
	// Pausing publishes at once, with paused set and the same sim time.
	if err := l.Pause(); err != nil {
		t.Fatal(err)
	}
	for st = (<-stats.C()).Msg.(*msgs.WorldStatistics); !st.GetPaused(); st = (<-stats.C()).Msg.(*msgs.WorldStatistics) {
	}
	if st.GetSimTime().AsDuration() != 15*time.Millisecond {
		t.Fatalf("stats on pause %v", st)
	}
}

// TestResetNoticeAfterTheClockGoesBack: on a reset the clock's step back to 0 comes before the
// reset notice, so that a reader that starts the new episode where the clock goes back (a
// recording) files the notice under it.
func TestResetNoticeAfterTheClockGoesBack(t *testing.T) {
	bus, l, ctx := startClock(t)
	all := bus.SubscribeAll(transport.WithQueueLen(1000))
	l.Step(ctx, 3)
	if err := l.Reset(ctx, 7); err != nil {
		t.Fatal(err)
	}
	clockBack := false
	for m := range all.C() {
		switch m.Topic {
		case transport.ClockTopic:
			if m.Msg.(*msgs.Clock).GetSim().AsDuration() == 0 && m.Stamp == 0 {
				clockBack = true
			}
		case transport.ResetTopic("w1"):
			if !clockBack {
				t.Fatal("the reset notice came before the clock went back")
			}
			if m.Msg.(*msgs.Int64).GetData() != 7 {
				t.Errorf("reset notice %v, want the seed 7", m.Msg)
			}
			return
		}
	}
}
