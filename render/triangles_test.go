package render

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"simgui/plugins"
)

// LayoutTriangles gives the floor (its texture's mean colour) and each fixed element in the
// world frame, the movable boxes left out.
func TestLayoutTriangles(t *testing.T) {
	l := &plugins.Layout{
		Floor: plugins.Floor{X: 1, Y: 0, Length: 4, Width: 2, Texture: "plywood"},
		Elements: []plugins.Element{
			{Kind: plugins.ElementWall, X: 1, Y: 1, Length: 4, Width: 0.02, Height: 0.25, YawDeg: 0},
			{Kind: plugins.ElementBox, X: 0, Y: 0, Length: 0.1, Width: 0.1, Height: 0.1, Movable: true, Mass: 0.2},
		},
	}
	counts := map[RGB]int{}
	lo, hi := mgl64.Vec3{math.Inf(1), math.Inf(1), math.Inf(1)}, mgl64.Vec3{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	err := LayoutTriangles(l, func(a, b, c mgl64.Vec3, col RGB) {
		counts[col]++
		for _, p := range []mgl64.Vec3{a, b, c} {
			for k := range 3 {
				lo[k], hi[k] = min(lo[k], p[k]), max(hi[k], p[k])
			}
		}
		if n := b.Sub(a).Cross(c.Sub(a)); n.Len() == 0 {
			t.Errorf("a degenerate triangle %v %v %v", a, b, c)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	tex, _, err := materialTexture(l, "plywood", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	mean := tex.levels[len(tex.levels)-1].texels[0]
	if counts[mean] != 2 || counts[colorCardboard] != 12 || len(counts) != 2 {
		t.Errorf("triangles by colour %v: want the floor's 2 in the plywood's mean %v and the wall's 12 in cardboard", counts, mean)
	}
	// The floor from x -1 to 3, y -1 to 1; the wall up to 0.25 m, 1 cm past y = 1.
	if lo != (mgl64.Vec3{-1, -1, 0}) || math.Abs(hi[0]-3) > 1e-6 || math.Abs(hi[1]-1.01) > 1e-6 || math.Abs(hi[2]-0.25) > 1e-6 {
		t.Errorf("triangles span %v to %v", lo, hi)
	}
	if err := LayoutTriangles(&plugins.Layout{Elements: []plugins.Element{{Kind: plugins.ElementWall}}}, func(a, b, c mgl64.Vec3, col RGB) {}); err == nil {
		t.Error("a wall of no size was drawn")
	}
}
