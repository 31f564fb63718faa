package physics

import (
	"math"
	"slices"
)

// The kinematic solver's tolerances, in metres.
const (
	// KinematicTolerance is the deepest two bodies (or a body and the track) may overlap after
	// a kinematic step, whatever drives them together. Bodies placed overlapping (spawned or
	// teleported into each other) are pushed apart over the following steps instead.
	KinematicTolerance = 0.001
	// contactMargin is how far apart two shapes may be and still count as touching: a body
	// pressed against a wall is pushed out to exactly touching, and must stay in contact.
	contactMargin = 0.0005
	// resolvedDepth ends a mover's passes early: none of its overlaps is deeper.
	resolvedDepth = 0.0001
	// broadMargin widens the broad phase beyond the substep's motion.
	broadMargin = 0.01
	// pairSkin is how much further apart than broadMargin the broad phase lists pairs, so that
	// its lists serve the substeps that follow until some mover has moved half of it (see
	// listFresh): movers of a fleet cross it in several steps.
	pairSkin = 0.1
	// roomGap is the slide after which clear need not look again when one overlap was met
	// and everything else around was further than this.
	roomGap = 0.01
	// maxPasses bounds the passes over one mover's neighbours in a substep.
	maxPasses = 4
	// maxSubsteps bounds the substeps of one step (fast bodies, see substeps).
	maxSubsteps = 64
)

// kstate is a moving body in kinematic mode: its shape in the world frame, yaw, velocities
// and the position it started the step at. It is kept to 128 bytes, the shape in the first
// 64 (TestKstateSize): the move-and-slide pass reads a neighbour's shape from one cache line,
// and a fleet of 10,000 movers nearly fits a core's L2 cache.
type kstate struct {
	geom
	yaw       float64
	vx, vy, w float64
	x0, y0    float64 // at the start of the step
	body      *Body
	id        uint32 // body.ID, read without touching the body
	// corrected is set when a contact moved the body during this step.
	corrected bool
	// vehicle and flying are the body's, for the collision filter.
	vehicle, flying bool
}

// kstatic is one static shape: its world geometry and its pose in its body's frame.
type kstatic struct {
	geom
	body         *Body
	lx, ly, lyaw float64
}

// candidate is a pair found by the broad phase: movers[a] against movers[b] in pairs, or
// against statics[b] in onTrack.
type candidate struct {
	a, b int32
}

// touchPair is a pair in contact: owner is a mover, the one with the lower ID of two movers;
// partner is the other body. Lists of them are sorted by (owner ID, partner ID).
type touchPair struct {
	oid, pid       uint32
	owner, partner *Body
}

// span is where the broad phase listed mover i's neighbours: movers adj[lo:hi], by index,
// of which adj[own:hi] are the partners of the pairs i owns (those after it), and track
// shapes onTrack[track:trackEnd]. One record per mover, read at once: the passes over the
// fleet look at every mover's neighbours, and three arrays of offsets cost three bounds
// checks and three cache lines each time.
type span struct {
	lo, own, hi     int32
	track, trackEnd int32
}

// kinematic is the solver of a kinematic space: move and slide, one mover at a time.
//
// Each substep (a step is cut into substeps when something is fast) has the pairs that can meet
// within it listed, from a uniform grid: the lists are built with a skin to spare and kept for
// the substeps that follow while no mover has used up half of it (listFresh). Then each mover in turn makes its move — its
// velocities over the substep — and is pushed back out of whatever it now overlaps, the
// others standing still, along the normal of least overlap, for a few passes over its
// neighbours: it slides along what it meets. A vehicle that drives into a pushable box pushes
// the box along (one box deep; the box slides off the track and other bodies the same way). A
// mover that cannot be cleared within resolvedDepth after its passes stays where the substep
// found it (having tried the move without its turn): it stops. Since each mover either clears everything around it or stands where it
// stood, which every mover before it cleared, no two bodies end a substep deeper in each other
// than KinematicTolerance. Movers take turns in ID order, reversed every other step so that
// neither end of the order always goes first; a large fleet is cut into sides whose turns run
// on several cores at once, which orders the turns by side first (kinematic_split.go).
//
// A mover a contact moved keeps the part of its velocity its actual motion shows (it slides
// along a wall, it stops against one), never faster than it was going.
type kinematic struct {
	space   *Space
	movers  []kstate
	statics []kstatic
	// maxR is the largest mover's bounding radius, which sizes the grid; thinnest the smallest
	// half extent (a box's smaller one, a circle's radius), which sets the substeps.
	maxR, thinnest float64

	grid    moverGrid
	walls   staticGrid
	raw     []candidate // mover against mover as the scan finds them
	pairs   []candidate // the same, grouped by owner
	pairAt  []int32     // owner i's pairs are pairs[pairAt[i]:pairAt[i+1]]
	onTrack []candidate // mover against static, grouped by mover
	// A split fleet's broad phase makes these in parts (broadParts) and joins them.
	rawParts, trackParts [kinSides][]candidate
	// Each mover's neighbours (see span) and the broad phase's counts of them.
	spans         []span
	adj           []int32
	adjAt, fillAt []int32
	steps         uint64
	// The lists above were built with this skin for listN movers; stale when the movers or the
	// track changed since. flyers counts flying movers, whose height filter the lists bake in;
	// boxes the movers that are not vehicles (pushed, not pushing).
	skin      float64
	listN     int
	listStale bool
	flyers    int
	boxes     int

	// seen is each mover's position at the last broad phase; turns its last turn angle with
	// that angle's turnTerms.
	seen  [][2]float64
	turns [][3]float64

	touch, prev    []touchPair
	started, ended []Contact

	// split cuts a fleet of splitAt movers or more (splitMovers) into sides that team moves
	// at once (kinematic_split.go).
	split   split
	splitAt int
	team    *team
}

func newKinematic(s *Space) *kinematic {
	return &kinematic{space: s, thinnest: math.Inf(1), splitAt: splitMovers, team: sharedTeam()}
}

// addBody gives b its kinematic state: a mover for vehicles and boxes, static shapes for the
// track.
func (k *kinematic) addBody(b *Body, pose Pose, mass float64, shapes []shapeSpec) {
	if b.Kind == KindStatic {
		b.own = &kstate{body: b, id: b.ID}
		b.own.x, b.own.y = pose.X, pose.Y
		b.own.setYaw(pose.Yaw)
		for _, sp := range shapes {
			st := kstatic{body: b}
			switch sp.kind {
			case shapeBox:
				st.hx, st.hy = sp.length/2, sp.width/2
			case shapeCircle:
				st.circle, st.hx, st.lx, st.ly = true, sp.radius, sp.x, sp.y
			case shapeSegment:
				ax, ay, bx, by := sp.a[0], sp.a[1], sp.b[0], sp.b[1]
				// A box from end to end, as thick as the segment, reaching over the round
				// caps so that the outline has no gaps at its corners.
				st.lx, st.ly = (ax+bx)/2, (ay+by)/2
				st.lyaw = math.Atan2(by-ay, bx-ax)
				st.hx, st.hy = math.Hypot(bx-ax, by-ay)/2+sp.radius, sp.radius
			}
			b.statics = append(b.statics, int32(len(k.statics)))
			k.statics = append(k.statics, st)
			k.place(len(k.statics) - 1)
		}
		k.walls.dirty = true
		return
	}
	sp := shapes[0]
	b.mass = mass
	m := kstate{body: b, id: b.ID, vehicle: b.Kind == KindVehicle, flying: b.Flying}
	m.x, m.y = pose.X, pose.Y
	m.setYaw(pose.Yaw)
	if sp.kind == shapeCircle {
		m.circle, m.hx = true, sp.radius
	} else {
		m.hx, m.hy = sp.length/2, sp.width/2
	}
	m.bound()
	k.maxR = max(k.maxR, m.r)
	if m.circle {
		k.thinnest = min(k.thinnest, m.hx)
	} else {
		k.thinnest = min(k.thinnest, m.hx, m.hy)
	}
	b.k = int32(len(k.movers))
	k.movers = append(k.movers, m)
	k.listStale = true
	if m.flying {
		k.flyers++
	}
	if !m.vehicle {
		k.boxes++
	}
}

// place computes statics[i]'s world geometry from its body's pose.
func (k *kinematic) place(i int) {
	st := &k.statics[i]
	p := st.body.own
	st.x = p.x + st.lx*p.c - st.ly*p.s
	st.y = p.y + st.lx*p.s + st.ly*p.c
	st.s, st.c = math.Sincos(p.yaw + st.lyaw)
	st.bound()
}

// moveStatic follows a static body that was teleported.
func (k *kinematic) moveStatic(b *Body) {
	for _, i := range b.statics {
		k.place(int(i))
	}
	k.walls.dirty = true
}

// remove takes b out of the solver; b keeps its last state in own.
func (k *kinematic) remove(b *Body) {
	if b.Kind == KindStatic {
		keep := k.statics[:0]
		for _, st := range k.statics {
			if st.body != b {
				keep = append(keep, st)
			}
		}
		clear(k.statics[len(keep):])
		k.statics = keep
		for _, x := range k.space.bodies {
			x.statics = x.statics[:0]
		}
		for i, st := range k.statics {
			st.body.statics = append(st.body.statics, int32(i))
		}
		k.walls.dirty = true
		return
	}
	i := b.k
	own := k.movers[i]
	b.own = &own
	b.k = -1
	k.movers = slices.Delete(k.movers, int(i), int(i)+1)
	k.listStale = true
	if b.own.flying {
		k.flyers--
	}
	if !b.own.vehicle {
		k.boxes--
	}
	for j := int(i); j < len(k.movers); j++ {
		k.movers[j].body.k = int32(j)
	}
}

// substeps returns how many substeps a step of dt needs so that no point of a mover moves
// more than a quarter of the thinnest mover's smaller half extent in one, fastest being the
// furthest a point of a mover moves in the whole step: a body cannot then cross the middle of
// a wall or of another body between two looks. reach is how far a point moves in one substep
// at most.
func (k *kinematic) substeps(fastest float64) (n int, reach float64) {
	if fastest == 0 || math.IsInf(k.thinnest, 1) {
		return 1, fastest
	}
	f := math.Ceil(fastest / (k.thinnest / 4))
	if !(f < maxSubsteps) { // NaN too
		f = maxSubsteps
	}
	n = max(1, int(f))
	return n, fastest / float64(n)
}

// step advances every mover by dt and resolves their contacts.
func (k *kinematic) step(dt float64) {
	// One pass over the movers for their start, the fastest motion and, when the broad
	// phase's lists may still serve, how far any mover has gone since they were made.
	usable := k.listUsable()
	fastest, centre, far := k.starts(dt, usable)
	k.turns = grow(k.turns, len(k.movers))
	n, _ := k.substeps(fastest)
	h := dt / float64(n)
	// A bounding circle turns with its body unchanged: the broad phase watches centres only.
	reach := centre / float64(n)
	backward := k.steps%2 == 1
	k.steps++
	for sub := range n {
		if sub > 0 {
			usable = k.listUsable()
			if usable {
				far = k.farthest()
			}
		}
		if !usable || !k.listFresh(far, reach) {
			// Two bodies each moving reach toward each other: the pairs to watch start that far.
			k.broadPhase(max(pairSkin, 4*reach))
		}
		k.moves(h, backward)
	}
	k.finishAll(dt)
	k.report()
}

// finish appends mover i's pairs that touch after the step's moves to out, in the touch
// list's order (by partner ID, a static body of several shapes once), and makes its velocity,
// when a contact moved it, what it actually did.
func (k *kinematic) finish(i int32, dt float64, out *[]touchPair) {
	m, sp := &k.movers[i], &k.spans[i]
	first := len(*out)
	for q := sp.own; q < sp.hi; q++ { // by partner, so by ID; by index, as in clear
		if b := &k.movers[k.adj[q]]; !circlesApart(&m.geom, &b.geom, contactMargin) && touches(&m.geom, &b.geom) {
			*out = append(*out, touchPair{oid: m.id, pid: b.id, owner: m.body, partner: b.body})
		}
	}
	mid := len(*out)
	for q := sp.track; q < sp.trackEnd; q++ { // by body ID, then shape
		if st := &k.statics[k.onTrack[q].b]; !circlesApart(&m.geom, &st.geom, contactMargin) && touches(&m.geom, &st.geom) {
			if n := len(*out); n > mid && (*out)[n-1].pid == st.body.ID {
				continue // another shape of the same static body
			}
			*out = append(*out, touchPair{oid: m.id, pid: st.body.ID, owner: m.body, partner: st.body})
		}
	}
	if mid > first && len(*out) > mid {
		// Touching both movers and the track: merge the two by partner ID (a handful).
		own := (*out)[first:]
		for a := 1; a < len(own); a++ {
			for b := a; b > 0 && own[b].pid < own[b-1].pid; b-- {
				own[b-1], own[b] = own[b], own[b-1]
			}
		}
	}
	if !m.corrected {
		return
	}
	// What the body actually did, no faster than it was asked to go.
	vx, vy := (m.x-m.x0)/dt, (m.y-m.y0)/dt
	if want, got := m.vx*m.vx+m.vy*m.vy, vx*vx+vy*vy; got > want { // squared speeds
		f := math.Sqrt(want / got)
		vx, vy = vx*f, vy*f
	}
	m.vx, m.vy = vx, vy
}

// touches reports whether a and b are within contactMargin of each other. Callers test
// circlesApart first, which inlines: most pairs a broad phase lists are apart.
func touches(a, b *geom) bool {
	_, _, d := overlap(a, b, contactMargin, -contactMargin)
	return d > -contactMargin
}

// circlesApart reports whether the bounding circles of a and b are more than margin apart.
func circlesApart(a, b *geom, margin float64) bool {
	dx, dy, reach := b.x-a.x, b.y-a.y, a.r+b.r+margin
	return dx*dx+dy*dy > reach*reach
}

// listUsable reports whether the broad phase's lists are of the current movers and track.
func (k *kinematic) listUsable() bool {
	return !k.listStale && k.flyers == 0 && !k.walls.dirty && len(k.movers) == k.listN
}

// farthest returns the square of the furthest any mover has moved since the broad phase.
func (k *kinematic) farthest() float64 {
	var far peak
	for i := range k.movers {
		far = far.with(k.sinceSeen(int32(i)))
	}
	return far.value()
}

// listFresh reports whether usable lists (listUsable) still hold every pair that can come
// within broadMargin of touching in a substep in which no centre moves further than reach,
// far being farthest(): no two movers listed apart have since closed their distance by more
// than twice the furthest any of them has moved, and the rest of the skin is left for this
// substep's motion of both. A superset of the pairs a fresh list would hold changes nothing
// but time: pairs that do not overlap are passed over, and each mover's neighbours keep their
// order.
func (k *kinematic) listFresh(far, reach float64) bool {
	return 2*math.Sqrt(far)+2*reach <= k.skin
}

// move makes mover i's move over h seconds and slides it out of what it meets.
func (k *kinematic) move(i int32, h float64) {
	m := &k.movers[i]
	if m.vx == 0 && m.vy == 0 && m.w == 0 {
		return // standing still: it overlaps nothing it did not overlap before
	}
	x, y, yaw, c, sn := m.x, m.y, m.yaw, m.c, m.s
	m.x += m.vx * h
	m.y += m.vy * h
	if m.w != 0 {
		// A fleet turning steadily turns each body by the same angle step after step: the
		// series terms are kept per mover (they depend on the angle alone).
		if d := m.w * h; math.Abs(d) <= turnSeries {
			t := &k.turns[i]
			if t[0] != d || t[1] == 0 { // t[1], cos d, is never 0 here; an unused entry is all 0
				t[0] = d
				t[1], t[2] = turnTerms(d)
			}
			m.rotate(d, t[1], t[2])
		} else {
			m.turn(d)
		}
	}
	if sp := &k.spans[i]; sp.lo == sp.hi && sp.track == sp.trackEnd {
		return // nothing near
	}
	if k.clear(i, m.vehicle, -1) {
		return
	}
	// Blocked: try the move without turning (a body wedged in a jam may still slide), then
	// stay.
	m.corrected = true
	if m.w != 0 {
		m.x, m.y = x+m.vx*h, y+m.vy*h
		m.yaw, m.c, m.s = yaw, c, sn
		if k.clear(i, m.vehicle, -1) {
			return
		}
	}
	m.x, m.y, m.yaw, m.c, m.s = x, y, yaw, c, sn
}

// clear slides mover i out of its neighbours, the track and, when it pushes, the boxes it
// meets, which it pushes along; skip is a neighbour to leave out (the vehicle pushing a box).
// It reports whether i ends within resolvedDepth of everything, or at least no deeper in
// anything than it started the substep.
func (k *kinematic) clear(i int32, pushes bool, skip int32) bool {
	m := &k.movers[i]
	// The neighbours are walked by index, not as slices: a slice's making costs more than the
	// handful of neighbours a mover has, and most have no track near at all.
	sp := &k.spans[i]
	for pass := 0; pass < maxPasses; pass++ {
		// worst is the deepest overlap met in this pass and met how many there were; roomy
		// says that everything not met is more than roomGap away.
		worst, met, roomy := 0.0, 0, true
		for q := sp.lo; q < sp.hi; q++ {
			j := k.adj[q]
			if j == skip {
				continue
			}
			b := &k.movers[j]
			// The bounding circles first, inline: most neighbours are not touching.
			dx, dy, rr := b.x-m.x, b.y-m.y, m.r+b.r
			if d2 := dx*dx + dy*dy; d2 > rr*rr {
				roomy = roomy && apartBy(d2, rr, roomGap)
				continue
			}
			var nx, ny, d float64
			if !m.circle && !b.circle { // the usual pair, without overlap's repeat of the test above
				nx, ny, d = boxBox(&m.geom, &b.geom, dx, dy, 0)
			} else {
				nx, ny, d = overlap(&m.geom, &b.geom, 0, 0)
			}
			if d <= 0 {
				roomy = roomy && -d > roomGap // a separating axis's gap: at most the distance
				continue
			}
			met++
			if pushes && !b.vehicle {
				k.push(j, nx*d, ny*d, i)
				if nx, ny, d = overlap(&m.geom, &b.geom, 0, 0); d <= 0 {
					continue
				}
			}
			m.x -= nx * d
			m.y -= ny * d
			m.corrected = true
			worst = max(worst, d)
		}
		for q := sp.track; q < sp.trackEnd; q++ {
			st := &k.statics[k.onTrack[q].b]
			dx, dy, rr := st.x-m.x, st.y-m.y, m.r+st.r
			if d2 := dx*dx + dy*dy; d2 > rr*rr {
				roomy = roomy && apartBy(d2, rr, roomGap)
				continue
			}
			nx, ny, d := overlap(&m.geom, &st.geom, 0, 0)
			if d <= 0 {
				roomy = roomy && -d > roomGap
				continue
			}
			met++
			m.x -= nx * d
			m.y -= ny * d
			m.corrected = true
			worst = max(worst, d)
		}
		if worst <= resolvedDepth {
			return true
		}
		// One overlap, slid out of along its normal, and nothing else within reach of that
		// slide: another pass would find nothing (the usual case of a fleet pressing on).
		if met == 1 && roomy && worst <= roomGap {
			return true
		}
	}
	// Out of passes: accept the place only if nothing overlaps deeper than allowed.
	for q := sp.lo; q < sp.hi; q++ {
		if j := k.adj[q]; j != skip {
			if _, _, d := overlap(&m.geom, &k.movers[j].geom, 0, KinematicTolerance/2); d > KinematicTolerance/2 {
				return false
			}
		}
	}
	for q := sp.track; q < sp.trackEnd; q++ {
		if _, _, d := overlap(&m.geom, &k.statics[k.onTrack[q].b].geom, 0, KinematicTolerance/2); d > KinematicTolerance/2 {
			return false
		}
	}
	return true
}

// apartBy reports whether two bounding circles whose centres are sqrt(d2) apart and whose
// radii sum to rr are more than gap apart.
func apartBy(d2, rr, gap float64) bool {
	reach := rr + gap
	return d2 > reach*reach
}

// push moves box j by (dx, dy), as vehicle by pushes it, and slides it out of everything else
// around it; a box that cannot be cleared stays where it was.
func (k *kinematic) push(j int32, dx, dy float64, by int32) {
	b := &k.movers[j]
	px, py := b.x, b.y
	b.x += dx
	b.y += dy
	if k.clear(j, false, by) {
		b.corrected = true
		return
	}
	b.x, b.y = px, py
}

// report diffs the touch list finishAll made against the previous step's: new pairs
// started, missing ones ended.
func (k *kinematic) report() {
	// Appended: Contacts hands out (and clears) what every step since its last call found.
	i, j := 0, 0
	for i < len(k.prev) || j < len(k.touch) {
		switch {
		case j == len(k.touch) || (i < len(k.prev) && pairLess(&k.prev[i], &k.touch[j])):
			k.ended = append(k.ended, contactOf(&k.prev[i]))
			i++
		case i == len(k.prev) || pairLess(&k.touch[j], &k.prev[i]):
			k.started = append(k.started, contactOf(&k.touch[j]))
			j++
		default:
			i++
			j++
		}
	}
	clear(k.prev) // drop the pointers to bodies that may be gone
}

func pairLess(a, b *touchPair) bool {
	if a.oid != b.oid {
		return a.oid < b.oid
	}
	return a.pid < b.pid
}

func contactOf(p *touchPair) Contact {
	if p.oid < p.pid {
		return Contact{A: p.owner, B: p.partner}
	}
	return Contact{A: p.partner, B: p.owner}
}

// touching reports whether a and b were in contact after the last step.
func (k *kinematic) touching(a, b *Body) bool {
	owner, partner := a, b
	switch {
	case a.Kind == KindStatic:
		owner, partner = b, a
	case b.Kind != KindStatic && b.ID < a.ID:
		owner, partner = b, a
	}
	key := touchPair{oid: owner.ID, pid: partner.ID}
	i, found := slices.BinarySearchFunc(k.touch, key, func(x, t touchPair) int {
		switch {
		case pairLess(&x, &t):
			return -1
		case pairLess(&t, &x):
			return 1
		}
		return 0
	})
	return found && k.touch[i].owner == owner
}
