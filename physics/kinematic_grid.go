package physics

import "math"

// The broad phase of the kinematic solver: movers hashed by the cell of their centre into a
// grid rebuilt every substep, the track's shapes into every cell they come near, rebuilt when
// the track changes. Buckets are filled by counting sorts, so building allocates nothing once
// the arrays have grown, and every scan runs in a fixed order: the pairs come out the same for
// the same state.

// staticCell is the static grid's cell size in metres.
const staticCell = 1.0

// maxStaticCells is the most cells one track shape is listed in; a larger one is checked
// against every mover instead.
const maxStaticCells = 4096

// moverGrid buckets movers by the cell of their centre. Where the movers' bounding box holds
// few enough cells (a fleet in an arena) the buckets are those cells, row by row with a border
// of empty ones, and a neighbour is an index away; otherwise cells are hashed into buckets. The
// buckets hold compact copies of what the pair scan reads, so that it walks one small array.
type moverGrid struct {
	inv   float64 // 1 / cell size
	dense bool
	w     int32   // a dense grid's row length
	shift uint    // a hashed grid's 32 - log2(buckets)
	start []int32 // bucket b holds items[start[b]:start[b+1]]
	fill  []int32
	items []gridItem
	at    []uint32   // each mover's bucket
	cells [][2]int32 // and cell
}

// gridItem is a mover as the pair scan sees it; end is the end of its bucket in items.
type gridItem struct {
	x, y, r float64
	cx, cy  int32
	idx     int32
	bucket  int32
	end     int32
	vehicle bool
	flying  bool
}

// denseCells bounds a dense grid: at most this many cells per mover, beyond a floor.
const (
	denseCellsPerMover = 4
	denseCellsFloor    = 4096
)

func cellHash(cx, cy int32, shift uint) uint32 {
	return (uint32(cx)*0x9E3779B1 ^ uint32(cy)*0x85EBCA77) * 0x9E3779B1 >> shift
}

// bucketsFor returns a power-of-two bucket count at least n, and its hash shift.
func bucketsFor(n int) (int, uint) {
	size, bits := 16, uint(4)
	for size < n && bits < 30 {
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
	g.inv = 1 / cell
	g.at = grow(g.at, n)
	g.cells = grow(g.cells, n)
	var x0, x1, y0, y1 int32 = math.MaxInt32, math.MinInt32, math.MaxInt32, math.MinInt32
	for i := range movers {
		m := &movers[i]
		cx, cy := int32(math.Floor(m.x*g.inv)), int32(math.Floor(m.y*g.inv))
		g.cells[i] = [2]int32{cx, cy}
		x0, x1, y0, y1 = min(x0, cx), max(x1, cx), min(y0, cy), max(y1, cy)
	}
	w, h := int64(x1)-int64(x0)+3, int64(y1)-int64(y0)+3
	size := 0
	if g.dense = w*h <= int64(denseCellsPerMover*n+denseCellsFloor); g.dense {
		g.w, size = int32(w), int(w*h)
		for i, c := range g.cells {
			g.at[i] = uint32((c[1]-y0+1)*g.w + c[0] - x0 + 1)
		}
	} else {
		size, g.shift = bucketsFor(n)
		for i, c := range g.cells {
			g.at[i] = cellHash(c[0], c[1], g.shift)
		}
	}
	g.start = grow(g.start, size+1)
	g.fill = grow(g.fill, size)
	g.items = grow(g.items, n)
	clear(g.start)
	for _, b := range g.at {
		g.start[b+1]++
	}
	for b := 1; b <= size; b++ {
		g.start[b] += g.start[b-1]
	}
	copy(g.fill, g.start[:size])
	for i, b := range g.at {
		// Field by field: a composite literal is built on the stack and copied in 16-byte
		// moves that cannot take their halves from the 8-byte stores just made, which stalled
		// this loop for most of the grid's build.
		m, it := &movers[i], &g.items[g.fill[b]]
		it.x, it.y, it.r = m.x, m.y, m.r
		it.cx, it.cy, it.idx = g.cells[i][0], g.cells[i][1], int32(i)
		it.bucket, it.end = int32(b), g.start[b+1]
		it.vehicle, it.flying = m.vehicle, m.flying
		g.fill[b]++
	}
}

// staticGrid lists each track shape in every cell of staticCell it comes within pad of: a
// mover whose reach is within pad finds every shape near it in the one cell of its centre.
type staticGrid struct {
	dirty   bool
	pad     float64
	shift   uint
	start   []int32
	entries []staticEntry
	big     []int32
}

type staticEntry struct {
	cx, cy int32
	shape  int32
}

// build lists every shape of statics in the cells it comes within pad of.
func (g *staticGrid) build(statics []kstatic, pad float64) {
	g.dirty, g.pad = false, pad
	g.big = g.big[:0]
	var raw []staticEntry
	for i := range statics {
		st := &statics[i]
		ex, ey := extent(&st.geom)
		x0, x1 := cellOf(st.x-ex-pad, staticCell), cellOf(st.x+ex+pad, staticCell)
		y0, y1 := cellOf(st.y-ey-pad, staticCell), cellOf(st.y+ey+pad, staticCell)
		if float64(x1-x0+1)*float64(y1-y0+1) > maxStaticCells {
			g.big = append(g.big, int32(i))
			continue
		}
		for cy := y0; cy <= y1; cy++ {
			for cx := x0; cx <= x1; cx++ {
				if st.circle || boxMeetsCell(&st.geom, cx, cy, pad) {
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

// boxMeetsCell reports whether the oriented box g, grown by pad on every side, overlaps static
// cell (cx, cy), on the box's own axes (the cell's axes are the bounding-box range the caller
// walks).
func boxMeetsCell(g *geom, cx, cy int32, pad float64) bool {
	h := staticCell / 2
	mx, my := (float64(cx)+0.5)*staticCell-g.x, (float64(cy)+0.5)*staticCell-g.y
	// The cell's half extent along a unit axis u is h·(|ux| + |uy|).
	cellHalf := h * (math.Abs(g.c) + math.Abs(g.s))
	return math.Abs(mx*g.c+my*g.s) <= g.hx+pad+cellHalf && math.Abs(-mx*g.s+my*g.c) <= g.hy+pad+cellHalf
}

// halfShell are the neighbour cells a cell pairs with; the other four pair with it from
// their side.
var halfShell = [4][2]int32{{1, 0}, {-1, 1}, {0, 1}, {1, 1}}

// broadPhase lists the pairs whose bounding circles are within broadMargin plus skin of each
// other: movers against movers (each pair once, owned by the lower index) and movers against
// the track, grouped by owner in mover order and sorted by partner ID within each group, and
// each mover's neighbours. A fleet large enough to be split scans its grid and lists its
// track in parts on the team (broadParts): a broad phase costs about as much as a whole step,
// and one core alone made every tenth step or so twice as long as the rest. The parts' lists
// are joined in order, so the lists are the same as one core makes.
func (k *kinematic) broadPhase(skin float64) {
	k.raw, k.pairs, k.onTrack = k.raw[:0], k.pairs[:0], k.onTrack[:0]
	n := len(k.movers)
	k.skin, k.listN, k.listStale = skin, n, false
	margin := broadMargin + skin
	if n == 0 {
		k.split.on = false
		return
	}
	g := &k.grid
	g.build(k.movers, 2*k.maxR+margin)
	if need := k.maxR + margin; k.walls.dirty || need > k.walls.pad {
		// Grown by half again, so that a faster substep now and then does not rebuild it.
		k.walls.build(k.statics, max(need, k.walls.pad)*1.5)
	}
	parts, items := k.broadParts(n), len(g.items)
	k.team.run(parts, func(p int) {
		k.rawParts[p] = k.scanPairs(p*items/parts, (p+1)*items/parts, margin, k.rawParts[p][:0])
	})
	for p := range parts {
		k.raw = append(k.raw, k.rawParts[p]...)
	}
	// Group them by owner (a counting sort, stable), each group by partner.
	k.pairAt = grow(k.pairAt, n+1)
	clear(k.pairAt)
	for _, c := range k.raw {
		k.pairAt[c.a+1]++
	}
	for i := 1; i <= n; i++ {
		k.pairAt[i] += k.pairAt[i-1]
	}
	k.pairs = grow(k.pairs, len(k.raw))
	fill := append(k.fillAt[:0], k.pairAt[:n]...)
	for _, c := range k.raw {
		k.pairs[fill[c.a]] = c
		fill[c.a]++
	}
	for i := range n {
		if k.pairAt[i+1]-k.pairAt[i] > 1 {
			sortPairs(k.pairs[k.pairAt[i]:k.pairAt[i+1]])
		}
	}
	// Every pair in both movers' neighbour lists, in pair order: a mover's partners before it
	// (whose pairs come first), then those of its own pairs.
	k.adjAt = grow(k.adjAt, n+1)
	clear(k.adjAt)
	for _, c := range k.pairs {
		k.adjAt[c.a+1]++
		k.adjAt[c.b+1]++
	}
	for i := 1; i <= n; i++ {
		k.adjAt[i] += k.adjAt[i-1]
	}
	k.adj = grow(k.adj, 2*len(k.pairs))
	fill = append(fill[:0], k.adjAt[:n]...)
	for _, c := range k.pairs {
		k.adj[fill[c.a]] = c.b
		fill[c.a]++
		k.adj[fill[c.b]] = c.a
		fill[c.b]++
	}
	k.fillAt = fill
	// The spans, with the track near each mover, and where the movers are now.
	k.spans = grow(k.spans, n)
	k.seen = grow(k.seen, n)
	k.team.run(parts, func(p int) {
		k.trackParts[p] = k.listSpans(p*n/parts, (p+1)*n/parts, margin, k.trackParts[p][:0])
	})
	for p := range parts {
		// A part's spans index its own list, which now starts further on.
		if base := int32(len(k.onTrack)); base > 0 {
			for i := p * n / parts; i < (p+1)*n/parts; i++ {
				k.spans[i].track += base
				k.spans[i].trackEnd += base
			}
		}
		k.onTrack = append(k.onTrack, k.trackParts[p]...)
	}
	k.splitFleet()
}

// broadParts returns how many parts the broad phase of n movers is cut into: the split
// fleet's sides when there are helpers to share them, or one.
func (k *kinematic) broadParts(n int) int {
	if n >= k.splitAt && len(k.team.helpers) > 0 {
		return kinSides
	}
	return 1
}

// scanPairs appends to out the pairs of grid items lo to hi-1 (by item) whose bounding circles
// are within margin: each item with the later items of its own cell, and with every item of
// the half shell's cells.
func (k *kinematic) scanPairs(lo, hi int, margin float64, out []candidate) []candidate {
	g := &k.grid
	near := func(a, b *gridItem) {
		dx, dy, reach := b.x-a.x, b.y-a.y, a.r+b.r+margin
		if dx*dx+dy*dy > reach*reach {
			return
		}
		if a.vehicle && b.vehicle && !k.space.opts.VehicleCollisions {
			return
		}
		if (a.flying || b.flying) && !overlapsZ(k.movers[a.idx].body, k.movers[b.idx].body) {
			return
		}
		if a.idx < b.idx {
			out = append(out, candidate{a: a.idx, b: b.idx})
		} else {
			out = append(out, candidate{a: b.idx, b: a.idx})
		}
	}
	items := g.items
	if g.dense {
		// A bucket is one cell; the half shell is 1, w-1, w and w+1 cells on.
		shell := [4]int32{1, g.w - 1, g.w, g.w + 1}
		for p := lo; p < hi; p++ {
			a := &items[p]
			for q := int32(p) + 1; q < a.end; q++ {
				near(a, &items[q])
			}
			for _, d := range shell {
				c := a.bucket + d
				for q, end := g.start[c], g.start[c+1]; q < end; q++ {
					near(a, &items[q])
				}
			}
		}
		return out
	}
	for p := lo; p < hi; p++ {
		a := &items[p]
		for q := int32(p) + 1; q < a.end; q++ {
			if b := &items[q]; b.cx == a.cx && b.cy == a.cy {
				near(a, b)
			}
		}
		for _, d := range halfShell {
			cx, cy := a.cx+d[0], a.cy+d[1]
			h := cellHash(cx, cy, g.shift)
			for q, end := g.start[h], g.start[h+1]; q < end; q++ {
				if b := &items[q]; b.cx == cx && b.cy == cy {
					near(a, b)
				}
			}
		}
	}
	return out
}

// listSpans sets the spans of movers lo to hi-1 from the neighbour lists, notes where the
// movers are (seen), and appends the track near them to out, each span's track range indexing
// out.
func (k *kinematic) listSpans(lo, hi int, margin float64, out []candidate) []candidate {
	for i := lo; i < hi; i++ {
		m := &k.movers[i]
		k.seen[i] = [2]float64{m.x, m.y}
		sp := &k.spans[i]
		sp.lo, sp.hi = k.adjAt[i], k.adjAt[i+1]
		sp.own = sp.hi - (k.pairAt[i+1] - k.pairAt[i])
		sp.track = int32(len(out))
		if len(k.statics) > 0 {
			out = k.trackNear(int32(i), m, margin, out)
			if int32(len(out))-sp.track > 1 {
				k.sortTrack(out[sp.track:])
			}
		}
		sp.trackEnd = int32(len(out))
	}
	return out
}

// sortPairs sorts one owner's pairs by partner: insertion sort, as a group holds a handful.
func sortPairs(cs []candidate) {
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && cs[j].b < cs[j-1].b; j-- {
			cs[j-1], cs[j] = cs[j], cs[j-1]
		}
	}
}

// sortTrack sorts one mover's track shapes by (body ID, shape).
func (k *kinematic) sortTrack(cs []candidate) {
	less := func(a, b *candidate) bool {
		ia, ib := k.statics[a.b].body.ID, k.statics[b.b].body.ID
		return ia < ib || (ia == ib && a.b < b.b)
	}
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && less(&cs[j], &cs[j-1]); j-- {
			cs[j-1], cs[j] = cs[j], cs[j-1]
		}
	}
}

// trackNear appends to out the track shapes near mover i: those listed in the cell of its
// centre (the grid is grown by at least its reach) and the big ones.
func (k *kinematic) trackNear(i int32, a *kstate, margin float64, out []candidate) []candidate {
	g := &k.walls
	reach := a.r + margin
	consider := func(s int32) {
		st := &k.statics[s]
		if a.flying && !overlapsZ(a.body, st.body) {
			return
		}
		ex, ey := extent(&st.geom)
		if math.Abs(st.x-a.x) > ex+reach || math.Abs(st.y-a.y) > ey+reach {
			return
		}
		out = append(out, candidate{a: i, b: s})
	}
	cx, cy := cellOf(a.x, staticCell), cellOf(a.y, staticCell)
	h := cellHash(cx, cy, g.shift)
	for _, e := range g.entries[g.start[h]:g.start[h+1]] {
		if e.cx == cx && e.cy == cy {
			consider(e.shape)
		}
	}
	for _, s := range g.big {
		consider(s)
	}
	return out
}
