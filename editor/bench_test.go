package editor

import (
	"testing"

	"simgui/app/bench"
)

// BenchmarkEditor runs the cases registered for `simgui bench`, for example
// go test -run '^$' -bench 'Editor/editor/check' ./editor.
func BenchmarkEditor(b *testing.B) { bench.RunAll(b.Run) }
