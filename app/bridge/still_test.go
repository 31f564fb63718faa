package bridge

import (
	"testing"
	"time"
)

// TestFreshSubscribersWhilePaused: a client that subscribes while the world is paused gets a
// reading on every port at once (the world republishes what it has), and then the once-a-
// second repeats: cloisim_ros started against a paused world would otherwise hear nothing
// on the micom or the cameras and end its nodes.
func TestFreshSubscribersWhilePaused(t *testing.T) {
	tw := startWorld(t)
	waitFor(t, "the world to step", func() bool { return tw.loop.Snapshot().Step > 10 })
	if err := tw.loop.Pause(); err != nil {
		t.Fatal(err)
	}
	paused := tw.loop.Snapshot().SimTime
	// The ports whose sensors give readings (the test car's contract names the cameras only).
	for _, key := range []string{"car0MicomTx", "car0MicomTf", "car0camera_frontData", "car0depth_frontData"} {
		t.Run(key, func(t *testing.T) {
			sub := tw.subscribe(t, key)
			defer sub.Close()
			for i := range 2 { // the reading, then its repeat
				m := recvTimeout(t, sub, 5*time.Second)
				if len(m.Frames) != 1 || !hasTag(m.Frames[0], key) || len(m.Frames[0]) <= 8 {
					t.Fatalf("message %d: %s", i, fmtFrames(m))
				}
			}
		})
	}
	if now := tw.loop.Snapshot().SimTime; now != paused {
		t.Errorf("sim time moved from %v to %v while paused", paused, now)
	}
}
