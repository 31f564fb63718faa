package api

import (
	"strconv"

	"simgui/app/route"
)

// routeInfo returns rusim's route.* info entries for an agent's progress (app/route, updated
// after every API step on the loop goroutine), then the goal radius and the corridor (width,
// the agent's lateral offset, whether it is inside) when the route has them.
func routeInfo(r *route.Progress) []KV {
	n := len(r.Waypoints)
	out := []KV{
		{"route.total_waypoints", KVValue(strconv.Itoa(n))},
		{"route.current_index", KVValue(strconv.Itoa(r.Index))},
		{"route.remaining_waypoints", KVValue(strconv.Itoa(n - r.Index))},
		{"route.reach_distance_m", KVValue(fmt3(r.Reach))},
		{"route.loop", KVValue(strconv.FormatBool(r.Loop))},
		{"route.completed", KVValue(strconv.FormatBool(r.Completed))},
		{"route.distance_to_target_m", KVValue(fmt3(r.Distance))},
	}
	if r.Goal > 0 {
		out = append(out, KV{"route.goal_radius_m", KVValue(fmt3(r.Goal))})
	}
	if r.Corridor > 0 {
		out = append(out,
			KV{"route.corridor_width_m", KVValue(fmt3(r.Corridor))},
			KV{"route.lateral_offset_m", KVValue(fmt3(r.Lateral))},
			KV{"route.in_corridor", KVValue(strconv.FormatBool(r.InCorridor()))})
	}
	return out
}
