package api

import (
	"math"
	"strconv"

	"simgui/plugins"
)

// defaultReachM is a waypoint's reach distance when the track gives none (rusim's default).
const defaultReachM = 1.0

// routeProgress follows an agent along its track's route: a waypoint counts as reached within
// the reach distance; after the last one a looping route starts over, any other is completed
// (rusim's done). Updated after every API step, on the loop goroutine.
type routeProgress struct {
	waypoints [][2]float64
	reach     float64
	loop      bool
	index     int
	completed bool
	distance  float64
}

// newRouteProgress returns nil when the layout has no route.
func newRouteProgress(l *plugins.Layout) *routeProgress {
	if l == nil || l.Route == nil || len(l.Route.Waypoints) == 0 {
		return nil
	}
	r := &routeProgress{waypoints: l.Route.Waypoints, reach: l.Route.ReachDistance, loop: l.Route.Loop}
	if r.reach <= 0 {
		r.reach = defaultReachM
	}
	return r
}

// update advances past the waypoints within reach of (x, y) — at most one lap per call, so a
// looping route shorter than its reach distance cannot spin — and records the distance to the
// next one.
func (r *routeProgress) update(x, y float64) {
	n := len(r.waypoints)
	for range n {
		if r.completed {
			break
		}
		wp := r.waypoints[r.index]
		if math.Hypot(x-wp[0], y-wp[1]) > r.reach {
			break
		}
		r.index++
		if r.index == n {
			if r.loop {
				r.index = 0
			} else {
				r.completed = true
				r.index = n
			}
		}
	}
	r.distance = 0
	if !r.completed {
		wp := r.waypoints[r.index]
		r.distance = math.Hypot(x-wp[0], y-wp[1])
	}
}

// info returns rusim's route.* info entries.
func (r *routeProgress) info() []KV {
	n := len(r.waypoints)
	return []KV{
		{"route.total_waypoints", KVValue(strconv.Itoa(n))},
		{"route.current_index", KVValue(strconv.Itoa(r.index))},
		{"route.remaining_waypoints", KVValue(strconv.Itoa(n - r.index))},
		{"route.reach_distance_m", KVValue(fmt3(r.reach))},
		{"route.loop", KVValue(strconv.FormatBool(r.loop))},
		{"route.completed", KVValue(strconv.FormatBool(r.completed))},
		{"route.distance_to_target_m", KVValue(fmt3(r.distance))},
	}
}
