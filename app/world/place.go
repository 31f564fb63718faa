package world

import (
	"container/heap"
	"errors"
	"fmt"
	"math"

	"simgui/physics"
	"simgui/plugins"
)

// Placing vehicles that come without a spawn pose.
//
// The first agents take the track's spawn points in order. The others stand on a grid around
// the last spawn point, facing its way, in rings of growing size (see cell.rank): the cells
// beside it and behind it before those ahead, a row ahead counting as two behind. Neighbouring cells are a footprint diameter of the largest vehicle
// placed plus placeGap apart. A cell is used when a vehicle there keeps placeClearance from
// the track's walls, boxes and solids and from the vehicles already standing, lies on the
// floor, and can be reached from the spawn point by steps between neighbouring cells that hit
// nothing: robots are never put behind a wall or outside the arena. The grid depends on the
// layout and the agents only, so a run places them the same way in the window and headless.

const (
	// placeGap is the gap between the footprints of neighbouring grid cells, metres.
	placeGap = 0.1
	// placeClearance is the least distance between a placed footprint and the track, metres.
	placeClearance = 0.02
	// placeMaxCells bounds the cells looked at before giving up.
	placeMaxCells = 2_000_000
)

// footprintRadius is the radius of the circle around a vehicle's body, metres.
func footprintRadius(v *plugins.VehicleDescriptor) float64 {
	if v == nil || v.Body == nil {
		return 0.2
	}
	if v.Body.Shape == "circle" {
		return v.Body.Radius
	}
	return math.Hypot(v.Body.Length, v.Body.Width) / 2
}

// bodyHeight is a vehicle body's height, with a floor for bodies that give none.
func bodyHeight(v *plugins.VehicleDescriptor) float64 {
	if v == nil || v.Body == nil || v.Body.Height <= 0 {
		return 0.1
	}
	return v.Body.Height
}

// disc is a vehicle already standing somewhere, for keeping new ones clear of it.
type disc struct{ x, y, r float64 }

// discIndex finds the discs near a point: a hash of cells of a fixed size.
type discIndex struct {
	cell  float64
	maxR  float64
	cells map[[2]int][]disc
}

func newDiscIndex(cell float64) *discIndex {
	return &discIndex{cell: cell, cells: map[[2]int][]disc{}}
}

func (d *discIndex) key(x, y float64) [2]int {
	return [2]int{int(math.Floor(x / d.cell)), int(math.Floor(y / d.cell))}
}

func (d *discIndex) add(c disc) {
	k := d.key(c.x, c.y)
	d.cells[k] = append(d.cells[k], c)
	d.maxR = math.Max(d.maxR, c.r)
}

// clear reports whether a disc of radius r at (x, y) keeps gap from every disc in the index.
func (d *discIndex) clear(x, y, r, gap float64) bool {
	reach := int(math.Ceil((r + d.maxR + gap) / d.cell))
	k := d.key(x, y)
	for i := k[0] - reach; i <= k[0]+reach; i++ {
		for j := k[1] - reach; j <= k[1]+reach; j++ {
			for _, o := range d.cells[[2]int{i, j}] {
				if math.Hypot(o.x-x, o.y-y) < o.r+r+gap {
					return false
				}
			}
		}
	}
	return true
}

// cell is a grid cell: r rows behind the anchor (negative: ahead), c columns to its left.
type cell struct{ r, c int }

// rank orders cells: rings of growing size around the anchor, where a row ahead counts as
// two behind; in a ring, rows nearer the anchor and columns nearer its line first, left
// before right.
func (k cell) rank() [4]int {
	behind := k.r
	if k.r < 0 {
		behind = -2 * k.r
	}
	ac := k.c
	if ac < 0 {
		ac = -ac
	}
	side := 0
	if k.c < 0 {
		side = 1
	}
	return [4]int{max(ac, behind), behind, ac, side}
}

type cellHeap []cell

func (h cellHeap) Len() int { return len(h) }
func (h cellHeap) Less(i, j int) bool {
	a, b := h[i].rank(), h[j].rank()
	for n := range a {
		if a[n] != b[n] {
			return a[n] < b[n]
		}
	}
	return false
}
func (h cellHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *cellHeap) Push(x any)   { *h = append(*h, x.(cell)) }
func (h *cellHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// placer hands out grid cells where a vehicle fits, in rank order.
type placer struct {
	space    *physics.Space
	solids   [][][2]float64 // outlines of solid polygons: a footprint inside one is not free
	ax, ay   float64        // the anchor: the last spawn point
	yaw      float64
	fx, fy   float64 // forward unit vector
	pitch, r float64
	top      float64    // the vehicles' height: the band checked against the track
	area     [4]float64 // x0, y0, x1, y1 the centre of a footprint stays inside
	floor    [4]float64 // x0, y0, x1, y1 a footprint stays inside (see floorArea)
	others   *discIndex
	frontier cellHeap
	seen     map[cell]bool
	looked   int
	// spread: the anchor is the origin of a track without spawn points, which an element may
	// cover (see next).
	spread bool
	// vehiclesInSpace: the vehicles others holds stand in space too (a running world's), and
	// lane checks outlines against them there.
	vehiclesInSpace bool
}

// newPlacer prepares a grid for vehicles of footprint radius r and height h around the last
// spawn point of l (the origin facing east when there is none), keeping clear of others.
func newPlacer(space *physics.Space, l *plugins.Layout, r, h float64, others []disc) *placer {
	p := &placer{space: space, r: r + placeClearance, top: h, pitch: 2*r + placeGap, seen: map[cell]bool{}}
	if n := len(l.SpawnPoints); n > 0 {
		sp := l.SpawnPoints[n-1]
		p.ax, p.ay, p.yaw = sp.X, sp.Y, sp.YawDeg*math.Pi/180
	} else {
		p.spread = true
	}
	p.fy, p.fx = math.Sincos(p.yaw)
	p.others = newDiscIndex(p.pitch)
	for _, o := range others {
		p.others.add(o)
	}
	for _, e := range l.Elements {
		if e.Kind == plugins.ElementPolygon && e.Height > 0 && len(e.Points) >= 3 {
			p.solids = append(p.solids, e.Points)
		}
	}
	lo, hi, ok := floorArea(l)
	if !ok {
		lo, hi = [2]float64{math.Inf(-1), math.Inf(-1)}, [2]float64{math.Inf(1), math.Inf(1)}
	}
	p.floor = [4]float64{lo[0], lo[1], hi[0], hi[1]}
	p.area = [4]float64{lo[0] + r, lo[1] + r, hi[0] - r, hi[1] - r}
	p.seen[cell{}] = true
	heap.Push(&p.frontier, cell{})
	return p
}

// floorArea is where vehicles may stand: the floor when the layout has one, else the box
// around its elements and spawn points with a metre to spare.
func floorArea(l *plugins.Layout) (lo, hi [2]float64, ok bool) {
	if f := l.Floor; f.Length > 0 && f.Width > 0 {
		return [2]float64{f.X - f.Length/2, f.Y - f.Width/2}, [2]float64{f.X + f.Length/2, f.Y + f.Width/2}, true
	}
	lo = [2]float64{math.Inf(1), math.Inf(1)}
	hi = [2]float64{math.Inf(-1), math.Inf(-1)}
	add := func(x, y, r float64) {
		lo[0], lo[1] = math.Min(lo[0], x-r), math.Min(lo[1], y-r)
		hi[0], hi[1] = math.Max(hi[0], x+r), math.Max(hi[1], y+r)
		ok = true
	}
	for _, e := range l.Elements {
		for _, q := range e.Points {
			add(q[0], q[1], e.Width/2)
		}
		if len(e.Points) == 0 {
			add(e.X, e.Y, math.Max(math.Max(e.Length, e.Width)/2, e.Radius))
		}
	}
	for _, s := range l.SpawnPoints {
		add(s.X, s.Y, 0)
	}
	if ok {
		lo[0], lo[1], hi[0], hi[1] = lo[0]-1, lo[1]-1, hi[0]+1, hi[1]+1
	}
	return lo, hi, ok
}

// at is the centre of cell k.
func (p *placer) at(k cell) (float64, float64) {
	back, left := float64(k.r)*p.pitch, float64(k.c)*p.pitch
	return p.ax - back*p.fx - left*p.fy, p.ay - back*p.fy + left*p.fx
}

func (p *placer) inArea(x, y float64) bool {
	return x >= p.area[0] && x <= p.area[2] && y >= p.area[1] && y <= p.area[3]
}

// onTrack skips the bodies that do not stop a vehicle from being placed: other vehicles
// (others covers them at their spawn poses).
func onTrack(b *physics.Body) bool { return b.Kind == physics.KindVehicle }

// SpotFree returns why a vehicle v cannot stand at pose, or nil when it can: its body clear of
// the track's walls, boxes and solids and of the other vehicles (the ground goes on past the
// track's floor, so a spot there is free). It is
// the check of a spot a person chose (the window's spawn), so it takes the body's own
// outline, a capsule inside its box, rather than the placer's circle around it, which keeps
// a long car out of corridors it fits in lengthwise.
func (w *World) SpotFree(v *plugins.VehicleDescriptor, pose Pose) error {
	r, h := footprintRadius(v), bodyHeight(v)
	p := newPlacer(w.space, w.layout, r, h, nil)
	for _, poly := range p.solids {
		if plugins.InPolygon(pose.X, pose.Y, poly) {
			return fmt.Errorf("(%.2f, %.2f) is inside a solid of the track", pose.X, pose.Y)
		}
	}
	// The capsule: a disc of half the body's width swept along its length.
	rad, half := r, 0.0
	if b := v.Body; b != nil && b.Shape != "circle" {
		rad, half = b.Width/2, max(0, b.Length-b.Width)/2
	}
	fy, fx := math.Sincos(pose.Yaw)
	x0, y0, x1, y1 := pose.X-half*fx, pose.Y-half*fy, pose.X+half*fx, pose.Y+half*fy
	if !w.space.Clear(x0, y0, rad, 0, h, nil) || !w.space.Clear(x1, y1, rad, 0, h, nil) ||
		(half > 0 && !w.space.SweepClear(x0, y0, x1, y1, rad, 0, h, nil)) {
		return fmt.Errorf("the body at (%.2f, %.2f) would overlap a wall, box or vehicle", pose.X, pose.Y)
	}
	return nil
}

// free reports whether a footprint at (x, y) is clear of the track.
func (p *placer) free(x, y float64) bool {
	if !p.inArea(x, y) || !p.space.Clear(x, y, p.r, 0, p.top, onTrack) {
		return false
	}
	for _, poly := range p.solids {
		if plugins.InPolygon(x, y, poly) {
			return false
		}
	}
	return true
}

// next returns the pose of the next free cell and reserves it; ok is false when no cell is
// left that a vehicle can reach.
func (p *placer) next() (Pose, bool) {
	for p.frontier.Len() > 0 && p.looked < placeMaxCells {
		k := heap.Pop(&p.frontier).(cell)
		p.looked++
		x, y := p.at(k)
		// Only the anchor and cells reached from it through what covers it are in the
		// frontier without being free: the origin of a track without spawn points, under an
		// element, spreads through it, on the floor, to the free cells around it, rather than
		// blocking every cell. A spawn point is on the track's open floor: one a vehicle does
		// not fit at (too wide for the corridor) must not spread past the walls.
		blocked := p.spread && !p.free(x, y)
		// Expand through every cell a vehicle can drive to, taken or not.
		for _, d := range [4]cell{{1, 0}, {0, 1}, {0, -1}, {-1, 0}} {
			n := cell{k.r + d.r, k.c + d.c}
			if p.seen[n] {
				continue
			}
			nx, ny := p.at(n)
			if blocked && p.inArea(nx, ny) || p.free(nx, ny) && p.space.SweepClear(x, y, nx, ny, p.r, 0, p.top, onTrack) {
				p.seen[n] = true
				heap.Push(&p.frontier, n)
			}
		}
		if p.free(x, y) && p.others.clear(x, y, p.r-placeClearance, 0.999*placeGap) {
			p.others.add(disc{x, y, p.r - placeClearance})
			return Pose{X: x, Y: y, Yaw: p.heading(x, y)}, true
		}
	}
	return Pose{}, false
}

// A grid-placed vehicle keeps the spawn point's heading when placeLookAhead ahead of it is
// clear of the track; otherwise it turns to the most open of placeHeadings headings, the one
// nearest the spawn point's among equals, so that it does not start facing a wall.
const (
	placeLookAhead = 0.5 // m
	placeHeadings  = 16
)

// heading returns the yaw of a vehicle placed at (x, y).
func (p *placer) heading(x, y float64) float64 {
	clear := func(yaw, d float64) bool {
		fy, fx := math.Sincos(yaw)
		return p.space.SweepClear(x, y, x+d*fx, y+d*fy, p.r, 0, p.top, onTrack)
	}
	if clear(p.yaw, placeLookAhead) {
		return p.yaw
	}
	best, bestD := p.yaw, 0.0
	for i := 1; i < placeHeadings && bestD < placeLookAhead; i++ {
		k := (i + 1) / 2 // 1, -1, 2, -2, ...: nearest the spawn point's heading first
		if i%2 == 0 {
			k = -k
		}
		yaw := p.yaw + float64(k)*2*math.Pi/placeHeadings
		for _, d := range [...]float64{placeLookAhead, placeLookAhead / 2, placeLookAhead / 4} {
			if d <= bestD {
				break
			}
			if clear(yaw, d) {
				best, bestD = yaw, d
				break
			}
		}
	}
	return math.Remainder(best, 2*math.Pi)
}

// NoRoomError is why a world could not be built for its agents: fewer of those without a spawn
// pose fit on the track's free floor than were asked for. It is the caller's request that is
// too big, not the simulator that failed.
type NoRoomError struct {
	Fit, Want int     // how many fit, of how many without a spawn pose
	Total     int     // the agents altogether: Total-Want stand on spawn points or poses of their own
	TrackID   string  // the track
	X, Y      float64 // where the grid is centred (world frame, m)
	Pitch     float64 // the grid's spacing (m)
}

// Error counts the agents as the scenario does: those on spawn points and given poses as well
// as the grid's, so that "use at most" is a number agents.count takes as it is (a fleet of
// 10,000 was told "7217 of 9999" fit, leaving its user to work out 7218 of 10,000).
func (e *NoRoomError) Error() string {
	placed := e.Total - e.Want
	return fmt.Sprintf("agents: %d of the %d fit on the free floor of track %s: %d on its spawn points or their own spawn poses, "+
		"then %d of the %d others on a grid %.2f m apart around (%.2f, %.2f); use at most %d, a larger floor "+
		"(the track's size params or another track), or give them agents.vehicles[].spawnPose",
		placed+e.Fit, e.Total, e.TrackID, placed, e.Fit, e.Want, e.Pitch, e.X, e.Y, placed+e.Fit)
}

// placeAgents returns agents with the spawn poses of those that have none filled in: spawn
// points of layout first, then the grid, clear of what space holds (the track). It fails,
// naming how many fit, when the grid has no room for every agent, and when two agents' poses
// put their bodies inside each other (SpawnOverlapError).
func placeAgents(space *physics.Space, layout *plugins.Layout, trackID string, agents []AgentSpec) ([]AgentSpec, error) {
	out := make([]AgentSpec, len(agents))
	copy(out, agents)
	sp := layout.SpawnPoints
	var others []disc
	var rest []int
	r, h := 0.0, 0.0
	for i := range out {
		a := &out[i]
		switch {
		case a.Spawn != nil:
		case i < len(sp):
			a.Spawn = &Pose{X: sp[i].X, Y: sp[i].Y, Yaw: sp[i].YawDeg * math.Pi / 180}
			if a.SpawnYaw != nil {
				a.Spawn.Yaw = *a.SpawnYaw
			}
		default:
			rest = append(rest, i)
			r, h = math.Max(r, footprintRadius(a.Vehicle)), math.Max(h, bodyHeight(a.Vehicle))
			continue
		}
		others = append(others, disc{a.Spawn.X, a.Spawn.Y, footprintRadius(a.Vehicle)})
	}
	if err := overlappingSpawns(out); err != nil {
		return nil, err
	}
	if len(rest) == 0 {
		return out, nil
	}
	p := newPlacer(space, layout, r, h, others)
	for n, i := range rest {
		pose, ok := p.next()
		if !ok {
			pose, ok = p.lane(out[i].Vehicle)
		}
		if !ok {
			return nil, &NoRoomError{Fit: n, Want: len(rest), Total: len(out), TrackID: trackID, X: p.ax, Y: p.ay, Pitch: p.pitch}
		}
		if out[i].SpawnYaw != nil {
			pose.Yaw = *out[i].SpawnYaw
		}
		out[i].Spawn = &pose
	}
	return out, nil
}

// ErrNoFreePlace begins Spawn's error when a vehicle without a pose fits nowhere.
var ErrNoFreePlace = errors.New("no free place for another vehicle")

// freeSpawnPose is where Spawn puts a vehicle that comes without a pose: the spawn point with
// the next index while it is clear, else the first free grid cell, clear of every vehicle
// where it stands now.
func (w *World) freeSpawnPose(v *plugins.VehicleDescriptor) (Pose, error) {
	r, h := footprintRadius(v), bodyHeight(v)
	var others []disc
	for _, m := range w.models {
		p := bodyPose(m.Body)
		others = append(others, disc{p.X, p.Y, footprintRadius(m.Vehicle)})
	}
	p := newPlacer(w.space, w.layout, r, h, others)
	p.vehiclesInSpace = true
	if sp := w.layout.SpawnPoints; len(w.models) < len(sp) {
		s := sp[len(w.models)]
		if p.free(s.X, s.Y) && p.others.clear(s.X, s.Y, r, 0.999*placeGap) {
			return Pose{X: s.X, Y: s.Y, Yaw: s.YawDeg * math.Pi / 180}, nil
		}
	}
	if pose, ok := p.next(); ok {
		return pose, nil
	}
	if pose, ok := p.lane(v); ok {
		return pose, nil
	}
	lane := ""
	if !p.spread {
		lane = fmt.Sprintf(", or a lane %.2f m wide along the spawn point's heading", laneWidth(v))
	}
	return Pose{}, fmt.Errorf("%w on the floor of track %s around (%.2f, %.2f): "+
		"it takes a clear circle %.2f m across, its footprint turned any way%s", ErrNoFreePlace, w.cfg.Track.ID, p.ax, p.ay, 2*r, lane)
}
