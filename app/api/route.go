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
	// goal is the route's goal radius (0: none); corridor its width (0: unbounded) and
	// lateral the agent's distance from the route's polyline.
	goal, corridor, lateral float64
}

// newRouteProgress returns nil when the layout has no route.
func newRouteProgress(l *plugins.Layout) *routeProgress {
	if l == nil || l.Route == nil || len(l.Route.Waypoints) == 0 {
		return nil
	}
	r := &routeProgress{waypoints: l.Route.Waypoints, reach: l.Route.ReachDistance, loop: l.Route.Loop,
		goal: l.Route.GoalRadius, corridor: l.Route.CorridorWidth}
	if r.reach <= 0 {
		r.reach = defaultReachM
	}
	return r
}

// update advances past the waypoints within reach of (x, y) — at most one lap per call, so a
// looping route shorter than its reach distance cannot spin — and records the distance to the
// next one. A route that does not loop is completed, and the episode done, once (x, y) is
// within the goal radius of its last waypoint, whichever waypoint is next.
func (r *routeProgress) update(x, y float64) {
	n := len(r.waypoints)
	if r.corridor > 0 {
		r.lateral = distanceToPolyline(r.waypoints, x, y)
	}
	if last := r.waypoints[n-1]; !r.loop && r.goal > 0 && math.Hypot(x-last[0], y-last[1]) <= r.goal {
		r.completed, r.index = true, n
	}
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

// info returns rusim's route.* info entries, then the goal radius and the corridor (width,
// the agent's lateral offset, whether it is inside) when the route has them.
func (r *routeProgress) info() []KV {
	n := len(r.waypoints)
	out := []KV{
		{"route.total_waypoints", KVValue(strconv.Itoa(n))},
		{"route.current_index", KVValue(strconv.Itoa(r.index))},
		{"route.remaining_waypoints", KVValue(strconv.Itoa(n - r.index))},
		{"route.reach_distance_m", KVValue(fmt3(r.reach))},
		{"route.loop", KVValue(strconv.FormatBool(r.loop))},
		{"route.completed", KVValue(strconv.FormatBool(r.completed))},
		{"route.distance_to_target_m", KVValue(fmt3(r.distance))},
	}
	if r.goal > 0 {
		out = append(out, KV{"route.goal_radius_m", KVValue(fmt3(r.goal))})
	}
	if r.corridor > 0 {
		out = append(out,
			KV{"route.corridor_width_m", KVValue(fmt3(r.corridor))},
			KV{"route.lateral_offset_m", KVValue(fmt3(r.lateral))},
			KV{"route.in_corridor", KVValue(strconv.FormatBool(r.lateral <= r.corridor/2))})
	}
	return out
}

// distanceToPolyline is the distance from (x, y) to the nearest point of the waypoints' line.
func distanceToPolyline(wps [][2]float64, x, y float64) float64 {
	if len(wps) == 1 {
		return math.Hypot(x-wps[0][0], y-wps[0][1])
	}
	best := math.Inf(1)
	for i := 1; i < len(wps); i++ {
		a, b := wps[i-1], wps[i]
		dx, dy := b[0]-a[0], b[1]-a[1]
		t := 0.0
		if l2 := dx*dx + dy*dy; l2 > 0 {
			t = math.Max(0, math.Min(1, ((x-a[0])*dx+(y-a[1])*dy)/l2))
		}
		best = math.Min(best, math.Hypot(x-a[0]-t*dx, y-a[1]-t*dy))
	}
	return best
}
