package timelinebench

import (
	"testing"

	"simgui/app/bench"
)

// BenchmarkCases runs this package's `simgui bench` cases, for example
// go test -run '^$' -bench 'Cases/timeline/step' ./app/systems/timeline/timelinebench.
func BenchmarkCases(b *testing.B) { bench.RunAll(b.Run) }
