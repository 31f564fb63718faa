package raycast

import "math"

// dynGrid buckets the moving shapes by the cell of their centre, so that a query around a
// point visits the shapes near it instead of all of them: with a thousand robots in an arena,
// each robot's sonar would otherwise test every other robot on every ray.
type dynGrid struct {
	x0, y0, cell float64
	nx, ny       int
	maxR         float64 // the largest bounding radius
	start        []int32 // start[c]..start[c+1] index items for cell c
	items        []int32 // indices into Caster.dyn
}

// gridMinShapes is how many moving shapes make a grid worth building.
const gridMinShapes = 64

// build indexes prims; a grid is only built for many shapes.
func (g *dynGrid) build(prims []prim) {
	g.nx, g.ny = 0, 0
	if len(prims) < gridMinShapes {
		return
	}
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	g.maxR = 0
	for i := range prims {
		p := &prims[i]
		minX, maxX = math.Min(minX, p.cx), math.Max(maxX, p.cx)
		minY, maxY = math.Min(minY, p.cy), math.Max(maxY, p.cy)
		g.maxR = math.Max(g.maxR, p.br)
	}
	// About one shape per cell on average, never smaller than a shape.
	area := math.Max((maxX-minX)*(maxY-minY), 1e-6)
	g.cell = math.Max(math.Sqrt(area/float64(len(prims))), 2*g.maxR)
	g.x0, g.y0 = minX, minY
	g.nx = int((maxX-minX)/g.cell) + 1
	g.ny = int((maxY-minY)/g.cell) + 1
	if g.nx*g.ny > 4*len(prims) { // degenerate spread: keep the index small
		g.nx, g.ny = 0, 0
		return
	}
	cells := g.nx * g.ny
	g.start = resize(g.start, cells+1)
	clear(g.start)
	for i := range prims {
		g.start[g.cellOf(prims[i].cx, prims[i].cy)+1]++
	}
	for c := 1; c <= cells; c++ {
		g.start[c] += g.start[c-1]
	}
	g.items = resize(g.items, len(prims))
	fill := append([]int32(nil), g.start[:cells]...)
	for i := range prims {
		c := g.cellOf(prims[i].cx, prims[i].cy)
		g.items[fill[c]] = int32(i)
		fill[c]++
	}
}

func (g *dynGrid) cellOf(x, y float64) int {
	i := min(max(int((x-g.x0)/g.cell), 0), g.nx-1)
	j := min(max(int((y-g.y0)/g.cell), 0), g.ny-1)
	return j*g.nx + i
}

// inBox calls f with the index of every shape whose centre lies in a cell that the box
// [x0, x1] × [y0, y1], widened by the largest shape, touches; ok is false when there is no grid
// (or the box is not finite) and the caller must look at every shape.
func (g *dynGrid) inBox(x0, y0, x1, y1 float64, f func(i int32)) (ok bool) {
	if g.nx == 0 || !finite(x0) || !finite(y0) || !finite(x1) || !finite(y1) {
		return false
	}
	r := g.maxR
	i0 := max(int(math.Floor((x0-r-g.x0)/g.cell)), 0)
	i1 := min(int(math.Floor((x1+r-g.x0)/g.cell)), g.nx-1)
	j0 := max(int(math.Floor((y0-r-g.y0)/g.cell)), 0)
	j1 := min(int(math.Floor((y1+r-g.y0)/g.cell)), g.ny-1)
	for j := j0; j <= j1; j++ {
		for i := i0; i <= i1; i++ {
			c := j*g.nx + i
			for _, it := range g.items[g.start[c]:g.start[c+1]] {
				f(it)
			}
		}
	}
	return true
}

func finite(v float64) bool { return !math.IsInf(v, 0) && !math.IsNaN(v) }

func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
