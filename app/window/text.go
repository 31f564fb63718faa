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

// fitText returns s, or its longest start that fits width pixels with "…" after it ("" when
// none does). The start is found by halving: a start grows no narrower with a rune more.
// Trying one length after another, from the longest down, measured a whole start each time:
// the HUD's world line of a training episode of 10,000 agents (69 KB, naming every agent) took
// longer than a frame, and allocated gigabytes a second, so the window neither drew nor closed.
func fitText(s string, width float32) string { return fitWith(s, width, textWidth) }

// fitWith is fitText with measure for textWidth.
func fitWith(s string, width float32, measure func(string) float32) string {
	if measure(s) <= width {
		return s
	}
	r := []rune(s)
	// lo fits (or is 0), hi does not: len(r) itself is too wide even without the "…".
	lo, hi := 0, len(r)
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if measure(string(r[:mid])+"…") <= width {
			lo = mid
		} else {
			hi = mid
		}
	}
	if lo == 0 {
		return ""
	}
	return string(r[:lo]) + "…"
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
