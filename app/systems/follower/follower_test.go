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
