package trackgen

import (
	"strings"
	"testing"

	"simgui/plugins"
)

// A generator's descriptor floor is checked for what the generator reads of it, and what it
// does not read is a warning: a roads track sized its floor only to pass validation, and a
// maze's floor was silently dropped.
func TestFloorIsCheckedForWhatTheGeneratorReads(t *testing.T) {
	m, err := plugins.Builtin().Manifest("track.roadsystem_arena.v1")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, generator string
		floor           plugins.Floor
		want            string // "" for no problem; else a problem's path and message part
		warning         bool
	}{
		{"roads, look only", Roads, plugins.Floor{Texture: "grass"}, "", false},
		{"roads, sized", Roads, plugins.Floor{Length: 5, Width: 5, Texture: "grass"},
			"descriptor.floor: the roads generator sizes and places the floor itself", true},
		{"roads, bad colour", Roads, plugins.Floor{Color: "green"}, `descriptor.floor.color: "green" is not #rrggbb`, false},
		{"maze", "maze", plugins.Floor{Texture: "grass"}, "descriptor.floor: the maze generator lays a floor of its own", true},
		{"static, no size", "static", plugins.Floor{Texture: "grass"}, "descriptor.floor.length: 0 is not positive", false},
		{"static, sized", "static", plugins.Floor{Length: 20, Width: 20}, "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := builtinTrack(t, "track.roadsystem_arena.v1")
			tr.Generator, tr.Floor = c.generator, &c.floor
			ps := plugins.ValidateTrack(&m, tr)
			if c.want == "" {
				if len(ps) > 0 {
					t.Fatalf("problems %v, want none", ps)
				}
				return
			}
			for _, p := range ps {
				if strings.Contains(p.String(), c.want) {
					if p.Warning != c.warning {
						t.Errorf("%v: warning %v, want %v", p, p.Warning, c.warning)
					}
					return
				}
			}
			t.Errorf("problems %v, want %q", ps, c.want)
		})
	}
}
