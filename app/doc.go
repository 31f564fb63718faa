// Package app wires one simulator process: from a scenario plan it builds the transport bus,
// the world with its systems, and the loop that owns the world, and starts the process's
// outside faces around them. The window (app/window) and the headless runner both use it, so
// the two are the same process with or without a screen.
//
// Nothing here imports Ebiten or GTK.
package app
