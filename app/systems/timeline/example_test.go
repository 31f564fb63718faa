package timeline

import (
	"math"
	"os"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"simgui/app/systems"
	"simgui/app/systems/gztopics"
	"simgui/app/transport"
	"simgui/app/world"
)

const exampleFile = "../../../examples/timeline_square/scenario.yaml"

// Tolerances for the example: the square closes to a few millimetres (the first side of the
// first lap is one 5 ms step, 2.5 mm, short); 1 cm and 0.5° leave room for nothing else.
const (
	posTol = 0.01
	yawTol = 0.5 * math.Pi / 180
)

// exampleWorld builds the example scenario's world the way the scenario says: the KS0223 as
// "ego" at basic_arena's spawn point (0, −7.5) facing north, the step size and the plugins.
func exampleWorld(t *testing.T) *world.World {
	t.Helper()
	src, err := os.ReadFile(exampleFile)
	if err != nil {
		t.Fatal(err)
	}
	var sc struct {
		Runtime struct {
			StepSize float64 `yaml:"stepSize"`
		} `yaml:"runtime"`
		World struct {
			TrackID string `yaml:"trackId"`
		} `yaml:"world"`
		Vehicle struct {
			VehicleID string `yaml:"vehicleId"`
		} `yaml:"vehicle"`
		Plugins []systems.Entry `yaml:"plugins"`
	}
	if err := yaml.Unmarshal(src, &sc); err != nil {
		t.Fatal(err)
	}
	if sc.Vehicle.VehicleID != ks0223.ID || sc.World.TrackID != "track.basic_arena.v1" || len(sc.Plugins) != 1 {
		t.Fatalf("the example changed: %+v", sc)
	}
	bus := transport.NewBus(transport.Options{})
	w, err := world.New(world.Config{Track: flatArena, BuildLayout: asIs, Bus: bus, StepSize: sc.Runtime.StepSize,
		Agents: []world.AgentSpec{{Name: "ego", Vehicle: ks0223}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close(); bus.Close() })
	// Commands reach the car through the gz topics system, as in every world of the app.
	if err := w.AddSystem(&gztopics.Adapter{}, world.SystemOptions{Name: gztopics.ID}); err != nil {
		t.Fatal(err)
	}
	b, err := systems.Build(sc.Plugins[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := w.AddSystem(b.System, b.Options); err != nil {
		t.Fatal(err)
	}
	if p := b.System.(*Publisher).Period(); p != 16*time.Second {
		t.Fatalf("period %v, want 16 s", p)
	}
	return w
}

func checkPose(t *testing.T, w *world.World, what string, x, y, yawDeg float64) {
	t.Helper()
	p, _ := w.Pose("ego")
	dPos := math.Hypot(p.X-x, p.Y-y)
	dYaw := math.Abs(math.Remainder(p.Yaw-yawDeg*math.Pi/180, 2*math.Pi))
	t.Logf("%s at %v: (%.4f, %.4f, %.2f°), off by %.2f mm and %.4f°", what, w.SimTime(), p.X, p.Y,
		p.Yaw*180/math.Pi, dPos*1000, dYaw*180/math.Pi)
	if dPos > posTol || dYaw > yawTol {
		t.Errorf("%s: ego at (%.4f, %.4f, %.2f°), want (%g, %g, %g°) within %g m and %.1f°", what,
			p.X, p.Y, p.Yaw*180/math.Pi, x, y, yawDeg, posTol, yawTol*180/math.Pi)
	}
}

// One period of the example drives the square with the real KS0223 drive and ends near the
// start pose, passing each corner on the way.
func TestExampleSquareOnePeriod(t *testing.T) {
	w := exampleWorld(t)
	checkPose(t, w, "start", 0, -7.5, 90)
	for i, c := range []struct{ x, y, yaw float64 }{{0, -6.5, 180}, {-1, -6.5, 270}, {-1, -7.5, 0}, {0, -7.5, 90}} {
		until(w, time.Duration(i+1)*4*time.Second)
		checkPose(t, w, "corner", c.x, c.y, c.yaw)
	}
	if ego := w.Model("ego"); ego.Body.AngularVelocity() != 0 {
		t.Errorf("still turning at the end of the period: %g rad/s", ego.Body.AngularVelocity())
	}
}

// After 2.5 periods (40 s) the car is half way round its third lap: two sides and two turns
// from the start, at the far corner facing south, where the timeline's keyframe at 8 s says.
func TestExampleSquareTwoAndAHalfPeriods(t *testing.T) {
	w := exampleWorld(t)
	until(w, 40*time.Second)
	checkPose(t, w, "2.5 periods", -1, -6.5, 270)
}
