package editor

import (
	"image"
	"image/color"
	"time"

	"github.com/ebitengine/debugui"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"simgui/app/window/lineedit"
)

// Text fields are the editor's own, not debugui's: debugui's text field reads the system's
// input method a frame at a time, which lost and repeated keys when frames came slowly. Here a
// field is a debugui button (for the click, which debugui routes to the window on top) drawn
// over with the text, and typing goes through lineedit, which reads every character once at
// any frame rate. One field has the keyboard at a time: a click gives it, Tab and Shift+Tab
// move it in layout order, Enter and Esc (or a click elsewhere) take it away.

// fields is the text field state of an editor.
type fields struct {
	kb    lineedit.Keyboard
	in    lineedit.Input // this tick's keys, applied by the focused field as it is laid out
	typed []rune         // this tick's characters while no field has the keyboard, for a click (endFields)
	focus string         // target name of the focused field, "" for none
	line  lineedit.Line  // its text while focused
	wrote string         // the text the field last wrote to its value
	from  int            // first character shown, so that the caret stays in view
	blink time.Time
	// order lists this frame's fields in layout order; move is the focus move asked for
	// (lineedit.Next or Prev) and claimed reports that a field took this tick's click.
	order   []string
	move    lineedit.Action
	claimed bool
	// click is the field clicked this tick, which takes the keyboard after the layout: the
	// keys of the tick were typed before the click, into the field that had it.
	click *fieldClick
}

// fieldClick is a click on a text field: its target name, its text and the pointer's x as
// offset from the field's first character.
type fieldClick struct {
	name, value string
	x           int
}

var (
	fieldColor      = color.NRGBA{30, 30, 30, 255}
	fieldFocusColor = color.NRGBA{20, 24, 32, 255}
	fieldFrameColor = color.NRGBA{90, 140, 220, 255}
	fieldTextColor  = color.NRGBA{230, 230, 230, 255}
	fieldHintColor  = color.NRGBA{115, 115, 115, 255}
	fieldSelColor   = color.NRGBA{56, 115, 190, 255}
)

// fieldPad is the space between a field's edge and its text, pixels.
const fieldPad = 5

// beginFields reads this tick's keys for the focused field (or, none focused, its characters
// for a field clicked in it). Update, before the layout.
func (e *Editor) beginFields(now time.Time) {
	f := &e.fields
	f.in, f.typed = lineedit.Input{}, f.typed[:0]
	// The keyboard is read whether a field has it or not: a slow frame (a loaded machine, a
	// preview being drawn) can hold a click on a field and the keys typed just after it, and
	// those keys, read only once a field had the keyboard, were lost (the start of a path
	// typed into the open field).
	in := f.kb.Read(now)
	if f.focus != "" {
		f.in = in
	} else {
		f.typed = append(f.typed, in.Runes...)
	}
	f.order, f.move, f.claimed, f.click = f.order[:0], lineedit.None, false, nil
}

// endFields gives the keyboard to the field clicked, or moves it as asked (Tab), and drops
// it on a click that no field took. Update, after the layout.
func (e *Editor) endFields() {
	f := &e.fields
	if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) && !f.claimed {
		f.focus = ""
	}
	if c := f.click; c != nil {
		if f.focus != c.name {
			f.focus, f.wrote, f.from = c.name, c.value, 0
			f.line.SetText(c.value)
		}
		f.line.MoveTo(f.from + (c.x+charWidth/2)/charWidth)
		f.blink = time.Now()
		// Typed with the click, while no field had the keyboard: into the field clicked, which
		// writes its value as it is laid out next (f.wrote stays the value it has now).
		f.line.Apply(lineedit.Input{Runes: f.typed})
		return
	}
	if f.move == lineedit.None || len(f.order) == 0 {
		return
	}
	i := 0
	for j, name := range f.order {
		if name == f.focus {
			i = j
		}
	}
	if f.move == lineedit.Next {
		i = (i + 1) % len(f.order)
	} else {
		i = (i - 1 + len(f.order)) % len(f.order)
	}
	f.focus = f.order[i]
	f.wrote = e.values[f.focus]
	f.line.SetText(f.wrote)
	f.line.SelectAll()
	f.from = 0
}

// field is a text field for the value at path (a validator path such as descriptor.id). It
// reports whether Enter was pressed in it this tick, for a field whose button Enter stands for.
func (e *Editor) field(ctx *debugui.Context, path string, buf *string) bool {
	return e.fieldHint(ctx, path, buf, "")
}

// pointedAt reports whether the pointer is over target name (a field drawn this frame).
func (e *Editor) pointedAt(name string) bool {
	r, ok := e.targets[name]
	return ok && e.under(r)
}

// fieldHint is field showing hint, dimmed, while it is empty and not being typed in (a
// parameter's default, which an empty field stands for).
func (e *Editor) fieldHint(ctx *debugui.Context, path string, buf *string, hint string) (entered bool) {
	f := &e.fields
	name := "field:" + path
	f.order = append(f.order, name)
	if f.focus == name {
		if *buf != f.wrote { // changed from outside (Browse..., a new plugin)
			f.line.SetText(*buf)
		}
		changed, act := f.line.Apply(f.in)
		f.in = lineedit.Input{} // one field takes the keys
		if changed {
			f.blink = time.Now()
		}
		*buf = f.line.Text()
		f.wrote = *buf
		switch act {
		case lineedit.Submit:
			f.focus, entered = "", true
		case lineedit.Cancel:
			f.focus = ""
		case lineedit.Next, lineedit.Prev:
			f.move = act
		}
	}
	e.values[name] = *buf
	value := *buf
	ctx.IDScope(name, func() {
		ctx.GridCell(func(b image.Rectangle) {
			if v := b.Intersect(e.clip); !v.Empty() {
				e.targets[name] = v
			}
			if e.atGoTo(name, b) && e.goFocus { // a problem's "go": the field takes the keyboard, its text selected
				e.goFocus = false
				f.focus, f.wrote, f.from = name, value, 0
				f.line.SetText(value)
				f.line.SelectAll()
			}
			ctx.SetGridLayout([]int{-1, 1}, []int{b.Dy()})
			ctx.Button("").On(func() {
				if !e.under(b) {
					return
				}
				x, _ := ebiten.CursorPosition()
				f.claimed, f.click = true, &fieldClick{name: name, value: value, x: x - b.Min.X - fieldPad}
			})
			focused := f.focus == name
			var caret, s0, s1 int
			if focused {
				caret = f.line.Caret()
				s0, s1 = f.line.Selection()
				room := max(1, (b.Dx()-2*fieldPad)/charWidth)
				f.from = min(f.from, caret)
				if caret-f.from > room {
					f.from = caret - room
				}
			}
			from := 0
			if focused {
				from = f.from
			}
			blink := f.blink
			ctx.DrawOnlyWidget(func(dst *ebiten.Image) {
				drawField(dst, b, value, focused, from, caret, s0, s1, blink)
				if value == "" && !focused && hint != "" {
					op := &text.DrawOptions{}
					op.GeoM.Translate(float64(b.Min.X+fieldPad), float64(b.Min.Y+(b.Dy()-lineH)/2))
					op.ColorScale.ScaleWithColor(fieldHintColor)
					debugui.DrawText(dst.SubImage(b.Inset(1).Intersect(dst.Bounds())).(*ebiten.Image), hint, op)
				}
			})
		})
	})
	return entered
}

// drawField draws a field's box and text over the button debugui drew in r (dst is clipped to
// the window's body).
func drawField(dst *ebiten.Image, r image.Rectangle, value string, focused bool, from, caret, s0, s1 int, blink time.Time) {
	bg := fieldColor
	if focused {
		bg = fieldFocusColor
	}
	x, y, w, h := float32(r.Min.X), float32(r.Min.Y), float32(r.Dx()), float32(r.Dy())
	vector.FillRect(dst, x, y, w, h, bg, false)
	if focused {
		vector.StrokeRect(dst, x+0.5, y+0.5, w-1, h-1, 1, fieldFrameColor, false)
	}
	in := dst.SubImage(r.Inset(1).Intersect(dst.Bounds())).(*ebiten.Image)
	runes := []rune(value)
	from = min(from, len(runes))
	tx := float32(r.Min.X + fieldPad)
	ty := float32(r.Min.Y + (r.Dy()-lineH)/2)
	at := func(i int) float32 { return tx + float32((i-from)*charWidth) }
	if focused && s0 != s1 {
		a, z := max(s0, from), s1
		vector.FillRect(in, at(a), ty, at(z)-at(a), lineH, fieldSelColor, false)
	}
	op := &text.DrawOptions{}
	op.GeoM.Translate(float64(tx), float64(ty))
	op.ColorScale.ScaleWithColor(fieldTextColor)
	debugui.DrawText(in, string(runes[from:]), op)
	if focused && (time.Since(blink)/(500*time.Millisecond))%2 == 0 {
		vector.FillRect(in, at(caret), ty, 1, lineH, fieldTextColor, false)
	}
}

// lineH is the height of a line of debugui's font, pixels.
const lineH = 12
