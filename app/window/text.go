package window

import (
	"image/color"
	"sync"

	"github.com/hajimehoshi/bitmapfont/v4"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
)

// lineHeight is the height of one line of text in pixels (the bitmap font is 12 px on a
// 16 px line).
const lineHeight = 16

// face is the window's one font: Ebiten's 12 px bitmap font, crisp at any size of window and
// cheap to draw (glyphs are cached images).
var face = sync.OnceValue(func() text.Face { return text.NewGoXFace(bitmapfont.Face) })

// textWidth returns the advance of s in pixels.
func textWidth(s string) float32 { return float32(text.AdvanceAt(s, len(s), face())) }

// fitText returns s, or its longest start that fits width pixels with "…" after it.
func fitText(s string, width float32) string {
	if textWidth(s) <= width {
		return s
	}
	r := []rune(s)
	for n := len(r) - 1; n > 0; n-- {
		if t := string(r[:n]) + "…"; textWidth(t) <= width {
			return t
		}
	}
	return ""
}

// drawText draws s with its top-left corner at (x, y).
func drawText(dst *ebiten.Image, s string, x, y float32, c color.Color) {
	op := &text.DrawOptions{}
	op.GeoM.Translate(float64(x), float64(y)+2)
	op.ColorScale.ScaleWithColor(c)
	op.LineSpacing = lineHeight
	text.Draw(dst, s, face(), op)
}

// Text colours.
var (
	textColor = color.NRGBA{235, 238, 242, 255}
	dimColor  = color.NRGBA{160, 168, 178, 255}
	noteColor = color.NRGBA{250, 210, 110, 255}
	panelBG   = rgba{0.07, 0.08, 0.10, 0.92}
)
