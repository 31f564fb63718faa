package physics

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/jakecoffman/cp/v2"

	"simgui/plugins"
)

// The narrow phase agrees with cp's on the depth of overlapping boxes and circles: cp is the
// reference the dynamic mode trusts.
func TestPenetrationAgreesWithCP(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	checked := 0
	for i := 0; i < 20000; i++ {
		a := geom{x: 0, y: 0, hx: 0.05 + r.Float64()*0.3, hy: 0.05 + r.Float64()*0.3, circle: r.IntN(3) == 0}
		b := geom{x: r.Float64()*0.8 - 0.4, y: r.Float64()*0.8 - 0.4, hx: 0.05 + r.Float64()*0.3, hy: 0.05 + r.Float64()*0.3, circle: r.IntN(3) == 0}
		ya, yb := r.Float64()*2*math.Pi, r.Float64()*2*math.Pi
		a.s, a.c = math.Sincos(ya)
		b.s, b.c = math.Sincos(yb)
		a.bound()
		b.bound()
		_, _, depth := penetration(&a, &b, 0)
		set := cp.ShapesCollide(cpShape(&a, ya), cpShape(&b, yb))
		want := math.Inf(-1)
		for j := 0; j < set.Count; j++ {
			// The signed distance from the points and the normal (a to b): cp's own Distance
			// has the wrong sign when Collide swapped the shapes.
			pt := set.Points[j]
			want = math.Max(want, -pt.PointB.Sub(pt.PointA).Dot(set.Normal))
		}
		if set.Count == 0 {
			if depth > 1e-9 {
				t.Fatalf("case %d: cp sees no contact, penetration says %.6f deep\na=%+v\nb=%+v", i, depth, a, b)
			}
			continue
		}
		checked++
		if math.Abs(depth-want) > 1e-6 {
			t.Fatalf("case %d: depth %.6f, cp %.6f\na=%+v\nb=%+v", i, depth, want, a, b)
		}
	}
	if checked < 5000 {
		t.Fatalf("only %d overlapping cases checked", checked)
	}
}

func cpShape(g *geom, yaw float64) *cp.Shape {
	body := cp.NewKinematicBody()
	body.SetPosition(cp.Vector{X: g.x, Y: g.y})
	body.SetAngle(yaw)
	var sh *cp.Shape
	if g.circle {
		sh = cp.NewCircle(body, g.hx, cp.Vector{})
	} else {
		sh = cp.NewBox(body, 2*g.hx, 2*g.hy, 0)
	}
	sh.CacheBB() // places the shape where its body is
	return sh
}

// deepest returns the deepest overlap among the vehicles (sweeping along x) and between any
// vehicle and the static track, checked shape against shape with no help from the solver's
// grid.
func deepest(s *Space) (pair, track float64, who string) {
	k := s.kin
	idx := make([]int, len(k.movers))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmpFloat(k.movers[a].x, k.movers[b].x) })
	for ii, i := range idx {
		a := &k.movers[i]
		for _, j := range idx[ii+1:] {
			b := &k.movers[j]
			if b.x-a.x > a.r+b.r {
				break
			}
			if _, _, d := penetration(&a.geom, &b.geom, 0); d > pair {
				pair, who = d, a.body.Name+"/"+b.body.Name
			}
		}
		for si := range k.statics {
			if _, _, d := penetration(&a.geom, &k.statics[si].geom, 0); d > track {
				track = d
			}
		}
	}
	return pair, track, who
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// A jam of 1000 robots: all drive at full speed toward the middle of a walled arena, then all
// toward the west wall, turning as they go. After every step no two robots overlap, and no
// robot overlaps a wall, by more than KinematicTolerance, and every robot is inside. The fleet
// is split into sides (as fleets of splitMovers are) moved by a team of helpers, so that the
// parallel moves are what is checked, inner and edge movers alike.
func TestKinematicJamNeverPassesThrough(t *testing.T) {
	const n = 1000
	s, cars := newJam(t, n, false)
	s.kin.splitAt, s.kin.team = n/10, newTeam(3)
	var worstPair, worstTrack float64
	touching, edges, paired := 0, 0, 0
	for step := 0; step < 1200; step++ {
		driveJam(cars, step)
		s.Step(0.005)
		edges = max(edges, len(s.kin.split.edge))
		paired = max(paired, len(s.kin.split.pair[0])+len(s.kin.split.pair[1]))
		st, en := s.Contacts()
		touching += len(st) - len(en)
		pair, track, who := deepest(s)
		if testing.Verbose() && step%100 == 0 {
			t.Logf("step %d: deepest %.5f / %.5f", step, pair, track)
		}
		if pair > KinematicTolerance {
			t.Fatalf("step %d: robots %s overlap by %.4f m (tolerance %g)", step, who, pair, KinematicTolerance)
		}
		if track > KinematicTolerance {
			t.Fatalf("step %d: a robot overlaps the track by %.4f m", step, track)
		}
		for _, c := range cars {
			if p := c.Pose(); math.Abs(p.X) > jamHalf || math.Abs(p.Y) > jamHalf {
				t.Fatalf("step %d: %s escaped to (%.3f, %.3f)", step, c.Name, p.X, p.Y)
			}
		}
		worstPair, worstTrack = math.Max(worstPair, pair), math.Max(worstTrack, track)
	}
	// The jam must really have happened: the robots are pressed against each other and the
	// west wall, most of them in the west half, and some moved between sides.
	packed := 0
	for _, c := range cars {
		if c.Pose().X < 0 {
			packed++
		}
	}
	if packed < n*3/4 || touching < n/2 || edges < n/20 || paired < n/20 {
		t.Fatalf("%d of %d robots in the west half, %d pairs touching, at most %d edge and %d paired movers: no jam was tested", packed, n, touching, edges, paired)
	}
	t.Logf("deepest overlap: %.5f m between robots, %.5f m with the track; %d robots in the west half, %d pairs touching, up to %d edge and %d paired movers", worstPair, worstTrack, packed, touching, edges, paired)
}

// jamHalf is the half size of the jam's arena in metres.
const jamHalf = 7.0

// newJam is a walled arena with a post and a concave block, and n robots (boxes and circles) on
// a grid around them, facing every way, added row by row or, shuffled, in no order of place.
func newJam(t *testing.T, n int, shuffled bool) (*Space, []*Body) {
	t.Helper()
	const half = jamHalf
	s := NewSpace(Options{Mode: Kinematic, VehicleCollisions: true})
	for _, w := range []plugins.Element{
		{Kind: "wall", Name: "s", Y: -half, Length: 2 * half, Width: 0.02, Height: 0.25},
		{Kind: "wall", Name: "n", Y: half, Length: 2 * half, Width: 0.02, Height: 0.25},
		{Kind: "wall", Name: "w", X: -half, Length: 0.02, Width: 2 * half, Height: 0.25},
		{Kind: "wall", Name: "e", X: half, Length: 0.02, Width: 2 * half, Height: 0.25},
		// A post in the middle and a concave block, so the pile meets corners and curves.
		{Kind: "cylinder", Name: "post", Radius: 0.3, Height: 0.3},
		{Kind: "polygon", Name: "block", Height: 0.3, Points: [][2]float64{{-5, 2}, {-3, 2}, {-3, 4}, {-3.5, 4}, {-3.5, 2.5}, {-5, 2.5}}},
	} {
		mustAdd(t, s, w)
	}
	r := rand.New(rand.NewPCG(7, 7))
	var cells []int
	for i := 0; len(cells) < n; i++ {
		x, y := -half+0.4+float64(i%34)*0.4, -half+0.4+float64(i/34)*0.4
		if math.Hypot(x, y) >= 0.6 && !(x > -5.3 && x < -2.7 && y > 1.7 && y < 4.3) {
			cells = append(cells, i)
		}
	}
	if shuffled {
		r.Shuffle(len(cells), func(a, b int) { cells[a], cells[b] = cells[b], cells[a] })
	}
	var cars []*Body
	for _, i := range cells {
		x, y := -half+0.4+float64(i%34)*0.4, -half+0.4+float64(i/34)*0.4
		bd := carBody
		if i%5 == 0 {
			bd = plugins.Body{Shape: "circle", Radius: 0.09, Height: 0.1, Mass: 1.5}
		}
		c, err := s.AddVehicle(VehicleSpec{Name: "r" + string(rune('a'+i%26)) + itoa(i), Body: bd, Pose: Pose{X: x, Y: y, Yaw: r.Float64() * 2 * math.Pi}})
		if err != nil {
			t.Fatal(err)
		}
		cars = append(cars, c)
	}
	return s, cars
}

// driveJam sets the jam's velocities for step: every robot toward the middle, from step 400
// toward the west wall, spinning some.
func driveJam(cars []*Body, step int) {
	for i, c := range cars {
		p := c.Pose()
		tx, ty := -p.X, -p.Y // toward the middle
		if step >= 400 {
			tx, ty = -jamHalf-p.X, 0 // toward the west wall
		}
		heading := math.Atan2(ty, tx)
		speed := 0.73 + 0.5*float64(i%3) // some fast, 1.73 m/s
		// Point the body along its motion now and then, spin it otherwise.
		c.SetVelocity(speed*math.Cos(heading), speed*math.Sin(heading))
		c.SetAngularVelocity(float64(i%7-3) * 1.5)
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

// A robot driven at a wall at 45° stops against it and slides along it at the speed along
// the wall it was asked for.
func TestKinematicSlidesAlongWall(t *testing.T) {
	s := NewSpace(Options{Mode: Kinematic})
	mustAdd(t, s, plugins.Element{Kind: "wall", X: 1, Length: 0.02, Width: 10, Height: 0.3})
	car, _ := s.AddVehicle(VehicleSpec{Name: "car", Body: carBody, Pose: Pose{Yaw: math.Pi / 4}})
	var yAtContact float64
	contactStep := -1
	const steps = 800
	for i := 0; i < steps; i++ {
		car.SetVelocity(0.5, 0.5)
		s.Step(0.005)
		if contactStep < 0 {
			if st, _ := s.Contacts(); len(st) > 0 {
				contactStep, yAtContact = i, car.Pose().Y
			}
		}
	}
	if contactStep < 0 {
		t.Fatal("the car never reached the wall")
	}
	p := car.Pose()
	// The box's extent along x at 45°: (0.25+0.15)/2·cos45°.
	wantX := 1 - 0.01 - (0.125+0.075)*math.Sqrt2/2
	if math.Abs(p.X-wantX) > KinematicTolerance {
		t.Fatalf("car at x=%.4f against the wall, want %.4f", p.X, wantX)
	}
	slid := p.Y - yAtContact
	want := 0.5 * 0.005 * float64(steps-1-contactStep)
	if math.Abs(slid-want) > 0.02*want {
		t.Fatalf("slid %.3f m along the wall, want %.3f", slid, want)
	}
	if !s.Touching(car, s.Bodies()[0]) {
		t.Fatal("the car sliding along the wall is not touching it")
	}
}

// A fast body does not tunnel through a thin wall: the step is cut into substeps.
func TestKinematicFastBodyStopsAtThinWall(t *testing.T) {
	s := NewSpace(Options{Mode: Kinematic})
	mustAdd(t, s, plugins.Element{Kind: "polygon", Height: 0.3, Points: [][2]float64{{1, -1}, {1.001, -1}, {1.001, 1}, {1, 1}}})
	car, _ := s.AddVehicle(VehicleSpec{Name: "car", Body: carBody})
	for i := 0; i < 100; i++ {
		car.SetVelocity(40, 0) // 20 cm per step against an outline 1 cm thick
		s.Step(0.005)
	}
	if x := car.Pose().X; x > 1-0.005-0.125+KinematicTolerance {
		t.Fatalf("car at x=%.3f went into or through the wall", x)
	}
}

// A robot pushes a box until the box meets a wall; then both stop there.
func TestKinematicPushesBoxToWall(t *testing.T) {
	s := NewSpace(Options{Mode: Kinematic})
	wall := mustAdd(t, s, plugins.Element{Kind: "wall", X: 2, Length: 0.02, Width: 2, Height: 0.3})
	box := mustAdd(t, s, plugins.Element{Kind: "box", Name: "box", X: 0.5, Length: 0.2, Width: 0.2, Height: 0.2, Movable: true, Mass: 0.5})
	car, _ := s.AddVehicle(VehicleSpec{Name: "car", Body: carBody})
	for i := 0; i < 1200; i++ {
		car.SetVelocity(0.5, 0)
		s.Step(0.005)
	}
	if x, want := box.Pose().X, 2-0.01-0.1; math.Abs(x-want) > KinematicTolerance {
		t.Fatalf("box at x=%.4f, want against the wall at %.4f", x, want)
	}
	if x, want := car.Pose().X, 2-0.01-0.2-0.125; math.Abs(x-want) > KinematicTolerance {
		t.Fatalf("car at x=%.4f, want against the box at %.4f", x, want)
	}
	if !s.Touching(car, box) || !s.Touching(box, wall) {
		t.Fatal("car, box and wall are not touching in a row")
	}
	if vx, _ := car.Velocity(); math.Abs(vx) > 0.01 {
		t.Fatalf("car blocked by box and wall still moves at %.3f m/s", vx)
	}
}

// A flying body passes over a low wall and is stopped by a tall one.
func TestKinematicFlyingOverLowWalls(t *testing.T) {
	s := NewSpace(Options{Mode: Kinematic})
	mustAdd(t, s, plugins.Element{Kind: "wall", X: 1, Length: 0.02, Width: 2, Height: 0.3})
	mustAdd(t, s, plugins.Element{Kind: "wall", X: 2, Length: 0.02, Width: 2, Height: 3})
	drone, _ := s.AddVehicle(VehicleSpec{Name: "drone", Flying: true, Base: 1,
		Body: plugins.Body{Shape: "circle", Radius: 0.2, Height: 0.1, Mass: 1.2}})
	for i := 0; i < 800; i++ {
		drone.SetVelocity(1, 0)
		s.Step(0.005)
	}
	if x, want := drone.Pose().X, 2-0.01-0.2; math.Abs(x-want) > KinematicTolerance {
		t.Fatalf("drone at x=%.4f, want over the low wall and stopped by the tall one at %.4f", x, want)
	}
}

// Without contacts a kinematic body moves exactly as its velocities say.
func TestKinematicFollowsVelocitiesExactly(t *testing.T) {
	s := NewSpace(Options{Mode: Kinematic})
	car, _ := s.AddVehicle(VehicleSpec{Name: "car", Body: carBody})
	x, y, yaw := 0.0, 0.0, 0.0
	for i := 0; i < 1000; i++ {
		vx, vy, w := math.Cos(float64(i)*0.01), 0.3, 0.7*math.Sin(float64(i)*0.02)
		car.SetVelocity(vx, vy)
		car.SetAngularVelocity(w)
		s.Step(0.005)
		x, y, yaw = x+vx*0.005, y+vy*0.005, yaw+w*0.005
		if p := car.Pose(); p != (Pose{X: x, Y: y, Yaw: yaw}) {
			t.Fatalf("step %d: pose %+v, want exactly %v %v %v", i, p, x, y, yaw)
		}
		if gx, gy := car.Velocity(); gx != vx || gy != vy {
			t.Fatalf("step %d: velocity changed to %v %v with nothing in the way", i, gx, gy)
		}
	}
}

// A rotation turned by many small turns stays a unit rotation of the accumulated yaw (within
// rounding), and a large turn is exact.
func TestTurnFollowsYaw(t *testing.T) {
	var k kstate
	k.setYaw(0.3)
	for i := 0; i < 200000; i++ {
		k.turn(0.033 * math.Sin(float64(i)*0.001))
	}
	s, c := math.Sincos(k.yaw)
	if math.Abs(k.c-c) > 1e-12 || math.Abs(k.s-s) > 1e-12 || math.Abs(math.Hypot(k.c, k.s)-1) > 1e-15 {
		t.Fatalf("after 200000 turns: rotation (%.17f, %.17f), Sincos of the yaw (%.17f, %.17f)", k.c, k.s, c, s)
	}
	k.turn(1)
	if s, c := math.Sincos(k.yaw); k.c != c || k.s != s {
		t.Fatal("a large turn is not Sincos of the yaw")
	}
}

// The solver's per-mover state stays at two cache lines, the shape in the first (see kstate).
func TestKstateSize(t *testing.T) {
	var k kstate
	if size, shape, at := unsafe.Sizeof(k), unsafe.Sizeof(k.geom), unsafe.Offsetof(k.geom); size != 128 || shape > 64 || at != 0 {
		t.Fatalf("kstate is %d bytes with its %d-byte shape at offset %d; want 128 with the shape in the first 64", size, shape, at)
	}
}
