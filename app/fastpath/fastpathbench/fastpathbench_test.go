package fastpathbench

import (
	"testing"

	_ "simgui/app/api/apibench" // the baseline of fastpath/step/1
	"simgui/app/bench"
)

// BenchmarkCases runs this package's `simgui bench` cases, for example
// go test -run '^$' -bench 'Cases/fastpath/step/16$' ./app/fastpath/fastpathbench.
func BenchmarkCases(b *testing.B) { bench.RunAll(b.Run) }
