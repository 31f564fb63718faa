package trackgen

import (
	"testing"

	"simgui/plugins"
)

// BenchmarkBuild measures one episode's layout per built-in track at its defaults (the maze
// at its largest), the work a reset does when it rebuilds the track.
func BenchmarkBuild(b *testing.B) {
	cases := map[string]map[string]any{
		"track.basic_arena.v1":          nil,
		"track.cardboard_corridor.v1":   {"length": 2, "width": 0.6},
		"track.maze.v1":                 {"rows": 30, "cols": 30},
		"track.roadsystem_arena.v1":     nil,
		"track.roadsystem_realistic.v2": nil,
	}
	for _, id := range plugins.Builtin().Tracks() {
		tr, _ := plugins.Builtin().Track(id)
		b.Run(id, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				if _, err := Build(tr, cases[id], int64(i)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
