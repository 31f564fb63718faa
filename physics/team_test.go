package physics

import (
	"strings"
	"sync"
	"testing"
)

// Every part of every job runs exactly once, whichever worker takes it, also when several
// goroutines hand the team jobs at once (the others then run theirs themselves).
func TestTeamRunsEveryPartOnce(t *testing.T) {
	tm := newTeam(3)
	const callers, jobs, parts = 4, 200, 9
	counts := make([][parts]int, callers)
	var wg sync.WaitGroup
	for c := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range jobs {
				tm.run(parts, func(p int) { counts[c][p]++ })
			}
		}()
	}
	wg.Wait()
	for c := range callers {
		for p, n := range counts[c] {
			if n != jobs {
				t.Fatalf("caller %d: part %d ran %d times in %d jobs", c, p, n, jobs)
			}
		}
	}
}

// A part that panics does not take the process down: run re-raises it on its caller once the
// other parts are done, and the team serves the next job.
func TestTeamPanicReachesTheCaller(t *testing.T) {
	tm := newTeam(1)
	var done [4]bool
	func() {
		defer func() {
			r := recover()
			if s, ok := r.(string); !ok || !strings.Contains(s, "part 2 broke") {
				t.Fatalf("recovered %v, want the part's panic", r)
			}
		}()
		tm.run(4, func(p int) {
			if p == 2 {
				panic("part 2 broke")
			}
			done[p] = true
		})
	}()
	if !done[0] || !done[1] || !done[3] {
		t.Fatalf("the other parts did not all run: %v", done)
	}
	var again [4]bool
	tm.run(4, func(p int) { again[p] = true })
	if again != [4]bool{true, true, true, true} {
		t.Fatalf("the next job after a panic ran %v", again)
	}
}
