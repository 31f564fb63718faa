package physics

import (
	"math"
	"testing"

	"simgui/plugins"
)

var carBody = plugins.Body{Shape: "box", Length: 0.25, Width: 0.15, Height: 0.12, Mass: 1, Friction: 0.9}

func mustAdd(t *testing.T, s *Space, e plugins.Element) *Body {
	t.Helper()
	b, err := s.AddElement(e)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// modes runs f once per physics mode, as a subtest named after it.
func modes(t *testing.T, f func(t *testing.T, mode Mode)) {
	for _, m := range []Mode{Dynamic, Kinematic} {
		t.Run(m.String(), func(t *testing.T) { f(t, m) })
	}
}

func TestContactsStartAndEndOncePerPair(t *testing.T) { modes(t, testContactsStartAndEndOncePerPair) }

func testContactsStartAndEndOncePerPair(t *testing.T, mode Mode) {
	s := NewSpace(Options{Mode: mode})
	// A polygon made of outline segments: touching two segments at a corner is one contact.
	wall := mustAdd(t, s, plugins.Element{Kind: "polygon", Name: "block", Height: 0.3,
		Points: [][2]float64{{1, -1}, {2, -1}, {2, 1}, {1, 1}}})
	car, err := s.AddVehicle(VehicleSpec{Name: "car", Body: carBody, Pose: Pose{X: 0}})
	if err != nil {
		t.Fatal(err)
	}
	var started, ended int
	for i := 0; i < 400; i++ {
		vx := 1.0
		if i >= 200 {
			vx = -1
		}
		car.SetVelocity(vx, 0)
		car.SetAngularVelocity(0)
		s.Step(0.005)
		st, en := s.Contacts()
		for _, c := range st {
			if c.A != wall || c.B != car {
				t.Fatalf("started pair %s/%s", c.A.Name, c.B.Name)
			}
			started++
		}
		ended += len(en)
		if i == 199 && !s.Touching(car, wall) {
			t.Fatal("car pressed against the wall is not touching it")
		}
	}
	if started != 1 || ended != 1 {
		t.Fatalf("started %d ended %d, want exactly one of each", started, ended)
	}
}

func TestRemovingABodyEndsItsContacts(t *testing.T) { modes(t, testRemovingABodyEndsItsContacts) }

func testRemovingABodyEndsItsContacts(t *testing.T, mode Mode) {
	s := NewSpace(Options{Mode: mode, VehicleCollisions: true})
	a, _ := s.AddVehicle(VehicleSpec{Name: "a", Body: carBody, Pose: Pose{X: 0}})
	b, _ := s.AddVehicle(VehicleSpec{Name: "b", Body: carBody, Pose: Pose{X: 0.24}})
	s.Step(0.005)
	if st, _ := s.Contacts(); len(st) != 1 {
		t.Fatalf("overlapping cars: %d contacts started", len(st))
	}
	s.Remove(b)
	s.Step(0.005)
	if _, en := s.Contacts(); len(en) != 1 || en[0].A != a {
		t.Fatalf("ended %v after removing b", en)
	}
	if s.Body(b.ID) != nil || s.Body(a.ID) != a {
		t.Fatal("Body lookup after removal is wrong")
	}
}

func TestVehicleCollisionsOff(t *testing.T) { modes(t, testVehicleCollisionsOff) }

func testVehicleCollisionsOff(t *testing.T, mode Mode) {
	s := NewSpace(Options{Mode: mode, VehicleCollisions: false})
	a, _ := s.AddVehicle(VehicleSpec{Name: "a", Body: carBody, Pose: Pose{X: 0}})
	s.AddVehicle(VehicleSpec{Name: "b", Body: carBody, Pose: Pose{X: 0.5}})
	for i := 0; i < 200; i++ {
		a.SetVelocity(1, 0)
		s.Step(0.005)
	}
	if x := a.Pose().X; x < 0.99 {
		t.Fatalf("a stopped at %.3f: vehicles must pass through each other with collisions off", x)
	}
}

func TestPushableBoxSlidesAndStops(t *testing.T) { modes(t, testPushableBoxSlidesAndStops) }

func testPushableBoxSlidesAndStops(t *testing.T, mode Mode) {
	s := NewSpace(Options{Mode: mode})
	box := mustAdd(t, s, plugins.Element{Kind: "box", X: 0, Length: 0.2, Width: 0.2, Height: 0.2, Movable: true, Mass: 0.5})
	box.SetVelocity(1, 0)
	for i := 0; i < 400; i++ {
		s.Step(0.005)
	}
	// μ = 0.5: v²/(2μg) = 0.102 m.
	if x := box.Pose().X; math.Abs(x-1/(2*0.5*Gravity)) > 0.01 {
		t.Fatalf("box slid %.3f m, want ≈0.102", x)
	}
	if vx, _ := box.Velocity(); vx != 0 {
		t.Fatalf("box still moving at %.3f m/s", vx)
	}
}

func TestRayCastDistanceAndHeight(t *testing.T) { modes(t, testRayCastDistanceAndHeight) }

func testRayCastDistanceAndHeight(t *testing.T, mode Mode) {
	s := NewSpace(Options{Mode: mode})
	low := mustAdd(t, s, plugins.Element{Kind: "wall", Name: "low", X: 1, Length: 0.02, Width: 2, Height: 0.1})
	high := mustAdd(t, s, plugins.Element{Kind: "wall", Name: "high", X: 2, Length: 0.02, Width: 2, Height: 0.5})
	hit, ok := s.RayCast(0, 0, 5, 0, 0.05, nil)
	if !ok || hit.Body != low || math.Abs(hit.Distance-0.99) > 1e-9 {
		t.Fatalf("ray at 5 cm: %+v ok=%v, want the low wall at 0.99 m", hit, ok)
	}
	hit, ok = s.RayCast(0, 0, 5, 0, 0.3, nil)
	if !ok || hit.Body != high || math.Abs(hit.Distance-1.99) > 1e-9 {
		t.Fatalf("ray at 30 cm: %+v, want the high wall at 1.99 m", hit)
	}
	if _, ok := s.RayCast(0, 0, 5, 0, 0.7, nil); ok {
		t.Fatal("ray above every wall hit something")
	}
	if _, ok := s.RayCast(0, 0, 0.5, 0, 0.05, nil); ok {
		t.Fatal("ray shorter than the distance hit the wall")
	}
}

func TestSameInputsSameState(t *testing.T) { modes(t, testSameInputsSameState) }

func testSameInputsSameState(t *testing.T, mode Mode) {
	runOnce := func() []Pose {
		s := NewSpace(Options{Mode: mode, VehicleCollisions: true})
		mustAdd(t, s, plugins.Element{Kind: "wall", X: 1, Length: 0.02, Width: 3, Height: 0.3})
		var cars []*Body
		for i := 0; i < 20; i++ {
			c, _ := s.AddVehicle(VehicleSpec{Name: "c", Body: carBody, Pose: Pose{X: float64(i%5) * 0.1, Y: float64(i/5) * 0.2, Yaw: float64(i)}})
			cars = append(cars, c)
		}
		for i := 0; i < 500; i++ {
			for j, c := range cars {
				c.SetLocalVelocity(0.5+0.01*float64(j), 0)
				c.SetAngularVelocity(0.3)
			}
			s.Step(0.005)
		}
		var out []Pose
		for _, c := range cars {
			out = append(out, c.Pose())
		}
		return out
	}
	a, b := runOnce(), runOnce()
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("car %d: %+v vs %+v", i, a[i], b[i])
		}
	}
}

func TestFastCarStopsAtAThinWall(t *testing.T) { modes(t, testFastCarStopsAtAThinWall) }

// A car driven at a 2 cm wall (the cardboard corridor's) with coarse steps stops at its face:
// dynamic steps cut into substeps by speed and length no longer let it pass between two looks
// or sink in. Each step the drive adds what an accelerating car would (accel·dt, up to 2 m/s)
// to the velocity the contact left.
func testFastCarStopsAtAThinWall(t *testing.T, mode Mode) {
	for _, dt := range []float64{0.005, 0.05, 0.1} {
		s := NewSpace(Options{Mode: mode})
		mustAdd(t, s, plugins.Element{Kind: "wall", Name: "w", X: 1, Length: 0.02, Width: 2, Height: 0.25})
		car, err := s.AddVehicle(VehicleSpec{Name: "car", Body: carBody})
		if err != nil {
			t.Fatal(err)
		}
		const accel, top = 4.0, 2.0
		for range int(6 / dt) {
			vx, _ := car.Velocity()
			car.SetVelocity(min(top, vx+accel*dt), 0)
			car.SetAngularVelocity(0)
			s.Step(dt)
		}
		// The wall's face is at 0.99, the car's front half a length ahead of its centre.
		if front := car.Pose().X + carBody.Length/2; front > 0.99+0.01 {
			t.Errorf("step %g s: the car's front is at %.3f m, the wall's face at 0.99", dt, front)
		}
	}
}
