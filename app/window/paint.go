package window

import (
	"image"
	"image/color"
	"math"
	"sync"

	"github.com/hajimehoshi/ebiten/v2"
)

// rgba is a straight-alpha colour with components in [0, 1], as ebiten.Vertex takes it.
type rgba struct{ R, G, B, A float32 }

func rgb8(r, g, b uint8) rgba { return rgba{float32(r) / 255, float32(g) / 255, float32(b) / 255, 1} }

func fromNRGBA(c color.NRGBA) rgba {
	return rgba{float32(c.R) / 255, float32(c.G) / 255, float32(c.B) / 255, float32(c.A) / 255}
}

// white is the 1×1 source of every solid triangle: a sub-image of a 3×3 white image, so that
// sampling never reaches a neighbour in Ebiten's texture atlas. Made on first use: no image is
// created before the game runs.
var white = sync.OnceValue(func() *ebiten.Image {
	img := ebiten.NewImage(3, 3)
	img.Fill(color.White)
	return img.SubImage(image.Rect(1, 1, 2, 2)).(*ebiten.Image)
})

// batch collects solid-colour triangles in screen pixels and draws them in one call. Shapes
// are added in drawing order; later ones cover earlier ones.
type batch struct {
	vs []ebiten.Vertex
	is []uint32
}

func (b *batch) reset() { b.vs, b.is = b.vs[:0], b.is[:0] }

func (b *batch) vertex(x, y float32, c rgba) uint32 {
	b.vs = append(b.vs, ebiten.Vertex{DstX: x, DstY: y, SrcX: 1.5, SrcY: 1.5, ColorR: c.R, ColorG: c.G, ColorB: c.B, ColorA: c.A})
	return uint32(len(b.vs) - 1)
}

// tri adds one triangle.
func (b *batch) tri(x0, y0, x1, y1, x2, y2 float32, c rgba) {
	i := b.vertex(x0, y0, c)
	b.vertex(x1, y1, c)
	b.vertex(x2, y2, c)
	b.is = append(b.is, i, i+1, i+2)
}

// quad adds a convex quadrilateral given in order around its edge.
func (b *batch) quad(x0, y0, x1, y1, x2, y2, x3, y3 float32, c rgba) {
	i := b.vertex(x0, y0, c)
	b.vertex(x1, y1, c)
	b.vertex(x2, y2, c)
	b.vertex(x3, y3, c)
	b.is = append(b.is, i, i+1, i+2, i, i+2, i+3)
}

// rect adds an axis-aligned rectangle.
func (b *batch) rect(x, y, w, h float32, c rgba) { b.quad(x, y, x+w, y, x+w, y+h, x, y+h, c) }

// frame adds the outline of an axis-aligned rectangle, t pixels thick, inside it.
func (b *batch) frame(x, y, w, h, t float32, c rgba) {
	b.rect(x, y, w, t, c)
	b.rect(x, y+h-t, w, t, c)
	b.rect(x, y+t, t, h-2*t, c)
	b.rect(x+w-t, y+t, t, h-2*t, c)
}

// line adds a segment w pixels wide.
func (b *batch) line(x0, y0, x1, y1, w float32, c rgba) {
	dx, dy := x1-x0, y1-y0
	l := float32(math.Hypot(float64(dx), float64(dy)))
	if l == 0 {
		return
	}
	nx, ny := -dy/l*w/2, dx/l*w/2
	b.quad(x0+nx, y0+ny, x1+nx, y1+ny, x1-nx, y1-ny, x0-nx, y0-ny, c)
}

// circle adds a filled circle, with segments chosen from its radius in pixels.
func (b *batch) circle(cx, cy, r float32, c rgba) {
	n := int(min(max(r/2, 8), 48))
	b.fan(cx, cy, r, 0, 2*math.Pi, n, c)
}

// fan adds a circular sector from angle a0 to a1 (radians, counter-clockwise on screen means
// negative y) as n triangles around (cx, cy).
func (b *batch) fan(cx, cy, r float32, a0, a1 float64, n int, c rgba) {
	centre := b.vertex(cx, cy, c)
	for k := 0; k <= n; k++ {
		a := a0 + (a1-a0)*float64(k)/float64(n)
		b.vertex(cx+r*float32(math.Cos(a)), cy-r*float32(math.Sin(a)), c)
		if k > 0 {
			v := centre + uint32(k)
			b.is = append(b.is, centre, v, v+1)
		}
	}
}

// ring adds the outline of a circle, w pixels wide.
func (b *batch) ring(cx, cy, r, w float32, c rgba) {
	n := int(min(max(r/2, 12), 64))
	for k := 0; k < n; k++ {
		a0 := 2 * math.Pi * float64(k) / float64(n)
		a1 := 2 * math.Pi * float64(k+1) / float64(n)
		s0, c0 := math.Sincos(a0)
		s1, c1 := math.Sincos(a1)
		ri, ro := r-w/2, r+w/2
		b.quad(cx+ri*float32(c0), cy-ri*float32(s0), cx+ro*float32(c0), cy-ro*float32(s0),
			cx+ro*float32(c1), cy-ro*float32(s1), cx+ri*float32(c1), cy-ri*float32(s1), c)
	}
}

// draw draws the batch onto dst and empties it.
func (b *batch) draw(dst *ebiten.Image) {
	if len(b.is) > 0 {
		dst.DrawTriangles32(b.vs, b.is, white(), &ebiten.DrawTrianglesOptions{})
	}
	b.reset()
}
