package window

import (
	"image"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"simgui/app/window/clipboard"
	"simgui/app/window/lineedit"
)

// prompt asks for a file path: it is typed (always possible) or chosen with the native dialog
// (Browse…), which can be missing or blocked, so it never is the only way. The keys are
// lineedit's (Ctrl+A selects all, Ctrl+U clears to the start, Ctrl+V pastes, Esc cancels). A prompt that
// saves asks before it overwrites a file: Enter (or Replace) a second time does.
type prompt struct {
	title  string
	req    FileRequest
	line   lineedit.Line
	submit func(path string)
	browse button
	ok     button
	box    image.Rectangle
	field  image.Rectangle
	// waiting is set while the native dialog is open; chosen once it gave a path.
	waiting, chosen bool
	// confirm is the path of an existing file a save prompt would overwrite, after a first
	// Enter; a second Enter with the same path overwrites it.
	confirm string
	note    string // a line under the field: why nothing happened yet
	// warn takes the note's line while there is no note: what Enter will also do. Unlike a
	// note it stays while the path is typed (Open's "replaces the robots spawned here" went
	// with the first key, before the Enter it warned of).
	warn  string
	blink time.Time
	// inFolder, when set, names the file a folder typed stands for ("" for none): Enter then
	// puts that file in the field, saying so, and a second Enter submits it.
	inFolder func(dir string) string
}

// newPrompt opens a prompt holding initial, selected, so that typing replaces it.
func newPrompt(title string, req FileRequest, initial string, submit func(string)) *prompt {
	p := &prompt{title: title, req: req, submit: submit, blink: time.Now()}
	p.line.Clip = clipboard.System{}
	p.line.SetText(initial)
	p.line.SelectAll()
	return p
}

// update handles typing and clicks; it returns false when the prompt is finished (submitted
// or cancelled). files opens the native dialog.
func (p *prompt) update(in lineedit.Input, files func(FileRequest, func(string))) bool {
	changed, act := p.line.Apply(in)
	if changed {
		p.confirm, p.note = "", ""
		p.blink = time.Now()
	}
	switch act {
	case lineedit.Cancel:
		return false
	case lineedit.Submit:
		return p.done()
	}
	if p.chosen {
		// A file chosen in the dialog is the user's answer: no second Enter.
		p.chosen = false
		return p.done()
	}
	if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) {
		x, y := ebiten.CursorPosition()
		switch {
		case image.Pt(x, y).In(p.ok.r):
			return p.done()
		case image.Pt(x, y).In(p.browse.r) && !p.waiting:
			p.openDialog(files)
		case image.Pt(x, y).In(p.field):
			p.line.MoveTo(p.caretAt(x))
		}
	}
	return true
}

// openDialog opens the native file dialog; a path chosen there is submitted at the next
// update, as if typed and entered. The dialog asks before a save overwrites a file, so the
// prompt does not ask again.
func (p *prompt) openDialog(files func(FileRequest, func(string))) {
	p.waiting = true
	files(p.req, func(path string) {
		p.waiting = false
		if path != "" {
			p.line.SetText(path)
			p.confirm, p.note = "", ""
			if p.req.Save {
				p.confirm = p.path()
			}
			p.chosen = true
		}
	})
}

// path is the typed path, with a leading ~ for the home folder. Spaces around it are
// dropped: a path pasted with a space after it was not found, and a save wrote a file whose
// name ended in a space.
func (p *prompt) path() string {
	path := strings.TrimSpace(p.line.Text())
	if len(path) > 1 && path[0] == '~' {
		if home, err := os.UserHomeDir(); err == nil {
			path = filepath.Join(home, path[1:])
		}
	}
	return path
}

// done submits the path unless there is none, or it names a file a save would overwrite and
// has not been confirmed; it reports whether the prompt stays open.
func (p *prompt) done() bool {
	path := p.path()
	if path == "" {
		p.note = "type a path first (Esc cancels)"
		return true
	}
	if p.inFolder != nil {
		if f := p.inFolder(path); f != "" {
			p.line.SetText(f)
			p.note = path + " is a folder: Enter opens " + filepath.Base(f) + " in it"
			return true
		}
	}
	if p.req.Save && p.confirm != path {
		if st, err := os.Stat(path); err == nil {
			if st.IsDir() {
				p.note = path + " is a folder: type a file name"
				return true
			}
			p.confirm = path
			p.note = filepath.Base(path) + " exists: Enter or Replace overwrites it; change the path to keep it"
			return true
		}
	}
	p.submit(path)
	return false
}

// layout places the prompt across the bottom of a w×h window, above the toolbar (bar pixels
// high).
func (p *prompt) layout(w, h, bar int) {
	y := h - bar - 88
	p.box = image.Rect(40, y, w-40, y+80)
	p.field = image.Rect(p.box.Min.X+10, y+28, p.box.Max.X-200, y+52)
	label := "Browse…"
	if p.waiting {
		label = "dialog open…"
	}
	ok := "OK"
	if p.confirm != "" {
		ok = "Replace"
	}
	bs := []button{{label: label}, {label: ok}}
	layoutRow(bs, p.field.Max.X+10, p.field.Min.Y, p.field.Dy())
	p.browse, p.ok = bs[0], bs[1]
}

// visible returns the part of the text the field shows, as a range of characters, keeping the
// caret in view.
func (p *prompt) visible() (from, to int) {
	text := []rune(p.line.Text())
	room := float32(p.field.Dx() - 16)
	from = 0
	for from < p.line.Caret() && textWidth(string(text[from:p.line.Caret()])) > room {
		from++
	}
	to = len(text)
	for to > p.line.Caret() && textWidth(string(text[from:to])) > room {
		to--
	}
	return from, to
}

// caretAt is the caret position under window x in the field.
func (p *prompt) caretAt(x int) int {
	from, to := p.visible()
	text := []rune(p.line.Text())
	x0 := float32(p.field.Min.X + 6)
	for i := from; i < to; i++ {
		if float32(x) < x0+textWidth(string(text[from:i]))+textWidth(string(text[i]))/2 {
			return i
		}
	}
	return to
}

// draw draws the prompt where layout placed it.
func (p *prompt) draw(dst *ebiten.Image, b *batch) {
	r, f := p.box, p.field
	b.rect(float32(r.Min.X), float32(r.Min.Y), float32(r.Dx()), float32(r.Dy()), rgba{0.10, 0.12, 0.16, 0.96})
	b.frame(float32(r.Min.X), float32(r.Min.Y), float32(r.Dx()), float32(r.Dy()), 1, rgba{0.4, 0.55, 0.8, 1})
	b.rect(float32(f.Min.X), float32(f.Min.Y), float32(f.Dx()), float32(f.Dy()), rgba{0.02, 0.02, 0.03, 1})
	text := []rune(p.line.Text())
	from, to := p.visible()
	x0, ty := float32(f.Min.X+6), float32(f.Min.Y+4)
	at := func(i int) float32 { return x0 + textWidth(string(text[from:i])) }
	if s0, s1 := p.line.Selection(); s0 != s1 {
		a, z := max(s0, from), min(s1, to)
		b.rect(at(a), ty+1, at(z)-at(a), lineHeight, rgba{0.22, 0.45, 0.75, 0.9})
	}
	if (time.Since(p.blink)/(500*time.Millisecond))%2 == 0 {
		b.rect(at(p.line.Caret()), ty+1, 1, lineHeight, rgba{0.92, 0.93, 0.95, 1})
	}
	b.draw(dst)
	// Cut to the box, as the note is: in a small window the whole line ran past its border.
	drawText(dst, fitText(p.title+" — type a path and press Enter (Esc cancels, Ctrl+U clears), or Browse…", p.noteWidth()),
		float32(r.Min.X+10), float32(r.Min.Y+6), textColor)
	drawText(dst, string(text[from:to]), x0, ty, textColor)
	if note := p.shownNote(); note != "" {
		// Cut to the box: a failed open's reason can be long (the status line above then
		// has it whole; see noteCut).
		drawText(dst, fitText(note, p.noteWidth()), float32(r.Min.X+10), float32(f.Max.Y+4), noteColor)
	}
	drawButtons(dst, b, []button{p.browse, p.ok})
}

// shownNote is the line under the field: the note, else the warning.
func (p *prompt) shownNote() string {
	if p.note != "" {
		return p.note
	}
	return p.warn
}

// noteWidth is the width the note's line has.
func (p *prompt) noteWidth() float32 { return float32(p.box.Dx() - 20) }

// noteCut reports whether the note is longer than its line shows.
func (p *prompt) noteCut() bool { return fitText(p.note, p.noteWidth()) != p.note }
