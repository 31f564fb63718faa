package world

import (
	"errors"
	"fmt"
	"testing"

	"simgui/plugins"
	"simgui/plugins/trackgen"
)

// Agents whose spawn poses put their bodies inside each other are refused, naming both; ones
// side by side, drones on one spot (they start at altitudes of their own) and agents without a
// pose are not. A thousand stacked on one spot are refused at once rather than stepped.
func TestOverlappingSpawnsAreRefused(t *testing.T) {
	tr := builtinTrack(t, "track.basic_arena.v1")
	ks, drone := builtinVehicle(t, "vehicle.ks0223.v1"), builtinVehicle(t, "vehicle.drone.simple.v1")
	build := func(agents ...AgentSpec) error {
		_, err := New(Config{Track: tr, BuildLayout: trackgen.Build, Seed: 1, Agents: agents})
		return err
	}
	at := func(name string, v *plugins.VehicleDescriptor, x, y float64) AgentSpec {
		return AgentSpec{Name: name, Vehicle: v, Spawn: &Pose{X: x, Y: y}}
	}
	w := ks.Body.Width
	if err := build(at("a", ks, 0, 0), at("b", ks, 0, w+0.01), AgentSpec{Name: "c", Vehicle: ks}); err != nil {
		t.Fatalf("side by side: %v", err)
	}
	// Drones one above another, or above a car, start apart; two at one altitude on one
	// spot do not (2000 of them made one step take 39 s).
	above := func(name string, z float64) AgentSpec {
		return AgentSpec{Name: name, Vehicle: drone, Spawn: &Pose{Z: z}}
	}
	if err := build(above("a", 1), above("b", 2), at("car", ks, 0, 0)); err != nil {
		t.Fatalf("drones one above another over a car: %v", err)
	}
	var stacked *SpawnOverlapError
	if err := build(at("a", drone, 0, 0), at("b", drone, 0, 0)); !errors.As(err, &stacked) || stacked.B != "b" {
		t.Fatalf("two drones on one spot at their start altitude: %v", err)
	}
	if err := build(above("a", 1), above("b", 1+drone.Body.Height/2)); !errors.As(err, &stacked) {
		t.Fatalf("two drones half a body apart in height: %v", err)
	}
	// Above the drive's ceiling (10 m) both would be at 10 m after the first step.
	if err := build(above("a", 50), above("b", 60)); !errors.As(err, &stacked) {
		t.Fatalf("two drones on one spot over the ceiling: %v", err)
	}
	// One drone starts where its drive keeps it, not 40 m higher for a step.
	lone, err := New(Config{Track: tr, BuildLayout: trackgen.Build, Seed: 1, Agents: []AgentSpec{above("a", 50)}})
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := lone.Pose("a"); p.Z != 10 {
		t.Errorf("a drone spawned 50 m up under a 10 m ceiling starts %g m up", p.Z)
	}
	err = build(at("a", ks, 0, 0), at("b", ks, 3, 0), at("c", ks, 3.05, 0))
	var overlap *SpawnOverlapError
	if !errors.As(err, &overlap) || overlap.A != "b" || overlap.B != "c" {
		t.Fatalf("c 5 cm from b: %v", err)
	}
	stack := make([]AgentSpec, 1000)
	for i := range stack {
		stack[i] = at(fmt.Sprintf("s%d", i), ks, 1, 1)
	}
	if err := build(stack...); !errors.As(err, &overlap) || overlap.A != "s0" || overlap.B != "s1" {
		t.Fatalf("1000 stacked: %v", err)
	}
}
