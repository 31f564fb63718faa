package render

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl64"

	"simgui/plugins"
)

// EachTriangle calls fn with each triangle of m: its corners in m's frame, counterclockwise
// seen from outside, and its flat-look colour. It is for other programs' viewers (the 3D
// panel of a recording's reader), which draw the same shapes.
func (m *Mesh) EachTriangle(fn func(a, b, c mgl64.Vec3, col RGB)) {
	for i := range m.tris {
		t := &m.tris[i]
		fn(vec64(m.verts[t.v[0]]), vec64(m.verts[t.v[1]]), vec64(m.verts[t.v[2]]), t.col)
	}
}

// LayoutTriangles calls fn with each triangle of the layout's floor and its fixed elements
// (not the movable boxes) in the world frame, in their flat-look colours; a textured floor
// takes its texture's mean colour.
func LayoutTriangles(l *plugins.Layout, fn func(a, b, c mgl64.Vec3, col RGB)) error {
	var b MeshBuilder
	if f := l.Floor; f.Length > 0 && f.Width > 0 {
		c, err := colorOr(f.Color, colorFloor)
		if err == nil && f.Texture != "" {
			var t *Texture
			if t, _, err = materialTexture(l, f.Texture, f.Color, 0); err == nil {
				top := t.levels[len(t.levels)-1] // 1×1: the mean
				c = top.texels[0]
			}
		}
		if err != nil {
			return fmt.Errorf("floor: %w", err)
		}
		x0, y0, x1, y1 := f.X-f.Length/2, f.Y-f.Width/2, f.X+f.Length/2, f.Y+f.Width/2
		b.Quad(mgl64.Vec3{x0, y0, 0}, mgl64.Vec3{x1, y0, 0}, mgl64.Vec3{x1, y1, 0}, mgl64.Vec3{x0, y1, 0}, c)
	}
	for i := range l.Elements {
		e := &l.Elements[i]
		if e.Movable {
			continue
		}
		if err := buildElement(&b, e); err != nil {
			return fmt.Errorf("element %d %s: %w", i, elementName(e), err)
		}
	}
	b.Mesh().EachTriangle(fn)
	return nil
}
