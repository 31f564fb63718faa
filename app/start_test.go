package app

import (
	"context"
	"testing"
	"time"

	"simgui/app/scenario"
	"simgui/plugins"
)

// The start tracker expects the scenario's systems, the sensors and every served face, and
// reports the world loaded once the loop has run the systems' Init.
func TestWorldCountsAsLoadedWhenEverythingStarted(t *testing.T) {
	sc, err := scenario.Parse([]byte(`
world: {trackId: track.basic_arena.v1}
vehicle: {vehicleId: vehicle.ks0223.v1}
plugins:
  - type: systems.timeline_publisher
    config: {keyframes: [{time: 0, outputs: [{topic: /model/ego/cmd_vel, type: gz.msgs.Twist, content: "linear: {x: 0.2}"}]}]}
`), "start.yaml")
	if err != nil {
		t.Fatal(err)
	}
	plan, err := scenario.Resolve(sc, plugins.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	sim, err := New(plan, Options{Lockstep: true, Control: ControlOptions{Addr: "127.0.0.1:0", Required: true},
		API: APIOptions{Addr: "off"}})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- sim.Run(ctx) }()
	select {
	case <-sim.Start.Done():
	case <-time.After(10 * time.Second):
		t.Fatalf("not loaded: missing %v", sim.Start.Missing())
	}
	p := sim.Start.Progress()
	// The timeline system, the sensors and the control service.
	if p.Total != 3 || p.Started != 3 || !sim.Start.AllStarted() {
		t.Fatalf("progress %+v", p)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
