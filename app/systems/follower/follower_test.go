package follower_test

import (
	"log/slog"
	"math"
	"testing"

	"gopkg.in/yaml.v3"

	"simgui/app/systems"
	"simgui/app/systems/follower"
	"simgui/app/world"
	"simgui/plugins"
	"simgui/plugins/trackgen"
)

// A follower drives a KS0223 round the city's looping route: it passes every corner of the
// 15 m square, staying near the roads' centre lines, and goes round again.
func TestFollowsTheRoute(t *testing.T) {
	track, err := plugins.Builtin().Track("track.city_polygon.v1")
	if err != nil {
		t.Fatal(err)
	}
	ks, _ := plugins.Builtin().Vehicle("vehicle.ks0223.v1")
	w, err := world.New(world.Config{Track: track, BuildLayout: trackgen.Build, Logger: slog.New(slog.DiscardHandler),
		Agents: []world.AgentSpec{{Name: "car", Vehicle: ks}, {Name: "parked", Vehicle: ks, Spawn: &world.Pose{X: -15, Y: 0}}}})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	var cfg yaml.Node
	cfg.Encode(map[string]any{"models": []string{"car"}, "throttle": 1})
	b, err := systems.Build(systems.Entry{Type: follower.ID, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.AddSystem(b.System, b.Options); err != nil {
		t.Fatal(err)
	}
	corners := [][2]float64{{0, 15}, {15, 15}, {15, -15}, {0, -15}}
	next, laps, worst := 0, 0, 0.0
	route := w.Layout().Route.Waypoints
	for step := 0; step < 200*400 && laps < 2; step++ { // at most 400 s
		w.Step()
		p := w.Model("car").Body.Pose()
		worst = math.Max(worst, lineDistance(route, p.X, p.Y))
		if c := corners[next]; math.Hypot(p.X-c[0], p.Y-c[1]) < 1.5 {
			if next++; next == len(corners) {
				next, laps = 0, laps+1
			}
		}
	}
	if laps < 2 {
		t.Fatalf("after 400 s the car passed %d laps and %d corners", laps, next)
	}
	if worst > 1.5 {
		t.Errorf("the car strayed %.2f m from the route", worst)
	}
	if p := w.Model("parked").Body.Pose(); p.X != -15 || p.Y != 0 {
		t.Errorf("a model the follower does not drive moved to %+v", p)
	}
}

// Cars spawned off the city's loop join it where it is nearest, along the roads, and go
// round: the loop's first waypoint is across a block from them (rusim's showcase-city fleet
// cut across it into the buildings and stuck there).
func TestJoinsALoopWhereItIsNearest(t *testing.T) {
	track, err := plugins.Builtin().Track("track.city_polygon.v1")
	if err != nil {
		t.Fatal(err)
	}
	arcade, _ := plugins.Builtin().Vehicle("vehicle.arcade.blue.v1")
	east, west := &world.Pose{X: 12, Y: 0, Yaw: -math.Pi / 2}, &world.Pose{X: -12, Y: 0, Yaw: math.Pi / 2}
	w, err := world.New(world.Config{Track: track, BuildLayout: trackgen.Build, Logger: slog.New(slog.DiscardHandler),
		Agents: []world.AgentSpec{{Name: "east", Vehicle: arcade, Spawn: east}, {Name: "west", Vehicle: arcade, Spawn: west}}})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	var cfg yaml.Node
	cfg.Encode(map[string]any{"models": []string{"east", "west"}})
	b, err := systems.Build(systems.Entry{Type: follower.ID, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.AddSystem(b.System, b.Options); err != nil {
		t.Fatal(err)
	}
	route := w.Layout().Route.Waypoints
	joined := map[string]bool{}
	travelled := map[string]float64{}
	last := map[string][2]float64{"east": {east.X, east.Y}, "west": {west.X, west.Y}}
	for step := 0; step < 200*240; step++ { // 240 s
		w.Step()
		for name := range last {
			p := w.Model(name).Body.Pose()
			if !joined[name] && lineDistance(route, p.X, p.Y) < 0.5 {
				joined[name] = true
			}
			if !onCityRoad(p.X, p.Y) {
				t.Fatalf("%s left the roads for (%.2f, %.2f), joined the loop: %v", name, p.X, p.Y, joined[name])
			}
			l := last[name]
			travelled[name] += math.Hypot(p.X-l[0], p.Y-l[1])
			last[name] = [2]float64{p.X, p.Y}
		}
	}
	for name := range last {
		// A lap is 120 m; at the follower's half throttle an arcade car goes 0.365 m/s.
		if !joined[name] || travelled[name] < 60 {
			t.Errorf("%s joined the loop: %v; travelled %.1f m in 240 s, want most of the way round", name, joined[name], travelled[name])
		}
	}
}

// onCityRoad says whether (x, y) is on one of the default city's roads, 7.5 m wide across it
// at −15, 0 and 15 m both ways, or on the tile round them: not in a block of buildings.
func onCityRoad(x, y float64) bool {
	for _, v := range []float64{-15, 0, 15} {
		if math.Abs(x-v) <= 3.75 || math.Abs(y-v) <= 3.75 {
			return true
		}
	}
	return math.Abs(x) > 18.75 || math.Abs(y) > 18.75
}

func lineDistance(wps [][2]float64, x, y float64) float64 {
	best := math.Inf(1)
	for i := range wps {
		a, b := wps[i], wps[(i+1)%len(wps)]
		dx, dy := b[0]-a[0], b[1]-a[1]
		t := math.Max(0, math.Min(1, ((x-a[0])*dx+(y-a[1])*dy)/(dx*dx+dy*dy)))
		best = math.Min(best, math.Hypot(x-a[0]-t*dx, y-a[1]-t*dy))
	}
	return best
}

func TestValidate(t *testing.T) {
	for _, f := range []follower.Follower{{}, {Models: []string{"a"}, Throttle: 2}, {Models: []string{"a"}, Gain: -1}} {
		if err := f.Validate(); err == nil {
			t.Errorf("%+v validated", f)
		}
	}
}
