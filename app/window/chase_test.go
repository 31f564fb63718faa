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

// span is how many pixels across cam's picture a robot of half-width hw with its middle at
// mid spans, and whether both its sides are in the picture.
func span(cam render.Camera, mid render.Pose, hw float64) (float64, bool) {
	s, c := math.Sincos(mid.Yaw)
	p := mgl64.Vec3{mid.X, mid.Y, mid.Z}
	side := mgl64.Vec3{-s * hw, c * hw, 0}
	c0, r0, _, ok0 := cam.Project(p.Add(side))
	c1, r1, _, ok1 := cam.Project(p.Sub(side))
	in := func(col, row float64) bool {
		return col >= 0 && col < float64(cam.Width) && row >= 0 && row < float64(cam.Height)
	}
	return math.Abs(c1 - c0), ok0 && ok1 && in(c0, r0) && in(c1, r1)
}

// The chase camera frames each robot by its size: a KS0223, an arcade car and a drone at any
// altitude are as far from it in multiples of their half-length, and the drone spans the same
// pixels at 0.35 m and at 10 m (6.5 m up it was about 30 px across a 1280-px view, the camera
// having backed away by its altitude). Over a drone the camera looks further down the higher
// it flies, keeps the drone in the picture, and has the floor under it in view while it flies
// low; a robot on the floor keeps the camera it always had.
func TestChaseFramesEachRobotBySize(t *testing.T) {
	const w, h = 1280, 612 // the 3D view of a 1280×640 window
	half := chaseFovY / 2 * math.Pi / 180
	// relDist is how far the camera is from the robot's middle, in the robot's half-lengths.
	relDist := func(v *plugins.VehicleDescriptor, cam render.Camera, mid render.Pose) float64 {
		hl, _, _ := footprint(v)
		return cam.Pose.Pos().Sub(mid.Pos()).Len() / hl
	}
	drone := builtinVehicle(t, "vehicle.drone.simple.v1")
	_, hw, _ := footprint(drone)
	var want, wantPx float64
	prevPitch := math.Inf(-1)
	for i, alt := range []float64{0.35, 1, 2, 6.5, 10} {
		body := render.Pose{X: 1, Y: 2, Z: alt, Yaw: 2.6}
		cam := chaseCamera(drone, body, 1, 1, w, h)
		mid := body
		mid.Z += drone.Body.Height / 2
		px, in := span(cam, mid, hw)
		d := relDist(drone, cam, mid)
		if i == 0 {
			want, wantPx = d, px
		}
		switch {
		case !in:
			t.Errorf("at %.2f m the drone is not in the chase picture (camera pitch %.1f°)", alt, cam.Pitch*180/math.Pi)
		case math.Abs(d-want) > 1e-9 || math.Abs(px-wantPx) > 0.05*wantPx || px < 150:
			t.Errorf("at %.2f m the camera is %.2f half-lengths away and the drone spans %.0f px; at 0.35 m %.2f and %.0f px",
				alt, d, px, want, wantPx)
		}
		if cam.Pitch < prevPitch {
			t.Errorf("at %.2f m the camera looks %.1f° down, less than lower down (%.1f°)", alt, cam.Pitch*180/math.Pi, prevPitch*180/math.Pi)
		}
		prevPitch = cam.Pitch
		if ef := elevation(cam, mgl64.Vec3{body.X, body.Y, 0}); alt <= 2 && math.Abs(ef) > half-0.05 {
			t.Errorf("at %.2f m the floor under the drone is %.1f° off the axis; the picture spans ±%.1f°",
				alt, ef*180/math.Pi, chaseFovY/2)
		}
	}
	if prevPitch <= chaseCamera(drone, render.Pose{Z: 0.35}, 1, 1, w, h).Pitch {
		t.Error("the camera looks no further down over a drone at 10 m than at 0.35 m")
	}

	for _, id := range []string{"vehicle.ks0223.v1", "vehicle.arcade.red.v1"} {
		car := builtinVehicle(t, id)
		body := render.Pose{X: 1, Y: 2, Yaw: 2.6}
		dist, up, mid := chaseGeometry(car, 1.3)
		hl, _, _ := footprint(car)
		if want := math.Max(0.7, 6.5*hl) * 1.3; math.Abs(dist-want) > 1e-12 {
			t.Errorf("%s: the camera %.3f m behind, want %.3f", id, dist, want)
		}
		got := chaseCamera(car, body, 0.8, 1.3, 64, 48).Pose
		wantPose := body.Compose(render.Pose{X: -0.8 * dist, Z: mid + 0.8*up, Pitch: 0.85 * math.Atan2(up, dist)})
		if math.Abs(got.X-wantPose.X)+math.Abs(got.Y-wantPose.Y)+math.Abs(got.Z-wantPose.Z)+math.Abs(got.Pitch-wantPose.Pitch) > 1e-9 {
			t.Errorf("%s: camera at %+v, want %+v", id, got, wantPose)
		}
		// Framed as the drone is: as many half-lengths away (the body heights differ a little).
		cam := chaseCamera(car, body, 1, 1, w, h)
		m := body
		m.Z += mid
		if d := relDist(car, cam, m); math.Abs(d-want) > 0.05*want {
			t.Errorf("%s: the camera %.2f half-lengths from it, the drone's %.2f", id, d, want)
		}
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
