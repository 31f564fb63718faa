package editor

import (
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
