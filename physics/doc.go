// Package physics is simgui's rigid-body layer: a plane world in which bodies move in x, y and
// yaw. Heights are carried alongside for flying vehicles, sensors and renderers: a flying body
// collides only with shapes taller than its altitude.
//
// A Space holds the static track geometry, pushable boxes and vehicles, reports contacts that
// started and ended during each Step, and answers ray queries. Drive models in physics/drive turn
// commands into body velocities before each step.
//
// # Modes
//
// A Space runs in one of two modes (Options.Mode), behind the same Body and Space methods:
//
//   - Dynamic (the default) is rigid-body dynamics by github.com/jakecoffman/cp/v2, a Go port of
//     Chipmunk 2D: masses, impulses, friction; vehicles shove each other and push boxes with the
//     force of their drives. cp has no continuous collision detection, so a step longer than
//     0.01 s, or one in which a body would travel more than half of the thinnest shapes' half
//     thicknesses, runs in substeps (cpSubsteps).
//   - Kinematic is for large fleets: bodies move exactly as their velocities say, and contacts
//     are resolved geometrically — move and slide, one mover at a time (see kinematic.go) — so
//     a body stops against a wall or another body or slides along it, a vehicle pushes a box
//     it drives into, and no two bodies end a step deeper in each other than
//     KinematicTolerance. There are no forces, no masses at work and nothing that bounces.
//     Every box, circle and polygon outline of the track is a shape there as in the dynamic
//     mode (outline segments are thin boxes reaching over their round ends).
//
// # Determinism
//
// cp is deterministic for the same sequence of operations, and so is the kinematic solver, so
// a Space built from the same inputs in the same order and stepped with the same commands ends
// in the same state, bit for bit. Nothing here iterates a map in an order that reaches the
// solver. A kinematic fleet of thousands is cut into sides across x, whose moves run on
// several cores at once (kinematic_split.go); the order of the moves depends on the state
// alone, not on the number of cores, so the same inputs give the same state on every machine.
//
// # Concurrency
//
// A Space is not safe for concurrent use: only the world's step goroutine touches it. Spaces
// share nothing but the helper goroutines a large kinematic fleet steps with (team.go), which
// serve one space's pass at a time, the others running theirs on their own goroutine: many
// spaces may step at once on different goroutines.
//
// # Units
//
// Metres, kilograms, seconds, radians.
package physics
