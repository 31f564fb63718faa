package physics

import (
	"math"
	"slices"
	"testing"

	"simgui/plugins"
)

// A split fleet ends in the same state, bit for bit, whether one goroutine moves all of it or
// a team shares its passes: the order of the moves is the state's, not the machine's.
func TestKinematicSplitSameOnAnyTeam(t *testing.T) {
	const n = 1000
	alone, carsA := newJam(t, n, false)
	shared, carsS := newJam(t, n, false)
	alone.kin.splitAt, alone.kin.team = n/10, newTeam(0)
	shared.kin.splitAt, shared.kin.team = n/10, newTeam(3)
	sides := 0
	for step := 0; step < 300; step++ {
		driveJam(carsA, step)
		driveJam(carsS, step)
		alone.Step(0.005)
		shared.Step(0.005)
		a, s := alone.kin, shared.kin
		for i := range a.movers {
			ma, ms := &a.movers[i], &s.movers[i]
			if ma.geom != ms.geom || ma.yaw != ms.yaw || ma.vx != ms.vx || ma.vy != ms.vy || ma.w != ms.w {
				t.Fatalf("step %d: mover %s differs: alone %+v, with helpers %+v", step, ma.body.Name, *ma, *ms)
			}
		}
		if len(a.touch) != len(s.touch) {
			t.Fatalf("step %d: %d touching pairs alone, %d with helpers", step, len(a.touch), len(s.touch))
		}
		// The broad phase's lists, made in parts with helpers, are those made in one.
		if !slices.Equal(a.pairs, s.pairs) || !slices.Equal(a.onTrack, s.onTrack) || !slices.Equal(a.spans, s.spans) {
			t.Fatalf("step %d: the broad phase listed %d pairs, %d track shapes alone, %d and %d with helpers, or their spans differ",
				step, len(a.pairs), len(a.onTrack), len(s.pairs), len(s.onTrack))
		}
		used := 0
		for _, in := range s.split.inner {
			if len(in) > 0 {
				used++
			}
		}
		sides = max(sides, used)
	}
	if sides < 2 {
		t.Fatalf("at most %d side held inner movers: nothing moved in parallel", sides)
	}
}

// The sides hold every mover once, in index order, a quarter of the fleet in each (cut by index
// for a fleet added row by row, across x for one added in no order), and what an inner mover's
// move reads (its neighbours, and for a vehicle those of the boxes it may push) is all of its
// side; the touch list merged from the sides' is every touching pair once, in order.
func TestKinematicSplitCoversTheFleet(t *testing.T) {
	t.Run("by-index", func(t *testing.T) { testSplitCovers(t, false) })
	t.Run("across-x", func(t *testing.T) { testSplitCovers(t, true) })
}

// jamBoxes scatters movable boxes over the jam's arena, in the gaps of its grid of robots.
func jamBoxes(t *testing.T, s *Space) {
	for i := range 120 {
		x, y := -jamHalf+0.6+float64(i%12)*1.2, -jamHalf+0.6+float64(i/12)*1.3
		mustAdd(t, s, plugins.Element{Kind: "box", Name: "box" + itoa(i), X: x, Y: y, Length: 0.12, Width: 0.12, Height: 0.1, Movable: true, Mass: 0.3})
	}
}

// neighbours returns the movers the broad phase listed near mover i.
func (k *kinematic) neighbours(i int32) []int32 {
	sp := &k.spans[i]
	return k.adj[sp.lo:sp.hi]
}

// reads returns the movers mover i's move may read: its neighbours and, for a vehicle, the
// neighbours of the boxes among them.
func reads(k *kinematic, i int32) []int32 {
	out := append([]int32(nil), k.neighbours(i)...)
	if k.movers[i].vehicle {
		for _, j := range k.neighbours(i) {
			if !k.movers[j].vehicle {
				out = append(out, k.neighbours(j)...)
			}
		}
	}
	return out
}

func testSplitCovers(t *testing.T, shuffled bool) {
	s, cars := newJam(t, 1000, shuffled)
	if shuffled {
		jamBoxes(t, s) // added last, all over the arena: a fleet to cut across x
	}
	s.kin.splitAt, s.kin.team = 100, newTeam(3)
	for step := range 300 {
		driveJam(cars, step)
		s.Step(0.005)
	}
	k := s.kin
	want := map[[2]uint32]bool{}
	for _, c := range k.pairs {
		if _, _, d := penetration(&k.movers[c.a].geom, &k.movers[c.b].geom, contactMargin); d > -contactMargin {
			want[[2]uint32{k.movers[c.a].id, k.movers[c.b].id}] = true
		}
	}
	for _, c := range k.onTrack {
		if _, _, d := penetration(&k.movers[c.a].geom, &k.statics[c.b].geom, contactMargin); d > -contactMargin {
			want[[2]uint32{k.movers[c.a].id, k.statics[c.b].body.ID}] = true
		}
	}
	for j, p := range k.touch {
		if j > 0 && !pairLess(&k.touch[j-1], &p) {
			t.Fatalf("touch list out of order at %d: %v then %v", j, k.touch[j-1], p)
		}
		if !want[[2]uint32{p.oid, p.pid}] {
			t.Fatalf("touch list holds %d-%d, which do not touch", p.oid, p.pid)
		}
	}
	if len(k.touch) != len(want) || len(want) < 100 {
		t.Fatalf("touch list holds %d pairs, %d touch", len(k.touch), len(want))
	}
	if !k.split.on {
		t.Fatal("the fleet was not split")
	}
	seen := make([]int, len(k.movers))
	for side, list := range k.split.all {
		if d := math.Abs(float64(len(list)) - float64(len(k.movers))/kinSides); d > float64(len(k.movers))/20 {
			t.Errorf("side %d holds %d of %d movers", side, len(list), len(k.movers))
		}
		for j, i := range list {
			seen[i]++
			if j > 0 && list[j-1] >= i {
				t.Fatalf("side %d is not in index order at %d", side, j)
			}
			if int(k.split.side[i]) != side {
				t.Fatalf("mover %d listed in side %d, of side %d", i, side, k.split.side[i])
			}
		}
	}
	for i, c := range seen {
		if c != 1 {
			t.Fatalf("mover %d is in %d sides", i, c)
		}
	}
	inner := 0
	for side, list := range k.split.inner {
		inner += len(list)
		for _, i := range list {
			for _, j := range reads(k, i) {
				if int(k.split.side[j]) != side {
					t.Fatalf("inner mover %d of side %d reads mover %d of side %d", i, side, j, k.split.side[j])
				}
			}
		}
	}
	paired := 0
	for p, list := range k.split.pair {
		paired += len(list)
		for _, i := range list {
			if int(k.split.side[i])>>1 != p {
				t.Fatalf("mover %d of side %d listed in pair %d", i, k.split.side[i], p)
			}
			for _, j := range reads(k, i) {
				if int(k.split.side[j])>>1 != p {
					t.Fatalf("mover %d of pair %d reads mover %d of side %d", i, p, j, k.split.side[j])
				}
			}
		}
	}
	if inner+paired+len(k.split.edge) != len(k.movers) || inner == 0 {
		t.Fatalf("%d inner, %d paired and %d edge movers of %d", inner, paired, len(k.split.edge), len(k.movers))
	}
	// Sides by index are runs of consecutive movers; sides across x are not.
	byIndex := true
	for side, list := range k.split.all {
		byIndex = byIndex && int(list[0]) == side*len(k.movers)/kinSides && int(list[len(list)-1]-list[0]) == len(list)-1
	}
	if byIndex == shuffled {
		t.Fatalf("sides cut by index: %v, for a fleet added shuffled: %v (%d edge movers)", byIndex, shuffled, len(k.split.edge))
	}
}
