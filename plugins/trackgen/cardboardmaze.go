package trackgen

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"simgui/plugins"
)

func init() { Register("cardboard_maze", Func(cardboardMaze), plugins.FloorNone) }

// rusim's cardboard maze (CardboardMazeTrack and MazeGenerator in uav-simulator/uavsimulator):
// a corridor one cell wide that walks a 40 × 40 grid from cell (20, 20), heading north.
const (
	cmGrid          = 40
	cmStart         = 20
	cmMaxBacktracks = 20         // in a row, before generation gives up
	cmStream        = 0x636d617a // "cmaz": the walk's PCG stream
	cmMarkerMax     = 0.14       // m, largest finish marker
	cmMarkerZ       = 0.15       // m, height of the marker's centre (lower on low walls)
	cmMarkerID      = 1          // the finish marker's ArUco id (the corridor's end is 0)
	cmFloorColor    = "#b8936a"  // the corridor's wooden floor
	cmSurround      = "#bfbfbf"  // the floor around it
	cmSurroundSize  = 10.0       // m, rusim's surrounding floor
)

// cmCell is a grid cell: x grows east, y north (rusim's x and z).
type cmCell struct{ x, y int }

// cmDirs are north, east, south, west; turning left is -1, right +1 (mod 4).
var cmDirs = [4]cmCell{{0, 1}, {1, 0}, {0, -1}, {-1, 0}}

func (c cmCell) step(d int) cmCell { return cmCell{c.x + cmDirs[d].x, c.y + cmDirs[d].y} }

func (c cmCell) inGrid() bool { return c.x >= 0 && c.x < cmGrid && c.y >= 0 && c.y < cmGrid }

// cardboardMaze builds rusim's procedural cardboard corridor. Parameters (rusim's names):
// maze.seed, maze.length_cells, maze.corridor_width_m (the cell size), maze.left_turns and
// maze.right_turns (turn budgets), maze.wall_height_m, and maze.path_encoded, an explicit
// path "x,y;x,y;..." of grid cells that replaces the walk. The walk's random numbers are
// simgui's own (rusim's C# and Python walks differ too; rusim's clients send the path).
func cardboardMaze(td *plugins.TrackDescriptor, p Params, _ int64) (*plugins.Layout, error) {
	r := p.Reader()
	seed := r.Int("maze.seed", 42)
	length := r.Int("maze.length_cells", 8)
	w := r.Float("maze.corridor_width_m", 0.6)
	left, right := r.Int("maze.left_turns", 2), r.Int("maze.right_turns", 2)
	h := r.Float("maze.wall_height_m", 0.25)
	encoded := r.String("maze.path_encoded", "")
	if err := r.Err(); err != nil {
		return nil, err
	}
	var path []cmCell
	var err error
	if strings.TrimSpace(encoded) != "" {
		if path, err = decodeMazePath(encoded); err != nil {
			return nil, &plugins.ParamError{Prefix: "world.params", Key: "maze.path_encoded", Problem: err.Error()}
		}
	} else if path, err = mazeWalk(int64(seed), length, left, right); err != nil {
		return nil, &plugins.ParamError{Prefix: "world.params", Key: "maze.seed", Problem: err.Error()}
	}
	l := mazeLayout(path, w, h)
	l.Elements = withOwn(l.Elements, td)
	return l, nil
}

// mazeWalk walks from the start cell heading north for length cells: at each cell it picks
// among going forward (weight 2) and turning left or right (weight 1 each, while that turn's
// budget lasts) into a free grid cell; at a dead end it steps back, returning the turn budget
// it spent. More than cmMaxBacktracks steps back in a row, or twice that without getting
// further than before, is a failure.
func mazeWalk(seed int64, length, leftTurns, rightTurns int) ([]cmCell, error) {
	rng := rand.New(rand.NewPCG(uint64(seed), cmStream))
	start := cmCell{cmStart, cmStart}
	path := []cmCell{start}
	turns := []int{} // turns[i]: the turn taken into path[i+1]: -1, 0 or +1
	used := map[cmCell]bool{start: true}
	budget := map[int]int{-1: leftTurns, 1: rightTurns}
	dir := 0
	backInRow, sinceBest, best := 0, 0, 1
	type move struct{ dir, turn int }
	for len(path) < length {
		last := path[len(path)-1]
		var moves []move
		total := 0
		for _, t := range []int{0, -1, 1} {
			if t != 0 && budget[t] <= 0 {
				continue
			}
			d := (dir + t + 4) % 4
			if next := last.step(d); next.inGrid() && !used[next] {
				moves = append(moves, move{d, t})
				total += 1 + boolInt(t == 0)
			}
		}
		if len(moves) == 0 {
			if len(path) == 1 {
				return nil, fmt.Errorf("seed %d leaves the start with no way on; change maze.seed or the turn budgets", seed)
			}
			t := turns[len(turns)-1]
			path, turns = path[:len(path)-1], turns[:len(turns)-1]
			delete(used, last)
			if t != 0 {
				budget[t]++
			}
			dir = 0
			for _, t := range turns {
				dir = (dir + t + 4) % 4
			}
			backInRow++
			sinceBest++
			if backInRow > cmMaxBacktracks || sinceBest > 2*cmMaxBacktracks {
				return nil, fmt.Errorf("seed %d: the walk got stuck at %d of %d cells; change maze.seed, shorten maze.length_cells or give more turns", seed, best, length)
			}
			continue
		}
		roll := rng.IntN(total)
		m := moves[len(moves)-1]
		for _, c := range moves {
			roll -= 1 + boolInt(c.turn == 0)
			if roll < 0 {
				m = c
				break
			}
		}
		next := last.step(m.dir)
		path, turns = append(path, next), append(turns, m.turn)
		used[next] = true
		dir = m.dir
		if m.turn != 0 {
			budget[m.turn]--
		}
		backInRow = 0
		if len(path) > best {
			best, sinceBest = len(path), 0
		}
	}
	return path, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// decodeMazePath reads "x,y;x,y;..." grid cells: at least two, each inside the 40 × 40 grid,
// each a side neighbour of the one before, none twice.
func decodeMazePath(s string) ([]cmCell, error) {
	var path []cmCell
	seen := map[cmCell]bool{}
	for part := range strings.SplitSeq(s, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		xs := strings.Split(part, ",")
		if len(xs) != 2 {
			return nil, fmt.Errorf("cell %q is not x,y", part)
		}
		var c cmCell
		var err error
		if c.x, err = strconv.Atoi(strings.TrimSpace(xs[0])); err == nil {
			c.y, err = strconv.Atoi(strings.TrimSpace(xs[1]))
		}
		switch {
		case err != nil:
			return nil, fmt.Errorf("cell %q is not two whole numbers", part)
		case !c.inGrid():
			return nil, fmt.Errorf("cell %q is outside the %d×%d grid", part, cmGrid, cmGrid)
		case seen[c]:
			return nil, fmt.Errorf("cell %q comes twice", part)
		}
		if n := len(path); n > 0 {
			if d := abs(c.x-path[n-1].x) + abs(c.y-path[n-1].y); d != 1 {
				return nil, fmt.Errorf("cell %q is not next to the cell before it", part)
			}
		}
		seen[c] = true
		path = append(path, c)
		if len(path) > cmGrid*cmGrid {
			return nil, fmt.Errorf("more than %d cells", cmGrid*cmGrid)
		}
	}
	if len(path) < 2 {
		return nil, fmt.Errorf("%q has fewer than two cells", s)
	}
	return path, nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// mazeLayout lays the path out: cell (x, y) centred at ((x−20)·w, (y−20)·w), a wall of
// cardboard on every cell side without a path neighbour, a square of wooden floor per cell, the
// finish marker on the wall the last cell is approached towards, the spawn on the first cell
// facing the second, and a route through every cell's centre with the goal radius 0.4·w.
func mazeLayout(path []cmCell, w, h float64) *plugins.Layout {
	on := make(map[cmCell]bool, len(path))
	for _, c := range path {
		on[c] = true
	}
	centre := func(c cmCell) [2]float64 {
		return [2]float64{float64(c.x-cmStart) * w, float64(c.y-cmStart) * w}
	}
	const t = cardboardThickness
	var elements []plugins.Element
	line := make([][2]float64, len(path))
	for i, c := range path {
		line[i] = centre(c)
	}
	for i, c := range path {
		m := centre(c)
		h := w / 2
		elements = append(elements, plugins.Element{Kind: plugins.ElementPolygon, Name: fmt.Sprintf("floor.%d", i), Color: cmFloorColor,
			Points: [][2]float64{{m[0] - h, m[1] - h}, {m[0] + h, m[1] - h}, {m[0] + h, m[1] + h}, {m[0] - h, m[1] + h}}})
	}
	for i, c := range path {
		m := centre(c)
		for d, dd := range cmDirs {
			if on[c.step(d)] {
				continue
			}
			x, y := m[0]+float64(dd.x)*w/2, m[1]+float64(dd.y)*w/2
			yaw := 0.0
			if dd.x != 0 {
				yaw = 90
			}
			elements = append(elements, plugins.Element{Kind: plugins.ElementWall, Name: fmt.Sprintf("wall.%d.%s", i, "nesw"[d:d+1]),
				X: x, Y: y, Length: w + t, Width: t, Height: h, YawDeg: yaw, Color: cardboardColor, Friction: cardboardFriction})
		}
	}
	last, prev := path[len(path)-1], path[len(path)-2]
	in := cmCell{last.x - prev.x, last.y - prev.y}
	lc := centre(last)
	// The marker and its white margin (a third more than its side) stay below the wall's top.
	side := min(cmMarkerMax, w/2, 0.6*h)
	marker := plugins.Element{Kind: plugins.ElementMarker, Name: "aruco.finish",
		X: lc[0] + float64(in.x)*(w/2-t/2-0.001), Y: lc[1] + float64(in.y)*(w/2-t/2-0.001), Z: min(cmMarkerZ, h-side*4/6-0.005),
		Length: side, YawDeg: math.Atan2(-float64(in.y), -float64(in.x)) * 180 / math.Pi, Color: "#000000", ArucoID: new(cmMarkerID)}
	elements = append(elements, marker)

	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range line {
		minX, minY, maxX, maxY = math.Min(minX, p[0]), math.Min(minY, p[1]), math.Max(maxX, p[0]), math.Max(maxY, p[1])
	}
	half := cmSurroundSize / 2
	minX, minY = math.Min(minX-w, -half), math.Min(minY-w, -half)
	maxX, maxY = math.Max(maxX+w, half), math.Max(maxY+w, half)
	start := line[0]
	return &plugins.Layout{
		Floor:       plugins.Floor{X: (minX + maxX) / 2, Y: (minY + maxY) / 2, Length: maxX - minX, Width: maxY - minY, Texture: "tile", Color: cmSurround},
		Elements:    elements,
		SpawnPoints: []plugins.SpawnPoint{{Name: "start", X: start[0], Y: start[1], YawDeg: headingDeg(start, line[1])}},
		Route:       &plugins.Route{Waypoints: append([][2]float64(nil), line...), ReachDistance: 0.4 * w, GoalRadius: 0.4 * w},
	}
}
