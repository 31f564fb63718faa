package trackgen

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"simgui/plugins"
)

// The route metadata of rusim's scenarios: corridor.width_m and goal.radius_m go onto the
// route, obstacle.count places that many static boxes inside the corridor along the route,
// clear of its ends, from the run seed.
func TestRouteMetadata(t *testing.T) {
	tr := builtinTrack(t, "track.basic_arena.v1")
	params := map[string]any{"route.waypoints": "-6,-8.5;-6,-2;-3,2.5;2,6;6.5,8", "corridor.width_m": "1.20",
		"goal.radius_m": "1.00", "obstacle.count": "3", "controller.profile": "waypoint_follower", "waypoint.graph": "ab"}
	l := build(t, tr, params, 73)
	r := l.Route
	if r.CorridorWidth != 1.2 || r.GoalRadius != 1 || r.Controller != "waypoint_follower" || r.Graph != "ab" {
		t.Fatalf("route %+v", r)
	}
	line := append([][2]float64{{l.SpawnPoints[0].X, l.SpawnPoints[0].Y}}, r.Waypoints...)
	var obstacles []plugins.Element
	for _, e := range l.Elements {
		if strings.HasPrefix(e.Name, "obstacle.") {
			obstacles = append(obstacles, e)
		}
	}
	if len(obstacles) != 3 {
		t.Fatalf("%d obstacles", len(obstacles))
	}
	goal := r.Waypoints[len(r.Waypoints)-1]
	for _, o := range obstacles {
		p := [2]float64{o.X, o.Y}
		if o.Kind != plugins.ElementBox || o.Movable || o.Length != 0.3 || o.Height != 0.3 {
			t.Errorf("obstacle %+v", o)
		}
		if d := plugins.DistanceToPolyline(line, p[0], p[1]); d+o.Length/2 > 1.2/2 {
			t.Errorf("%s at %v is %.3f m from the route: outside the 1.2 m corridor", o.Name, p, d)
		}
		if math.Hypot(p[0]-line[0][0], p[1]-line[0][1]) < 0.9 || math.Hypot(p[0]-goal[0], p[1]-goal[1]) < 0.9 {
			t.Errorf("%s at %v is at the start or the goal", o.Name, p)
		}
	}
	if again := build(t, tr, params, 73); !reflect.DeepEqual(l, again) {
		t.Error("the same seed placed the obstacles elsewhere")
	}
	if other := build(t, tr, params, 74); reflect.DeepEqual(l.Elements, other.Elements) {
		t.Error("seeds 73 and 74 placed the obstacles alike")
	}
	if none := build(t, tr, map[string]any{"obstacle.count": 0}, 1); len(none.Elements) != len(build(t, tr, nil, 1).Elements) {
		t.Error("obstacle.count 0 added elements")
	}
	// A route too short to keep obstacles clear of its ends.
	corridor := builtinTrack(t, "track.cardboard_corridor.v1")
	if _, err := Build(corridor, map[string]any{"length": 2, "width": 0.6, "obstacle.count": 2, "route.waypoints": "0,-1;0,-0.5"}, 1); err == nil ||
		!strings.Contains(err.Error(), "world.params.obstacle.count: the route is") {
		t.Errorf("a short route: %v", err)
	}
}
