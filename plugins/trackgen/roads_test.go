package trackgen

import (
	"math"
	"strings"
	"testing"

	"simgui/plugins"
)

func TestRoadsBarriersLieHalfAWidthOut(t *testing.T) {
	for _, tc := range []struct {
		id     string
		params map[string]any
	}{
		{"track.roadsystem_arena.v1", nil},
		{"track.roadsystem_realistic.v2", nil},
		{"track.roadsystem_arena.v1", map[string]any{"road.width": "4.0", "barrier.height": 0.5}},
		{"track.roadsystem_realistic.v2", map[string]any{"road.width": 2}},
	} {
		tr := builtinTrack(t, tc.id)
		l := build(t, tr, tc.params, 1)
		resolved, err := plugins.ResolveTrackParams(tr, tc.params)
		if err != nil {
			t.Fatal(err)
		}
		road, ok := byName(l.Elements, "road.main")
		if !ok {
			t.Fatalf("%s: no road.main", tc.id)
		}
		width, height := resolved["road.width"].(float64), resolved["barrier.height"].(float64)
		if road.Width != width {
			t.Errorf("%s: road width %v, want %v", tc.id, road.Width, width)
		}
		// The road passes through every control point.
		src := builtinTrack(t, tc.id).Elements[0].Points
		for _, p := range src {
			if distToPolyline(p, road.Points) > 1e-9 {
				t.Errorf("%s: road misses control point %v", tc.id, p)
			}
		}
		sides := map[string]int{}
		for _, e := range l.Elements {
			if e.Kind != plugins.ElementWall {
				continue
			}
			side := "left"
			if strings.Contains(e.Name, ".barrier.right.") {
				side = "right"
			}
			sides[side]++
			inner := distToPolyline([2]float64{e.X, e.Y}, road.Points) - e.Width/2
			if !near(inner, width/2, 0.012) {
				t.Errorf("%s: %s inner face %.4f m from the centreline, want %.4f", tc.id, e.Name, inner, width/2)
			}
			if e.Length > barrierSegment+e.Width+1e-9 || e.Height != height {
				t.Errorf("%s: %s is %v long, %v high", tc.id, e.Name, e.Length, e.Height)
			}
		}
		if sides["left"] < 20 || sides["right"] < 20 {
			t.Errorf("%s: barrier pieces %v", tc.id, sides)
		}
		// Both edges are lined: every centreline vertex away from the ends has a barrier piece
		// beside it on each side.
		d := width/2 + barrierThickness/2
		for i := 4; i < len(road.Points)-4; i++ {
			for _, side := range []float64{1, -1} {
				p := offset(road.Points, side*d)[i]
				if distToPolyline(p, road.Points) < 0.995*d {
					continue // inside a tight bend, where that side's edge folds away
				}
				if !inSolid(l.Elements, p, 0.03) {
					t.Errorf("%s: no barrier at %v beside road vertex %d", tc.id, p, i)
				}
			}
		}
		if onRoad := [2]float64{l.SpawnPoints[0].X, l.SpawnPoints[0].Y}; distToPolyline(onRoad, road.Points) > width/2 {
			t.Errorf("%s: spawn %v is off the road", tc.id, onRoad)
		}
	}
}

func TestRoadsPerReference(t *testing.T) {
	arena := build(t, builtinTrack(t, "track.roadsystem_arena.v1"), nil, 1)
	real := build(t, builtinTrack(t, "track.roadsystem_realistic.v2"), nil, 1)
	if s := arena.SpawnPoints[0]; s.X != -6 || s.Y != -8.5 || s.YawDeg != 90 {
		t.Errorf("arena spawn %+v", s)
	}
	if s := real.SpawnPoints[0]; s.X != -11 || s.Y != -11.8 || s.YawDeg != 87 {
		t.Errorf("realistic spawn %+v", s)
	}
	count := func(l *plugins.Layout, part string) int {
		n := 0
		for _, e := range l.Elements {
			if strings.Contains(e.Name, part) {
				n++
			}
		}
		return n
	}
	if count(arena, ".curb.") != 0 || count(arena, ".dash.") != 0 {
		t.Error("the arena has curbs or markings")
	}
	if count(real, ".curb.left.") < 20 || count(real, ".curb.right.") < 20 || count(real, ".dash.") < 10 {
		t.Errorf("realistic: %d/%d curbs, %d dashes", count(real, ".curb.left."), count(real, ".curb.right."), count(real, ".dash."))
	}
	// Curbs and dashes lie above the road, so that 3D views show their colours.
	for _, e := range real.Elements {
		if strings.Contains(e.Name, ".curb.") || strings.Contains(e.Name, ".dash.") {
			if road, _ := byName(real.Elements, "road.main"); !(e.Z > road.Z) {
				t.Fatalf("%s lies at z %g, the road at %g", e.Name, e.Z, road.Z)
			}
		}
	}
	if w, _ := byName(arena.Elements, "road.main.barrier.left.0"); w.Height != 0.28 {
		t.Errorf("arena barrier height %v", w.Height)
	}
	if w, _ := byName(real.Elements, "road.main.barrier.left.0"); w.Height != 0.34 {
		t.Errorf("realistic barrier height %v", w.Height)
	}
	if real.Route.ReachDistance != 1.5 || len(real.Route.Waypoints) != 6 {
		t.Errorf("realistic route %+v", real.Route)
	}
}

func TestRoadsNeedARoad(t *testing.T) {
	tr := builtinTrack(t, "track.roadsystem_arena.v1")
	tr.Elements = nil
	if _, err := Build(tr, nil, 1); err == nil || !strings.Contains(err.Error(), "no road element") {
		t.Errorf("err = %v", err)
	}
}

func TestCatmullRomAndResample(t *testing.T) {
	// A straight line stays straight and keeps its ends.
	line := catmullRom([][2]float64{{0, 0}, {2, 0}, {2, 0}, {4, 0}}, 0.25)
	if line[0] != [2]float64{0, 0} || line[len(line)-1] != [2]float64{4, 0} || len(line) != 17 {
		t.Errorf("line %v", line)
	}
	for _, p := range line {
		if math.Abs(p[1]) > 1e-12 {
			t.Errorf("straight spline left the line at %v", p)
		}
	}
	r := resample([][2]float64{{0, 0}, {1, 0}, {1, 1}}, 0.3)
	want := [][2]float64{{0, 0}, {0.3, 0}, {0.6, 0}, {0.9, 0}, {1, 0.2}, {1, 0.5}, {1, 0.8}, {1, 1}}
	for i := range want {
		if i >= len(r) || !near(r[i][0], want[i][0], 1e-9) || !near(r[i][1], want[i][1], 1e-9) {
			t.Fatalf("resample = %v, want %v", r, want)
		}
	}
}
