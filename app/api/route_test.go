package api

import (
	"slices"
	"testing"

	"simgui/app/route"
	"simgui/plugins"
)

func infoValue(kvs []KV, key string) string {
	i := slices.IndexFunc(kvs, func(kv KV) bool { return kv.Key == key })
	if i < 0 {
		return "<absent>"
	}
	return string(kvs[i].Value)
}

// goal.radius_m ends a route that does not loop as soon as the agent is that near its last
// waypoint; corridor.width_m reports the agent's offset from the route and whether it is
// inside.
func TestRouteGoalAndCorridor(t *testing.T) {
	l := &plugins.Layout{Route: &plugins.Route{Waypoints: [][2]float64{{0, 0}, {0, 5}, {5, 5}}, ReachDistance: 0.5,
		GoalRadius: 1.5, CorridorWidth: 1.2}}
	r := route.New(l)
	r.Update(0.4, 2)
	if r.Completed || infoValue(routeInfo(r), "route.lateral_offset_m") != "0.4" || infoValue(routeInfo(r), "route.in_corridor") != "true" {
		t.Fatalf("on the way: %v", routeInfo(r))
	}
	r.Update(1, 3)
	if infoValue(routeInfo(r), "route.in_corridor") != "false" || infoValue(routeInfo(r), "route.corridor_width_m") != "1.2" {
		t.Fatalf("out of the corridor: %v", routeInfo(r))
	}
	r.Update(4, 4.2) // 1.28 m from the goal; the second waypoint was never reached
	if !r.Completed || infoValue(routeInfo(r), "route.completed") != "true" || infoValue(routeInfo(r), "route.goal_radius_m") != "1.5" ||
		infoValue(routeInfo(r), "route.remaining_waypoints") != "0" {
		t.Fatalf("at the goal: %v", routeInfo(r))
	}
	plain := route.New(&plugins.Layout{Route: &plugins.Route{Waypoints: [][2]float64{{0, 0}, {0, 5}}}})
	plain.Update(0, 4.2)
	if plain.Completed || infoValue(routeInfo(plain), "route.goal_radius_m") != "<absent>" || infoValue(routeInfo(plain), "route.in_corridor") != "<absent>" {
		t.Fatalf("a route without metadata: %v", routeInfo(plain))
	}
	loop := route.New(&plugins.Layout{Route: &plugins.Route{Waypoints: [][2]float64{{0, 0}, {0, 5}}, Loop: true, GoalRadius: 2}})
	loop.Update(0, 4.5)
	if loop.Completed {
		t.Fatal("a looping route has no goal to end at")
	}
}
