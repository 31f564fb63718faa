// Package world is simgui's simulation core: a World of vehicles, boxes and track geometry that
// advances in fixed steps of simulation time, and a Loop goroutine that owns it.
//
// # The step
//
// World.Step runs in two phases. Phase 1: the PRE_STEP event, actuator commands
// (each vehicle's drive model sets its body velocities), callbacks, then systems' Step hooks.
// SetPose calls made in phase 1 are buffered and World.Pose already returns them. Phase 2: the
// buffered poses are written to the bodies, physics steps, contacts that started or ended emit
// COLLISION_STARTED / COLLISION_ENDED, the clock advances, POST_STEP is emitted and systems'
// PostStep hooks run (sensors read the settled state there).
//
// # Physics
//
// Config.Physics picks the physics mode of the world's space (scenario runtime.physics):
// rigid-body dynamics, the default, or the kinematic mode for large fleets, in which bodies
// follow their drive models exactly and stop or slide at contacts (physics.Kinematic). Drive
// models, sensors, contacts and events, snapshots and StateHash work alike in both.
//
// # Systems
//
// A system is any value implementing some of Initer, Stepper,
// PostStepper, Resetter and Shutdowner. With a frequency, Step is called once the accumulated
// sim time reaches 1/frequency, with that accumulated time as dt, and the accumulator restarts
// at zero. A panic in Step or PostStep is recovered and logged with the system's name; after
// MaxPanics consecutive panicking calls the system is disabled for the rest of the run (until
// the world is reset) and an error says so. Callbacks (AddCallback) are the light alternative.
//
// # Concurrency
//
// A World is owned by one goroutine, the Loop's: every method of World must be called there —
// from systems, callbacks, event handlers, or functions passed to Loop.Do. Other goroutines
// send such functions with Loop.Do / Loop.Call and read Loop.Snapshot, an immutable value
// published after each step.
//
// # Reset
//
// Reset builds the new episode (layout, physics space, models) aside and swaps it in only when
// it is complete: a reset that fails — a plugin gone, a vehicle that cannot spawn — leaves the
// world exactly as it was, its state, its random streams and its systems untouched.
//
// # Wire formats
//
// The world knows no topic or message. Config.Bus is handed to systems (World.Bus); the gz
// topics, the world clock and odometry are systems (app/systems/...) that the app adds to
// every world.
//
// # Determinism
//
// Sim time is integer nanoseconds. Random numbers come from World.Rand streams seeded from the
// world seed and the stream's name, re-seeded on Reset. The same scenario and seed produce the
// same StateHash.
package world
