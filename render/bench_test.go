package render

import (
	"strings"
	"testing"

	"simgui/app/bench"
)

// BenchmarkRender runs the cases registered for `simgui bench`, for example
// go test -bench 'Render/render/rgb/640x480' -cpu 1.
func BenchmarkRender(b *testing.B) {
	for _, c := range bench.Cases() {
		if strings.HasPrefix(c.Name, "render/") {
			b.Run(c.Name, c.F)
		}
	}
}
