package renderbench

import (
	"testing"

	"simgui/app/bench"
)

// BenchmarkCases runs this package's `simgui bench` cases, for example
// go test -run '^$' -bench "Cases/render/rgb/640x480" -cpu 1 ./render/renderbench.
func BenchmarkCases(b *testing.B) { bench.RunAll(b.Run) }
