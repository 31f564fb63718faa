// Package markers is the model behind CLOiSim's /markers service: visual markers (lines, text,
// boxes, spheres) that clients add to the world at run time and the window draws.
//
// A [Marker] is an immutable value named group + [Delimiter] + id + Delimiter + Type, as CLOiSim
// names its marker objects ("path!%!3!%!Line"). A [Store] holds the current markers and applies
// the Add, Modify, Remove and List commands with CLOiSim's rules: Add fails (and adds nothing)
// if any of its names exists; Modify and Remove fail only if none of their names matched; List
// filters by group prefix, "!%!id!%!" and type suffix. After each change the store hands an
// immutable [Set] to its change callback; the control service attaches it to the world as the
// overlay [OverlayKey] (so snapshots carry it to the window) and publishes it on [Topic] as a
// gz.msgs.Marker_V.
//
// Marker kinds (Line, Text, Box, Sphere) are registered by name in init (RegisterKind); each
// knows its JSON body field, its list in a List answer and its gz.msgs.Marker type. The JSON
// shapes (DecodeRequest, Response) are CLOiSim's.
//
// # Units and frames
//
// Points are in simgui's world frame (x east, y north, z up, metres) — not Unity's y-up frame
// CLOiSim uses. Size is the line width, the box edge and the sphere diameter in metres; for
// text it is CLOiSim's font size, which the window scales to its zoom. Colours are CLOiSim's
// palette (Unity's named colours and CLOiSim's own), opaque.
//
// # Concurrency
//
// A Store is safe for concurrent use; its change callback runs on the goroutine that made the
// change, after the store's lock is released, in change order. Sets and Markers are immutable.
package markers
