package lograte

import (
	"sync"
	"testing"
	"time"
)

// A burst passes; lines past it are held back, from any number of goroutines, and counted
// with the next one that passes once time has refilled the bucket.
func TestLimiter(t *testing.T) {
	l := &Limiter{Every: time.Hour, Burst: 3}
	for i := range 3 {
		if ok, n := l.Allow(); !ok || n != 0 {
			t.Fatalf("line %d of the burst: %v, %d left out", i, ok, n)
		}
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				if ok, _ := l.Allow(); ok {
					t.Error("a line past the burst passed")
				}
			}
		})
	}
	wg.Wait()
	l.mu.Lock()
	l.last = l.last.Add(-2 * time.Hour) // two intervals have passed
	l.mu.Unlock()
	if ok, n := l.Allow(); !ok || n != 800 {
		t.Fatalf("after the interval: %v, %d left out; want true, 800", ok, n)
	}
	if ok, n := l.Allow(); !ok || n != 0 {
		t.Fatalf("the second refilled line: %v, %d", ok, n)
	}
	if ok, _ := l.Allow(); ok {
		t.Fatal("a third line after two intervals passed")
	}
}
