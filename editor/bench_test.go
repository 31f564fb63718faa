package editor

import (
	"strings"
	"testing"

	"simgui/app/bench"
)

// BenchmarkEditor runs the cases registered for `simgui bench`, for example
// go test -run '^$' -bench 'Editor/editor/check' ./editor.
func BenchmarkEditor(b *testing.B) {
	for _, c := range bench.Cases() {
		if strings.HasPrefix(c.Name, "editor/") {
			b.Run(c.Name, c.F)
		}
	}
}
