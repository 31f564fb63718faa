package world

import (
	"fmt"
	"math"
	"testing"

	"simgui/app/events"
	"simgui/physics"
	"simgui/physics/drive"
	"simgui/plugins"
)

// kinematicFleet is a world of n test cars on a 0.4 m grid in a walled 12 m square in
// kinematic mode, with a seed-dependent crate (staticLayout), each car with its own command.
func kinematicFleet(t *testing.T, n int, seed int64) *World {
	t.Helper()
	const half = 6.0
	track := &plugins.TrackDescriptor{ID: "track.test.fleet.v1", Elements: []plugins.Element{
		{Kind: "wall", Name: "s", Y: -half, Length: 2 * half, Width: 0.02, Height: 0.25},
		{Kind: "wall", Name: "n", Y: half, Length: 2 * half, Width: 0.02, Height: 0.25},
		{Kind: "wall", Name: "w", X: -half, Length: 0.02, Width: 2 * half, Height: 0.25},
		{Kind: "wall", Name: "e", X: half, Length: 0.02, Width: 2 * half, Height: 0.25},
	}}
	cfg := Config{Track: track, BuildLayout: staticLayout, Seed: seed, Physics: physics.Kinematic, VehicleCollisions: true}
	for i := 0; i < n; i++ {
		p := Pose{X: -half + 0.5 + float64(i%25)*0.45, Y: -half + 2 + float64(i/25)*0.45, Yaw: float64(i%8) * math.Pi / 4}
		cfg.Agents = append(cfg.Agents, AgentSpec{Name: fmt.Sprintf("car%d", i), Vehicle: testVehicle, Spawn: &p})
	}
	w, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	for i, m := range w.Models() {
		m.Command = drive.Command{Throttle: 0.5 + 0.5*float64(i%5)/4, Steer: float64(i%9-4) / 8}
	}
	return w
}

// A kinematic world is deterministic: the same seed gives the same state hash, step for step
// through contacts, and another seed (which moves the crate) another one; a reset gives the
// run again.
func TestKinematicSameSeedSameHash(t *testing.T) {
	run := func(w *World) []string {
		var hashes []string
		for i := 0; i < 600; i++ {
			w.Step()
			if i%100 == 99 {
				hashes = append(hashes, w.StateHash())
			}
		}
		return hashes
	}
	a, b := kinematicFleet(t, 300, 11), kinematicFleet(t, 300, 11)
	ha, hb := run(a), run(b)
	for i := range ha {
		if ha[i] != hb[i] {
			t.Fatalf("same seed, step %d: %s vs %s", (i+1)*100, ha[i], hb[i])
		}
	}
	if ha[len(ha)-1] == run(kinematicFleet(t, 300, 12))[len(ha)-1] {
		t.Fatal("seeds 11 and 12 gave the same hash although the crate moves with the seed")
	}
	if err := a.Reset(11); err != nil {
		t.Fatal(err)
	}
	for i, m := range a.Models() {
		m.Command = drive.Command{Throttle: 0.5 + 0.5*float64(i%5)/4, Steer: float64(i%9-4) / 8}
	}
	if again := run(a); again[len(again)-1] != ha[len(ha)-1] {
		t.Fatal("a reset to the same seed did not give the same run")
	}
}

// In a kinematic world a car driven at a wall stops against it, a COLLISION_STARTED and, when it
// backs off, a COLLISION_ENDED reach the buses, and driving with the wall beside it, it keeps
// going: the drive model's speed, with nothing in the way, is exactly the model's.
func TestKinematicWorldContactsAndDrive(t *testing.T) {
	cfg := Config{Track: testTrack, BuildLayout: staticLayout, Seed: 7, Physics: physics.Kinematic,
		Agents: []AgentSpec{{Name: "car0", Vehicle: testVehicle}}}
	w, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	var started, ended int
	w.Events().On(events.CollisionStarted, func(e events.Event) {
		if c := e.Data.(events.Collision); c.A.Name == "north" && c.B.Name == "car0" {
			started++
		}
	}, 0)
	w.EntityEvents(w.Model("car0").ID).On(events.CollisionEnded, func(events.Event) { ended++ }, 0)
	w.SetCommand("car0", drive.Command{Throttle: 1})
	for i := 0; i < 800; i++ {
		w.Step()
		if p, _ := w.Pose("car0"); p.Y > 2-0.01-0.125+physics.KinematicTolerance {
			t.Fatalf("step %d: car in the wall at y=%.4f", i, p.Y)
		}
	}
	if started != 1 {
		t.Fatalf("%d COLLISION_STARTED with the north wall, want 1", started)
	}
	if s := w.Snapshot(); math.Abs(s.Models[0].Speed) > 0.03 {
		t.Fatalf("car pressed against the wall moves at %.3f m/s", s.Models[0].Speed)
	}
	w.SetCommand("car0", drive.Command{Throttle: -1})
	for i := 0; i < 200; i++ {
		w.Step()
	}
	if ended != 1 {
		t.Fatalf("%d COLLISION_ENDED, want 1", ended)
	}
	// Free driving follows the drive model: 0.73 m/s forward at full throttle.
	if err := w.SetPose("car0", Pose{X: -1.5, Y: 0, Yaw: -math.Pi / 2}); err != nil {
		t.Fatal(err)
	}
	w.SetCommand("car0", drive.Command{Throttle: 1})
	for i := 0; i < 200; i++ {
		w.Step()
	}
	if s := w.Snapshot(); math.Abs(s.Models[0].Forward-0.73) > 1e-9 {
		t.Fatalf("forward speed %.6f, the model's top speed is 0.73", s.Models[0].Forward)
	}
}
