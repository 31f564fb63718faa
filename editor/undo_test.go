package editor

import (
	"image"
	"slices"
	"testing"

	"simgui/plugins"
)

// Undo takes the form back change by change, the typing in one field being one change, and
// redo puts the changes again.
func TestUndoRedo(t *testing.T) {
	e := testEditor(t, plugins.TypeVehicle)
	f := e.d.vehicle
	sensors := len(f.Sensors)
	e.fields.focus = "field:descriptor.displayName"
	for _, s := range []string{"A", "Ac", "Acme"} {
		e.d.vehicle.Base.DisplayName = s
		e.check()
	}
	e.fields.focus = ""
	e.d.vehicle.Sensors = append(e.d.vehicle.Sensors, newSensorRow())
	e.check()
	undo := func() { e.stepHistory(&e.undo.past, &e.undo.future, "undone", "nothing to undo") }
	redo := func() { e.stepHistory(&e.undo.future, &e.undo.past, "redone", "nothing to redo") }

	undo()
	if got := len(e.d.vehicle.Sensors); got != sensors || e.d.vehicle.Base.DisplayName != "Acme" {
		t.Fatalf("after one undo: %d sensors, name %q; want %d, Acme", got, e.d.vehicle.Base.DisplayName, sensors)
	}
	undo()
	if e.d.vehicle.Base.DisplayName != "" {
		t.Fatalf("after two undos: name %q, want the typing taken back whole", e.d.vehicle.Base.DisplayName)
	}
	undo()
	if e.status != "nothing to undo" {
		t.Errorf("a third undo: %q", e.status)
	}
	redo()
	redo()
	if got := len(e.d.vehicle.Sensors); got != sensors+1 || e.d.vehicle.Base.DisplayName != "Acme" {
		t.Errorf("after two redos: %d sensors, name %q", got, e.d.vehicle.Base.DisplayName)
	}
	// A change after an undo drops what could be redone.
	undo()
	e.d.vehicle.Color = "#123456"
	e.check()
	redo()
	if e.status != "nothing to redo" {
		t.Errorf("redo after a new change: %q", e.status)
	}
	// Another plugin starts the history again.
	e.startNew(plugins.TypeTrack)
	undo()
	if e.status != "nothing to undo" || e.d.track == nil {
		t.Errorf("undo in a new plugin: %q", e.status)
	}
}

// A close request is an answer to the question about changes not kept only while the
// question stands: not after the editor left the screen, nor after askAgain.
func TestCloseQuestionGoesStale(t *testing.T) {
	e := testEditor(t, plugins.TypeVehicle)
	e.d.vehicle.Base.DisplayName = "changed"
	e.check()
	if e.MayClose() {
		t.Fatal("closing with changes not kept did not ask")
	}
	e.Shown(false)
	e.Shown(true)
	if e.MayClose() {
		t.Fatal("a close after leaving the screen counted as the answer")
	}
	e.armedBy = e.armedBy.Add(-2 * askAgain)
	if e.MayClose() {
		t.Fatal("a close long after the question counted as the answer")
	}
	if !e.MayClose() {
		t.Fatal("a close right after the question did not close")
	}
}

// One drag on the track view is one undo step, the move of the frame the button is let go in
// too, and the next drag of the same point is another.
func TestUndoDrag(t *testing.T) {
	e := testEditor(t, plugins.TypeTrack)
	f := e.d.track
	i := slices.IndexFunc(f.handles(), func(h trackHandle) bool { return h.name() == "waypoint[0]" })
	if i < 0 {
		t.Fatalf("the new track has no waypoint[0] to drag: %v", f.handles())
	}
	h := f.handles()[i]
	v := topView{s: 100} // a pixel a centimetre, the origin at the view's corner
	at := func(x, y float64) image.Point {
		px, py := v.at(x, y)
		return image.Pt(int(px), int(py))
	}
	drag := func(to ...[2]float64) {
		t.Helper()
		e.drag = &trackDrag{trackHandle: h, view: v}
		for k, p := range to {
			e.carryDrag(f, at(p[0], p[1]), k < len(to)-1) // the last frame moves and lets go
			e.check()                                     // as Update does after each frame's drag
		}
		if e.drag != nil {
			t.Fatal("the drag did not end")
		}
	}
	undo := func() { e.stepHistory(&e.undo.past, &e.undo.future, "undone", "nothing to undo") }

	start := f.Waypoints
	drag([2]float64{h.x + 0.5, h.y}, [2]float64{h.x + 1, h.y}, [2]float64{h.x + 1.5, h.y})
	first := f.Waypoints
	drag([2]float64{h.x + 2, h.y}, [2]float64{h.x + 2.5, h.y})
	if f.Waypoints == first || first == start {
		t.Fatalf("the drags did not move waypoint[0]: %q, then %q, then %q", start, first, f.Waypoints)
	}
	undo()
	if got := e.d.track.Waypoints; got != first {
		t.Errorf("one undo after two drags: waypoints %q, want %q, as the first drag left them", got, first)
	}
	undo()
	if got := e.d.track.Waypoints; got != start {
		t.Errorf("two undos after two drags: waypoints %q, want %q, as they started", got, start)
	}
}
