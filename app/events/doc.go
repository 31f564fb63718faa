// Package events is simgui's EventBus: named events with handlers run in ascending
// priority, ties in registration order. The world has one global bus and lazily creates one bus per
// entity for entity-local events.
//
// Use events for transitions (COLLISION_STARTED, ACTION_COMPLETED); do not subscribe to PRE_STEP
// just to poll state that can be read on demand.
//
// # Panics
//
// A handler that panics is logged with the event name and the handler's function name; the
// remaining handlers still run and Emit returns normally.
//
// # Concurrency
//
// A Bus is safe for concurrent use. Emit calls handlers synchronously on the emitting goroutine —
// for the world's buses that is the step-loop goroutine, so handlers may touch the world.
// Handlers may subscribe and unsubscribe during Emit; the change applies to the next Emit.
package events
