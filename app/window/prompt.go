package window

import (
	"image"
	"os"
	"path/filepath"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
)

// prompt asks for a file path: it is typed (always possible) or chosen with the native dialog
// (Browse…), which can be missing or blocked, so it never is the only way.
type prompt struct {
	title  string
	req    FileRequest
	text   []rune
	submit func(path string)
	browse button
	ok     button
	box    image.Rectangle
	field  image.Rectangle
	// waiting is set while the native dialog is open.
	waiting bool
	blink   time.Time
}

func newPrompt(title string, req FileRequest, initial string, submit func(string)) *prompt {
	return &prompt{title: title, req: req, text: []rune(initial), submit: submit, blink: time.Now()}
}

// update handles typing; it returns false when the prompt is finished (submitted or
// cancelled). files opens the native dialog.
func (p *prompt) update(files func(FileRequest, func(string))) bool {
	if inpututil.IsKeyJustPressed(ebiten.KeyEscape) {
		return false
	}
	p.text = ebiten.AppendInputChars(p.text)
	if repeat(ebiten.KeyBackspace) && len(p.text) > 0 {
		p.text = p.text[:len(p.text)-1]
	}
	if inpututil.IsKeyJustPressed(ebiten.KeyEnter) || inpututil.IsKeyJustPressed(ebiten.KeyNumpadEnter) {
		return p.done()
	}
	if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) {
		x, y := ebiten.CursorPosition()
		switch {
		case image.Pt(x, y).In(p.ok.r):
			return p.done()
		case image.Pt(x, y).In(p.browse.r) && !p.waiting:
			p.waiting = true
			files(p.req, func(path string) {
				p.waiting = false
				if path != "" {
					p.text = []rune(path)
				}
			})
		}
	}
	return true
}

func (p *prompt) done() bool {
	if len(p.text) == 0 {
		return true
	}
	path := string(p.text)
	if len(path) > 1 && path[0] == '~' {
		if home, err := os.UserHomeDir(); err == nil {
			path = filepath.Join(home, path[1:])
		}
	}
	p.submit(path)
	return false
}

// repeat reports a key press and its auto-repeat (after 300 ms, every 50 ms).
func repeat(k ebiten.Key) bool {
	d := inpututil.KeyPressDuration(k)
	tps := ebiten.TPS()
	return d == 1 || (d > tps*3/10 && (d-tps*3/10)%(max(tps/20, 1)) == 0)
}

// layout places the prompt across the bottom of a w×h window, above the toolbar (bar pixels
// high).
func (p *prompt) layout(w, h, bar int) {
	y := h - bar - 70
	p.box = image.Rect(40, y, w-40, y+62)
	p.field = image.Rect(p.box.Min.X+10, y+28, p.box.Max.X-190, y+52)
	label := "Browse…"
	if p.waiting {
		label = "dialog open…"
	}
	bs := []button{{label: label}, {label: "OK"}}
	layoutRow(bs, p.field.Max.X+10, p.field.Min.Y, p.field.Dy())
	p.browse, p.ok = bs[0], bs[1]
}

// draw draws the prompt where layout placed it.
func (p *prompt) draw(dst *ebiten.Image, b *batch) {
	r, f := p.box, p.field
	b.rect(float32(r.Min.X), float32(r.Min.Y), float32(r.Dx()), float32(r.Dy()), rgba{0.10, 0.12, 0.16, 0.96})
	b.frame(float32(r.Min.X), float32(r.Min.Y), float32(r.Dx()), float32(r.Dy()), 1, rgba{0.4, 0.55, 0.8, 1})
	b.rect(float32(f.Min.X), float32(f.Min.Y), float32(f.Dx()), float32(f.Dy()), rgba{0.02, 0.02, 0.03, 1})
	b.draw(dst)
	drawText(dst, p.title+" — type a path and press Enter (Esc cancels), or Browse…", float32(r.Min.X+10), float32(r.Min.Y+6), textColor)
	s := string(p.text)
	for len(s) > 0 && textWidth(s) > float32(f.Dx()-16) { // show the end of a long path
		_, n := firstRune(s)
		s = s[n:]
	}
	if (time.Since(p.blink)/(500*time.Millisecond))%2 == 0 {
		s += "_"
	}
	drawText(dst, s, float32(f.Min.X+6), float32(f.Min.Y+4), textColor)
	drawButtons(dst, b, []button{p.browse, p.ok})
}

func firstRune(s string) (rune, int) {
	for i, r := range s {
		if i > 0 {
			return r, i
		}
	}
	return 0, len(s)
}
