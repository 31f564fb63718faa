package bridge

import (
	"log/slog"
	"strings"
	"testing"
	"time"
)

// TestPanicsAreLoggedBriefly: a panic is logged with the function that panicked; after the
// first few, without the stack and at most one a second, however many come (the bound
// allows for a slow machine).
func TestPanicsAreLoggedBriefly(t *testing.T) {
	rec := &logRecorder{}
	log := slog.New(rec)
	boom := func() {
		defer recovered(log, "bridge: test", "peer", "p")
		var s []int
		_ = s[3]
	}
	start := time.Now()
	for range 1000 {
		boom()
	}
	seconds := int(time.Since(start)/time.Second) + 1
	rec.mu.Lock()
	lines := append([]string(nil), rec.lines...)
	rec.mu.Unlock()
	stacks := 0
	for _, l := range lines {
		if !strings.Contains(l, "bridge.TestPanicsAreLoggedBriefly.func1") {
			t.Errorf("a line does not name where the panic happened: %.300s", l)
		}
		if strings.Contains(l, "stack=") {
			stacks++
		}
	}
	// Other tests of the package may have used some of the stacks first.
	if stacks > panicStacks {
		t.Errorf("%d lines with a stack, want at most %d", stacks, panicStacks)
	}
	if len(lines) > panicStacks+1+seconds {
		t.Errorf("%d lines for 1000 panics in %d s or less", len(lines), seconds)
	}
}
