package trackgen

import (
	"fmt"
	"math/rand/v2"

	"simgui/plugins"
)

func init() { Register("maze", Func(maze), plugins.FloorNone) }

// mazeStream is the PCG stream of maze carving, so the maze does not share a sequence with
// other users of the same seed.
const mazeStream = 0x6d617a65 // "maze"

// grid is a maze of rows × cols cells. h[r][c] is the wall on the south edge of row r (r = rows
// is the north edge), v[r][c] the wall on the west edge of column c (c = cols the east edge).
type grid struct {
	rows, cols int
	h, v       [][]bool
}

func newGrid(rows, cols int) *grid {
	g := &grid{rows: rows, cols: cols}
	g.h = make([][]bool, rows+1)
	for r := range g.h {
		g.h[r] = make([]bool, cols)
		for c := range g.h[r] {
			g.h[r][c] = true
		}
	}
	g.v = make([][]bool, rows)
	for r := range g.v {
		g.v[r] = make([]bool, cols+1)
		for c := range g.v[r] {
			g.v[r][c] = true
		}
	}
	return g
}

type cell struct{ r, c int }

// Directions in a fixed order: north, east, south, west.
var dirs = [4]cell{{1, 0}, {0, 1}, {-1, 0}, {0, -1}}

func (g *grid) inside(x cell) bool { return x.r >= 0 && x.r < g.rows && x.c >= 0 && x.c < g.cols }

// wall returns the wall between x and its neighbour in direction d.
func (g *grid) wall(x cell, d int) *bool {
	switch d {
	case 0:
		return &g.h[x.r+1][x.c]
	case 1:
		return &g.v[x.r][x.c+1]
	case 2:
		return &g.h[x.r][x.c]
	default:
		return &g.v[x.r][x.c]
	}
}

// carve makes a perfect maze by randomized depth-first search from cell (0, 0).
func (g *grid) carve(rng *rand.Rand) {
	visited := make([][]bool, g.rows)
	for r := range visited {
		visited[r] = make([]bool, g.cols)
	}
	stack := []cell{{0, 0}}
	visited[0][0] = true
	var open [4]int
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		n := 0
		for d, dd := range dirs {
			y := cell{x.r + dd.r, x.c + dd.c}
			if g.inside(y) && !visited[y.r][y.c] {
				open[n] = d
				n++
			}
		}
		if n == 0 {
			stack = stack[:len(stack)-1]
			continue
		}
		d := open[rng.IntN(n)]
		y := cell{x.r + dirs[d].r, x.c + dirs[d].c}
		*g.wall(x, d) = false
		visited[y.r][y.c] = true
		stack = append(stack, y)
	}
}

// solve returns the cells from (0, 0) to the last cell.
func (g *grid) solve() []cell {
	from := make(map[cell]cell, g.rows*g.cols)
	start, goal := cell{0, 0}, cell{g.rows - 1, g.cols - 1}
	from[start] = start
	queue := []cell{start}
	for len(queue) > 0 && queue[0] != goal {
		x := queue[0]
		queue = queue[1:]
		for d, dd := range dirs {
			y := cell{x.r + dd.r, x.c + dd.c}
			if _, seen := from[y]; g.inside(y) && !seen && !*g.wall(x, d) {
				from[y] = x
				queue = append(queue, y)
			}
		}
	}
	path := []cell{goal}
	for x := goal; x != start; {
		x = from[x]
		path = append(path, x)
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return path
}

// maze builds a seeded perfect maze centred on the origin: rows count north, columns east.
func maze(td *plugins.TrackDescriptor, p Params, seed int64) (*plugins.Layout, error) {
	r := p.Reader()
	rows, cols := r.Int("rows", 8), r.Int("cols", 8)
	size := r.Float("cell", 0.6)
	height := r.Float("wall_height", 0.25)
	texture := r.String("floor_texture", "plywood")
	if p.Has("maze.seed") {
		seed = int64(r.Int("maze.seed", 0))
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	if rows < 2 || cols < 2 || size <= 0 {
		return nil, fmt.Errorf("need at least 2×2 cells of positive size, got %d×%d of %g m", rows, cols, size)
	}
	g := newGrid(rows, cols)
	g.carve(rand.New(rand.NewPCG(uint64(seed), mazeStream)))

	x0, y0 := -float64(cols)*size/2, -float64(rows)*size/2
	centre := func(x cell) [2]float64 {
		return [2]float64{x0 + (float64(x.c)+0.5)*size, y0 + (float64(x.r)+0.5)*size}
	}
	const t = cardboardThickness
	wall := func(name string, x, y, length, yaw float64) plugins.Element {
		return plugins.Element{Kind: plugins.ElementWall, Name: name, X: x, Y: y, Length: length + t, Width: t,
			Height: height, YawDeg: yaw, Color: cardboardColor, Friction: cardboardFriction}
	}
	var elements []plugins.Element
	// Runs of walls along one grid line become one element each.
	for row := 0; row <= rows; row++ {
		for c := 0; c < cols; {
			if !g.h[row][c] {
				c++
				continue
			}
			c0 := c
			for c < cols && g.h[row][c] {
				c++
			}
			elements = append(elements, wall(fmt.Sprintf("wall.h.%d.%d", row, c0),
				x0+float64(c0+c)/2*size, y0+float64(row)*size, float64(c-c0)*size, 0))
		}
	}
	for col := 0; col <= cols; col++ {
		for rr := 0; rr < rows; {
			if !g.v[rr][col] {
				rr++
				continue
			}
			r0 := rr
			for rr < rows && g.v[rr][col] {
				rr++
			}
			elements = append(elements, wall(fmt.Sprintf("wall.v.%d.%d", col, r0),
				x0+float64(col)*size, y0+float64(r0+rr)/2*size, float64(rr-r0)*size, 90))
		}
	}

	path := g.solve()
	var waypoints [][2]float64
	for i := 1; i < len(path)-1; i++ {
		in := cell{path[i].r - path[i-1].r, path[i].c - path[i-1].c}
		out := cell{path[i+1].r - path[i].r, path[i+1].c - path[i].c}
		if in != out {
			waypoints = append(waypoints, centre(path[i]))
		}
	}
	waypoints = append(waypoints, centre(path[len(path)-1]))
	start := centre(path[0])

	const margin = 0.2
	return &plugins.Layout{
		Floor: plugins.Floor{Length: float64(cols)*size + 2*margin, Width: float64(rows)*size + 2*margin,
			Texture: texture, Color: floorColors[texture]},
		Elements:    withOwn(elements, td),
		SpawnPoints: []plugins.SpawnPoint{{Name: "start", X: start[0], Y: start[1], YawDeg: headingDeg(start, centre(path[1]))}},
		Route:       &plugins.Route{Waypoints: waypoints, ReachDistance: 0.4 * size},
	}, nil
}
