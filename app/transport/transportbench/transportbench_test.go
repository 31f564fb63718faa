package transportbench

import (
	"testing"

	"simgui/app/bench"
)

// BenchmarkCases runs this package's `simgui bench` cases, for example
// go test -run '^$' -bench 'Cases/transport/publish/1sub' ./app/transport/transportbench.
func BenchmarkCases(b *testing.B) { bench.RunAll(b.Run) }
