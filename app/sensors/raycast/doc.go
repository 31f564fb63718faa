// Package raycast answers horizontal ray queries against a 2D scene of boxes and circles with
// vertical extents, fast enough for lidar scans (hundreds of rays per scan, thousands of scans
// per second): the queries of physics.Space.RayCast without going through cp's spatial index.
//
// A [Static] holds what does not move — a track layout's walls, static boxes, cylinders and
// polygon outlines — in a uniform grid, built once per layout. A [Caster] adds the shapes that
// move (vehicles, pushable boxes), set once per step, and casts rays: the grid is walked cell
// by cell along the ray (Amanatides–Woo) until the nearest hit is closer than the cell's exit,
// and the few moving shapes are tested one by one.
//
// # Geometry
//
// Everything is in the world frame, x east, y north, metres. A ray at altitude z hits only
// shapes whose vertical extent [ZMin, ZMax] contains z (inclusive, as physics.Space.RayCast).
// A ray starting inside a shape hits it at distance 0, as cp's segment query does. Layout
// elements become shapes as physics.Space.AddElement makes bodies of them: walls and
// non-movable boxes are boxes of Length × Width turned by YawDeg, cylinders are circles,
// polygons are their outline — each edge a capsule of radius 0.005 m (a thin box and a circle
// at each corner), the same rounded segment cp uses — and elements without height (roads,
// markers) are not there.
//
// # Concurrency
//
// A Static is immutable and may be shared. A Caster keeps scratch state; use one per goroutine.
package raycast
