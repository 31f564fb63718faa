package editor

import (
	"image"
	"slices"
	"strings"

	"github.com/ebitengine/debugui"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
)

// The editor's buttons, drop-downs and checkboxes are debugui's, with its stale hover
// guarded against (see under).

// under reports whether the pointer is on cell, and not on the window over it. debugui
// remembers the widget last hovered until a tick without a click passes over it: a pointer
// that moves to another button and clicks in one frame (as under load) makes both buttons
// report the click. Only the one under the pointer is acted on.
func (e *Editor) under(cell image.Rectangle) bool {
	p := image.Pt(ebiten.CursorPosition())
	return p.In(cell) && (e.inOverlay || !p.In(e.overlay))
}

// clicked is a click on the widget named name in cell: it records it and runs f after this
// frame's layout, unless the pointer is elsewhere (see under).
func (e *Editor) clicked(name string, cell image.Rectangle, f func()) {
	if !e.under(cell) {
		return
	}
	e.record.Pressed = append(e.record.Pressed[max(0, len(e.record.Pressed)-49):], name)
	e.later = append(e.later, f)
}

// button is a button whose action runs after this frame's layout.
func (e *Editor) button(ctx *debugui.Context, name, label string, f func()) {
	if strings.HasSuffix(name, ".add") { // a table's Add: bring the new row up (reveal)
		add := f
		f = func() { add(); e.reveal = "button:" + name }
	}
	e.target(ctx, "button:"+name, func(cell image.Rectangle) {
		ctx.Button(label).On(func() { e.clicked(name, cell, f) })
	})
}

// choice is a drop-down of known values for the value at path. A value that is not known (from
// an opened plugin) is offered too, so that opening and saving keeps it; "" shows as none.
//
// Only the drop-down last clicked (e.dropdown) takes a pick. debugui's stale hover (see under)
// opens the drop-down the pointer rested on as well as the one clicked, its list under the
// other's, and a click on an option picked in both lists: choosing a material for one element
// gave the element above another one, unseen.
func (e *Editor) choice(ctx *debugui.Context, path string, val *string, known []string) {
	opts := known
	if !slices.Contains(known, *val) {
		opts = append([]string{*val}, known...)
	}
	idx := slices.Index(opts, *val)
	labels := make([]string, len(opts))
	for i, o := range opts {
		labels[i] = o
		if o == "" {
			labels[i] = "(none)"
		}
	}
	name := "field:" + path
	e.target(ctx, name, func(cell image.Rectangle) {
		if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) && e.under(cell) {
			e.dropdown = name
		}
		ctx.Dropdown(&idx, labels)
	})
	if idx >= 0 && idx < len(opts) && e.dropdown == name {
		*val = opts[idx]
	}
	e.values[name] = *val
}

// checkbox is a checkbox for the value at path.
func (e *Editor) checkbox(ctx *debugui.Context, path, label string, val *bool) {
	e.target(ctx, "field:"+path, func(cell image.Rectangle) {
		v := *val
		ctx.Checkbox(&v, label)
		if v != *val && e.under(cell) { // see under
			*val = v
		}
	})
}
