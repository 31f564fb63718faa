package window

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"simgui/app/scenario"
	"simgui/app/world"
	"simgui/plugins"
)

func TestViewMapsBothWays(t *testing.T) {
	v := view{CX: 2, CY: -1, Scale: 50, W: 800, H: 600}
	x, y := v.toScreen(2, -1)
	if x != 400 || y != 300 {
		t.Fatalf("centre maps to (%g, %g)", x, y)
	}
	// North is up, east is right.
	if x, y := v.toScreen(3, 0); x != 450 || y != 250 {
		t.Fatalf("(3, 0) maps to (%g, %g)", x, y)
	}
	wx, wy := v.toWorld(123, 456)
	sx, sy := v.toScreen(wx, wy)
	if math.Abs(float64(sx)-123) > 1e-3 || math.Abs(float64(sy)-456) > 1e-3 {
		t.Fatalf("round trip gives (%g, %g)", sx, sy)
	}
	// Zooming keeps the point under the cursor in place.
	px, py := v.toWorld(100, 80)
	v.zoomAt(100, 80, 1.7)
	qx, qy := v.toWorld(100, 80)
	if v.Scale != 85 || math.Hypot(px-qx, py-qy) > 1e-9 {
		t.Fatalf("zoom moved the point under the cursor: (%g, %g) → (%g, %g), scale %g", px, py, qx, qy, v.Scale)
	}
	v.zoomAt(0, 0, 1e9)
	if v.Scale != maxScale {
		t.Fatalf("zoom not clamped: %g", v.Scale)
	}
	// Dragging by (50, -20) pixels moves the world with the cursor.
	ax, ay := v.toWorld(100, 80)
	v.pan(50, -20)
	if sx, sy := v.toScreen(ax, ay); math.Abs(float64(sx)-150) > 1e-3 || math.Abs(float64(sy)-60) > 1e-3 {
		t.Fatalf("after the drag the point is at (%g, %g), want (150, 60)", sx, sy)
	}
}

func TestViewFitsTheTrack(t *testing.T) {
	l := &plugins.Layout{Floor: plugins.Floor{X: 1, Y: 2, Length: 10, Width: 4}}
	v := view{W: 1000, H: 500}
	v.fit(l)
	if v.CX != 1 || v.CY != 2 {
		t.Fatalf("centre (%g, %g)", v.CX, v.CY)
	}
	// 10 m across 1000 px with a 15 % margin.
	if math.Abs(v.Scale-1000/11.5) > 1e-9 {
		t.Fatalf("scale %g", v.Scale)
	}
	x0, _ := v.toScreen(-4, 2)
	x1, _ := v.toScreen(6, 2)
	if x0 < 0 || x1 > 1000 {
		t.Fatalf("floor spans %g..%g px", x0, x1)
	}
}

func TestGridStep(t *testing.T) {
	for _, tc := range []struct{ scale, want float64 }{{300, 1}, {12, 1}, {11, 10}, {1.5, 10}, {1, 100}} {
		if got := gridStep(tc.scale); got != tc.want {
			t.Errorf("gridStep(%g) = %g, want %g", tc.scale, got, tc.want)
		}
	}
}

func TestSpawnName(t *testing.T) {
	snap := &world.Snapshot{Models: []world.ModelState{{Name: "ks0223_1"}, {Name: "ks0223_2"}}}
	for _, tc := range []struct{ id, want string }{
		{"vehicle.ks0223.v1", "ks0223_3"},
		{"vehicle.arcade.red.v1", "arcade_red_1"},
		{"my robot", "my_robot_1"},
		{"vehicle.acme.my-rover.v1", "acme_my_rover_1"},
		{"vehicle.3pi.v1", "_3pi_1"},
		{"", "robot_1"},
	} {
		if got := spawnName(tc.id, snap); got != tc.want {
			t.Errorf("spawnName(%q) = %q, want %q", tc.id, got, tc.want)
		}
	}
}

// TestScenarioFromWorld saves a world with a spawned robot and checks the file reads back
// into the same robots, poses and params.
func TestScenarioFromWorld(t *testing.T) {
	sc, err := scenario.Parse([]byte(`scenarioId: t
runtime: {seed: 3}
world: {trackId: track.cardboard_corridor.v1, params: {length: 2.0, width: 0.6}}
vehicle: {vehicleId: vehicle.ks0223.v1, params: {mass: 1.1}}
plugins:
  - type: systems.timeline_publisher
    config:
      keyframes:
        - {time: 1, outputs: [{topic: /model/ego/cmd_vel, type: gz.msgs.Twist, content: "linear { x: 0.5 }"}]}
`), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	plan, err := scenario.Resolve(sc, plugins.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	red, _ := plugins.Builtin().Vehicle("vehicle.arcade.red.v1")
	snap := &world.Snapshot{Seed: 9, Models: []world.ModelState{
		{Name: "ego", VehicleID: "vehicle.ks0223.v1", Pose: world.Pose{X: 0.1, Y: 0.25, Yaw: math.Pi / 2}},
		{Name: "arcade_red-1", VehicleID: red.ID, Vehicle: red, Pose: world.Pose{X: -1, Y: 2, Yaw: -0.5}},
	}}
	dir := t.TempDir()
	// A missing folder is named, never a temporary file, and nothing is written.
	missing := dir + "/no/saved.yaml"
	if err := saveScenario(missing, scenarioFromWorld(plan, snap)); err == nil ||
		err.Error() != "cannot write "+missing+": folder "+dir+"/no does not exist" {
		t.Errorf("saving into a missing folder: %v", err)
	}
	path := dir + "/saved.yaml"
	if err := saveScenario(path, scenarioFromWorld(plan, snap)); err != nil {
		t.Fatal(err)
	}
	back, err := scenario.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	p2, err := scenario.Resolve(back, plugins.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	if p2.Seed != 9 || len(p2.Agents) != 2 || p2.Primary != "ego" || len(p2.Systems) != 1 {
		t.Fatalf("read back: seed %d, %d agents, primary %q, %d systems", p2.Seed, len(p2.Agents), p2.Primary, len(p2.Systems))
	}
	for i, m := range snap.Models {
		a := p2.Agents[i]
		if a.Name != m.Name || a.Vehicle.ID != m.VehicleID || a.Spawn == nil ||
			math.Abs(a.Spawn.X-m.Pose.X) > 1e-4 || math.Abs(a.Spawn.Y-m.Pose.Y) > 1e-4 || math.Abs(a.Spawn.Yaw-m.Pose.Yaw) > 1e-4 {
			t.Errorf("agent %d: %+v spawn %+v, want %s at %+v", i, a, a.Spawn, m.Name, m.Pose)
		}
	}
	if got := p2.Agents[0].Vehicle.Body.Mass; got != 1.1 {
		t.Errorf("ego's mass %g, want the configured 1.1", got)
	}
}

// The HUD never shows a negative zero for a robot at rest.
func TestUnsigned0(t *testing.T) {
	for _, tc := range []struct {
		x      float64
		digits int
		want   string
	}{{-0.001, 2, "0.00"}, {-0.006, 2, "-0.01"}, {-0.04, 1, "0.0"}, {-0.05, 1, "-0.1"}, {0.0004, 3, "0.000"}} {
		if got := fmt.Sprintf("%.*f", tc.digits, unsigned0(tc.x, tc.digits)); got != tc.want {
			t.Errorf("unsigned0(%g, %d) shows %s, want %s", tc.x, tc.digits, got, tc.want)
		}
	}
}

// A long message is broken at spaces into lines that fit, at most the lines asked for, the
// last saying more was left out.
func TestWrapLines(t *testing.T) {
	msg := "cannot open /tmp/broken.yaml: world.trackId: unknown track \"track.nope.v1\" (known: " +
		"track.basic_arena.v1, track.cardboard_corridor.v1, track.city.v1, track.maze.v1, track.roads.v1, track.oval.v1)"
	const width = 300
	lines := wrapLines(msg, width, 3)
	if len(lines) != 3 || !strings.HasSuffix(lines[2], " …") || !strings.HasPrefix(lines[0], "cannot open") {
		t.Fatalf("%q", lines)
	}
	for _, l := range lines {
		if textWidth(l) > width {
			t.Errorf("line %q is %g px wide, over %d", l, textWidth(l), width)
		}
	}
	all := wrapLines(msg, width, 100)
	if got := strings.Join(all, " "); got != msg {
		t.Errorf("the lines do not hold the message: %q", got)
	}
	if got := wrapLines("short", width, 3); len(got) != 1 || got[0] != "short" {
		t.Errorf("a short message: %q", got)
	}
	// A word wider than a line is broken, not cut: every rune of it shows.
	word := "track." + strings.Repeat("verylongname", 12) + ".v1"
	long := wrapLines("unknown trackId "+word+" here", width, 100)
	if got := strings.Join(long, ""); got != "unknown trackId"+word+" here" {
		t.Errorf("the long word's lines do not hold it: %q", long)
	}
	for _, l := range long {
		if textWidth(l) > width {
			t.Errorf("line %q is %g px wide, over %d", l, textWidth(l), width)
		}
	}
}

// A robot clicked onto a road faces along it, in the lane of its side (traffic on the
// right); off the roads there is no heading to take.
func TestRoadHeading(t *testing.T) {
	l := &plugins.Layout{Elements: []plugins.Element{
		{Kind: plugins.ElementRoad, Width: 2, Points: [][2]float64{{0, 0}, {0, 10}, {10, 10}}}, // north, then east
		{Kind: plugins.ElementPolygon, Points: [][2]float64{{20, 0}, {30, 0}, {30, 10}}},
	}}
	for _, tc := range []struct {
		x, y, yaw float64
		ok        bool
	}{
		{0.5, 5, math.Pi / 2, true},   // right of the northbound centre line
		{-0.5, 5, -math.Pi / 2, true}, // left: the southbound lane
		{5, 9.5, 0, true},             // right of the eastbound leg
		{5, 10.5, math.Pi, true},
		{3, 3, 0, false}, // between the legs, on neither
		{25, 2, 0, false},
	} {
		yaw, ok := roadHeading(l, tc.x, tc.y)
		if ok != tc.ok || (ok && math.Abs(math.Remainder(yaw-tc.yaw, 2*math.Pi)) > 1e-9) {
			t.Errorf("(%g, %g): yaw %.3f %v, want %.3f %v", tc.x, tc.y, yaw, ok, tc.yaw, tc.ok)
		}
	}
	if _, ok := roadHeading(nil, 0, 0); ok {
		t.Error("a heading without a layout")
	}
}

// A robot clicked near the track's route faces along it, in the route's order, within its
// corridor (or routeNear without one); far from it there is no heading to take.
func TestRouteHeading(t *testing.T) {
	l := &plugins.Layout{Route: &plugins.Route{Waypoints: [][2]float64{{0, -1}, {0, 0}, {1, 0}}, CorridorWidth: 0.6}}
	for _, tc := range []struct {
		x, y, yaw float64
		ok        bool
	}{
		{0.2, -0.5, math.Pi / 2, true}, // the leg north
		{0.6, 0.1, 0, true},            // the leg east
		{0.6, -0.6, 0, false},          // outside the corridor
	} {
		yaw, ok := routeHeading(l, tc.x, tc.y)
		if ok != tc.ok || (ok && math.Abs(math.Remainder(yaw-tc.yaw, 2*math.Pi)) > 1e-9) {
			t.Errorf("(%g, %g): yaw %.3f %v, want %.3f %v", tc.x, tc.y, yaw, ok, tc.yaw, tc.ok)
		}
	}
	if _, ok := routeHeading(&plugins.Layout{}, 0, 0); ok {
		t.Error("a heading without a route")
	}
}

// A camera panel's label fits its panel: first without the robot's name, then cut with "…".
func TestPanelLabelFits(t *testing.T) {
	p := &panels{model: "prometeo_sport-1", labels: []string{"prometeo_sport-1  camera.front.rgb  15.0 frames/s"}, fitted: make([]fittedLabel, 1)}
	full := p.labels[0]
	if got := p.panelLabel(0, textWidth(full)); got != full {
		t.Errorf("room for all: %q", got)
	}
	short := "camera.front.rgb  15.0 frames/s"
	if got := p.panelLabel(0, textWidth(full)-1); got != short {
		t.Errorf("room for less: %q, want %q", got, short)
	}
	w := textWidth(short) - 1
	if got := p.panelLabel(0, w); !strings.HasSuffix(got, "…") || !strings.HasPrefix(short, strings.TrimSuffix(got, "…")) || textWidth(got) > w {
		t.Errorf("room for less than the sensor and rate: %q", got)
	}
}
