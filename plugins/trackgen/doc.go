// Package trackgen turns a track descriptor, scenario parameters and a seed into the Layout of
// one episode. Generators register by name in init (Register panics on a duplicate); a
// descriptor's Generator field picks one, empty meaning "static".
//
// Built-in generators:
//
//   - static: the descriptor's floor, elements, spawn points and route as they are.
//   - cardboard_corridor: rusim's closed L corridor, sized by length and width.
//   - maze: a seeded perfect maze of rows × cols cells (randomized depth-first search).
//   - roads: each road element's points smoothed by a centripetal Catmull-Rom spline, with
//     barrier walls of short straight segments along both edges, optional curbs and markings.
//   - cardboard_maze: rusim's procedural cardboard corridor, a walk with turn budgets on a
//     40 × 40 grid (maze.* parameters, maze.path_encoded for an explicit path).
//   - city_grid: rusim's city block layout, a grid of roads, intersections with traffic light
//     poles and building blocks (city.* parameters).
//
// Build validates the parameters against the track's schema (plugins.ResolveTrackParams), adds
// the schema's defaults, runs the generator and then applies the parameters every track takes:
// spawn.position and spawn.yaw_deg override the first spawn point, route.waypoints replaces the
// route (reach 1 m, not looping) unless waypoint.graph names the track's own route (the
// waypoints are then rusim's fallback for a scene without it), route.loop and route.reach_distance_m override its reach and
// looping, and waypoints given without a spawn position
// put the vehicle on the first waypoint facing the second. Then the route metadata of rusim's
// scenarios: corridor.width_m and goal.radius_m become the route's CorridorWidth and GoalRadius,
// controller.profile and waypoint.graph its Controller and Graph, and obstacle.count places
// that many static boxes inside the corridor along the route (from the spawn point through the
// waypoints, clear of both ends), from the run seed.
//
// # Determinism
//
// A generator's output depends only on the descriptor, the parameters and the seed: the same
// inputs give a reflect.DeepEqual Layout. Randomness comes from math/rand/v2's PCG seeded from
// the seed; no map iteration order reaches the output.
//
// # Frames and units
//
// Layouts are in the world frame (x east, y north, z up), metres and degrees (yaw
// counter-clockwise from east). A wall element is a box centred at (X, Y) with Length along
// YawDeg and Width its thickness. Floor Length runs along x, Width along y.
//
// # Concurrency
//
// Build and the generators are safe for concurrent use; the registry is filled in init.
package trackgen
