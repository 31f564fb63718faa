package worldbench

import (
	"testing"

	"simgui/app/bench"
)

// BenchmarkCases runs this package's `simgui bench` cases, for example
// go test -run '^$' -bench 'Cases/world/step/ks0223/100$' ./app/world/worldbench.
func BenchmarkCases(b *testing.B) { bench.RunAll(b.Run) }
