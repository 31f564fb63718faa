package world

import "simgui/app/events"

// BeginAction emits ACTION_STARTED for an action of kind on target, started by source, and
// returns it with its ID; pass it to EndAction when the action completes. An action on a
// model (target its name) is also emitted on the model's entity bus. Loop goroutine only.
func (w *World) BeginAction(kind, target, source string) events.Action {
	w.nextAction++
	a := events.Action{ID: w.nextAction, Kind: kind, Target: target, Source: source}
	if m := w.byName[target]; m != nil {
		a.Entity = events.Entity{ID: m.ID, Name: m.Name, Kind: "vehicle"}
	}
	w.emitAction(events.ActionStarted, a)
	return a
}

// EndAction emits ACTION_COMPLETED for a started action; err nil means it succeeded.
func (w *World) EndAction(a events.Action, err error) {
	if err != nil {
		a.Err = err.Error()
	}
	w.emitAction(events.ActionCompleted, a)
}

func (w *World) emitAction(name events.Name, a events.Action) {
	w.bus.Emit(name, a)
	if a.Entity.ID != 0 {
		if b, ok := w.entities[a.Entity.ID]; ok {
			b.Emit(name, a)
		}
	}
}
