package camerabench

import (
	"testing"

	"simgui/app/bench"
)

// BenchmarkCases runs this package's `simgui bench` cases, for example
// go test -run '^$' -bench 'Cases/sensors/camera' ./app/sensors/camera/camerabench.
func BenchmarkCases(b *testing.B) { bench.RunAll(b.Run) }
