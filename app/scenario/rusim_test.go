package scenario

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"simgui/app/systems/follower"
	"simgui/plugins"
)

func hasContractSensor(v *plugins.VehicleDescriptor, id string) bool {
	return slices.ContainsFunc(v.Contract.Sensors, func(s plugins.SensorDescriptor) bool { return s.ID == id })
}

// A scenario in rusim's shape (every key its files use), written in rusim's axes.
const rusimShaped = `scenarioId: ab-test
displayName: A to B Test
description: Базовый сценарий
version: 3
runtime: {runtimeMode: unity-sim, headless: true, timeScale: 2.0, seed: 73}
world: {trackId: track.basic_arena.v1}
vehicle:
  vehicleId: vehicle.prometeo.sport.v1
  params: {camera.profile: high}
sensors:
  camera: {enabled: true, profile: high}
  telemetry: {profile: default}
  lineTracker: {enabled: false}
  ultrasonic: {enabled: true}
route:
  params:
    spawn.position: -6.000,0.200,-8.500
    spawn.yaw_deg: 0
    corridor.width_m: 1.20
    goal.radius_m: 1.00
    obstacle.count: 1
  waypoints:
    - [-6.0, -8.5]
    - [-6.0, -2.0]
    - [2.0, 0.0, 6.0]
  reachDistanceM: 1.0
agents:
  isolated: false
  seeEachOther: true
  vehicles:
    - agentId: ego
      primary: true
      spawnPose: {position: [4.0, 0.2, 0.0], yawDeg: 0.0}
    - agentId: agent-01
      vehicleId: vehicle.arcade.red.v1
      spawnPose: {position: [0.0, 0.2, 4.0], yawDeg: -90.0}
      trackParams: {spawn.position: "1,0.2,2"}
    - agentId: agent-02
      vehicleId: vehicle.arcade.gray.v1
      spawnPose: {position: [-3.0, 5.0]}
logging: {enabled: true, tag: ab-test}
`

// rusim's keys load with their meaning: metadata kept, positions and yaws turned from Unity's
// axes into the world frame, route params with them, the line tracker taken off.
func TestRusimShapedScenario(t *testing.T) {
	sc, err := Parse([]byte(rusimShaped), "ab.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !sc.RusimAxes() || sc.DisplayName != "A to B Test" || sc.Version != 3 || sc.Title() != "A to B Test" || sc.LogTag() != "ab-test" {
		t.Fatalf("metadata %+v", sc)
	}
	p, err := Resolve(sc, plugins.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	tp := p.TrackParams
	if tp["spawn.position"] != "-6,-8.5" || tp["spawn.yaw_deg"] != 90.0 || tp["route.waypoints"] != "-6,-8.5;-6,-2;2,6" ||
		tp["route.loop"] != false || tp["route.reach_distance_m"] != 1.0 || tp["corridor.width_m"] != 1.2 {
		t.Fatalf("track params %v", tp)
	}
	want := []struct{ x, y, yawDeg float64 }{{4, 0, 90}, {0, 4, 180}, {-3, 5, 90}}
	for i, w := range want {
		s := p.Agents[i].Spawn
		if math.Abs(s.X-w.x) > 1e-12 || math.Abs(s.Y-w.y) > 1e-12 || s.Z != 0 || math.Abs(s.Yaw-w.yawDeg*math.Pi/180) > 1e-12 {
			t.Errorf("agent %d spawn %+v, want (%g, %g) yaw %g°", i, s, w.x, w.y, w.yawDeg)
		}
	}
	if got := p.AgentParams[1][1]["spawn.position"]; got != "1,2" {
		t.Errorf("agent trackParams spawn.position %v", got)
	}
	for _, a := range p.Agents {
		orig, _ := plugins.Builtin().Vehicle(a.Vehicle.ID)
		var kept []string
		for _, m := range orig.Sensors {
			if m.Kind != "line_tracker" {
				kept = append(kept, m.ID)
			}
		}
		var got []string
		for _, m := range a.Vehicle.Sensors {
			got = append(got, m.ID)
			if !hasContractSensor(a.Vehicle, m.ID) {
				t.Errorf("%s: mount %s without its contract sensor", a.Name, m.ID)
			}
		}
		if !slices.Equal(got, kept) || len(a.Vehicle.Contract.Sensors) != len(kept) {
			t.Errorf("%s: sensors %v, want %v (the line tracker off, the others on)", a.Name, got, kept)
		}
	}
	ks, err := resolveText(t, strings.Replace(rusimShaped, "vehicleId: vehicle.prometeo.sport.v1", "vehicleId: vehicle.ks0223.v1", 1))
	if err != nil {
		t.Fatal(err)
	}
	if v := ks.Agents[0].Vehicle; hasContractSensor(v, "line_tracker.front") || !hasContractSensor(v, "ultrasonic.front") {
		t.Errorf("KS0223 sensors %v", v.Contract.Sensors)
	}
}

// axes: world keeps simgui's own frame even with runtimeMode; axes: rusim converts without it.
func TestAxesRule(t *testing.T) {
	world := strings.Replace(strings.Replace(rusimShaped, "scenarioId: ab-test", "axes: world\nscenarioId: ab-test", 1),
		"[2.0, 0.0, 6.0]", "[2.0, 6.0]", 1)
	p, err := resolveText(t, world)
	if err != nil {
		t.Fatal(err)
	}
	if s := p.Agents[0].Spawn; s.X != 4 || s.Y != 0.2 || s.Z != 0 {
		t.Errorf("axes world: spawn %+v", s)
	}
	native := "axes: rusim\nworld: {trackId: track.basic_arena.v1}\nagents: {vehicles: [{vehicleId: vehicle.ks0223.v1, spawnPose: {position: [1, 0.2, 2], yawDeg: 90}}]}\n"
	if p, err = resolveText(t, native); err != nil {
		t.Fatal(err)
	}
	if s := p.Agents[0].Spawn; s.X != 1 || s.Y != 2 || s.Yaw != 0 {
		t.Errorf("axes rusim: spawn %+v", s)
	}
	plain := "world: {trackId: track.basic_arena.v1}\nagents: {vehicles: [{vehicleId: vehicle.ks0223.v1, spawnPose: {position: [1, 0.2, 2], yawDeg: 90}}]}\n"
	if p, err = resolveText(t, plain); err != nil {
		t.Fatal(err)
	}
	if s := p.Agents[0].Spawn; s.X != 1 || s.Y != 0.2 || s.Z != 2 {
		t.Errorf("simgui's own shape: spawn %+v", s)
	}
	if _, err := resolveText(t, "axes: unity\n"+plain); err == nil || !strings.Contains(err.Error(), `axes: "unity" is not world`) {
		t.Errorf("bad axes: %v", err)
	}
}

// Without waypoints rusim sends neither route.loop nor route.reach_distance_m: the track's
// own route keeps its reach (the maze's 0.4·w).
func TestRusimRouteWithoutWaypoints(t *testing.T) {
	p, err := resolveText(t, `runtime: {runtimeMode: unity-sim}
world: {trackId: track.cardboard_maze.v1, params: {maze.seed: 42}}
vehicle: {vehicleId: vehicle.ks0223.v1}
route: {params: {goal.radius_m: 0.24}, loop: false, reachDistanceM: 0.24}
`)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := p.TrackParams["route.reach_distance_m"]; ok || p.TrackParams["goal.radius_m"] != 0.24 {
		t.Fatalf("track params %v", p.TrackParams)
	}
	if _, ok := p.TrackParams["route.loop"]; ok {
		t.Fatalf("route.loop without waypoints: %v", p.TrackParams)
	}
}

// Keys that are not rusim's or simgui's are still errors naming the file, the line and the key.
func TestUnknownKeysStillErrors(t *testing.T) {
	for _, tc := range []struct{ edit, want string }{
		{"  ultrasonic: {enabled: true}", `ab.yaml: line 14: unknown key "enabeld" in sensors.ultrasonic`},
		{"  telemetry: {profile: default}", `ab.yaml: line 12: unknown key "rate" in sensors.telemetry`},
		{"logging: {enabled: true, tag: ab-test}", `ab.yaml: line 41: unknown key "level" in logging`},
		{"      spawnPose: {position: [-3.0, 5.0]}", `ab.yaml: line 40: unknown key "height" in spawnPose`},
		{"version: 3", `ab.yaml: line 4: unknown key "revision" in the top level`},
	} {
		var repl string
		switch {
		case strings.Contains(tc.edit, "ultrasonic"):
			repl = "  ultrasonic: {enabeld: true}"
		case strings.Contains(tc.edit, "telemetry"):
			repl = "  telemetry: {rate: 5}"
		case strings.Contains(tc.edit, "logging"):
			repl = "logging: {enabled: true, level: debug}"
		case strings.Contains(tc.edit, "spawnPose"):
			repl = "      spawnPose: {position: [-3.0, 5.0], height: 1}"
		default:
			repl = "revision: 3"
		}
		src := strings.Replace(rusimShaped, tc.edit, repl, 1)
		_, err := Parse([]byte(src), "ab.yaml")
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: error %v\nwant %s", repl, err, tc.want)
		}
	}
	for _, tc := range []struct{ old, new, want string }{
		{"telemetry: {profile: default}", "telemetry: {profile: full}", `sensors.telemetry.profile: "full" is not a telemetry profile (known: default)`},
		{"camera: {enabled: true, profile: high}", "camera: {enabled: true, profile: extreme}", `sensors.camera.profile: "extreme" is not a camera profile (known: balanced, high, performance, ultra)`},
		{"    spawn.yaw_deg: 0", "    spawn.yaw_deg: north", `route.params.spawn.yaw_deg: "north" is not a number`},
		{"spawn.position: -6.000,0.200,-8.500", "spawn.position: west", `route.params.spawn.position: "west" is not "x,z" or "x,y,z"`},
		{"    - [2.0, 0.0, 6.0]", "    - [2.0]", `route.waypoints[2]: want [x, z] or [x, y, z], got 1 numbers`},
	} {
		_, err := resolveText(t, strings.Replace(rusimShaped, tc.old, tc.new, 1))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v\nwant %s", tc.new, err, tc.want)
		}
	}
}

// rusim's controller keys in an agent's params: waypoint_follower adds the follower system for
// that agent, manual does not, gate.kind and waypoint.graph are accepted; route.params gives the
// default for every agent.
func TestControllerKeys(t *testing.T) {
	src := `runtime: {runtimeMode: unity-sim}
world: {trackId: track.city_polygon.v1}
route: {params: {controller.profile: waypoint_follower, waypoint.graph: city.default}}
agents:
  vehicles:
    - {agentId: ego, vehicleId: vehicle.prometeo.sport.v1, params: {controller.profile: manual, gate.kind: onnx}}
    - {agentId: npc, vehicleId: vehicle.arcade.blue.v1, params: {waypoint.graph: city.default, gate.kind: ground_truth}}
`
	p, err := resolveText(t, src)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Systems) != 1 || p.Systems[0].Options.Name != "systems.waypoint_follower" {
		t.Fatalf("systems %+v", p.Systems)
	}
	if got := p.Systems[0].System.(*follower.Follower).Models; !slices.Equal(got, []string{"npc"}) {
		t.Fatalf("followed %v", got)
	}
	if _, err := resolveText(t, strings.Replace(src, "gate.kind: onnx", "gate.kind: magic", 1)); err == nil ||
		!strings.Contains(err.Error(), `agents.vehicles[0].params.gate.kind: "magic" is not a gate (known: onnx, ground_truth)`) {
		t.Errorf("bad gate: %v", err)
	}
}

// A pose written back in the scenario's own axes reads back as the same world pose.
func TestPoseInRoundTrip(t *testing.T) {
	for _, src := range []string{rusimShaped, strings.Replace(rusimShaped, "runtimeMode: unity-sim, ", "", 1)} {
		sc, err := Parse([]byte(src), "ab.yaml")
		if err != nil {
			t.Fatal(err)
		}
		sc.Agents.Vehicles[0].SpawnPose = sc.PoseIn(1.5, -2.5, 0, 30)
		sc.Route.Waypoints[2] = []float64{2, 6}
		p, err := Resolve(sc, plugins.Builtin())
		if err != nil {
			t.Fatal(err)
		}
		if s := p.Agents[0].Spawn; math.Abs(s.X-1.5) > 1e-12 || math.Abs(s.Y+2.5) > 1e-12 || math.Abs(s.Yaw-math.Pi/6) > 1e-12 {
			t.Errorf("rusim axes %v: spawn %+v", sc.RusimAxes(), s)
		}
	}
}

// TestUnityPointListBounded: a list of plugins.MaxWaypoints points converts; one more, or a
// string of separators, is refused before it is split.
func TestUnityPointListBounded(t *testing.T) {
	pts := make([]string, plugins.MaxWaypoints+1)
	for i := range pts {
		pts[i] = fmt.Sprintf("%d,0,%d", i%100, i/100)
	}
	ok := strings.Join(pts[:plugins.MaxWaypoints], ";") + ";\r\n"
	got, err := UnityPointList(ok)
	if err != nil || strings.Count(got, ";")+1 != plugins.MaxWaypoints {
		t.Fatalf("%d points: %v (%d converted)", plugins.MaxWaypoints, err, strings.Count(got, ";")+1)
	}
	for _, bad := range []string{strings.Join(pts, "|"), strings.Repeat(";", 1<<20) + "1,2"} {
		if _, err := UnityPointList(bad); err == nil || !strings.Contains(err.Error(), "at most") {
			t.Errorf("a list of %d bytes: %v, want refused", len(bad), err)
		}
	}
}

// rusim's spawn.yaw_deg is checked as given, -360..360 in its own frame, and turned into the
// world frame's -180..180.
func TestUnityYawParam(t *testing.T) {
	for _, c := range []struct {
		in   any
		want float64
		err  string
	}{
		{0, 90, ""}, {90, 0, ""}, {-270, 0, ""}, {360, 90, ""}, {-360, 90, ""}, {180, -90, ""},
		{-400, 0, "-400 is outside -360..360 degrees"}, {400, 0, "400 is outside -360..360 degrees"},
		{1e308, 0, "1e+308 is outside -360..360 degrees"},
	} {
		got, err := UnityTrackParam("spawn.yaw_deg", c.in)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%v: %v, %v; want the error %q", c.in, got, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%v: %v, %v; want %v", c.in, got, err, c.want)
		}
	}
}

// A spawnPose of a yaw alone places the agent where it would go without one, facing so (its
// position was taken as the origin); in rusim's axes the yaw turns into the world frame.
func TestSpawnPoseOfAYawAlone(t *testing.T) {
	for _, c := range []struct {
		src  string
		want float64 // degrees, world frame
	}{
		{"world: {trackId: track.basic_arena.v1}\nagents: {vehicles: [{vehicleId: vehicle.ks0223.v1, spawnPose: {yawDeg: 45}}]}\n", 45},
		{"world: {trackId: track.basic_arena.v1}\naxes: rusim\nagents: {vehicles: [{vehicleId: vehicle.ks0223.v1, spawnPose: {yawDeg: 0}}]}\n", 90},
	} {
		sc, err := Parse([]byte(c.src), "yaw.yaml")
		if err != nil {
			t.Fatal(err)
		}
		p, err := Resolve(sc, plugins.Builtin())
		if err != nil {
			t.Fatal(err)
		}
		a := p.Agents[0]
		if a.Spawn != nil || a.SpawnYaw == nil || math.Abs(*a.SpawnYaw*180/math.Pi-c.want) > 1e-9 {
			t.Errorf("%q: spawn %+v, yaw %v; want no pose and %g°", c.src, a.Spawn, a.SpawnYaw, c.want)
		}
	}
}
