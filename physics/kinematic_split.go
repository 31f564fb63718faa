package physics

import "math"

// Large fleets are cut into sides at each broad phase (by index, or across x: splitFleet), so
// that a step's passes over the movers can run on several cores (the team) with the same
// results as on one.
//
// A mover is inner when every neighbour the broad phase listed for it is of its side, and,
// for a vehicle, every neighbour of the boxes it may push too: its move reads and writes
// nothing of another side, so the sides' inner movers can move at the same time. Of the rest,
// those inner to their pair of sides (sides 0 and 1, 2 and 3) move next, the two pairs at
// once; the edge movers (the rest) move last, one at a time. So a split fleet moves in the
// order: side 0's inner movers, side 1's, ..., pair 0's, pair 1's, then the edge, each group in
// ID order (reversed every other step). That order is a function of the state alone, whichever
// number of cores runs it: the same seed gives the same hash on every machine. Fleets smaller
// than splitMovers are not split; their order stays plain ID order.

// kinSides is how many sides a split fleet is cut into: at most that many cores share a pass.
// More sides make more movers that are not inner to theirs.
const kinSides = 4

// kinPairs is how many pairs of sides there are.
const kinPairs = kinSides / 2

// splitMovers is the smallest fleet that is split: below it a pass is too short to share.
const splitMovers = 2048

// splitBins is the resolution of the histogram that places the cuts between the sides.
const splitBins = 1024

// split is a fleet's sides: the lists are of the movers the broad phase saw, valid while its
// lists are (listN, listStale).
type split struct {
	on    bool
	side  []uint8
	level []uint8               // each mover's reach: see listSides
	all   [kinSides][]int32     // each side's movers, in index order
	inner [kinSides][]int32     // the inner ones among them
	pair  [kinPairs][]int32     // of the others, those inner to a pair of sides, in index order
	edge  []int32               // the rest, in index order
	touch [kinSides][]touchPair // each side's pairs touching after the step (finishAll)
	bins  []int32
	// partial holds each side's share of a pass's maxima, a cache line apart.
	partial [kinSides]struct {
		fastest, centre, far peak
		_                    [5]uint64
	}
}

// splitFleet cuts the movers into sides after a broad phase (or clears the split of a small
// fleet). The first cut is by index: movers added together are stored together, and a fleet
// spawned on a grid stands in bands along its index, so each core walks memory of its own
// (cut across x instead, a 10,000-robot step measured a quarter slower, with no edge movers
// at all). When that leaves more than a quarter of the fleet not inner to its side (movers
// added in no order of place), the sides are cut across x.
func (k *kinematic) splitFleet() {
	sp := &k.split
	n := len(k.movers)
	if sp.on = n >= k.splitAt; !sp.on {
		return
	}
	sp.side = grow(sp.side, n)
	for i := range n {
		sp.side[i] = uint8(i * kinSides / n)
	}
	k.listSides()
	outer := len(sp.edge)
	for p := range kinPairs {
		outer += len(sp.pair[p])
	}
	if outer > n/4 {
		k.sidesAcrossX()
		k.listSides()
	}
}

// sidesAcrossX sets each mover's side by where its centre is across x: the cuts are where a
// histogram of the centres reaches each side's share.
func (k *kinematic) sidesAcrossX() {
	sp := &k.split
	n := len(k.movers)
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range k.movers {
		lo, hi = min(lo, k.movers[i].x), max(hi, k.movers[i].x)
	}
	scale := 0.0
	if hi > lo {
		scale = (splitBins - 1) / (hi - lo)
	}
	sp.bins = grow(sp.bins, splitBins)
	clear(sp.bins)
	bin := func(x float64) int { return min(splitBins-1, max(0, int((x-lo)*scale))) }
	for i := range k.movers {
		sp.bins[bin(k.movers[i].x)]++
	}
	var sideOfBin [splitBins]uint8
	count, s := int32(0), 0
	for b := range splitBins {
		for s < kinSides-1 && count >= int32((s+1)*n/kinSides) {
			s++
		}
		sideOfBin[b] = uint8(s)
		count += sp.bins[b]
	}
	for i := range k.movers {
		sp.side[i] = sideOfBin[bin(k.movers[i].x)]
	}
}

// listSides lists each side's movers and, among them, the inner ones, those inner to their
// pair of sides, and the edge. How far each mover's move reaches (its level: 0 within its side,
// 1 within its pair of sides, 2 beyond) comes from one walk over the pairs rather than over
// every mover's neighbours, which read the neighbours' state: a pair across two sides raises
// both its movers, and a vehicle takes the level of each box it may push (the box's neighbours
// are what its push reads). A box is never raised that way, so one walk after the first is
// enough.
func (k *kinematic) listSides() {
	sp := &k.split
	for s := range kinSides {
		sp.all[s], sp.inner[s] = sp.all[s][:0], sp.inner[s][:0]
	}
	for p := range kinPairs {
		sp.pair[p] = sp.pair[p][:0]
	}
	sp.edge = sp.edge[:0]
	side := sp.side
	level := grow(sp.level, len(k.movers))
	clear(level)
	for _, c := range k.pairs {
		if sa, sb := side[c.a], side[c.b]; sa != sb {
			l := uint8(1)
			if sa>>1 != sb>>1 {
				l = 2
			}
			level[c.a], level[c.b] = max(level[c.a], l), max(level[c.b], l)
		}
	}
	if k.boxes > 0 {
		for _, c := range k.pairs {
			switch a, b := &k.movers[c.a], &k.movers[c.b]; {
			case a.vehicle && !b.vehicle:
				level[c.a] = max(level[c.a], level[c.b])
			case b.vehicle && !a.vehicle:
				level[c.b] = max(level[c.b], level[c.a])
			}
		}
	}
	for i, l := range level {
		s := side[i]
		sp.all[s] = append(sp.all[s], int32(i))
		switch l {
		case 0:
			sp.inner[s] = append(sp.inner[s], int32(i))
		case 1:
			sp.pair[s>>1] = append(sp.pair[s>>1], int32(i))
		default:
			sp.edge = append(sp.edge, int32(i))
		}
	}
	sp.level = level
}

// splitValid reports whether the split lists hold exactly the current movers.
func (k *kinematic) splitValid() bool {
	return k.split.on && !k.listStale && len(k.movers) == k.listN
}

// starts is step's first pass: each mover's start of the step, and the largest of what
// step needs (see there), side by side when the fleet is split.
func (k *kinematic) starts(dt float64, usable bool) (fastest, centre, far float64) {
	var pf, pc, pr peak
	if !k.splitValid() {
		for i := range k.movers {
			point, moved := k.movers[i].begin()
			pf, pc = pf.with(point), pc.with(moved)
			if usable {
				pr = pr.with(k.sinceSeen(int32(i)))
			}
		}
		return pf.value() * dt, pc.value() * dt, pr.value()
	}
	sp := &k.split
	k.team.run(kinSides, func(s int) {
		var pf, pc, pr peak
		for _, i := range sp.all[s] {
			point, moved := k.movers[i].begin()
			pf, pc = pf.with(point), pc.with(moved)
			if usable {
				pr = pr.with(k.sinceSeen(i))
			}
		}
		p := &sp.partial[s]
		p.fastest, p.centre, p.far = pf, pc, pr
	})
	for s := range kinSides {
		p := &sp.partial[s]
		pf, pc, pr = max(pf, p.fastest), max(pc, p.centre), max(pr, p.far)
	}
	return pf.value() * dt, pc.value() * dt, pr.value()
}

// peak is a running maximum of non-negative float64s kept as their bits, which for those are
// in the order of the numbers. Builtin max on floats fixes up NaN and signed zeros; chained
// through a pass over 10,000 movers its latency cost more than the pass's arithmetic, and an
// integer maximum does not wait on it. A NaN of either sign ranks above +Inf, so it comes
// through as builtin max would let it; -0 counts as +0.
type peak uint64

func (p peak) with(v float64) peak { return max(p, peak(math.Float64bits(v)&^(1<<63))) }

func (p peak) value() float64 { return math.Float64frombits(uint64(p)) }

// begin notes the mover's start of the step, and returns the fastest a point of it moves and
// how fast its centre does (as |vx| + |vy|, m/s). Rounding is monotonic: the largest of these
// times dt is the largest of the products.
func (k *kstate) begin() (point, centre float64) {
	k.x0, k.y0, k.corrected = k.x, k.y, false
	v := abs(k.vx) + abs(k.vy)
	return v + abs(k.w)*k.r, v
}

// abs is math.Abs at a lower inlining cost, so that begin inlines. It leaves -0 as it is,
// which the maxima taken here, from +0 up, do not tell from +0.
func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// sinceSeen returns the square of how far mover i has moved since the broad phase saw it.
func (k *kinematic) sinceSeen(i int32) float64 {
	dx, dy := k.movers[i].x-k.seen[i][0], k.movers[i].y-k.seen[i][1]
	return dx*dx + dy*dy
}

// moves makes every mover's move of one substep of h seconds, in ID order or (backward) the
// reverse; a split fleet's sides at once, then its pairs of sides, then its edge.
func (k *kinematic) moves(h float64, backward bool) {
	if !k.split.on { // the broad phase has just run: the split, when on, is of these movers
		n := len(k.movers)
		for t := range n {
			i := t
			if backward {
				i = n - 1 - t
			}
			k.move(int32(i), h)
		}
		return
	}
	sp := &k.split
	k.team.run(kinSides, func(s int) { k.moveAll(sp.inner[s], h, backward) })
	k.team.run(kinPairs, func(p int) { k.moveAll(sp.pair[p], h, backward) })
	k.moveAll(sp.edge, h, backward)
}

// moveAll moves the movers of list in its order or the reverse.
func (k *kinematic) moveAll(list []int32, h float64, backward bool) {
	if backward {
		for t := len(list) - 1; t >= 0; t-- {
			k.move(list[t], h)
		}
		return
	}
	for _, i := range list {
		k.move(i, h)
	}
}

// finishAll is finish for every mover, making the touch list (the last one becomes prev). A
// mover's finish writes its own state alone, so a split fleet's sides go at once, each into a
// list of its own; the lists are merged in owner order after.
func (k *kinematic) finishAll(dt float64) {
	k.prev, k.touch = k.touch, k.prev[:0]
	if !k.splitValid() {
		for i := range k.movers {
			k.finish(int32(i), dt, &k.touch)
		}
		return
	}
	sp := &k.split
	k.team.run(kinSides, func(s int) {
		out := sp.touch[s][:0]
		for _, i := range sp.all[s] {
			k.finish(i, dt, &out)
		}
		sp.touch[s] = out
	})
	// Each side's list is in owner order, and an owner is of one side: take the run of the
	// side with the lowest head up to the next side's head, again.
	var lists [kinSides][]touchPair
	for s := range kinSides {
		lists[s] = sp.touch[s]
	}
	for {
		best, next := -1, uint32(math.MaxUint32)
		for s := range kinSides {
			if len(lists[s]) == 0 {
				continue
			}
			switch head := lists[s][0].oid; {
			case best < 0 || head < lists[best][0].oid:
				if best >= 0 {
					next = min(next, lists[best][0].oid)
				}
				best = s
			default:
				next = min(next, head)
			}
		}
		if best < 0 {
			break
		}
		run := lists[best]
		n := 1
		for n < len(run) && run[n].oid < next {
			n++
		}
		k.touch = append(k.touch, run[:n]...)
		lists[best] = run[n:]
	}
	for s := range kinSides {
		clear(sp.touch[s]) // drop the pointers to bodies that may be gone
	}
}
