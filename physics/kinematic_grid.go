package physics

import "math"

// The broad phase of the kinematic solver: movers hashed by the cell of their centre into a
// grid rebuilt every substep, the track's shapes into every cell they overlap, rebuilt when
// the track changes. Buckets are filled by a counting sort, so building allocates nothing once
// the arrays have grown, and every scan runs in mover order: the pairs come out the same for
// the same state.

// staticCell is the static grid's cell size in metres (at least the movers' cell).
const staticCell = 1.0

// maxStaticCells is the most cells one track shape is listed in; a larger one is checked
// against every mover instead.
const maxStaticCells = 4096

// moverGrid buckets movers by the cell of their centre.
type moverGrid struct {
	inv   float64 // 1 / cell size
	shift uint    // 32 - log2(buckets)
	start []int32 // bucket b holds order[start[b]:start[b+1]]
	fill  []int32
	order []int32
	at    []uint32 // each mover's bucket
}

func cellHash(cx, cy int32, shift uint) uint32 {
	return (uint32(cx)*0x9E3779B1 ^ uint32(cy)*0x85EBCA77) * 0x9E3779B1 >> shift
}

// bucketsFor returns a power-of-two bucket count at least twice n, and its hash shift.
func bucketsFor(n int) (int, uint) {
	size, bits := 16, uint(4)
	for size < 2*n && bits < 30 {
		size, bits = size*2, bits+1
	}
	return size, 32 - bits
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// build buckets the movers with the given cell size.
func (g *moverGrid) build(movers []kstate, cell float64) {
	n := len(movers)
	size, shift := bucketsFor(n)
	g.inv, g.shift = 1/cell, shift
	g.start = grow(g.start, size+1)
	g.fill = grow(g.fill, size)
	g.order = grow(g.order, n)
	g.at = grow(g.at, n)
	clear(g.start)
	for i := range movers {
		m := &movers[i]
		m.cx, m.cy = int32(math.Floor(m.x*g.inv)), int32(math.Floor(m.y*g.inv))
		h := cellHash(m.cx, m.cy, shift)
		g.at[i] = h
		g.start[h+1]++
	}
	for b := 1; b <= size; b++ {
		g.start[b] += g.start[b-1]
	}
	copy(g.fill, g.start[:size])
	for i, h := range g.at {
		g.order[g.fill[h]] = int32(i)
		g.fill[h]++
	}
}

// staticGrid lists the track's shapes in every cell of staticCell they overlap.
type staticGrid struct {
	dirty   bool
	shift   uint
	start   []int32
	entries []staticEntry
	big     []int32
	stamp   []uint32 // the query that last found each shape, so a query lists it once
	query   uint32
}

type staticEntry struct {
	cx, cy int32
	shape  int32
}

// build lists every shape of statics in the cells it overlaps.
func (g *staticGrid) build(statics []kstatic) {
	g.dirty = false
	g.big = g.big[:0]
	var raw []staticEntry
	for i := range statics {
		st := &statics[i]
		ex, ey := extent(&st.geom)
		x0, x1 := cellOf(st.x-ex, staticCell), cellOf(st.x+ex, staticCell)
		y0, y1 := cellOf(st.y-ey, staticCell), cellOf(st.y+ey, staticCell)
		if float64(x1-x0+1)*float64(y1-y0+1) > maxStaticCells {
			g.big = append(g.big, int32(i))
			continue
		}
		for cy := y0; cy <= y1; cy++ {
			for cx := x0; cx <= x1; cx++ {
				if st.circle || boxMeetsCell(&st.geom, cx, cy) {
					raw = append(raw, staticEntry{cx: cx, cy: cy, shape: int32(i)})
				}
			}
		}
	}
	size, shift := bucketsFor(len(raw))
	g.shift = shift
	g.start = grow(g.start, size+1)
	clear(g.start)
	for _, e := range raw {
		g.start[cellHash(e.cx, e.cy, shift)+1]++
	}
	for b := 1; b <= size; b++ {
		g.start[b] += g.start[b-1]
	}
	fill := make([]int32, size)
	copy(fill, g.start[:size])
	g.entries = grow(g.entries, len(raw))
	for _, e := range raw {
		h := cellHash(e.cx, e.cy, shift)
		g.entries[fill[h]] = e
		fill[h]++
	}
	g.stamp = make([]uint32, len(statics))
	g.query = 0
}

func cellOf(v, cell float64) int32 { return int32(math.Floor(v / cell)) }

// extent returns the half sizes of g's axis-aligned bounding box.
func extent(g *geom) (ex, ey float64) {
	if g.circle {
		return g.hx, g.hx
	}
	c, s := math.Abs(g.c), math.Abs(g.s)
	return c*g.hx + s*g.hy, s*g.hx + c*g.hy
}

// boxMeetsCell reports whether the oriented box g overlaps static cell (cx, cy), on the box's
// own axes (the cell's axes are the bounding-box range the caller walks).
func boxMeetsCell(g *geom, cx, cy int32) bool {
	h := staticCell / 2
	mx, my := (float64(cx)+0.5)*staticCell-g.x, (float64(cy)+0.5)*staticCell-g.y
	// The cell's half extent along a unit axis u is h·(|ux| + |uy|).
	cellHalf := h * (math.Abs(g.c) + math.Abs(g.s))
	return math.Abs(mx*g.c+my*g.s) <= g.hx+cellHalf && math.Abs(-mx*g.s+my*g.c) <= g.hy+cellHalf
}

// broadPhase lists the pairs that may touch during this substep: movers against movers
// (each pair once, owned by the lower index) and movers against the track, grouped by owner
// in mover order and sorted by partner ID within each group.
func (k *kinematic) broadPhase(margin float64) {
	k.pairs, k.onTrack = k.pairs[:0], k.onTrack[:0]
	if len(k.movers) == 0 {
		return
	}
	g := &k.grid
	g.build(k.movers, 2*k.maxR+margin)
	if k.walls.dirty {
		k.walls.build(k.statics)
	}
	n := len(k.movers)
	k.trackAt = grow(k.trackAt, n+1)
	k.adjAt = grow(k.adjAt, n+1)
	clear(k.adjAt)
	for i := range k.movers {
		a := &k.movers[i]
		first := len(k.pairs)
		for cy := a.cy - 1; cy <= a.cy+1; cy++ {
			for cx := a.cx - 1; cx <= a.cx+1; cx++ {
				h := cellHash(cx, cy, g.shift)
				for _, j := range g.order[g.start[h]:g.start[h+1]] {
					if int(j) <= i {
						continue
					}
					b := &k.movers[j]
					if b.cx != cx || b.cy != cy {
						continue
					}
					dx, dy, reach := b.x-a.x, b.y-a.y, a.r+b.r+margin
					if dx*dx+dy*dy > reach*reach || !k.collides(a, b) {
						continue
					}
					k.pairs = append(k.pairs, candidate{a: int32(i), b: j})
				}
			}
		}
		sortByPartner(k.pairs[first:], func(c *candidate) (uint32, int32) { return uint32(c.b), c.b })
		k.trackAt[i] = int32(len(k.onTrack))
		if len(k.statics) > 0 {
			first = len(k.onTrack)
			k.trackNear(int32(i), a, margin)
			sortByPartner(k.onTrack[first:], func(c *candidate) (uint32, int32) { return k.statics[c.b].body.ID, c.b })
		}
	}
	k.trackAt[n] = int32(len(k.onTrack))
	// Every pair in both movers' neighbour lists, in pair order.
	for _, c := range k.pairs {
		k.adjAt[c.a+1]++
		k.adjAt[c.b+1]++
	}
	for i := 1; i <= n; i++ {
		k.adjAt[i] += k.adjAt[i-1]
	}
	k.adj = grow(k.adj, 2*len(k.pairs))
	fill := append(k.adjFill[:0], k.adjAt[:n]...)
	for _, c := range k.pairs {
		k.adj[fill[c.a]] = c.b
		fill[c.a]++
		k.adj[fill[c.b]] = c.a
		fill[c.b]++
	}
	k.adjFill = fill
}

// trackNear appends the track shapes near mover i.
func (k *kinematic) trackNear(i int32, a *kstate, margin float64) {
	g := &k.walls
	g.query++
	if g.query == 0 { // wrapped: forget every stamp
		clear(g.stamp)
		g.query = 1
	}
	reach := a.r + margin
	x0, x1 := cellOf(a.x-reach, staticCell), cellOf(a.x+reach, staticCell)
	y0, y1 := cellOf(a.y-reach, staticCell), cellOf(a.y+reach, staticCell)
	consider := func(s int32) {
		if g.stamp[s] == g.query {
			return
		}
		g.stamp[s] = g.query
		st := &k.statics[s]
		if a.flying && !overlapsZ(a.body, st.body) {
			return
		}
		ex, ey := extent(&st.geom)
		if math.Abs(st.x-a.x) > ex+reach || math.Abs(st.y-a.y) > ey+reach {
			return
		}
		k.onTrack = append(k.onTrack, candidate{a: i, b: s, static: true})
	}
	for cy := y0; cy <= y1; cy++ {
		for cx := x0; cx <= x1; cx++ {
			h := cellHash(cx, cy, g.shift)
			for _, e := range g.entries[g.start[h]:g.start[h+1]] {
				if e.cx == cx && e.cy == cy {
					consider(e.shape)
				}
			}
		}
	}
	for _, s := range g.big {
		consider(s)
	}
}

// sortByPartner sorts a small group of candidates by (partner ID, shape): insertion sort, as
// groups hold a handful.
func sortByPartner(cs []candidate, key func(*candidate) (uint32, int32)) {
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0; j-- {
			a1, a2 := key(&cs[j-1])
			b1, b2 := key(&cs[j])
			if a1 < b1 || (a1 == b1 && a2 <= b2) {
				break
			}
			cs[j-1], cs[j] = cs[j], cs[j-1]
		}
	}
}
