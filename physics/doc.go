// Package physics is simgui's rigid-body layer over github.com/jakecoffman/cp/v2: a plane world in
// which bodies move in x, y and yaw. Heights are carried alongside for flying vehicles, sensors
// and renderers: a flying body collides only with shapes taller than its altitude.
//
// A Space holds the static track geometry, pushable boxes and vehicles, reports contacts that
// started and ended during each Step, and answers ray queries. Drive models in physics/drive turn
// commands into body velocities before each step.
//
// # Determinism
//
// cp is deterministic for the same sequence of operations, so a Space built from the same inputs
// in the same order and stepped with the same commands ends in the same state, bit for bit.
// Nothing here iterates a map in an order that reaches the solver.
//
// # Concurrency
//
// A Space is not safe for concurrent use: only the world's step goroutine touches it.
//
// # Units
//
// Metres, kilograms, seconds, radians.
package physics
