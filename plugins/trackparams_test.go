package plugins

import (
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
)

func builtinTrack(t *testing.T, id string) *TrackDescriptor {
	t.Helper()
	tr, err := Builtin().Track(id)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestValidateTrackParams(t *testing.T) {
	corridor := builtinTrack(t, "track.cardboard_corridor.v1")
	maze := builtinTrack(t, "track.maze.v1")
	ok := map[string]any{"length": 2.0, "width": 0.6}
	with := func(kv ...any) map[string]any {
		m := map[string]any{"length": 2.0, "width": 0.6}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	for _, tc := range []struct {
		name   string
		track  *TrackDescriptor
		params map[string]any
		want   string // "" = valid
	}{
		{"valid", corridor, ok, ""},
		{"numbers as strings", corridor, map[string]any{"length": "3", "width": " 0.8 "}, ""},
		{"ints", corridor, map[string]any{"length": 3, "width": int64(1)}, ""},
		{"common params", corridor, with("spawn.position", "0,-0.85", "spawn.yaw_deg", "90", "route.waypoints", "0,-.55;0,-.15;.18,0;.60,0;",
			"route.loop", "true", "route.reach_distance_m", "0.25"), ""},
		{"3d position", corridor, with("spawn.position", "0, 0.01, -0.85"), ""},
		{"above maximum", corridor, with("width", 5), "world.params.width: 5 is above the maximum 2.0"},
		{"below minimum", corridor, with("length", "0.5"), "world.params.length: 0.5 is below the minimum 1.0"},
		{"exclusive minimum", corridor, with("route.reach_distance_m", 0), "world.params.route.reach_distance_m: 0 must be above 0"},
		{"bad type", corridor, with("width", "wide"), `world.params.width: "wide" is a string, expected a number`},
		{"number out of range", corridor, with("width", "1e400"), `world.params.width: 1e400 is out of range of a number (at most about ±1.8e308)`},
		{"bool for number", corridor, with("width", true), `world.params.width: true is a boolean, expected a number`},
		{"bad boolean", corridor, with("route.loop", "maybe"), `world.params.route.loop: "maybe" is a string, expected a boolean`},
		{"number for string", corridor, with("floor_texture", 3), `world.params.floor_texture: 3 is a number, expected a string`},
		{"enum miss", corridor, with("floor_texture", "wood"), `world.params.floor_texture: "wood" is not one of "plywood", "carpet", "tile"`},
		{"missing required", &TrackDescriptor{ID: "track.required.v1", ParametersSchemaJSON: `{"type": "object", "required": ["length", "width"]}`},
			map[string]any{"floor_texture": "tile"},
			"world.params.length: missing; this track requires it; world.params.width: missing; this track requires it"},
		{"unknown key", corridor, with("colour", "red"),
			"world.params.colour: unknown parameter (known: controller.profile, corridor.width_m, floor_texture, goal.radius_m, length, obstacle.count, route.loop, route.reach_distance_m, route.waypoints, spawn.position, spawn.yaw_deg, waypoint.graph, width)"},
		{"pattern", corridor, with("spawn.position", "north"), `world.params.spawn.position: "north" is not in the form x,y or x,y,z in metres, world frame`},
		{"waypoints pattern", corridor, with("route.waypoints", "1,2;3"), `world.params.route.waypoints: "1,2;3" is not in the form x,y;x,y;... in metres, world frame`},
		{"integer", maze, map[string]any{"rows": 2.5}, "world.params.rows: 2.5 is a number, expected an integer"},
		{"integer string", maze, map[string]any{"rows": "12", "maze.seed": "7"}, ""},
		{"two problems sorted", maze, map[string]any{"rows": 40, "cell": 0.1}, "world.params.cell: 0.1 is below the minimum 0.4; world.params.rows: 40 is above the maximum 30"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := ValidateTrackParams(tc.track, tc.params)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			if err.Error() != tc.want {
				t.Errorf("error\n got %q\nwant %q", err, tc.want)
			}
			var pe ParamErrors
			if !errors.As(err, &pe) || len(pe) == 0 || strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not a one-line ParamErrors: %#v", err)
			}
		})
	}
}

func TestResolveTrackParamsCoercesAndDefaults(t *testing.T) {
	got, err := ResolveTrackParams(builtinTrack(t, "track.maze.v1"), map[string]any{"rows": "12", "route.loop": "false", "cell": 1})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"rows": 12.0, "route.loop": false, "cell": 1.0, "cols": 8.0, "wall_height": 0.25, "floor_texture": "plywood"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v\nwant %#v", got, want)
	}
	defs, err := TrackParamDefaults(builtinTrack(t, "track.cardboard_corridor.v1"))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(defs, map[string]any{"length": 2.0, "width": 0.6, "floor_texture": "plywood"}) {
		t.Errorf("corridor defaults %#v", defs)
	}
}

func TestParamErrorsPrefix(t *testing.T) {
	err := ValidateTrackParams(builtinTrack(t, "track.maze.v1"), map[string]any{"rows": 1})
	var pe ParamErrors
	if !errors.As(err, &pe) {
		t.Fatal(err)
	}
	pe.SetPrefix("agents.vehicles[0].trackParams")
	if got := pe.Error(); got != "agents.vehicles[0].trackParams.rows: 1 is below the minimum 2" {
		t.Errorf("got %q", got)
	}
}

func TestSchemaCompiledOnceAndSafeConcurrently(t *testing.T) {
	tr := builtinTrack(t, "track.basic_arena.v1")
	a, err := compiledSchema(tr.ParametersSchemaJSON)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if b, _ := compiledSchema(tr.ParametersSchemaJSON); b != a {
				t.Error("schema compiled twice")
			}
			if err := ValidateTrackParams(tr, map[string]any{"route.loop": "true"}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	bad := &TrackDescriptor{ID: "t", DisplayName: "T", ParametersSchemaJSON: `{"type": "object", "properties": {"a": {"type": "nonsense"}}}`}
	if err := bad.CheckSimulation(); err == nil || !strings.Contains(err.Error(), "parametersSchemaJson") {
		t.Errorf("bad schema: %v", err)
	}
	if err := ValidateTrackParams(bad, nil); err == nil {
		t.Error("validation against a bad schema passed")
	}
}

// TestSchemaShapeReadsKeywordsOnly: a parameter named $ref and a $ref inside an enum's data
// are not references; the schema compiles and checks values.
func TestSchemaShapeReadsKeywordsOnly(t *testing.T) {
	tr := &TrackDescriptor{ID: "track.names.v1", ParametersSchemaJSON: `{"type": "object", "properties": {
		"$ref": {"type": "string"}, "pick": {"enum": [{"$ref": "#"}, "plain"]}}}`}
	if err := ValidateTrackParams(tr, map[string]any{"$ref": "x", "pick": "plain"}); err != nil {
		t.Fatalf("valid parameters refused: %v", err)
	}
	if err := ValidateTrackParams(tr, map[string]any{"pick": "other"}); err == nil {
		t.Error("a value outside the enum passed")
	}
}
