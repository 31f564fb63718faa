package world

import (
	"math"
	"testing"
	"time"

	"simgui/physics/drive"
	"simgui/plugins/trackgen"
)

// The step rate's factor is the measured one while steps come, and 0 when paused or when no
// step has been published for a second.
func TestStepRateFactor(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := &Snapshot{RealTimeFactor: 1.5, Published: at}
	for _, c := range []struct {
		s    Snapshot
		now  time.Time
		want float64
	}{
		{*s, at.Add(200 * time.Millisecond), 1.5},
		{*s, at.Add(2 * time.Second), 0},
		{Snapshot{RealTimeFactor: 1.5, Published: at, Paused: true}, at, 0},
		{Snapshot{RealTimeFactor: 1.5}, at, 1.5}, // outside a loop: as measured
	} {
		if got := c.s.StepRateFactor(c.now); got != c.want {
			t.Errorf("%+v at %v: %g, want %g", c.s, c.now.Sub(at), got, c.want)
		}
	}
}

// A drone told to climb shows its climb rate in the snapshot, the rate its altitude changes
// at, and a car's is 0.
func TestSnapshotCarriesTheClimbRate(t *testing.T) {
	tr := builtinTrack(t, "track.basic_arena.v1")
	drone, ks := builtinVehicle(t, "vehicle.drone.simple.v1"), builtinVehicle(t, "vehicle.ks0223.v1")
	w, err := New(Config{Track: tr, BuildLayout: trackgen.Build, Seed: 1, Agents: []AgentSpec{
		{Name: "drone", Vehicle: drone, Spawn: &Pose{X: -1}},
		{Name: "car", Vehicle: ks, Spawn: &Pose{X: 1}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	w.SetCommand("drone", drive.Command{Vertical: 1})
	w.SetCommand("car", drive.Command{Throttle: 1})
	for range 200 {
		w.Step()
	}
	before, _ := w.Snapshot().Model("drone")
	w.Step()
	s := w.Snapshot()
	d, _ := s.Model("drone")
	if d.Climb < 0.5 {
		t.Fatalf("climbing drone: climb %.3f m/s, want well above 0", d.Climb)
	}
	if rate := (d.Pose.Z - before.Pose.Z) / w.dt; math.Abs(rate-d.Climb) > 1e-9 {
		t.Errorf("climb %.6f m/s, but the altitude rose at %.6f m/s", d.Climb, rate)
	}
	if c, _ := s.Model("car"); c.Climb != 0 || c.Forward <= 0 {
		t.Errorf("car driving forward: climb %g, forward %g; want 0 and > 0", c.Climb, c.Forward)
	}
}
