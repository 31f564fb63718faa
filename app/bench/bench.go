// Package bench is the registry and harness behind `simgui bench`: the benchmark packages
// (one per area, named <area>bench, which production code never imports) register named
// cases in init, and the command runs them in one process so that a case and its baseline are
// measured in the same run on the same machine.
//
// A case names its baseline; the report gives the ratio case/baseline of ns per op, which is
// what matters on a shared, noisy machine.
//
// A case's body is written against [B], which *testing.B satisfies: `go test -bench` runs the
// same cases through a two-line adapter in each benchmark package ([RunAll]), and `simgui
// bench` runs them with this package's own harness ([Run]), so no production package imports
// testing.
package bench

import (
	"sort"
	"sync"
	"time"
)

// TB is the part of testing.TB a case uses; *testing.B and the harness's B satisfy it.
// Fatal, Fatalf, Skip and Skipf end the case (runtime.Goexit): call them from the case's own
// goroutine. Error, Errorf, Log and Logf may be called from any goroutine.
type TB interface {
	Helper()
	Cleanup(f func())
	Log(args ...any)
	Logf(format string, args ...any)
	Error(args ...any)
	Errorf(format string, args ...any)
	Fatal(args ...any)
	Fatalf(format string, args ...any)
	Skip(args ...any)
	Skipf(format string, args ...any)
	Failed() bool
}

// B is what a case's body uses. A case measures its op in a `for b.Loop() { ... }` loop,
// which returns false once enough ops have run: there is no N to read (count ops yourself
// when a metric needs the number). The setup before the first Loop is not measured.
type B interface {
	TB
	// Loop reports whether to run the op once more.
	Loop() bool
	// ResetTimer zeroes the elapsed time and allocation counts.
	ResetTimer()
	// StartTimer and StopTimer bracket what is measured; the timer runs when the body starts.
	StartTimer()
	StopTimer()
	// ReportAllocs asks for allocations per op (the harness always counts them).
	ReportAllocs()
	// ReportMetric adds a figure to the result, for example frames/s or drops.
	ReportMetric(n float64, unit string)
	// SetBytes records the bytes processed per op, reported as MB/s.
	SetBytes(n int64)
	// Elapsed is the measured time so far.
	Elapsed() time.Duration
}

// Case is one benchmark.
type Case struct {
	// Name is a slash-separated path, for example "world/step/ks0223/1000".
	Name string
	// Baseline is the Name of the case this one is compared against, or "".
	Baseline string
	// Doc says in one line what is measured.
	Doc string
	// F is the benchmark body.
	F func(b B)
}

var (
	mu    sync.Mutex
	cases = map[string]Case{}
)

// Register adds a case. It panics on an empty or duplicate name, or a nil F: both are
// programming errors found at init.
func Register(c Case) {
	if c.Name == "" || c.F == nil {
		panic("bench: Register needs a Name and F")
	}
	mu.Lock()
	defer mu.Unlock()
	if _, dup := cases[c.Name]; dup {
		panic("bench: duplicate case " + c.Name)
	}
	cases[c.Name] = c
}

// Cases returns the registered cases sorted by name.
func Cases() []Case {
	mu.Lock()
	defer mu.Unlock()
	out := make([]Case, 0, len(cases))
	for _, c := range cases {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// RunAll runs every registered case as a sub-benchmark: the `go test -bench` adapter of a
// benchmark package is
//
//	func BenchmarkCases(b *testing.B) { bench.RunAll(b.Run) }
//
// (run is (*testing.B).Run, whose argument type T is *testing.B, a B).
func RunAll[T B](run func(name string, f func(T)) bool) {
	for _, c := range Cases() {
		run(c.Name, func(b T) { c.F(b) })
	}
}
