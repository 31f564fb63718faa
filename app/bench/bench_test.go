package bench

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// *testing.B runs the same case bodies under go test -bench.
var _ B = (*testing.B)(nil)

// register registers c for the test and removes it when the test ends, so that the tests
// register their cases again under go test -count.
func register(t *testing.T, c Case) {
	t.Helper()
	Register(c)
	t.Cleanup(func() {
		mu.Lock()
		delete(cases, c.Name)
		mu.Unlock()
	})
}

// runOne runs the registered case name (and its baseline) with a short target.
func runOne(t *testing.T, name string, limit time.Duration) map[string]Result {
	t.Helper()
	res, err := Run(Options{Filter: regexp.MustCompile("^" + regexp.QuoteMeta(name) + "$"), Target: 20 * time.Millisecond, Limit: limit})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]Result{}
	for _, r := range res {
		out[r.Name] = r
	}
	return out
}

func TestRunComputesRatioAgainstBaseline(t *testing.T) {
	register(t, Case{Name: "test/slow", Baseline: "test/fast", F: func(b B) {
		for b.Loop() {
			spin(200 * time.Microsecond)
		}
	}})
	register(t, Case{Name: "test/fast", F: func(b B) {
		for b.Loop() {
			spin(50 * time.Microsecond)
		}
	}})
	res := runOne(t, "test/slow", time.Minute)
	if len(res) != 2 {
		t.Fatalf("got %d results, want the case and its baseline", len(res))
	}
	slow := res["test/slow"]
	if slow.Status != StatusOK || slow.Ratio <= 1.2 {
		t.Fatalf("%+v: a 200µs case against a 50µs baseline must be ok with a ratio well above 1", slow)
	}
	// The loop ran until the measured time reached the target.
	if got := time.Duration(slow.NsPerOp * float64(slow.N)); got < 20*time.Millisecond || slow.N < 2 {
		t.Fatalf("%d ops measured %v, want at least the 20ms target", slow.N, got)
	}
}

func TestSetupBeforeLoopIsNotMeasured(t *testing.T) {
	register(t, Case{Name: "test/setup", F: func(b B) {
		time.Sleep(300 * time.Millisecond)
		b.ReportAllocs()
		b.SetBytes(1000)
		ops := 0
		for b.Loop() {
			spin(10 * time.Microsecond)
			ops++
		}
		b.ReportMetric(float64(ops), "ops")
	}})
	r := runOne(t, "test/setup", time.Minute)["test/setup"]
	if r.Status != StatusOK {
		t.Fatalf("%+v", r)
	}
	if measured := time.Duration(r.NsPerOp * float64(r.N)); measured >= 300*time.Millisecond {
		t.Errorf("measured %v: the 300ms setup was counted", measured)
	}
	if r.Extra["ops"] != float64(r.N) || r.MBPerS <= 0 {
		t.Errorf("extra %v, N %d, MB/s %v: want the ops metric equal to N and a throughput", r.Extra, r.N, r.MBPerS)
	}
}

func TestFatalErrorPanicAndSkipAreResultsNotCrashes(t *testing.T) {
	var afterFatal, cleaned bool
	register(t, Case{Name: "test/fatal", F: func(b B) {
		b.Cleanup(func() { cleaned = true })
		for b.Loop() {
			b.Fatalf("broken after %d", 1)
			afterFatal = true
		}
	}})
	register(t, Case{Name: "test/error", F: func(b B) {
		for b.Loop() {
		}
		done := make(chan struct{})
		go func() { b.Errorf("reported from another goroutine"); close(done) }() // as a server handler would
		<-done
		b.Log("a note")
	}})
	register(t, Case{Name: "test/panic", F: func(b B) {
		n := -1
		for b.Loop() {
			_ = strings.Repeat("x", n) // panics in the standard library
		}
	}})
	register(t, Case{Name: "test/skip", F: func(b B) { b.Skip("no library here") }})
	register(t, Case{Name: "test/noloop", F: func(b B) {}})

	r := runOne(t, "test/fatal", time.Minute)["test/fatal"]
	if r.Status != StatusFailed || afterFatal || !cleaned || !slices.Contains(r.Messages, "broken after 1") {
		t.Errorf("fatal: %+v (ran past Fatal %v, cleanup ran %v)", r, afterFatal, cleaned)
	}
	r = runOne(t, "test/error", time.Minute)["test/error"]
	if r.Status != StatusFailed || !slices.Equal(r.Messages, []string{"reported from another goroutine", "a note"}) {
		t.Errorf("error: %+v", r)
	}
	r = runOne(t, "test/panic", time.Minute)["test/panic"]
	if r.Status != StatusFailed || len(r.Messages) != 1 || !strings.Contains(r.Messages[0], "panic: strings: negative Repeat count") ||
		!strings.Contains(r.Messages[0], "bench_test.go") {
		t.Errorf("panic: %+v", r)
	}
	r = runOne(t, "test/skip", time.Minute)["test/skip"]
	if r.Status != StatusSkipped || !slices.Equal(r.Messages, []string{"no library here"}) {
		t.Errorf("skip: %+v", r)
	}
	r = runOne(t, "test/noloop", time.Minute)["test/noloop"]
	if r.Status != StatusFailed {
		t.Errorf("a case that never loops: %+v", r)
	}
	if got := Failed([]Result{{Name: "a", Status: StatusOK}, {Name: "b", Status: StatusFailed}, {Name: "c", Status: StatusSkipped}}); !slices.Equal(got, []string{"b"}) {
		t.Errorf("Failed = %v", got)
	}
}

func TestTimeLimitFailsACaseThatHangs(t *testing.T) {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	register(t, Case{Name: "test/hang", F: func(b B) {
		for b.Loop() {
			<-release
		}
	}})
	register(t, Case{Name: "test/after-hang", F: func(b B) {
		for b.Loop() {
		}
	}})
	res, err := Run(Options{Filter: regexp.MustCompile(`^test/(after-)?hang$`), Target: time.Millisecond, Limit: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 2 || res[0].Name != "test/after-hang" || res[0].Status != StatusOK {
		t.Fatalf("%+v: the case after a hung one must still run", res)
	}
	if h := res[1]; h.Status != StatusFailed || len(h.Messages) != 1 || !strings.Contains(h.Messages[0], "did not finish within 200ms") {
		t.Fatalf("hung case: %+v", h)
	}
}

func TestRunRejectsUnknownBaseline(t *testing.T) {
	register(t, Case{Name: "test/orphan", Baseline: "test/nothing", F: func(b B) {}})
	if _, err := Run(Options{Filter: regexp.MustCompile(`^test/orphan$`)}); err == nil || !strings.Contains(err.Error(), "test/nothing") {
		t.Fatalf("err = %v", err)
	}
}

func TestRunAllPassesEveryCase(t *testing.T) {
	register(t, Case{Name: "test/runall", F: func(b B) { b.ReportMetric(1, "seen") }})
	var names []string
	seen := false
	RunAll(func(name string, f func(*caseB)) bool {
		names = append(names, name)
		if name == "test/runall" {
			b := &caseB{}
			f(b)
			seen = b.extra["seen"] == 1
		}
		return true
	})
	if !slices.Contains(names, "test/runall") || !seen || len(names) != len(Cases()) {
		t.Fatalf("RunAll passed %v (ran the body: %v)", names, seen)
	}
}

func TestRegisterRejectsDuplicates(t *testing.T) {
	register(t, Case{Name: "test/dup", F: func(b B) {}})
	defer func() {
		if recover() == nil {
			t.Fatal("duplicate Register did not panic")
		}
	}()
	Register(Case{Name: "test/dup", F: func(b B) {}})
}

// spin busy-waits: sleeps are too coarse on a loaded machine to tell 50µs from 200µs.
func spin(d time.Duration) {
	for start := time.Now(); time.Since(start) < d; {
	}
}
