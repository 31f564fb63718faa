package window

import (
	"math"
	"testing"

	"simgui/app/sensors"
	"simgui/app/world"
	"simgui/plugins"
	"simgui/plugins/trackgen"
)

// A robot in the line of sight between the chase camera and the robot it follows is left out
// of the picture; one beside it, or below or above it, stays.
func TestChaseLeavesOutARobotInTheWay(t *testing.T) {
	cat := plugins.Builtin()
	tr, err := cat.Track("track.basic_arena.v1")
	if err != nil {
		t.Fatal(err)
	}
	ks, err := cat.Vehicle("vehicle.ks0223.v1")
	if err != nil {
		t.Fatal(err)
	}
	at := func(name string, x, y float64) world.AgentSpec {
		return world.AgentSpec{Name: name, Vehicle: ks, Spawn: &world.Pose{X: x, Y: y}}
	}
	// The followed robot faces +x at the origin; its chase camera is about 0.8 m behind it.
	w, err := world.New(world.Config{Track: tr, BuildLayout: trackgen.Build, Seed: 1,
		Agents: []world.AgentSpec{at("ego", 0, 0), at("behind", -0.45, 0), at("beside", -0.45, 1), at("ahead", 1, 0)}})
	if err != nil {
		t.Fatal(err)
	}
	ego := w.Model("ego")
	body := sensors.BodyPose(ego)
	cam := chaseCamera(ego.Vehicle, body, 1, 1, 64, 48)
	target, _, _ := chaseLine(ego.Vehicle, body, 1)
	// The camera looks down over a KS0223 on the ground behind: it does not block the view.
	for _, name := range []string{"behind", "beside", "ahead"} {
		if occludes(w.Model(name), cam.Pose, target) {
			t.Errorf("%s occludes (camera at %.2f, %.2f, %.2f)", name, cam.X, cam.Y, cam.Z)
		}
	}
	// Hovering 20 cm up (a drone, say), the one behind is in the line of sight; the one
	// beside is not; flown above the line, it is not in the way either.
	for _, c := range []struct {
		name string
		base float64
		want bool
	}{{"behind", 0.2, true}, {"beside", 0.2, false}, {"behind", 2, false}} {
		w.Model(c.name).Body.Base = c.base
		if got := occludes(w.Model(c.name), cam.Pose, target); got != c.want {
			t.Errorf("%s at %.1f m up: occludes %v, want %v", c.name, c.base, got, c.want)
		}
	}
}

// The wheel moves the chase camera in steps of 15 %, within its limits; the zero orbit is the
// usual distance.
func TestChaseOrbitWheel(t *testing.T) {
	var o chaseOrbit
	if z := o.zoom(); z != 1 {
		t.Fatalf("the zero orbit's zoom %g", z)
	}
	o.wheel(-2)
	if z := o.zoom(); math.Abs(z-1.15*1.15) > 1e-12 {
		t.Errorf("two steps out: %g", z)
	}
	for range 50 {
		o.wheel(-1)
	}
	if z := o.zoom(); math.Abs(z-math.Pow(1.15, maxChaseSteps)) > 1e-9 {
		t.Errorf("far out: %g", z)
	}
	for range 50 {
		o.wheel(1)
	}
	if z := o.zoom(); math.Abs(z-math.Pow(1.15, minChaseSteps)) > 1e-9 {
		t.Errorf("near in: %g", z)
	}
}
