package world

import (
	"simgui/app/events"
	"simgui/physics"
	"simgui/physics/drive"
)

// Step advances the world by one fixed step (see the package doc for the order).
func (w *World) Step() {
	if !w.started {
		// Systems must see Init before their first Step, even when a caller forgot Start.
		if err := w.Start(); err != nil {
			w.log.Error("starting systems", "err", err)
		}
	}
	info := events.StepInfo{Step: w.step, Dt: w.dt, SimTime: int64(w.simTime)}

	// Phase 1.
	w.inStep = true
	if w.bus.HasHandlers(events.PreStep) { // boxing the payload allocates; skip it when nobody listens
		w.bus.Emit(events.PreStep, w.stepPayload(info))
	}
	w.space.EachVehicle(w.driveFn)
	w.landFlyers()
	w.runCallbacks()
	w.stepSystems()
	w.inStep = false

	// Phase 2.
	w.flushPoses()
	w.space.Step(w.dt)
	w.emitContacts()
	w.step++
	w.simTime += w.stepNs
	info.Step, info.SimTime = w.step, int64(w.simTime)
	if w.bus.HasHandlers(events.PostStep) {
		w.bus.Emit(events.PostStep, w.stepPayload(info))
	}
	w.postStepSystems()
}

// drive runs the drive model of the vehicle b. It touches only b and its model, so a large
// kinematic fleet's vehicles go on several cores at once (Space.EachVehicle).
func (w *World) drive(b *physics.Body) {
	if int(b.ID) < len(w.byBody) {
		if m := w.byBody[b.ID]; m != nil {
			m.base = b.Base
			m.Drive.Update(m.Body, &m.Command, w.dt)
		}
	}
}

// landFlyers sets each flying body that came down this step onto the top of what it was
// over: a drive keeps a flyer above its minimum altitude over the floor, but a drone that
// sank onto a building went on down into it (physics lets a flyer pass over anything lower
// than its base, and then cannot push it out sideways from the middle of a roof). Other
// vehicles are not landed on (Space.TopUnder). Loop goroutine, after the drive pass, which may
// run on several cores.
func (w *World) landFlyers() {
	if !w.flyers {
		return
	}
	for _, m := range w.models {
		b := m.Body
		if !b.Flying || b.Base >= m.base {
			continue
		}
		p := b.Pose()
		if top := w.space.TopUnder(p.X, p.Y, footprintRadius(m.Vehicle), m.base); top > b.Base {
			b.Base = top
			if f, ok := m.Drive.(drive.Flyer); ok {
				f.Land()
			}
		}
	}
}

// stepPayload returns info as an event's payload: the last one's when it holds the same info.
// A step's POST_STEP and the next step's PRE_STEP carry the same step and sim time, and
// boxing a payload allocates (a boxed value cannot be changed, so sharing it is safe).
func (w *World) stepPayload(info events.StepInfo) any {
	if w.stepEvent == nil || w.stepInfo != info {
		w.stepEvent, w.stepInfo = info, info
	}
	return w.stepEvent
}

// emitContacts turns the contacts that started or ended in this physics step into events on
// the global bus and on both entities' buses.
func (w *World) emitContacts() {
	started, ended := w.space.Contacts()
	w.emitPairs(events.CollisionStarted, started)
	w.emitPairs(events.CollisionEnded, ended)
}

func (w *World) emitPairs(name events.Name, pairs []physics.Contact) {
	if len(pairs) == 0 {
		return
	}
	global := w.bus.HasHandlers(name)
	for _, c := range pairs {
		ev := events.Collision{A: entityOf(c.A), B: entityOf(c.B)}
		if global {
			w.bus.Emit(name, ev)
		}
		for _, id := range [2]uint32{ev.A.ID, ev.B.ID} {
			if b, ok := w.entities[id]; ok {
				b.Emit(name, ev)
			}
		}
	}
}

// entityOf names a body for events. Static track elements report ID 0: they are not entities
// with buses of their own.
func entityOf(b *physics.Body) events.Entity {
	if b.Kind == physics.KindStatic {
		return events.Entity{ID: 0, Name: b.Name, Kind: "static"}
	}
	return events.Entity{ID: b.ID, Name: b.Name, Kind: b.Kind.String()}
}
