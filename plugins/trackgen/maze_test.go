package trackgen

import (
	"math"
	"reflect"
	"testing"

	"simgui/plugins"
)

// mazeGraph recovers a maze's cells and openings from its layout alone: two neighbouring cells
// are connected when the midpoint of the edge between them is in no wall.
type mazeGraph struct {
	rows, cols int
	x0, y0, s  float64
	l          *plugins.Layout
}

func newMazeGraph(l *plugins.Layout, rows, cols int, s float64) *mazeGraph {
	return &mazeGraph{rows: rows, cols: cols, x0: -float64(cols) * s / 2, y0: -float64(rows) * s / 2, s: s, l: l}
}

func (g *mazeGraph) centre(r, c int) [2]float64 {
	return [2]float64{g.x0 + (float64(c)+0.5)*g.s, g.y0 + (float64(r)+0.5)*g.s}
}

// open reports whether cell (r, c) opens towards (r+dr, c+dc); the neighbour may be outside.
func (g *mazeGraph) open(r, c, dr, dc int) bool {
	a := g.centre(r, c)
	mid := [2]float64{a[0] + float64(dc)*g.s/2, a[1] + float64(dr)*g.s/2}
	return !inSolid(g.l.Elements, mid, 0)
}

func (g *mazeGraph) cellOf(p [2]float64) (int, int) {
	return int(math.Floor((p[1] - g.y0) / g.s)), int(math.Floor((p[0] - g.x0) / g.s))
}

func TestMazeIsPerfect(t *testing.T) {
	tr := builtinTrack(t, "track.maze.v1")
	for _, tc := range []struct {
		rows, cols int
		cell       float64
		seed       int64
	}{{8, 8, 0.6, 1}, {2, 2, 0.4, 2}, {30, 30, 0.5, 3}, {5, 17, 1.0, 4}, {13, 3, 2.0, -9}} {
		l := build(t, tr, map[string]any{"rows": tc.rows, "cols": tc.cols, "cell": tc.cell}, tc.seed)
		g := newMazeGraph(l, tc.rows, tc.cols, tc.cell)
		dirs := [][2]int{{1, 0}, {0, 1}, {-1, 0}, {0, -1}}
		// Outer walls closed; count inner openings.
		openings := 0
		for r := range tc.rows {
			for c := range tc.cols {
				for _, d := range dirs {
					nr, nc := r+d[0], c+d[1]
					inside := nr >= 0 && nr < tc.rows && nc >= 0 && nc < tc.cols
					if !inside && g.open(r, c, d[0], d[1]) {
						t.Errorf("%dx%d: outer wall open at cell (%d,%d)", tc.rows, tc.cols, r, c)
					}
					if inside && g.open(r, c, d[0], d[1]) {
						openings++
					}
				}
			}
		}
		cells := tc.rows * tc.cols
		if openings/2 != cells-1 {
			t.Errorf("%dx%d: %d openings, a perfect maze has %d", tc.rows, tc.cols, openings/2, cells-1)
		}
		// Flood fill from the spawn cell reaches every cell.
		sr, sc := g.cellOf([2]float64{l.SpawnPoints[0].X, l.SpawnPoints[0].Y})
		if sr != 0 || sc != 0 {
			t.Errorf("spawn in cell (%d,%d), want (0,0)", sr, sc)
		}
		seen := map[[2]int]bool{{sr, sc}: true}
		queue := [][2]int{{sr, sc}}
		for len(queue) > 0 {
			x := queue[0]
			queue = queue[1:]
			for _, d := range dirs {
				y := [2]int{x[0] + d[0], x[1] + d[1]}
				if y[0] >= 0 && y[0] < tc.rows && y[1] >= 0 && y[1] < tc.cols && !seen[y] && g.open(x[0], x[1], d[0], d[1]) {
					seen[y] = true
					queue = append(queue, y)
				}
			}
		}
		if len(seen) != cells {
			t.Errorf("%dx%d: %d of %d cells reachable from the start", tc.rows, tc.cols, len(seen), cells)
		}
		// The spawn faces an open side.
		yaw := l.SpawnPoints[0].YawDeg * math.Pi / 180
		dr, dc := int(math.Round(math.Sin(yaw))), int(math.Round(math.Cos(yaw)))
		if dr*dr+dc*dc != 1 || !g.open(0, 0, dr, dc) {
			t.Errorf("%dx%d: spawn yaw %v faces a wall", tc.rows, tc.cols, l.SpawnPoints[0].YawDeg)
		}
		// The route runs straight between waypoints through open cells to the last cell.
		wps := l.Route.Waypoints
		if last := g.centre(tc.rows-1, tc.cols-1); wps[len(wps)-1] != last {
			t.Errorf("route ends at %v, want %v", wps[len(wps)-1], last)
		}
		prev := g.centre(0, 0)
		for _, w := range wps {
			pr, pc := g.cellOf(prev)
			wr, wc := g.cellOf(w)
			if pr != wr && pc != wc {
				t.Fatalf("route leg %v → %v is not straight", prev, w)
			}
			for pr != wr || pc != wc {
				dr, dc := sign(wr-pr), sign(wc-pc)
				if !g.open(pr, pc, dr, dc) {
					t.Fatalf("route goes through a wall at cell (%d,%d)", pr, pc)
				}
				pr, pc = pr+dr, pc+dc
			}
			prev = w
		}
		if !near(l.Route.ReachDistance, 0.4*tc.cell, 1e-12) {
			t.Errorf("reach %v", l.Route.ReachDistance)
		}
	}
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

func TestMazeSeeds(t *testing.T) {
	tr := builtinTrack(t, "track.maze.v1")
	a := build(t, tr, nil, 1)
	if b := build(t, tr, nil, 1); !reflect.DeepEqual(a, b) {
		t.Error("same run seed, different mazes")
	}
	if b := build(t, tr, nil, 2); reflect.DeepEqual(a.Elements, b.Elements) {
		t.Error("run seeds 1 and 2 gave the same maze")
	}
	x := build(t, tr, map[string]any{"maze.seed": 7}, 1)
	y := build(t, tr, map[string]any{"maze.seed": "7"}, 99)
	if !reflect.DeepEqual(x, y) {
		t.Error("maze.seed does not override the run seed")
	}
	if reflect.DeepEqual(x.Elements, a.Elements) {
		t.Error("maze.seed 7 gave the run-seed-1 maze")
	}
	if l := build(t, tr, map[string]any{"floor_texture": "tile", "wall_height": 0.4}, 1); l.Floor.Texture != "tile" || l.Elements[0].Height != 0.4 {
		t.Errorf("floor %+v wall %+v", l.Floor, l.Elements[0])
	}
}
