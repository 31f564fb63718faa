package bench

import (
	"fmt"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults of [Options].
const (
	// DefaultTarget is how long a case's ops are measured, as go test's -benchtime.
	DefaultTarget = time.Second
	// DefaultLimit is the wall time after which a case that has not returned is reported as
	// failed and left behind (a goroutine cannot be stopped from outside).
	DefaultLimit = 2 * time.Minute
)

// Status says how a case ended.
type Status string

// The statuses of a [Result].
const (
	StatusOK      Status = "ok"
	StatusFailed  Status = "failed"
	StatusSkipped Status = "skipped"
)

// Options configure [Run].
type Options struct {
	// Filter selects cases by name (nil = all); the baselines they name run too.
	Filter *regexp.Regexp
	// Target is how long each case's ops are measured (0 = DefaultTarget). The number of ops
	// doubles (at most) until the measured time reaches it.
	Target time.Duration
	// Limit is each case's wall-time limit (0 = DefaultLimit).
	Limit time.Duration
	// Progress, when not nil, is called before each case.
	Progress func(name string)
}

// Result is one measured case.
type Result struct {
	Name        string             `json:"name"`
	Doc         string             `json:"doc,omitempty"`
	Status      Status             `json:"status"`
	N           int                `json:"n"`
	NsPerOp     float64            `json:"nsPerOp"`
	AllocsPerOp int64              `json:"allocsPerOp"`
	BytesPerOp  int64              `json:"bytesPerOp"`
	MBPerS      float64            `json:"mbPerS,omitempty"`
	Extra       map[string]float64 `json:"extra,omitempty"`
	Baseline    string             `json:"baseline,omitempty"`
	// Ratio is NsPerOp divided by the baseline's NsPerOp (0 when there is no baseline or it
	// did not run to the end).
	Ratio float64 `json:"ratio,omitempty"`
	// Messages are what the case logged, its errors, a recovered panic or the time limit.
	Messages []string `json:"messages,omitempty"`
}

// Run measures every case whose name matches the filter, plus the baselines they need, one at
// a time, each on a goroutine of its own. A case that calls Fatal or Error, panics, or
// outlives the limit is a failed result; Run itself fails only on a case naming an unknown
// baseline.
func Run(opts Options) ([]Result, error) {
	if opts.Target <= 0 {
		opts.Target = DefaultTarget
	}
	if opts.Limit <= 0 {
		opts.Limit = DefaultLimit
	}
	all := Cases()
	byName := map[string]Case{}
	for _, c := range all {
		byName[c.Name] = c
	}
	want := map[string]bool{}
	for _, c := range all {
		if opts.Filter == nil || opts.Filter.MatchString(c.Name) {
			want[c.Name] = true
			if c.Baseline != "" {
				if _, ok := byName[c.Baseline]; !ok {
					return nil, fmt.Errorf("bench: case %s names unknown baseline %s", c.Name, c.Baseline)
				}
				want[c.Baseline] = true
			}
		}
	}
	var results []Result
	measured := map[string]float64{}
	for _, c := range all {
		if !want[c.Name] {
			continue
		}
		if opts.Progress != nil {
			opts.Progress(c.Name)
		}
		r := runCase(c, opts.Target, opts.Limit)
		if r.Status == StatusOK {
			measured[c.Name] = r.NsPerOp
		}
		results = append(results, r)
	}
	for i := range results {
		if b := results[i].Baseline; b != "" && measured[b] > 0 && results[i].Status == StatusOK {
			results[i].Ratio = results[i].NsPerOp / measured[b]
		}
	}
	return results, nil
}

// Failed returns the names of the failed results.
func Failed(rs []Result) []string {
	var out []string
	for _, r := range rs {
		if r.Status == StatusFailed {
			out = append(out, r.Name)
		}
	}
	return out
}

// runCase runs c on a goroutine of its own and waits for it up to limit.
func runCase(c Case, target, limit time.Duration) Result {
	b := &caseB{target: target, started: time.Now()}
	done := make(chan struct{})
	go func() {
		defer close(done)
		b.run(c.F)
	}()
	t := time.NewTimer(limit)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
		b.stop.Store(true) // a Loop still running ends at its next check
		b.fail(fmt.Sprintf("did not finish within %v; left running", limit))
	}
	return b.result(c)
}

// maxMessages bounds what a case can pile into its result; maxMessage bounds each entry.
const (
	maxMessages = 20
	maxMessage  = 2000
)

// caseB is the harness's B. The loop and timer fields belong to the case's goroutine, as
// with testing.B; the outcome (status, messages, metrics) is guarded by mu because Error and
// Log may come from any goroutine and the runner reads it when the limit strikes.
type caseB struct {
	target  time.Duration
	started time.Time
	stop    atomic.Bool

	// Loop state: i ops started of n allowed so far.
	i, n      int
	looping   bool
	loopStart time.Time

	// Timer state.
	timerOn          bool
	timerStart       time.Time
	duration         time.Duration
	startAllocs      uint64
	startBytes       uint64
	allocs, allocMem uint64

	mu       sync.Mutex
	closed   bool // the result has been taken; later reports are dropped
	failed   bool
	skipped  bool
	messages []string
	extra    map[string]float64
	bytes    int64
	ops      int
	cleanups []func()
}

var _ B = (*caseB)(nil)

// run calls f with the timer running, then the cleanups; Fatal and Skip (runtime.Goexit) and
// panics end up here too.
func (b *caseB) run(f func(B)) {
	defer b.runCleanups()
	defer func() {
		if r := recover(); r != nil {
			b.fail(fmt.Sprintf("panic: %v\n%s", r, panicStack()))
		}
	}()
	b.StartTimer()
	f(b)
	b.StopTimer()
	b.mu.Lock()
	b.ops = b.i
	b.mu.Unlock()
}

func (b *caseB) runCleanups() {
	for {
		b.mu.Lock()
		if len(b.cleanups) == 0 {
			b.mu.Unlock()
			return
		}
		f := b.cleanups[len(b.cleanups)-1]
		b.cleanups = b.cleanups[:len(b.cleanups)-1]
		b.mu.Unlock()
		func() {
			defer func() {
				if r := recover(); r != nil {
					b.fail(fmt.Sprintf("panic in cleanup: %v\n%s", r, panicStack()))
				}
			}()
			f()
		}()
	}
}

// panicStack is the stack of a recovered panic without the runtime's and this file's frames
// at its top, cut to a readable length.
func panicStack() string {
	s := string(debug.Stack())
	if i := strings.Index(s, "\npanic("); i >= 0 { // the panic call's line and its file line
		s = s[i+1:]
		for range 2 {
			if j := strings.IndexByte(s, '\n'); j >= 0 {
				s = s[j+1:]
			}
		}
	}
	if len(s) > maxMessage {
		s = s[:maxMessage] + "…"
	}
	return strings.TrimRight(s, "\n")
}

func (b *caseB) result(c Case) Result {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	r := Result{Name: c.Name, Doc: c.Doc, Baseline: c.Baseline, Status: StatusOK, N: b.ops,
		Messages: append([]string(nil), b.messages...)}
	switch {
	case b.failed:
		r.Status = StatusFailed
	case b.skipped:
		r.Status = StatusSkipped
	case b.ops == 0:
		r.Status = StatusFailed
		r.Messages = append(r.Messages, "the case ran no op (it never called b.Loop)")
	}
	if r.Status != StatusOK {
		return r
	}
	n := float64(b.ops)
	r.NsPerOp = float64(b.duration.Nanoseconds()) / n
	r.AllocsPerOp = int64(float64(b.allocs) / n)
	r.BytesPerOp = int64(float64(b.allocMem) / n)
	if b.bytes > 0 && b.duration > 0 {
		r.MBPerS = float64(b.bytes) * n / b.duration.Seconds() / 1e6
	}
	if len(b.extra) > 0 {
		r.Extra = make(map[string]float64, len(b.extra))
		for k, v := range b.extra {
			r.Extra[k] = v
		}
	}
	return r
}

// note records a message, bounded.
func (b *caseB) note(s string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.noteLocked(s)
}

func (b *caseB) noteLocked(s string) {
	if b.closed || len(b.messages) >= maxMessages {
		return
	}
	if len(s) > maxMessage {
		s = s[:maxMessage] + "…"
	}
	b.messages = append(b.messages, s)
}

func (b *caseB) fail(s string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	b.failed = true
	b.noteLocked(s)
}

// Helper does nothing: messages carry no file and line.
func (b *caseB) Helper() {}

// Cleanup registers f to run after the body returns, last registered first.
func (b *caseB) Cleanup(f func()) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.cleanups = append(b.cleanups, f)
}

// Log records a message in the result.
func (b *caseB) Log(args ...any) { b.note(sprint(args)) }

// Logf records a formatted message in the result.
func (b *caseB) Logf(format string, args ...any) { b.note(fmt.Sprintf(format, args...)) }

// Error marks the case failed and goes on.
func (b *caseB) Error(args ...any) { b.fail(sprint(args)) }

// Errorf marks the case failed and goes on.
func (b *caseB) Errorf(format string, args ...any) { b.fail(fmt.Sprintf(format, args...)) }

// Fatal marks the case failed and ends it.
func (b *caseB) Fatal(args ...any) {
	b.fail(sprint(args))
	runtime.Goexit()
}

// Fatalf marks the case failed and ends it.
func (b *caseB) Fatalf(format string, args ...any) {
	b.fail(fmt.Sprintf(format, args...))
	runtime.Goexit()
}

// Skip ends the case as skipped: it could not run here (for example a library is missing).
func (b *caseB) Skip(args ...any) {
	b.skip(sprint(args))
	runtime.Goexit()
}

// Skipf ends the case as skipped.
func (b *caseB) Skipf(format string, args ...any) {
	b.skip(fmt.Sprintf(format, args...))
	runtime.Goexit()
}

func (b *caseB) skip(s string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.skipped = true
	b.noteLocked(s)
}

// Failed reports whether the case has failed.
func (b *caseB) Failed() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.failed
}

// sprint formats like fmt.Sprintln without the newline, as testing does.
func sprint(args []any) string { return strings.TrimSuffix(fmt.Sprintln(args...), "\n") }

// Loop runs the op until the measured time reaches the target: one op first, then at most
// twice as many as have run each time it checks.
func (b *caseB) Loop() bool {
	if b.i < b.n {
		b.i++
		return true
	}
	return b.loopCheck()
}

// maxOps bounds the ops of one case whatever the clock says.
const maxOps = 1_000_000_000

func (b *caseB) loopCheck() bool {
	if !b.looping {
		if b.n > 0 { // the body calls Loop again after it returned false
			return false
		}
		b.looping = true
		b.loopStart = time.Now()
		b.ResetTimer()
		b.n, b.i = 1, 1
		return true
	}
	d := b.Elapsed()
	// Wall time bounds a case whose ops mostly run with the timer stopped.
	if d >= b.target || time.Since(b.loopStart) >= 4*b.target || b.n >= maxOps || b.stop.Load() {
		b.StopTimer()
		b.looping = false
		return false
	}
	next := 2 * b.n
	if d > 0 { // aim 20% past the target, at most doubling
		want := int(1.2 * float64(b.n) * float64(b.target) / float64(d))
		next = max(b.n+1, min(next, want))
	}
	b.n = min(next, maxOps)
	b.i++
	return true
}

// StartTimer starts measuring.
func (b *caseB) StartTimer() {
	if b.timerOn {
		return
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.startAllocs, b.startBytes = ms.Mallocs, ms.TotalAlloc
	b.timerStart = time.Now()
	b.timerOn = true
}

// StopTimer stops measuring.
func (b *caseB) StopTimer() {
	if !b.timerOn {
		return
	}
	b.duration += time.Since(b.timerStart)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.allocs += ms.Mallocs - b.startAllocs
	b.allocMem += ms.TotalAlloc - b.startBytes
	b.timerOn = false
}

// ResetTimer zeroes the measured time and allocations.
func (b *caseB) ResetTimer() {
	if b.timerOn {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		b.startAllocs, b.startBytes = ms.Mallocs, ms.TotalAlloc
		b.timerStart = time.Now()
	}
	b.duration, b.allocs, b.allocMem = 0, 0, 0
}

// Elapsed is the measured time so far.
func (b *caseB) Elapsed() time.Duration {
	d := b.duration
	if b.timerOn {
		d += time.Since(b.timerStart)
	}
	return d
}

// ReportAllocs does nothing more: allocations are always counted.
func (b *caseB) ReportAllocs() {}

// ReportMetric adds a figure to the result under unit, replacing an earlier one.
func (b *caseB) ReportMetric(n float64, unit string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.extra == nil {
		b.extra = map[string]float64{}
	}
	b.extra[unit] = n
}

// SetBytes records the bytes processed per op.
func (b *caseB) SetBytes(n int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.bytes = n
}
