package trackgen

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"simgui/plugins"
)

// onRoad reports whether p lies on a road strip of the layout (not a centre line).
func onRoad(l *plugins.Layout, p [2]float64) bool {
	for _, e := range l.Elements {
		if e.Kind != plugins.ElementRoad || !strings.HasPrefix(e.Name, "road.") {
			continue
		}
		a, b := e.Points[0], e.Points[1]
		if math.Abs(a[1]-b[1]) < 1e-9 && math.Abs(p[1]-a[1]) <= e.Width/2 && p[0] >= a[0] && p[0] <= b[0] ||
			math.Abs(a[0]-b[0]) < 1e-9 && math.Abs(p[0]-a[0]) <= e.Width/2 && p[1] >= a[1] && p[1] <= b[1] {
			return true
		}
	}
	return false
}

// The default city has roads across it at −15, 0 and 15 m both ways (7 cells of 7.5 m), a
// building in every block and none on a road, four traffic light poles at each of the nine
// intersections, off the lanes; its route and spawn are on roads; the seed draws the
// buildings, the same seed the same city.
func TestCityGrid(t *testing.T) {
	tr := builtinTrack(t, "track.city_polygon.v1")
	l := build(t, tr, nil, 0)
	var buildings, lights int
	for _, e := range l.Elements {
		switch {
		case strings.HasPrefix(e.Name, "building."):
			buildings++
			if e.Kind != plugins.ElementBox || e.Height < cityMinFloor || e.Height > cityMaxFloor || e.Length != 5.5 {
				t.Errorf("building %+v", e)
			}
			for _, c := range [][2]float64{{e.X, e.Y}, {e.X + e.Length/2 - 0.01, e.Y}, {e.X, e.Y - e.Width/2 + 0.01}} {
				if onRoad(l, c) {
					t.Errorf("building %s reaches a road at %v", e.Name, c)
				}
			}
		case strings.HasPrefix(e.Name, "light."):
			lights++
			if math.Abs(math.Abs(math.Remainder(e.X, 15))-3.5) > 1e-9 || math.Abs(math.Abs(math.Remainder(e.Y, 15))-3.5) > 1e-9 {
				t.Errorf("traffic light %s at (%g, %g), not 3.5 m from an intersection on both axes", e.Name, e.X, e.Y)
			}
		}
	}
	if buildings != 16 || lights != 36 {
		t.Errorf("%d buildings and %d traffic lights, want 16 and 36", buildings, lights)
	}
	for _, v := range []float64{-15, 0, 15} {
		for _, u := range []float64{-25, -7, 3, 12, 25} {
			if !onRoad(l, [2]float64{v, u}) || !onRoad(l, [2]float64{u, v}) {
				t.Errorf("no road through (%g, %g) or (%g, %g)", v, u, u, v)
			}
		}
	}
	for _, p := range [][2]float64{{7.5, 7.5}, {-7.5, 22.5}, {22.5, -22.5}} {
		if onRoad(l, p) {
			t.Errorf("block centre %v is on a road", p)
		}
	}
	want := [][2]float64{{0, -15}, {0, 15}, {15, 15}, {15, -15}}
	if !reflect.DeepEqual(l.Route.Waypoints, want) || !l.Route.Loop || l.Route.Graph != "city.default" {
		t.Errorf("route %+v", l.Route)
	}
	if sp := l.SpawnPoints[0]; sp.X != 0 || sp.Y != -15 || sp.YawDeg != 90 {
		t.Errorf("spawn %+v", sp)
	}
	if !reflect.DeepEqual(l, build(t, tr, nil, 5)) {
		t.Error("the run seed changed the city")
	}
	other := build(t, tr, map[string]any{"city.seed": 7}, 0)
	if reflect.DeepEqual(l.Elements, other.Elements) {
		t.Error("city.seed 7 built the same buildings as 42")
	}
	// Two intersections a side: roads at ±7.5 only, the route round them.
	small := build(t, tr, map[string]any{"city.intersections_per_side": 2}, 0)
	if onRoad(small, [2]float64{0, 0}) || !onRoad(small, [2]float64{7.5, 0}) ||
		!reflect.DeepEqual(small.Route.Waypoints, [][2]float64{{-7.5, -7.5}, {-7.5, 7.5}, {7.5, 7.5}, {7.5, -7.5}}) {
		t.Errorf("N = 2: route %v", small.Route.Waypoints)
	}
	if _, err := Build(tr, map[string]any{"city.cell_size_m": 5, "city.traffic_light_offset_m": 3}, 0); err == nil ||
		!strings.Contains(err.Error(), "world.params.city.traffic_light_offset_m: 3 m puts the poles outside") {
		t.Errorf("offset beyond the intersection: %v", err)
	}
}

// Waypoints given with waypoint.graph naming the city's route are rusim's fallback for a
// scene without the graph (showcase-city.yaml's cross a block): the city's route stands, with
// the loop and reach given. Naming another graph, or none, the waypoints are the route.
func TestWaypointGraphKeepsTheTracksRoute(t *testing.T) {
	tr, err := plugins.Builtin().Track("track.city_polygon.v1")
	if err != nil {
		t.Fatal(err)
	}
	hint := "0,-12;0,-2;10,0;10,10;-10,10;-10,-10;0,-12"
	l := build(t, tr, map[string]any{"route.waypoints": hint, "waypoint.graph": "city.default", "route.loop": true, "route.reach_distance_m": 1.5}, 0)
	want := [][2]float64{{0, -15}, {0, 15}, {15, 15}, {15, -15}}
	if !reflect.DeepEqual(l.Route.Waypoints, want) || !l.Route.Loop || l.Route.ReachDistance != 1.5 || l.Route.Graph != "city.default" {
		t.Errorf("route %+v, want the city's own with the loop and reach given", l.Route)
	}
	for _, graph := range []string{"elsewhere", ""} {
		params := map[string]any{"route.waypoints": hint}
		if graph != "" {
			params["waypoint.graph"] = graph
		}
		l := build(t, tr, params, 0)
		if len(l.Route.Waypoints) != 7 || l.Route.Waypoints[2] != [2]float64{10, 0} {
			t.Errorf("graph %q: route %v, want the waypoints given", graph, l.Route.Waypoints)
		}
	}
}
