package fastpath

import (
	"math"
	"slices"
	"strings"
	"testing"

	"simgui/app/scenario"
)

const droneScenario = `
scenarioId: drone-arena
runtime: {seed: 7, stepSize: 0.005, actionPeriod: 0.1}
world: {trackId: track.basic_arena.v1}
vehicle: {vehicleId: vehicle.drone.simple.v1}
`

// A drone trains on the fast path: asked for "the camera and the sonar" by kind it opens
// though it has no sonar (NaN in the state), its actions have a third column that climbs, and
// the state says its altitude and climb rate. A protocol-1 client keeps two columns.
func TestDroneClimbsOnTheFastPath(t *testing.T) {
	_, f := startFace(t, scenario.Default())
	c := dial(t, f.Addr())
	c.open(OpenRequest{Scenario: droneScenario, Envs: 1, FrameWidth: 32, FrameHeight: 24, Sensors: []string{"camera", "ultrasonic"}})
	if want := []string{"throttle", "steer", "vertical"}; !slices.Equal(c.rep.Actions, want) {
		t.Fatalf("actions %v, want %v", c.rep.Actions, want)
	}
	c.resetAll(1)
	z0 := c.state(0, "z")
	if math.Abs(z0-1) > 1e-9 || !math.IsNaN(c.state(0, "ultrasonic_m")) {
		t.Fatalf("after reset: z %g (want the drone's start altitude 1), sonar %g (want NaN)", z0, c.state(0, "ultrasonic_m"))
	}
	for range 10 {
		c.stepAll([3]float64{0, 0, 1})
	}
	// 1 s at full climb: up at 3 m/s² to 2.5 m/s in 0.83 s, then at 2.5 m/s: about 1.46 m.
	if z, climb := c.state(0, "z"), c.state(0, "climb"); math.Abs(z-z0-1.46) > 0.02 || math.Abs(climb-2.5) > 1e-9 {
		t.Errorf("after 1 s of climbing: z %g (from %g), climb %g m/s (want 2.5)", z, z0, climb)
	}

	// Two actions sent to a session of three: the error says what this session's steps hold.
	long := dial(t, f.Addr())
	long.open(OpenRequest{Scenario: droneScenario, Envs: 1, FrameWidth: 32, FrameHeight: 24})
	long.send(msgStep, AppendStep(nil, []byte{kindStep}, make([][3]float64, 1), make([]int64, 1), 2))
	if _, _, _, err := long.recv(); err == nil || !strings.Contains(err.Error(), "step message of 40 bytes; want 48 for 1 envs of 3 actions") {
		t.Errorf("a two-action step in a three-action session: %v", err)
	}
	long2 := dial(t, f.Addr())
	long2.open(OpenRequest{Scenario: droneScenario, Envs: 1, FrameWidth: 32, FrameHeight: 24})
	long2.send(msgStep, append(AppendStep(nil, []byte{kindStep}, make([][3]float64, 1), make([]int64, 1), 3), make([]byte, 8)...))
	if _, _, _, err := long2.recv(); err == nil || !strings.Contains(err.Error(), "step message of 56 bytes; this session's are 48") {
		t.Errorf("a four-action step in a three-action session: %v", err)
	}

	old := dial(t, f.Addr())
	old.open(OpenRequest{Protocol: 1, Scenario: droneScenario, Envs: 1, FrameWidth: 32, FrameHeight: 24})
	if want := []string{"throttle", "steer"}; old.rep.Protocol != 1 || !slices.Equal(old.rep.Actions, want) {
		t.Fatalf("protocol 1: protocol %d, actions %v", old.rep.Protocol, old.rep.Actions)
	}
	old.resetAll(1)
	old.stepAll([3]float64{1, 0})
	if x := old.state(0, "forward"); x <= 0 {
		t.Errorf("protocol 1: forward speed %g after a step at full throttle", x)
	}
}

// Sensors are named by mount id or by kind; a name that is neither is refused, naming both.
func TestSensorsByKind(t *testing.T) {
	_, f := startFace(t, scenario.Default())
	c := dial(t, f.Addr())
	c.open(OpenRequest{Envs: 1, FrameWidth: 32, FrameHeight: 24, Sensors: []string{"ultrasonic", "lidar"}})
	c.resetAll(1)
	if s := c.state(0, "ultrasonic_m"); !(s > 0 && s < 5) {
		t.Errorf("the KS0223's sonar asked for by kind reads %g", s)
	}
	bad := dial(t, f.Addr())
	err := bad.tryOpen(OpenRequest{Envs: 1, FrameWidth: 32, FrameHeight: 24, Sensors: []string{"sonar"}})
	if err == nil || !strings.Contains(err.Error(), `no sensor "sonar"`) || !strings.Contains(err.Error(), `not a sensor kind (`) {
		t.Errorf("sensors [sonar]: %v", err)
	}
}

// A range given that the drone cannot take is refused at open, naming the field.
func TestDroneRefusesCarRanges(t *testing.T) {
	_, f := startFace(t, scenario.Default())
	c := dial(t, f.Addr())
	err := c.tryOpen(OpenRequest{Scenario: droneScenario, Envs: 1, FrameWidth: 32, FrameHeight: 24,
		Randomization: map[string]string{"enabled": "true", "vehicle.motor_gain_left": "0.3"}})
	if err == nil || !strings.Contains(err.Error(), "randomization.vehicle.motor_gain_left: no vehicle here has what it draws (vehicle.drone.simple.v1)") {
		t.Errorf("motor gains for a drone: %v", err)
	}
}

// A client that hangs up during a long step request stops its worlds' steps: they ran on
// for nobody, holding the session's slot (100,000 world steps here).
func TestHangUpStopsTheSteps(t *testing.T) {
	h, f := startFace(t, scenario.Default())
	c := dial(t, f.Addr())
	c.open(OpenRequest{Scenario: "runtime: {seed: 1, stepSize: 0.0001, actionPeriod: 10}\nworld: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}\n",
		Envs: 1, FrameWidth: 16, FrameHeight: 16})
	c.resetAll(1)
	sim := h.World(c.rep.Worlds[0])
	if sim == nil {
		t.Fatalf("no world %s", c.rep.Worlds[0])
	}
	before := sim.Loop.Snapshot().Step
	c.send(msgStep, AppendStep(nil, []byte{kindStep}, [][3]float64{{1, 0}}, make([]int64, 1), 2))
	c.conn.Close()
	waitFor(t, h, "the session's world removed", func() bool { return h.World(c.rep.Worlds[0]) == nil })
	ran := sim.Loop.Snapshot().Step - before
	t.Logf("%d world steps ran", ran)
	if ran >= 100000 {
		t.Errorf("%d world steps ran after the client hung up, all of its request's", ran)
	}
}

// A session of a fleet scenario runs its primary agent's vehicle, not the first listed: the
// drone marked primary second in the list trains with its climb column, and a KS0223 marked
// primary after a drone trains with two columns.
func TestSessionRunsTheScenariosPrimaryAgent(t *testing.T) {
	_, f := startFace(t, scenario.Default())
	for _, c := range []struct {
		agents string
		want   []string
	}{
		{"[{agentId: car, vehicleId: vehicle.ks0223.v1}, {agentId: fly, vehicleId: vehicle.drone.simple.v1, primary: true}]",
			[]string{"throttle", "steer", "vertical"}},
		{"[{agentId: fly, vehicleId: vehicle.drone.simple.v1}, {agentId: car, vehicleId: vehicle.ks0223.v1, isPrimary: true}]",
			[]string{"throttle", "steer"}},
	} {
		cl := dial(t, f.Addr())
		cl.open(OpenRequest{Scenario: "world: {trackId: track.basic_arena.v1}\nagents: {vehicles: " + c.agents + "}\n",
			Envs: 1, FrameWidth: 16, FrameHeight: 16})
		if !slices.Equal(cl.rep.Actions, c.want) {
			t.Errorf("agents %s: actions %v, want %v (vehicle %s)", c.agents, cl.rep.Actions, c.want, cl.rep.VehicleID)
		}

	}
}
