package bridgebench

import (
	"testing"

	"simgui/app/bench"
)

// BenchmarkCases runs this package's `simgui bench` cases, for example
// go test -run '^$' -bench 'Cases/bridge/8-cameras' ./app/bridge/bridgebench.
func BenchmarkCases(b *testing.B) { bench.RunAll(b.Run) }
