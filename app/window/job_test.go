package window

import (
	"log/slog"
	"testing"
)

// A job that panics fails with a message applied on the game goroutine; the worker, and the
// process, go on.
func TestJobPanicFailsTheJob(t *testing.T) {
	g := &game{log: slog.New(slog.DiscardHandler)}
	apply := g.runJob(func() func() { panic("a bug in building a world") })
	if apply == nil {
		t.Fatal("a job that panicked has nothing to apply: its failure would go unsaid")
	}
	ran := false
	if apply := g.runJob(func() func() { return func() { ran = true } }); apply == nil {
		t.Fatal("a job's apply was lost")
	} else {
		apply()
	}
	if !ran {
		t.Error("a job's apply did not run")
	}
}
