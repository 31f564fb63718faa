package lidarbench

import (
	"testing"

	"simgui/app/bench"
)

// BenchmarkCases runs this package's `simgui bench` cases, for example
// go test -run '^$' -bench 'Cases/sensors/lidar' ./app/sensors/lidar/lidarbench.
func BenchmarkCases(b *testing.B) { bench.RunAll(b.Run) }
