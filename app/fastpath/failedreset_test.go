package fastpath

import (
	"bytes"
	"strings"
	"testing"

	"simgui/app/scenario"
)

// A reset that fails (seed 4 draws no corridor long enough for its obstacle in any of its
// redraws) leaves the episode on show as it was, gains included: the step after it gives the
// frame the same step gives without it.
func TestFailedResetKeepsTheEpisodesGains(t *testing.T) {
	sc, err := scenario.Parse([]byte(`
scenarioId: failed-reset-test
runtime: {seed: 0, stepSize: 0.005, actionPeriod: 0.1}
world:
  trackId: track.cardboard_corridor.v1
  params: {length: 6, width: 0.6, obstacle.count: 1}
vehicle: {vehicleId: vehicle.ks0223.v1}
randomization:
  sensors: {brightness: 0.3, color_jitter: 0.1}
  track: {length: [2.5, 2.7]}
`), "failed-reset.yaml")
	if err != nil {
		t.Fatal(err)
	}
	_, f := startFace(t, sc)
	c := dial(t, f.Addr())
	c.open(OpenRequest{Envs: 1, FrameWidth: 64, FrameHeight: 48, ActionPeriod: 0.1})
	reset := func(seed int64) error {
		_, err := c.step([]byte{kindReset}, make([][3]float64, 1), []int64{seed})
		return err
	}
	frameAfterStep := func() []byte {
		c.stepAll([3]float64{0.5, 0})
		return bytes.Clone(c.image(0))
	}
	if err := reset(0); err != nil {
		t.Fatal(err)
	}
	want := frameAfterStep()
	if err := reset(0); err != nil {
		t.Fatal(err)
	}
	if again := frameAfterStep(); !bytes.Equal(again, want) {
		t.Fatal("the same seed's first step gives different frames: the test cannot tell")
	}
	if err := reset(0); err != nil {
		t.Fatal(err)
	}
	if err := reset(4); err == nil || !strings.Contains(err.Error(), "too short for obstacles") {
		t.Fatalf("the reset with seed 4: %v, want the corridor too short for its obstacle", err)
	}
	if got := frameAfterStep(); !bytes.Equal(got, want) {
		t.Error("after a failed reset the step's frame differs: the episode or its gains changed")
	}
}
