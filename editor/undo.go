package editor

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
)

// undoDepth bounds how many changes Ctrl+Z can take back.
const undoDepth = 100

// undoStack holds the form as it was before each change, so that Ctrl+Z takes changes back
// and Ctrl+Y (or Ctrl+Shift+Z) puts them again. The typing in one field, or one drag, is one
// change. Game goroutine.
type undoStack struct {
	past, future [][]byte
	// last is the form as of the latest check, and group what its latest change was of (a
	// field's name, a drag; "" for a button): a change of the same group joins it.
	last  []byte
	group string
}

// formJSON is the draft's form as undo keeps it.
func (d *draft) formJSON() []byte {
	var v any = d.vehicle
	if d.track != nil {
		v = d.track
	}
	b, _ := json.Marshal(v) // strings, maps and slices of them: it cannot fail
	return b
}

// setForm puts a form formJSON made back into the draft.
func (d *draft) setForm(b []byte) error {
	if d.track != nil {
		var f trackForm
		if err := json.Unmarshal(b, &f); err != nil {
			return err
		}
		d.track = &f
		return nil
	}
	var f vehicleForm
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	d.vehicle = &f
	return nil
}

// noteChange records the form after a change the check saw (check calls it).
func (e *Editor) noteChange() {
	u := &e.undo
	cur := e.d.formJSON()
	if u.last == nil || bytes.Equal(cur, u.last) {
		u.last = cur
		return
	}
	group := e.fields.focus
	if e.drag != nil {
		group = "drag:" + e.drag.name()
	}
	if group == "" || group != u.group {
		u.past = append(u.past, u.last)
		if len(u.past) > undoDepth {
			u.past = u.past[1:]
		}
	}
	u.future, u.group, u.last = nil, group, cur
}

// forgetChanges starts the undo history again (another plugin on show).
func (e *Editor) forgetChanges() { e.undo = undoStack{last: e.d.formJSON()} }

// editKeys takes a change back on Ctrl+Z, puts one again on Ctrl+Y or Ctrl+Shift+Z, and
// saves on Ctrl+S, as the Save button does; F1 shows and hides the keys (Esc hides them too). (The text fields
// use Ctrl with a, c, e, k, u, v, w, x.)
func (e *Editor) editKeys() {
	if inpututil.IsKeyJustPressed(ebiten.KeyF1) {
		e.helpOpen = !e.helpOpen
	}
	if e.helpOpen && e.fields.focus == "" && inpututil.IsKeyJustPressed(ebiten.KeyEscape) {
		e.helpOpen = false
	}
	if !ebiten.IsKeyPressed(ebiten.KeyControl) && !ebiten.IsKeyPressed(ebiten.KeyMeta) {
		return
	}
	shift := ebiten.IsKeyPressed(ebiten.KeyShift)
	switch {
	case inpututil.IsKeyJustPressed(ebiten.KeyS):
		e.record.Pressed = append(e.record.Pressed[max(0, len(e.record.Pressed)-49):], "save")
		e.save()
	case inpututil.IsKeyJustPressed(ebiten.KeyZ) && !shift:
		e.stepHistory(&e.undo.past, &e.undo.future, "undone", "nothing to undo")
	case inpututil.IsKeyJustPressed(ebiten.KeyY), inpututil.IsKeyJustPressed(ebiten.KeyZ) && shift:
		e.stepHistory(&e.undo.future, &e.undo.past, "redone", "nothing to redo")
	}
}

// stepHistory puts the form back to the newest state of from, keeping the present in to.
func (e *Editor) stepHistory(from, to *[][]byte, done, none string) {
	e.check() // a change typed this frame is part of the history first
	if len(*from) == 0 {
		e.setStatus(none)
		return
	}
	b := (*from)[len(*from)-1]
	if err := e.d.setForm(b); err != nil {
		e.failed("undo: " + err.Error())
		return
	}
	*from = (*from)[:len(*from)-1]
	*to = append(*to, e.undo.last)
	e.undo.last, e.undo.group = b, ""
	e.fields.focus = "" // the fields show the form's text again
	e.drag = nil
	e.setStatus(fmt.Sprintf("%s (%d more to undo, %d to redo)", done, len(e.undo.past), len(e.undo.future)))
}
