package window

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"simgui/app/sensors"
	"simgui/app/world"
	"simgui/plugins"
	"simgui/plugins/trackgen"
	"simgui/render"
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

// elevation is how far above (positive) or below the chase camera's axis p is, radians.
func elevation(cam render.Camera, p mgl64.Vec3) float64 {
	r := cam.Pose.Rotation()
	d := p.Sub(cam.Pose.Pos())
	return math.Atan2(d.Dot(r.Col(2)), d.Dot(r.Col(0)))
}

// A flying robot's chase camera has the robot and the floor under it in the picture at any
// altitude, farther from the floor the higher it flies, and the robot near enough to be more
// than a speck; a robot on the floor keeps the camera it always had.
func TestChaseKeepsTheFloorUnderAFlyingRobotInView(t *testing.T) {
	drone := builtinVehicle(t, "vehicle.drone.simple.v1")
	half := chaseFovY / 2 * math.Pi / 180
	var gaps []float64
	prevZ := 0.0
	for _, alt := range []float64{0.35, 1, 6.75, 10} {
		body := render.Pose{X: 1, Y: 2, Z: alt, Yaw: 2.6}
		cam := chaseCamera(drone, body, 1, 1, 64, 48)
		robot := mgl64.Vec3{body.X, body.Y, alt + drone.Body.Height/2}
		floor := mgl64.Vec3{body.X, body.Y, 0}
		er, ef := elevation(cam, robot), elevation(cam, floor)
		if math.Abs(er) > half-0.05 || math.Abs(ef) > half-0.05 {
			t.Errorf("at %.2f m the robot is %.1f° and the floor under it %.1f° off the axis; the picture spans ±%.1f°",
				alt, er*180/math.Pi, ef*180/math.Pi, chaseFovY/2)
		}
		if d := cam.Pose.Pos().Sub(robot).Len(); d > 1.5*alt+2 {
			t.Errorf("at %.2f m the camera is %.1f m from the robot", alt, d)
		}
		gaps = append(gaps, er-ef)
		if cam.Z <= prevZ {
			t.Errorf("at %.2f m the camera is %.2f m up, no higher than lower down (%.2f m)", alt, cam.Z, prevZ)
		}
		prevZ = cam.Z
	}
	// What tells 6.75 m from 0.35 m: the robot is well apart from the floor under it.
	if gaps[2] < 2*gaps[0] {
		t.Errorf("the robot and the floor under it %.1f° apart at 6.75 m, %.1f° at 0.35 m", gaps[2]*180/math.Pi, gaps[0]*180/math.Pi)
	}

	car := builtinVehicle(t, "vehicle.ks0223.v1")
	body := render.Pose{X: 1, Y: 2, Yaw: 2.6}
	dist, up, mid := chaseGeometry(car, 0, 1.3)
	hl, _, _ := footprint(car)
	if want := math.Max(0.7, 6.5*hl) * 1.3; math.Abs(dist-want) > 1e-12 {
		t.Errorf("car: the camera %.3f m behind, want %.3f", dist, want)
	}
	got := chaseCamera(car, body, 0.8, 1.3, 64, 48).Pose
	want := body.Compose(render.Pose{X: -0.8 * dist, Z: mid + 0.8*up, Pitch: 0.85 * math.Atan2(up, dist)})
	if math.Abs(got.X-want.X)+math.Abs(got.Y-want.Y)+math.Abs(got.Z-want.Z)+math.Abs(got.Pitch-want.Pitch) > 1e-9 {
		t.Errorf("car: camera at %+v, want %+v", got, want)
	}
}

// The floor mark is a disc as wide as the robot, flat on the floor under it, casting no
// shadow; its mesh is built again only for a robot of another size.
func TestFloorMarkUnderTheRobot(t *testing.T) {
	var f floorMark
	o := f.object(0.25, render.Pose{X: 3, Y: -4, Z: 6.75, Yaw: 1})
	if o.X != 3 || o.Y != -4 || o.Z <= 0 || o.Z > 0.01 || !o.NoShadow {
		t.Fatalf("mark at %+v (NoShadow %v), want on the floor at (3, -4) casting none", o.Pose, o.NoShadow)
	}
	lo, hi := o.Mesh.Bounds()
	if math.Abs(hi[0]-0.25) > 1e-6 || math.Abs(lo[1]+0.25) > 0.01 || hi[2]-lo[2] > 0.002 {
		t.Errorf("mark's bounds %v–%v, want a flat disc of radius 0.25", lo, hi)
	}
	if again := f.object(0.25, render.Pose{X: 5}); again.Mesh != o.Mesh {
		t.Error("the mark's mesh was built again for a robot of the same size")
	}
	if bigger := f.object(0.5, render.Pose{}); bigger.Mesh == o.Mesh {
		t.Error("a bigger robot's mark kept the smaller one's mesh")
	}
}
