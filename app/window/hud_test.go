package window

import (
	"math"
	"slices"
	"strings"
	"testing"

	"simgui/app/world"
	"simgui/physics/drive"
	"simgui/plugins"
)

func builtinVehicle(t *testing.T, id string) *plugins.VehicleDescriptor {
	t.Helper()
	v, err := plugins.Builtin().Vehicle(id)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// robotLines returns the HUD's lines after the selected robot's name line.
func robotLines(t *testing.T, m world.ModelState) []string {
	t.Helper()
	snap := &world.Snapshot{TimeScale: 1, Paused: true, Models: []world.ModelState{m}}
	lines := hudLines(snap, m.Name, 60, 60, 0, nil)
	i := slices.Index(lines, m.Name+"  "+m.VehicleID)
	if i < 0 {
		t.Fatalf("no line naming %s in %q", m.Name, lines)
	}
	return lines[i+1:]
}

// A drone climbing at full command shows its altitude, its climb rate and the vertical
// command, besides its (zero) forward speed; a car's lines are the ones it always had.
func TestHUDShowsAFlyingVehiclesAltitudeAndClimb(t *testing.T) {
	drone := builtinVehicle(t, "vehicle.drone.simple.v1")
	got := robotLines(t, world.ModelState{
		Name: "ego", VehicleID: drone.ID, Vehicle: drone,
		Pose:  world.Pose{X: 0.0000001, Y: -7.5, Z: 6.75, Yaw: 151.5 * math.Pi / 180},
		Climb: 2.5, Command: drive.Command{Vertical: 1},
	})
	want := []string{
		"x 0.000  y -7.500   yaw 151.5°   speed 0.00 m/s",
		"altitude 6.75 m   climb +2.50 m/s",
		"throttle +0.00  steer +0.00  vertical +1.00  brake 0",
	}
	if !slices.Equal(got, want) {
		t.Errorf("drone climbing:\n got %q\nwant %q", got, want)
	}

	// Sinking reads as a negative climb; a rate too small to show is not "-0.00".
	for _, c := range []struct {
		climb float64
		want  string
	}{{-1.25, "climb -1.25 m/s"}, {-0.0001, "climb +0.00 m/s"}} {
		got := robotLines(t, world.ModelState{Name: "ego", Vehicle: drone, Pose: world.Pose{Z: 0.35}, Climb: c.climb})
		if !strings.HasSuffix(got[1], c.want) {
			t.Errorf("climb %g: %q, want it to end %q", c.climb, got[1], c.want)
		}
	}

	car := builtinVehicle(t, "vehicle.ks0223.v1")
	got = robotLines(t, world.ModelState{
		Name: "ks0223-1", VehicleID: car.ID, Vehicle: car,
		Pose: world.Pose{X: 1.25, Y: 2}, Forward: 0.5, Command: drive.Command{Throttle: 0.7, Steer: -0.25},
	})
	want = []string{
		"x 1.250  y 2.000  z 0.00 m   yaw 0.0°   speed 0.50 m/s",
		"throttle +0.70  steer -0.25  brake 0",
	}
	if !slices.Equal(got, want) {
		t.Errorf("car:\n got %q\nwant %q", got, want)
	}
}
