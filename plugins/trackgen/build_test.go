package trackgen

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"simgui/plugins"
)

func TestRegistry(t *testing.T) {
	if got := Names(); !slices.Equal(got, []string{"cardboard_corridor", "cardboard_maze", "city_grid", "maze", "roads", "static"}) {
		t.Errorf("Names() = %v", got)
	}
	_, err := Lookup("spiral")
	if err == nil || err.Error() != `unknown track generator "spiral" (known: cardboard_corridor, cardboard_maze, city_grid, maze, roads, static)` {
		t.Errorf("Lookup = %v", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("duplicate Register did not panic")
		}
	}()
	Register("maze", Func(maze), plugins.FloorNone)
}

func TestUnknownGenerator(t *testing.T) {
	tr := builtinTrack(t, "track.basic_arena.v1")
	tr.Generator = "spiral"
	if _, err := Build(tr, nil, 1); err == nil || !strings.Contains(err.Error(), `build track.basic_arena.v1: unknown track generator "spiral"`) {
		t.Errorf("err = %v", err)
	}
}

// TestBuiltinTracksBuild builds every built-in at its defaults, twice, and checks the layout
// is sound: deterministic, valid elements, the spawn on the floor and clear of solids, the
// route on the floor.
func TestBuiltinTracksBuild(t *testing.T) {
	for _, id := range plugins.Builtin().Tracks() {
		t.Run(id, func(t *testing.T) {
			tr := builtinTrack(t, id)
			l := build(t, tr, defaults(t, tr), 42)
			if again := build(t, tr, defaults(t, tr), 42); !reflect.DeepEqual(l, again) {
				t.Error("two builds with the same inputs differ")
			}
			check := &plugins.TrackDescriptor{ID: "layout", DisplayName: "layout", Floor: &l.Floor, Elements: l.Elements}
			if err := check.CheckSimulation(); err != nil {
				t.Error(err)
			}
			onFloor := func(p [2]float64) bool {
				return math.Abs(p[0]-l.Floor.X) < l.Floor.Length/2 && math.Abs(p[1]-l.Floor.Y) < l.Floor.Width/2
			}
			if len(l.SpawnPoints) == 0 || l.Route == nil || len(l.Route.Waypoints) == 0 || l.Route.ReachDistance <= 0 {
				t.Fatalf("spawn %v route %+v", l.SpawnPoints, l.Route)
			}
			s := [2]float64{l.SpawnPoints[0].X, l.SpawnPoints[0].Y}
			if !onFloor(s) || inSolid(l.Elements, s, 0.1) {
				t.Errorf("spawn %v off the floor or in a wall", s)
			}
			for _, w := range l.Route.Waypoints {
				if !onFloor(w) || inSolid(l.Elements, w, 0.05) {
					t.Errorf("waypoint %v off the floor or in a wall", w)
				}
			}
			if len(tr.Elements) > 0 && len(l.Elements) > 0 && &tr.Elements[0] == &l.Elements[0] {
				t.Error("layout shares elements with the descriptor")
			}
		})
	}
}

func TestBasicArenaPerReference(t *testing.T) {
	l := build(t, builtinTrack(t, "track.basic_arena.v1"), nil, 1)
	if l.Floor.Length != 34 || l.Floor.Width != 34 {
		t.Errorf("floor %+v", l.Floor)
	}
	roads, plazas, boxes, barriers := 0, 0, 0, 0
	for _, e := range l.Elements {
		switch {
		case e.Kind == plugins.ElementRoad && e.Width == 3.0:
			roads++
		case e.Kind == plugins.ElementPolygon:
			plazas++
		case e.Kind == plugins.ElementBox && e.Movable && e.Mass > 0:
			boxes++
		case e.Kind == plugins.ElementWall && e.Length == 34 && near(math.Max(math.Abs(e.X), math.Abs(e.Y)), 16.9, 1e-9):
			barriers++
		}
	}
	if roads != 3 || plazas != 4 || boxes != 3 || barriers != 4 {
		t.Errorf("roads %d plazas %d boxes %d barriers %d", roads, plazas, boxes, barriers)
	}
	if s := l.SpawnPoints[0]; s.X != 0 || s.Y != -7.5 || s.YawDeg != 90 {
		t.Errorf("spawn %+v", s)
	}
	want := [][2]float64{{0, -7.5}, {0, -1}, {6, -1}, {6, 5}}
	if !reflect.DeepEqual(l.Route.Waypoints, want) || l.Route.ReachDistance != 1.5 {
		t.Errorf("route %+v", l.Route)
	}
}

func TestCommonParams(t *testing.T) {
	tr := builtinTrack(t, "track.basic_arena.v1")
	for _, tc := range []struct {
		name   string
		params map[string]any
		spawn  plugins.SpawnPoint
		route  plugins.Route
	}{
		{"none", nil, plugins.SpawnPoint{Name: "start", X: 0, Y: -7.5, YawDeg: 90},
			plugins.Route{Waypoints: [][2]float64{{0, -7.5}, {0, -1}, {6, -1}, {6, 5}}, ReachDistance: 1.5}},
		{"position", map[string]any{"spawn.position": "1.5,-2"}, plugins.SpawnPoint{Name: "start", X: 1.5, Y: -2, YawDeg: 90},
			plugins.Route{Waypoints: [][2]float64{{0, -7.5}, {0, -1}, {6, -1}, {6, 5}}, ReachDistance: 1.5}},
		{"position xyz and yaw string", map[string]any{"spawn.position": " 1, 2, 0.2", "spawn.yaw_deg": "-30"},
			plugins.SpawnPoint{Name: "start", X: 1, Y: 2, YawDeg: -30},
			plugins.Route{Waypoints: [][2]float64{{0, -7.5}, {0, -1}, {6, -1}, {6, 5}}, ReachDistance: 1.5}},
		{"waypoints place the spawn", map[string]any{"route.waypoints": "-6,-8;-6,-1;4,2;6,8", "route.reach_distance_m": "1.2", "route.loop": "true"},
			plugins.SpawnPoint{Name: "start", X: -6, Y: -8, YawDeg: 90},
			plugins.Route{Waypoints: [][2]float64{{-6, -8}, {-6, -1}, {4, 2}, {6, 8}}, ReachDistance: 1.2, Loop: true}},
		{"waypoints then explicit yaw", map[string]any{"route.waypoints": "0,0;3,3;", "spawn.yaw_deg": 10},
			plugins.SpawnPoint{Name: "start", X: 0, Y: 0, YawDeg: 10},
			plugins.Route{Waypoints: [][2]float64{{0, 0}, {3, 3}}}}, // the track's 1.5 m reach was for its own route
		{"waypoints and position", map[string]any{"route.waypoints": "0,0;3,4", "spawn.position": "1,1"},
			plugins.SpawnPoint{Name: "start", X: 1, Y: 1, YawDeg: 90},
			plugins.Route{Waypoints: [][2]float64{{0, 0}, {3, 4}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := build(t, tr, tc.params, 1)
			if len(l.SpawnPoints) != 1 || l.SpawnPoints[0] != tc.spawn {
				t.Errorf("spawn %+v, want %+v", l.SpawnPoints, tc.spawn)
			}
			if !reflect.DeepEqual(*l.Route, tc.route) {
				t.Errorf("route %+v, want %+v", *l.Route, tc.route)
			}
		})
	}
	l := build(t, tr, map[string]any{"route.waypoints": "0,0;3,4"}, 1)
	if !near(l.SpawnPoints[0].YawDeg, math.Atan2(4, 3)*180/math.Pi, 1e-12) {
		t.Errorf("spawn yaw %v does not face the second waypoint", l.SpawnPoints[0].YawDeg)
	}

	// A client's route does not loop because the track's own did.
	city := builtinTrack(t, "track.city_polygon.v1")
	if l := build(t, city, nil, 1); l.Route == nil || !l.Route.Loop {
		t.Fatalf("the city's own route %+v does not loop", l.Route)
	}
	if l := build(t, city, map[string]any{"route.waypoints": "1,1;2,2;9,9"}, 1); l.Route.Loop || l.Route.ReachDistance != 0 || l.Route.GoalRadius != 0 {
		t.Errorf("the client's route on the city %+v, want no loop and the default reach", l.Route)
	}

	_, err := Build(tr, map[string]any{"spawn.position": "here", "route.loop": "yes"}, 1)
	var pe plugins.ParamErrors
	if !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), "world.params.route.loop: ") || len(pe) != 2 {
		t.Errorf("bad params: %v", err)
	}
}

// TestSchemalessTrack builds rusim's exported city demo, which has no geometry or schema.
func TestSchemalessTrack(t *testing.T) {
	tr := &plugins.TrackDescriptor{ID: "track.city_demo.v1", DisplayName: "City Demo", Version: plugins.ContractVersion{Major: 1}}
	l := build(t, tr, map[string]any{"weather": "rain"}, 1)
	if l.Floor.Length != 20 || len(l.Elements) != 0 || l.Route != nil {
		t.Errorf("layout %+v", l)
	}
	// rusim's default spawn, Unity (0, 0.2, −6) facing +z: (0, −6) facing north here.
	if want := (plugins.SpawnPoint{Name: "start", X: 0, Y: -6, YawDeg: 90}); len(l.SpawnPoints) != 1 || l.SpawnPoints[0] != want {
		t.Errorf("spawn %+v, want rusim's default %+v", l.SpawnPoints, want)
	}
	l = build(t, tr, map[string]any{"spawn.position": "2,3"}, 1)
	if len(l.SpawnPoints) != 1 || l.SpawnPoints[0].X != 2 || l.SpawnPoints[0].Y != 3 || l.SpawnPoints[0].YawDeg != 90 {
		t.Errorf("spawn.position alone: spawn %+v, want (2, 3) still facing north", l.SpawnPoints)
	}
	l = build(t, tr, map[string]any{"route.waypoints": "1,1;1,5"}, 1)
	if len(l.SpawnPoints) != 1 || l.SpawnPoints[0].X != 1 || l.SpawnPoints[0].YawDeg != 90 {
		t.Errorf("spawn %+v", l.SpawnPoints)
	}
}

// TestGeneratedTracksKeepOwnElements: a box added to any track's descriptor is in its layout,
// where the descriptor puts it, whatever its generator lays.
func TestGeneratedTracksKeepOwnElements(t *testing.T) {
	seen := map[string]bool{}
	for _, id := range plugins.Builtin().Tracks() {
		tr := builtinTrack(t, id)
		gen := tr.Generator
		if gen == "" {
			gen = plugins.StaticGenerator
		}
		seen[gen] = true
		box := plugins.Element{Kind: plugins.ElementBox, Name: "user.box", X: 0.37, Y: -0.21, Length: 0.1, Width: 0.1, Height: 0.1, Color: "#ff0000"}
		tr.Elements = append(tr.Elements, box)
		l := build(t, tr, defaults(t, tr), 3)
		got, ok := byName(l.Elements, "user.box")
		if !ok || got.X != box.X || got.Y != box.Y || got.Kind != box.Kind {
			t.Errorf("%s (%s): the descriptor's box is %+v, %v in the layout", id, gen, got, ok)
		}
	}
	for _, name := range Names() {
		if !seen[name] {
			t.Errorf("generator %s has no built-in track to check", name)
		}
	}
}

// TestWaypointsBounded: route.waypoints of plugins.MaxWaypoints points builds; one more is a
// parameter error, before the layout is made.
func TestWaypointsBounded(t *testing.T) {
	arena := builtinTrack(t, "track.basic_arena.v1")
	pts := make([]string, plugins.MaxWaypoints+1)
	for i := range pts {
		pts[i] = fmt.Sprintf("%d,%d", i%10, i/10%10)
	}
	l := build(t, arena, map[string]any{"route.waypoints": strings.Join(pts[:plugins.MaxWaypoints], ";")}, 1)
	if n := len(l.Route.Waypoints); n != plugins.MaxWaypoints {
		t.Fatalf("%d waypoints built, want %d", n, plugins.MaxWaypoints)
	}
	if _, err := Build(arena, map[string]any{"route.waypoints": strings.Join(pts, ";")}, 1); err == nil || !strings.Contains(err.Error(), "at most") {
		t.Errorf("%d waypoints: %v, want refused", len(pts), err)
	}
	// A descriptor's own route is held to the same bound.
	long := arena.Clone()
	long.Route.Waypoints = make([][2]float64, plugins.MaxWaypoints+1)
	if err := plugins.CheckLayout(&plugins.Layout{Floor: *long.Floor, Route: long.Route}); err == nil || !strings.Contains(err.Error(), "at most") {
		t.Errorf("a layout with %d waypoints: %v", len(long.Route.Waypoints), err)
	}
}
