package trackgen

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"simgui/plugins"
)

// mazeTurns counts the left and right turns along a path of cells.
func mazeTurns(path [][2]float64) (left, right int) {
	for i := 2; i < len(path); i++ {
		a := [2]float64{path[i-1][0] - path[i-2][0], path[i-1][1] - path[i-2][1]}
		b := [2]float64{path[i][0] - path[i-1][0], path[i][1] - path[i-1][1]}
		switch cross := a[0]*b[1] - a[1]*b[0]; {
		case cross > 1e-9:
			left++
		case cross < -1e-9:
			right++
		}
	}
	return left, right
}

// The walk makes a corridor of length cells, side neighbours one after the other, none twice,
// within its turn budgets, from (0, 0) heading north; walls close every side that has no
// corridor neighbour and leave the others open; the same seed gives the same corridor.
func TestCardboardMazeWalk(t *testing.T) {
	tr := builtinTrack(t, "track.cardboard_maze.v1")
	for _, tc := range []struct {
		seed, length, left, right int
		w                         float64
	}{{42, 8, 2, 2, 0.6}, {7, 20, 3, 1, 0.45}, {42, 5, 0, 1, 0.6}, {1, 5, 0, 0, 0.7}, {999999, 30, 6, 6, 0.45}} {
		params := map[string]any{"maze.seed": tc.seed, "maze.length_cells": tc.length, "maze.left_turns": tc.left,
			"maze.right_turns": tc.right, "maze.corridor_width_m": tc.w}
		l := build(t, tr, params, 0)
		path := l.Route.Waypoints
		if len(path) != tc.length {
			t.Fatalf("%+v: %d cells", tc, len(path))
		}
		if path[0] != [2]float64{0, 0} || l.SpawnPoints[0].X != 0 || l.SpawnPoints[0].Y != 0 {
			t.Errorf("%+v: starts at %v, spawn %+v", tc, path[0], l.SpawnPoints[0])
		}
		if want := headingDeg(path[0], path[1]); l.SpawnPoints[0].YawDeg != want {
			t.Errorf("%+v: spawn faces %g, the second cell is at %g", tc, l.SpawnPoints[0].YawDeg, want)
		}
		seen := map[[2]float64]bool{}
		for i, p := range path {
			if seen[p] {
				t.Fatalf("%+v: cell %v twice", tc, p)
			}
			seen[p] = true
			if i > 0 && math.Abs(math.Hypot(p[0]-path[i-1][0], p[1]-path[i-1][1])-tc.w) > 1e-9 {
				t.Fatalf("%+v: cell %d is not next to cell %d", tc, i, i-1)
			}
		}
		if left, right := mazeTurns(path); left > tc.left || right > tc.right {
			t.Errorf("%+v: %d left and %d right turns", tc, left, right)
		}
		for _, p := range path {
			for _, d := range [][2]float64{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				n := [2]float64{p[0] + d[0]*tc.w, p[1] + d[1]*tc.w}
				edge := [2]float64{p[0] + d[0]*tc.w/2, p[1] + d[1]*tc.w/2}
				if walled := inSolid(l.Elements, edge, 0); walled == nearIn(seen, n) {
					t.Fatalf("%+v: the side of %v towards %v: wall %v, neighbour in the corridor %v", tc, p, n, walled, nearIn(seen, n))
				}
			}
		}
		if l.Route.GoalRadius != 0.4*tc.w || l.Route.ReachDistance != 0.4*tc.w {
			t.Errorf("%+v: goal %g reach %g", tc, l.Route.GoalRadius, l.Route.ReachDistance)
		}
		if again := build(t, tr, params, 99); !reflect.DeepEqual(l, again) {
			t.Errorf("%+v: the same maze.seed gave another corridor (the run seed must not matter)", tc)
		}
	}
	a := build(t, tr, map[string]any{"maze.seed": 1}, 0).Route.Waypoints
	b := build(t, tr, map[string]any{"maze.seed": 2}, 0).Route.Waypoints
	if reflect.DeepEqual(a, b) {
		t.Error("seeds 1 and 2 gave the same corridor")
	}
}

func nearIn(set map[[2]float64]bool, p [2]float64) bool {
	for q := range set {
		if math.Abs(q[0]-p[0]) < 1e-9 && math.Abs(q[1]-p[1]) < 1e-9 {
			return true
		}
	}
	return false
}

// maze.path_encoded replaces the walk: rusim's 30-cell path of cardboard-maze-bc, cell (x, y)
// at ((x−20)·w, (y−20)·w), with the finish marker on the wall the last cell is entered towards.
func TestCardboardMazePathEncoded(t *testing.T) {
	tr := builtinTrack(t, "track.cardboard_maze.v1")
	const enc = "20,20;20,21;19,21;18,21;18,22;17,22;16,22;16,23;17,23;17,24;17,25;18,25;18,26;19,26;19,25;19,24;19,23;19,22;20,22;21,22;22,22;23,22;24,22;24,23;24,24;24,25;24,26;24,27;24,28;24,29"
	l := build(t, tr, map[string]any{"maze.path_encoded": enc, "maze.corridor_width_m": "0.45", "maze.seed": "43"}, 0)
	cells := strings.Split(enc, ";")
	if len(l.Route.Waypoints) != len(cells) {
		t.Fatalf("%d waypoints for %d cells", len(l.Route.Waypoints), len(cells))
	}
	if got := l.Route.Waypoints[len(cells)-1]; math.Abs(got[0]-4*0.45) > 1e-9 || math.Abs(got[1]-9*0.45) > 1e-9 {
		t.Errorf("last cell (24, 29) at %v", got)
	}
	m, ok := byName(l.Elements, "aruco.finish")
	if !ok || math.Abs(m.Y-(9*0.45+0.45/2-0.011)) > 1e-9 || m.YawDeg != -90 {
		t.Errorf("finish marker %+v", m)
	}
	// On the lowest walls the marker and its margin still fit below the top.
	for _, h := range []float64{0.15, 0.25, 0.4} {
		l := build(t, tr, map[string]any{"maze.path_encoded": enc, "maze.wall_height_m": h}, 0)
		m, _ := byName(l.Elements, "aruco.finish")
		if m.ArucoID == nil || *m.ArucoID != cmMarkerID || m.Z+m.Length*2/3 > h || m.Z-m.Length*2/3 < 0 {
			t.Errorf("walls %g m high: finish marker %+v (aruco id %v), want ArUco marker %d below the top", h, m, m.ArucoID, cmMarkerID)
		}
	}
	for _, tc := range []struct{ enc, want string }{
		{"20,20;21,21", `"21,21" is not next to the cell before it`},
		{"20,20;20,21;20,20", `"20,20" comes twice`},
		{"20,20", "fewer than two cells"},
		{"39,0;40,0", "outside the 40×40 grid"},
	} {
		_, err := Build(tr, map[string]any{"maze.path_encoded": tc.enc}, 0)
		if err == nil || !strings.Contains(err.Error(), "world.params.maze.path_encoded") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v", tc.enc, err)
		}
	}
}

// A walk that cannot reach its length is an error naming the seed, not a hang: with no turns
// the corridor runs north from row 20 and ends at the grid's edge after 20 cells.
func TestCardboardMazeStuckWalk(t *testing.T) {
	tr := builtinTrack(t, "track.cardboard_maze.v1")
	_, err := Build(tr, map[string]any{"maze.length_cells": 25, "maze.left_turns": 0, "maze.right_turns": 0}, 0)
	if err == nil || !strings.Contains(err.Error(), "world.params.maze.seed") || !strings.Contains(err.Error(), "got stuck at 20 of 25 cells") {
		t.Fatalf("err = %v", err)
	}
	var pe *plugins.ParamError
	if !errors.As(err, &pe) {
		t.Fatalf("%T is not a ParamError", err)
	}
}
