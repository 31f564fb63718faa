package plugins

import (
	"strings"
	"testing"
)

// A static track's spawn points off its floor or inside a solid element, its waypoints off
// the floor, and its route legs through a fixed one, are warnings at their places; a clear track has none.
func TestPlacementWarnings(t *testing.T) {
	clear := func() *TrackDescriptor {
		return &TrackDescriptor{
			Floor: &Floor{Length: 6, Width: 6},
			Elements: []Element{
				{Kind: ElementWall, Name: "north", Y: 2, Length: 4, Width: 0.1, Height: 0.3},
				{Kind: ElementBox, Name: "crate", X: 2, Y: -2, Length: 0.4, Width: 0.4, Height: 0.3, Movable: true, Mass: 1},
				{Kind: ElementCylinder, Name: "post", X: -2, Y: -2, Radius: 0.2, Height: 0.5},
				{Kind: ElementPolygon, Name: "block", Height: 0.3, Points: [][2]float64{{-2.5, 0.5}, {-1.5, 0.5}, {-1.5, 1.5}, {-2.5, 1.5}}},
				{Kind: ElementRoad, Name: "road", Points: [][2]float64{{0, -3}, {0, 3}}, Width: 1},
			},
			SpawnPoints: []SpawnPoint{{X: 0, Y: -2.5}},
			Route:       &Route{Waypoints: [][2]float64{{0, -2}, {0, 1.5}, {1, 1.5}}},
		}
	}
	warnings := func(t *TrackDescriptor) []string {
		var ps Problems
		ps.checkPlacement(t)
		var out []string
		for _, p := range ps {
			if !p.Warning {
				panic("checkPlacement gave an error")
			}
			out = append(out, p.String())
		}
		return out
	}
	if w := warnings(clear()); len(w) != 0 {
		t.Fatalf("a clear track: %v", w)
	}
	wide := clear()
	wide.Route.CorridorWidth = 1.2 // the spawn point 0.5 m from the route is inside
	if w := warnings(wide); len(w) != 0 {
		t.Fatalf("a 1.2 m corridor: %v", w)
	}
	for _, c := range []struct {
		name string
		edit func(*TrackDescriptor)
		want string
	}{
		{"off the floor", func(t *TrackDescriptor) { t.SpawnPoints[0].X = 10 },
			"descriptor.spawnPoints[0]: (10, -2.5) is off the floor (6 × 6 m around (0, 0))"},
		{"waypoint off the floor", func(t *TrackDescriptor) { t.Route.Waypoints[2][0] = 3.5 },
			"descriptor.route.waypoints[2]: (3.5, 1.5) is off the floor (6 × 6 m around (0, 0)): the route leaves the track"},
		{"inside the wall", func(t *TrackDescriptor) { t.SpawnPoints[0].Y = 2.02 }, `(0, 2.02) is inside wall "north"`},
		{"inside the post", func(t *TrackDescriptor) { t.SpawnPoints[0].X, t.SpawnPoints[0].Y = -2.1, -2 }, `inside cylinder "post"`},
		{"inside the block", func(t *TrackDescriptor) { t.SpawnPoints[0].X, t.SpawnPoints[0].Y = -2, 1 }, `inside polygon "block"`},
		{"on the crate", func(t *TrackDescriptor) { t.SpawnPoints[0].X, t.SpawnPoints[0].Y = 2, -2 }, `inside box "crate"`},
		{"route through the wall", func(t *TrackDescriptor) { t.Route.Waypoints[1][1], t.Route.Waypoints[2][1] = 2.5, 2.5 },
			`descriptor.route.waypoints[1]: the leg from waypoint 0 to 1 passes through wall "north"`},
		{"route through the block", func(t *TrackDescriptor) { t.Route.Waypoints[2] = [2]float64{-3, 1.5} },
			`descriptor.route.waypoints[2]: the leg from waypoint 1 to 2 passes through polygon "block"`},
		{"route through the post", func(t *TrackDescriptor) { t.Route.Waypoints = [][2]float64{{-2.5, -1}, {-2, -1}, {-2, -2.8}} },
			`the leg from waypoint 1 to 2 passes through cylinder "post"`},
		{"spawn outside the corridor", func(t *TrackDescriptor) { t.Route.CorridorWidth = 0.6 },
			"descriptor.spawnPoints[0]: (0, -2.5) is 0.5 m from the route, outside its corridor (0.6 m wide)"},
		{"unnamed wall", func(t *TrackDescriptor) { t.Elements[0].Name = ""; t.SpawnPoints[0].Y = 2.02 },
			"(0, 2.02) is inside wall (element 0, no name)"},
		{"looping back through the block", func(t *TrackDescriptor) {
			t.Route.Waypoints = [][2]float64{{-1, 1}, {-1, -1}, {-3, -1}, {-3, 1}}
			t.Route.Loop = true
		}, `descriptor.route.waypoints[0]: the leg from waypoint 3 to 0 passes through polygon "block"`},
	} {
		tr := clear()
		c.edit(tr)
		w := warnings(tr)
		if len(w) != 1 || !strings.Contains(w[0], c.want) {
			t.Errorf("%s: %v, want one with %q", c.name, w, c.want)
		}
	}
	// A route may run past a movable crate: robots push it.
	tr := clear()
	tr.Route.Waypoints = [][2]float64{{1, -2}, {3, -2}}
	if w := warnings(tr); len(w) != 0 {
		t.Errorf("a route past the movable crate: %v", w)
	}
}

// A drive that flies under a ground robot's device type, or without the actuator that climbs,
// and a ground drive under the quadcopter's, are warnings at the contract.
func TestFlightAgreesWithTheContract(t *testing.T) {
	warnings := func(v *VehicleDescriptor) []string {
		var ps Problems
		d, _ := driveModel(v.Drive.Model)
		ps.flightAgrees(v, d)
		var out []string
		for _, p := range ps {
			out = append(out, p.String())
		}
		return out
	}
	drone := builtinVehicle(t, "vehicle.drone.simple.v1")
	ks := builtinVehicle(t, "vehicle.ks0223.v1")
	if w := append(warnings(drone), warnings(ks)...); len(w) != 0 {
		t.Fatalf("the built-ins: %v", w)
	}
	drone.Contract.DeviceType = "ground_robot_differential"
	if w := warnings(drone); len(w) != 1 || !strings.HasPrefix(w[0], `device-contract.deviceType: "ground_robot_differential" for a quadcopter drive, which flies`) {
		t.Errorf("a drone typed as a ground robot: %v", w)
	}
	drone.Contract.DeviceType = DeviceTypeQuadcopter
	drone.Contract.Actuators = drone.Contract.Actuators[:0]
	if w := warnings(drone); len(w) != 1 || !strings.HasPrefix(w[0], "device-contract.actuators: no control.vertical_norm") {
		t.Errorf("a drone that cannot climb: %v", w)
	}
	ks.Contract.DeviceType = DeviceTypeQuadcopter
	if w := warnings(ks); len(w) != 1 || !strings.Contains(w[0], "which stays on the ground") {
		t.Errorf("a car typed as a quadcopter: %v", w)
	}
}
