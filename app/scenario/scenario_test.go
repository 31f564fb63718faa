package scenario

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"simgui/physics"
	"simgui/plugins"
)

func resolveText(t *testing.T, src string) (*Plan, error) {
	t.Helper()
	sc, err := Parse([]byte(src), "test.yaml")
	if err != nil {
		return nil, err
	}
	return Resolve(sc, plugins.Builtin())
}

func TestDefaultScenarioResolves(t *testing.T) {
	p, err := Resolve(Default(), plugins.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	if p.Track.ID != "track.cardboard_corridor.v1" || len(p.Agents) != 1 || p.Agents[0].Name != "ego" ||
		p.Agents[0].Vehicle.ID != "vehicle.ks0223.v1" || p.StepSize != 0.005 || p.TimeScale != 1 {
		t.Fatalf("default plan: track %s agents %d step %g scale %g", p.Track.ID, len(p.Agents), p.StepSize, p.TimeScale)
	}
}

func TestMultiAgentNamesPrimaryAndSpawnForms(t *testing.T) {
	p, err := resolveText(t, `
world: {trackId: track.basic_arena.v1}
agents:
  collisionsEnabled: false
  vehicles:
    - {agentId: ego, vehicleId: vehicle.ks0223.v1, spawnPose: {position: [1, 2, 0], yawDeg: 90}}
    - {vehicleId: vehicle.arcade.red.v1, primary: true, spawnPose: {position: "3,4"}}
    - {vehicleId: vehicle.drone.simple.v1, params: {max_speed: 2}, spawnPose: {position: {x: 5, y: 6}}}
`)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{p.Agents[0].Name, p.Agents[1].Name, p.Agents[2].Name}
	if strings.Join(names, ",") != "ego,agent-2,agent-3" || p.Primary != "agent-2" || p.VehicleCollisions {
		t.Fatalf("names %v primary %s collisions %v", names, p.Primary, p.VehicleCollisions)
	}
	if s := p.Agents[0].Spawn; s.X != 1 || s.Y != 2 || s.Yaw < 1.57 || s.Yaw > 1.571 {
		t.Fatalf("spawn %+v", s)
	}
	if s := p.Agents[2].Spawn; s.X != 5 || s.Y != 6 {
		t.Fatalf("map spawn %+v", s)
	}
	if got := p.Agents[2].Vehicle.Drive.Params["maxSpeed"]; got != 2 {
		t.Fatalf("vehicle params not applied: maxSpeed %v", got)
	}
}

func TestPhysicsMode(t *testing.T) {
	for src, want := range map[string]physics.Mode{"": physics.Dynamic, "runtime: {physics: dynamic}\n": physics.Dynamic, "runtime: {physics: kinematic}\n": physics.Kinematic} {
		p, err := resolveText(t, src+"world: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}")
		if err != nil {
			t.Fatal(err)
		}
		if p.Physics != want {
			t.Fatalf("%q: physics %v, want %v", src, p.Physics, want)
		}
	}
}

func TestCountAndRoute(t *testing.T) {
	p, err := resolveText(t, `
world: {trackId: track.basic_arena.v1}
vehicle: {vehicleId: vehicle.ks0223.v1}
agents: {count: 3}
route: {waypoints: [[0, -7.5], [0, -1]], loop: true, reachDistanceM: 1.2}
`)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Agents) != 3 || p.Agents[2].Name != "agent-3" {
		t.Fatalf("%d agents", len(p.Agents))
	}
	if p.TrackParams["route.waypoints"] != "0,-7.5;0,-1" || p.TrackParams["route.loop"] != true {
		t.Fatalf("route params %v", p.TrackParams)
	}
}

func TestErrorsNameFileKeyAndExpectation(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"unknown track", "world: {trackId: track.nope.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}",
			`test.yaml: world.trackId: unknown trackId "track.nope.v1" (known: track.basic_arena.v1`},
		{"unknown vehicle", "world: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.nope.v1}",
			`test.yaml: vehicle.vehicleId: unknown vehicleId "vehicle.nope.v1"`},
		{"schema", "world: {trackId: track.cardboard_corridor.v1, params: {length: 2, width: 5}}\nvehicle: {vehicleId: vehicle.ks0223.v1}",
			"test.yaml: world.params.width: 5 is above the maximum"},
		{"enum", "world: {trackId: track.cardboard_corridor.v1, params: {length: 2, width: 0.6, floor_texture: marble}}\nvehicle: {vehicleId: vehicle.ks0223.v1}",
			"floor_texture"},
		{"unknown plugin", "world: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}\nplugins: [{type: systems.nope}]",
			`test.yaml: plugins[0]: unknown system type "systems.nope"`},
		{"unknown agent param", "world: {trackId: track.basic_arena.v1}\nagents: {vehicles: [{vehicleId: vehicle.ks0223.v1}, {vehicleId: vehicle.ks0223.v1, params: {masss: 2}}]}",
			`test.yaml: agents.vehicles[1].params.masss: unknown parameter`},
		{"unknown vehicle param", "world: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1, params: {masss: 2}}",
			`test.yaml: vehicle.params.masss: unknown parameter (known: angular_damping,`},
		{"unknown key", "world: {trackId: track.basic_arena.v1}\nvehicel: {vehicleId: vehicle.ks0223.v1}",
			`test.yaml: line 2: unknown key "vehicel" in the top level`},
		{"nested unknown key", "runtime: {sed: 3}\nworld: {trackId: track.basic_arena.v1}",
			`test.yaml: line 1: unknown key "sed" in runtime`},
		{"malformed", "world: {trackId: [", "test.yaml: line"},
		{"wrong type", "runtime: {seed: abc}", "test.yaml: line 1: runtime.seed must be a whole number, not a string"},
		{"number too large", "runtime: {seed: 1e400}", "test.yaml: line 1: runtime.seed must be a whole number, not 1e400, a number too large to hold"},
		{"no vehicle", "world: {trackId: track.basic_arena.v1}", "needs vehicle.vehicleId or agents.vehicles"},
		{"no track", "vehicle: {vehicleId: vehicle.ks0223.v1}", "world.trackId is required"},
		{"physics", "runtime: {physics: rigid}\nworld: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}",
			`test.yaml: runtime.physics: physics mode "rigid" is not dynamic or kinematic`},
		{"bad step", "runtime: {stepSize: 1}\nworld: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}", "runtime.stepSize"},
		{"negative count", "world: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}\nagents: {count: -5}",
			"test.yaml: agents.count: -5; give 1 or more agents"},
		{"zero count", "world: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}\nagents: {count: 0}",
			"test.yaml: agents.count: 0; give 1 or more agents"},
		{"too many listed", "world: {trackId: track.basic_arena.v1}\nagents: {vehicles: [" + strings.Repeat("{vehicleId: vehicle.ks0223.v1}, ", MaxAgents) + "{vehicleId: vehicle.ks0223.v1}]}",
			"test.yaml: agents.vehicles: 10001 agents are over the limit of 10000"},
		{"count mismatch", "world: {trackId: track.basic_arena.v1}\nagents: {count: 2, vehicles: [{vehicleId: vehicle.ks0223.v1}]}", "agents.count"},
		{"two primaries", "world: {trackId: track.basic_arena.v1}\nagents: {vehicles: [{agentId: a, vehicleId: vehicle.ks0223.v1, primary: true}, {agentId: b, vehicleId: vehicle.ks0223.v1, primary: true}]}",
			"test.yaml: agents.vehicles[1].primary: a is the primary agent already; mark one"},
		{"duplicate agent", "world: {trackId: track.basic_arena.v1}\nagents: {vehicles: [{agentId: a, vehicleId: vehicle.ks0223.v1}, {agentId: a, vehicleId: vehicle.ks0223.v1}]}", `"a" is used twice`},
		{"one ROS 2 name", "world: {trackId: track.basic_arena.v1}\nagents: {vehicles: [{agentId: a-1, vehicleId: vehicle.ks0223.v1}, {agentId: a_1, vehicleId: vehicle.ks0223.v1}]}",
			`agents.vehicles[1].agentId: "a-1" and "a_1" are one name to ROS 2, a_1`},
		{"bad position", "world: {trackId: track.basic_arena.v1}\nagents: {vehicles: [{vehicleId: vehicle.ks0223.v1, spawnPose: {position: [1]}}]}", "position needs 2 or 3 numbers"},
		{"empty", "  \n", "test.yaml: the scenario is empty"},
		{"comments only", "# world: {trackId: track.basic_arena.v1}\n  # vehicle: ...\n", "test.yaml: the scenario is empty (it holds only comments)"},
		{"randomization", "world: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}\nrandomization: {vehicle: {mass: lots}}", "randomization"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := resolveText(t, tc.src)
			if err == nil {
				t.Fatal("accepted")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error\n  %v\nwant it to contain\n  %s", err, tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error spans lines: %q", err)
			}
		})
	}
}

func TestLoadMissingFile(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "nope.yaml"))
	if err == nil || !strings.Contains(err.Error(), "nope.yaml not found") {
		t.Fatalf("error %v", err)
	}
	path := filepath.Join(t.TempDir(), "s.yaml")
	os.WriteFile(path, []byte("world: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}\n"), 0o644)
	sc, err := Load(path)
	if err != nil || sc.Source != path {
		t.Fatalf("load: %v %v", sc, err)
	}
}

// TestUnusedOncePerVehicle: camera parameters the agents' vehicles leave unused are listed
// once per vehicle however many agents drive it, named as the scenario sets them.
func TestUnusedOncePerVehicle(t *testing.T) {
	p, err := resolveText(t, `
world: {trackId: track.basic_arena.v1}
vehicle: {vehicleId: vehicle.ks0223.v1, params: {sensor.camera.front.rgb.exposure: 3, sensor.camera.front.rgb.k1: -0.1}}
agents: {count: 5}
`)
	if err != nil {
		t.Fatal(err)
	}
	got := p.Unused("set in the scenario", "elsewhere")
	want := "vehicle.ks0223.v1: sensor.camera.front.rgb.exposure (set in the scenario): exposure acts only in the realistic look"
	if len(got) != 1 || !strings.HasPrefix(got[0], want) {
		t.Errorf("unused %q, want one line starting %q", got, want)
	}
	plain, err := resolveText(t, "world: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}\n")
	if err != nil {
		t.Fatal(err)
	}
	if u := plain.Unused("set in the scenario", "elsewhere"); len(u) != 0 {
		t.Errorf("the built-in KS0223 as it is has unused parameters %q", u)
	}
}

// Calibrating the KS0223's camera in a scenario (fx, fy) replaces its descriptor's fovDeg, as
// the docs say: that fovDeg, which the scenario cannot take out, is not reported as unused. A
// field of view the scenario gives beside fx still is.
func TestUnusedFovUnderCalibration(t *testing.T) {
	for _, c := range []struct {
		params string
		want   []string
	}{
		{"{sensor.camera.front.rgb.fx: 470, sensor.camera.front.rgb.fy: 472}", nil},
		{"{sensor.camera.front.rgb.fy: 300}", nil},
		{"{sensor.camera.front.rgb.fx: 470, sensor.camera.front.rgb.fovDeg: 60}",
			[]string{"vehicle.ks0223.v1: sensor.camera.front.rgb.fovDeg (set in the scenario): fovDeg is unused: fx or fy gives the focal length in pixels (with fx and fy 0, fovDeg gives it)"}},
		{"{sensor.camera.front.rgb.fx: 470, camera.fov_deg: 60}",
			[]string{"vehicle.ks0223.v1: sensor.camera.front.rgb.fovDeg (elsewhere): fovDeg is unused: fx or fy gives the focal length in pixels (with fx and fy 0, fovDeg gives it)"}},
	} {
		p, err := resolveText(t, "world: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1, params: "+c.params+"}\n")
		if err != nil {
			t.Fatalf("%s: %v", c.params, err)
		}
		if got := p.Unused("set in the scenario", "elsewhere"); !slices.Equal(got, c.want) {
			t.Errorf("%s: unused %q, want %q", c.params, got, c.want)
		}
	}
}

// A face that runs one agent takes the scenario's vehicle, else its primary agent's, else the
// first listed with a vehicle.
func TestLeadVehicle(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"vehicle: {vehicleId: a.v1}\nagents: {vehicles: [{vehicleId: b.v1, primary: true}]}", "a.v1"},
		{"agents: {vehicles: [{vehicleId: b.v1}, {vehicleId: c.v1, isPrimary: true}]}", "c.v1"},
		{"agents: {vehicles: [{agentId: x}, {vehicleId: b.v1, params: {mass: 2}}, {vehicleId: c.v1}]}", "b.v1"},
		{"agents: {count: 2}", ""},
	} {
		sc, err := Parse([]byte("world: {trackId: track.basic_arena.v1}\n"+c.yaml+"\n"), "lead.yaml")
		if err != nil {
			t.Fatal(err)
		}
		id, params, ok := sc.LeadVehicle()
		if id != c.want || ok != (c.want != "") {
			t.Errorf("%s: LeadVehicle = %q, %v; want %q", c.yaml, id, ok, c.want)
		}
		if c.want == "b.v1" && params["mass"] != 2 {
			t.Errorf("%s: params %v, want the agent's", c.yaml, params)
		}
	}
}

// A run says what the scenario's vehicles leave unused and that a randomization block is
// drawn only at training resets: the notes simgui run logs and the window's status shows.
func TestRunNotes(t *testing.T) {
	resolve := func(src string) *Plan {
		t.Helper()
		sc, err := Parse([]byte(src), "notes.yaml")
		if err != nil {
			t.Fatal(err)
		}
		p, err := Resolve(sc, plugins.Builtin())
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	const base = "world: {trackId: track.cardboard_corridor.v1}\n"
	if notes := resolve(base + "vehicle: {vehicleId: vehicle.ks0223.v1}\n").RunNotes(); len(notes) != 0 {
		t.Errorf("a plain scenario's notes: %v", notes)
	}
	notes := resolve(base + "vehicle: {vehicleId: vehicle.ks0223.v1, params: {sensor.camera.front.rgb.exposure: 2}}\n" +
		"randomization: {vehicle: {mass: 0.1}}\n").RunNotes()
	if len(notes) != 2 || !notes[0].Warn || !strings.Contains(notes[0].Text, "exposure") ||
		notes[1].Warn || !strings.Contains(notes[1].Text, "randomization block is drawn at each training-API") {
		t.Errorf("notes %+v, want the unused exposure (a warning), then the randomization block", notes)
	}
}

// A key with two spellings (yawDeg and rusim's yaw_deg, primary and rusim's isPrimary) given
// twice with different values is refused, as plugins' type and class are: the one written last
// (the yaw) or either (primary) won without a word. The same value twice is fine.
func TestTwoSpellingsThatDisagreeAreRefused(t *testing.T) {
	for _, tc := range []struct{ name, agent, want string }{
		{"yaw", "{vehicleId: vehicle.ks0223.v1, spawnPose: {position: [1, 2], yawDeg: 10, yaw_deg: 80}}",
			"test.yaml: line 2: spawnPose gives yawDeg 10 and yaw_deg 80: give one (yaw_deg is another name for yawDeg)"},
		{"primary", "{vehicleId: vehicle.ks0223.v1, primary: true, isPrimary: false}",
			"test.yaml: line 2: agents.vehicles[0] gives primary: true and isPrimary: false: give one (isPrimary is another name for primary)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := resolveText(t, "world: {trackId: track.basic_arena.v1}\nagents: {vehicles: ["+tc.agent+"]}")
			if err == nil || err.Error() != tc.want {
				t.Fatalf("error %v\nwant %s", err, tc.want)
			}
		})
	}
	p, err := resolveText(t, "world: {trackId: track.basic_arena.v1}\nagents: {vehicles: [{agentId: a, vehicleId: vehicle.ks0223.v1},"+
		" {agentId: b, vehicleId: vehicle.ks0223.v1, primary: true, isPrimary: true, spawnPose: {position: [1, 2], yawDeg: 30, yaw_deg: 30}}]}")
	if err != nil {
		t.Fatalf("agreeing spellings: %v", err)
	}
	if p.Primary != "b" {
		t.Errorf("primary %q, want b", p.Primary)
	}
}
