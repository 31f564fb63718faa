// Package route follows a vehicle along its track's route: the waypoints of the track's layout
// (plugins.Route), each reached within the route's reach distance, in order. The training
// faces report the progress it tracks — rusim's route.* info over HTTP, the fast path's state
// arrays — so every face counts a waypoint as reached in the same way.
package route

import (
	"math"

	"simgui/plugins"
)

// DefaultReach is a waypoint's reach distance in metres when the track gives none (rusim's
// route.reach_distance_m default).
const DefaultReach = 1.0

// Progress is a vehicle's progress along a route. After the last waypoint a looping route
// starts over; any other is completed (rusim's done).
type Progress struct {
	Waypoints [][2]float64
	Reach     float64
	Loop      bool
	// Index is the next waypoint to reach (len(Waypoints) once completed).
	Index     int
	Completed bool
	// Distance is from the vehicle to the next waypoint after the latest Update, metres; 0
	// once completed.
	Distance float64
	// Goal is the route's goal radius (0: none): a route that does not loop is completed once
	// the vehicle is that near its last waypoint. Corridor is the route's width (0: unbounded)
	// and Lateral the vehicle's distance from the route's polyline after the latest Update.
	Goal, Corridor, Lateral float64
}

// New returns the progress at the start of a layout's route, or nil when the layout has none.
func New(l *plugins.Layout) *Progress {
	if l == nil || l.Route == nil || len(l.Route.Waypoints) == 0 {
		return nil
	}
	r := &Progress{Waypoints: l.Route.Waypoints, Reach: l.Route.ReachDistance, Loop: l.Route.Loop,
		Goal: l.Route.GoalRadius, Corridor: l.Route.CorridorWidth}
	if r.Reach <= 0 {
		r.Reach = DefaultReach
	}
	return r
}

// Update advances past the waypoints within reach of (x, y) — at most one lap per call, so a
// looping route shorter than its reach distance cannot spin — and records the distance to the
// next one. A route that does not loop is completed once (x, y) is within the goal radius of
// its last waypoint, whichever waypoint is next.
func (r *Progress) Update(x, y float64) {
	n := len(r.Waypoints)
	if r.Corridor > 0 {
		r.Lateral = plugins.DistanceToPolyline(r.Waypoints, x, y)
	}
	if last := r.Waypoints[n-1]; !r.Loop && r.Goal > 0 && math.Hypot(x-last[0], y-last[1]) <= r.Goal {
		r.Completed, r.Index = true, n
	}
	for range n {
		if r.Completed {
			break
		}
		wp := r.Waypoints[r.Index]
		if math.Hypot(x-wp[0], y-wp[1]) > r.Reach {
			break
		}
		r.Index++
		if r.Index == n {
			if r.Loop {
				r.Index = 0
			} else {
				r.Completed = true
				r.Index = n
			}
		}
	}
	r.Distance = 0
	if !r.Completed {
		wp := r.Waypoints[r.Index]
		r.Distance = math.Hypot(x-wp[0], y-wp[1])
	}
}

// InCorridor reports whether the vehicle was inside the route's corridor at the latest Update
// (always, when the route has no width).
func (r *Progress) InCorridor() bool {
	return r.Corridor <= 0 || r.Lateral <= r.Corridor/2
}
