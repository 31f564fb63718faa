package scalar_test

import (
	"math"
	"testing"

	"simgui/app/sensors"
	"simgui/app/sensors/scalar"
	"simgui/app/sensors/sensortest"
	_ "simgui/app/sensors/standard"
	"simgui/app/transport/msgs"
	"simgui/app/world"
	"simgui/physics"
	"simgui/physics/drive"
	"simgui/plugins"
)

func sensor(id, kind string, n int, pose plugins.Pose3, params map[string]float64) sensortest.Sensor {
	return sensortest.Sensor{
		Mount:    plugins.SensorMount{ID: id, Kind: kind, Pose: pose, Params: params},
		Contract: plugins.SensorDescriptor{ID: id, SensorType: "scalar", Format: "float32", Shape: []int{n}, RateHz: 200},
	}
}

// env puts a KS0223 with the sensors at pose in layout.
func env(t *testing.T, layout *plugins.Layout, pose world.Pose, ss ...sensortest.Sensor) *sensortest.Env {
	return sensortest.New(t, layout, []world.AgentSpec{{Name: "ego", Vehicle: sensortest.KS0223(t, ss...), Spawn: &pose}}, sensors.Options{})
}

// last returns the latest values of a scalar sensor.
func last(t *testing.T, e *sensortest.Env, id string) []float32 {
	t.Helper()
	r, ok := e.System.Latest("ego", id)
	if !ok {
		t.Fatalf("no reading from %s", id)
	}
	return r.Msg.(*msgs.Float_V).GetData()
}

func near(a float32, b, tol float64) bool { return math.Abs(float64(a)-b) <= tol }

// The speedometer reads the signed speed along the heading.
func TestSpeedometer(t *testing.T) {
	e := env(t, &plugins.Layout{}, world.Pose{Yaw: 1}, sensor("speed", "speedometer", 1, plugins.Pose3{}, nil))
	e.World.SetCommand("ego", drive.Command{Throttle: 1})
	e.Step(200)
	fwd, _ := e.World.Model("ego").Body.LocalVelocity()
	if v := last(t, e, "speed")[0]; fwd < 0.7 || !near(v, fwd, 1e-6) {
		t.Fatalf("forward: %g m/s, body %g m/s", v, fwd)
	}
	e.World.SetCommand("ego", drive.Command{Throttle: -1})
	e.Step(400)
	if v := last(t, e, "speed")[0]; v > -0.7 {
		t.Fatalf("reversing: %g m/s, want about −0.73", v)
	}
}

// Odometry counts the distance each side travels: equal when driving straight, opposite
// (θ·b/2) when turning in place.
func TestOdometry(t *testing.T) {
	e := env(t, &plugins.Layout{}, world.Pose{}, sensor("odo", "odometry", 2, plugins.Pose3{}, nil))
	e.World.SetCommand("ego", drive.Command{Throttle: 1})
	e.Step(200)
	p := e.World.Model("ego").Body.Pose()
	d := math.Hypot(p.X, p.Y)
	if v := last(t, e, "odo"); d < 0.5 || !near(v[0], d, 0.01*d) || !near(v[1], d, 0.01*d) {
		t.Fatalf("straight %.4f m: odometry %v", d, v)
	}
	e.World.SetCommand("ego", drive.Command{Steer: 1})
	e.Step(200) // stop and turn
	before := last(t, e, "odo")
	yaw0 := e.World.Model("ego").Body.Pose().Yaw
	e.Step(100)
	turn := e.World.Model("ego").Body.Pose().Yaw - yaw0
	after := last(t, e, "odo")
	dl, dr := float64(after[0]-before[0]), float64(after[1]-before[1])
	want := turn * 0.15 / 2
	if turn < 1 || math.Abs(dr-want) > 0.02*want || math.Abs(dl+want) > 0.02*want {
		t.Fatalf("turned %.3f rad: left %+.4f m, right %+.4f m, want ∓%.4f", turn, dl, dr, want)
	}
}

// The ultrasonic reads the nearest echo in its cone — also off the centre line — and
// rangeMax (3.5 m) when nothing echoes.
func TestUltrasonic(t *testing.T) {
	us := sensor("us", "ultrasonic", 1, plugins.Pose3{X: 0.125, Z: 0.07}, map[string]float64{"rangeMin": 0.02, "rangeMax": 3.5, "coneDeg": 15})
	wall := plugins.Element{Kind: plugins.ElementWall, X: 0.125 + 1.0 + 0.05, Length: 0.1, Width: 2, Height: 0.3}
	e := env(t, &plugins.Layout{Elements: []plugins.Element{wall}}, world.Pose{}, us)
	e.Step(1)
	if v := last(t, e, "us")[0]; !near(v, 1.0, 1e-6) {
		t.Fatalf("wall 1 m ahead: %g m", v)
	}
	e = env(t, &plugins.Layout{}, world.Pose{}, us)
	e.Step(1)
	if v := last(t, e, "us")[0]; v != 3.5 {
		t.Fatalf("nothing ahead: %g m, want 3.5", v)
	}
	// A thin post 6° off the axis at 1 m: inside the 15° cone, missed by the centre ray.
	post := plugins.Element{Kind: plugins.ElementCylinder, X: 0.125 + math.Cos(6*math.Pi/180), Y: math.Sin(6 * math.Pi / 180), Radius: 0.02, Height: 0.3}
	e = env(t, &plugins.Layout{Elements: []plugins.Element{post}}, world.Pose{}, us)
	e.Step(1)
	if v := last(t, e, "us")[0]; v > 1.0 || v < 0.9 {
		t.Fatalf("post in the cone: %g m, want just under 1", v)
	}
	// A low kerb under the sensor's height is not heard.
	kerb := plugins.Element{Kind: plugins.ElementWall, X: 1, Length: 0.1, Width: 2, Height: 0.05}
	e = env(t, &plugins.Layout{Elements: []plugins.Element{kerb}}, world.Pose{}, us)
	e.Step(1)
	if v := last(t, e, "us")[0]; v != 3.5 {
		t.Fatalf("kerb below the sensor: %g m, want 3.5", v)
	}
}

// The KS0223's sonar sits 0.23 m ahead of the centre of a 0.25 m body, beyond its bumper:
// pressed against a 2 cm wall, the sensor is past it. It reads the minimum range there, as the
// real one pressed against the wall does, not the open floor behind the wall.
func TestUltrasonicBeyondTheBumper(t *testing.T) {
	us := sensor("us", "ultrasonic", 1, plugins.Pose3{X: 0.23, Z: 0.07}, map[string]float64{"rangeMin": 0.02, "rangeMax": 3.5, "coneDeg": 0})
	for _, face := range []float64{0.126, 0.18} { // touching the bumper; between bumper and sensor
		wall := plugins.Element{Kind: plugins.ElementWall, X: face + 0.01, Length: 0.02, Width: 2, Height: 0.3}
		e := env(t, &plugins.Layout{Elements: []plugins.Element{wall}}, world.Pose{}, us)
		e.Step(1)
		if v := last(t, e, "us")[0]; v != 0.02 {
			t.Errorf("wall face %.3f m ahead of the centre, sensor behind it: %g m, want the minimum 0.02", face, v)
		}
	}
	// Clear of the sensor, the wall reads from the sensor as before.
	wall := plugins.Element{Kind: plugins.ElementWall, X: 0.5 + 0.01, Length: 0.02, Width: 2, Height: 0.3}
	e := env(t, &plugins.Layout{Elements: []plugins.Element{wall}}, world.Pose{}, us)
	e.Step(1)
	if v := last(t, e, "us")[0]; !near(v, 0.27, 1e-6) {
		t.Errorf("wall face 0.5 m ahead of the centre: %g m, want 0.27 from the sensor", v)
	}
}

// Line-tracker probes read 1 − d/0.12 for their distance d to the route, left to right.
func TestLineTracker(t *testing.T) {
	lt := sensor("line", "line_tracker", 5, plugins.Pose3{}, map[string]float64{"count": 5, "ahead": 0.19, "span": 0.08})
	layout := &plugins.Layout{Route: &plugins.Route{Waypoints: [][2]float64{{-2, 0}, {2, 0}}}}
	e := env(t, layout, world.Pose{Y: 0.03}, lt)
	e.Step(1)
	got := last(t, e, "line")
	for i, y := range []float64{0.11, 0.07, 0.03, -0.01, -0.05} {
		if want := 1 - math.Abs(y)/scalar.LineFalloff; !near(got[i], want, 1e-6) {
			t.Fatalf("probe %d at y = %.2f: %g, want %g (all: %v)", i, y, got[i], want, got)
		}
	}
	e = env(t, &plugins.Layout{}, world.Pose{}, lt)
	e.Step(1)
	for i, v := range last(t, e, "line") {
		if v != 0 {
			t.Fatalf("no centreline, probe %d reads %g", i, v)
		}
	}
}

// The powertrain estimate: idle current at rest; driving at a steady speed, the rolling
// resistance's power.
func TestPowertrain(t *testing.T) {
	e := env(t, &plugins.Layout{}, world.Pose{}, sensor("pt", "powertrain", 3, plugins.Pose3{}, nil))
	e.Step(1)
	v := last(t, e, "pt")
	if !near(v[1], scalar.IdleCurrent, 1e-6) || !near(v[0], scalar.OpenVoltage-scalar.InternalResistance*scalar.IdleCurrent, 1e-6) || v[2] != 0 {
		t.Fatalf("at rest: %v", v)
	}
	e.World.SetCommand("ego", drive.Command{Throttle: 1})
	e.Step(400)
	fwd, _ := e.World.Model("ego").Body.LocalVelocity()
	motor := scalar.RollingCoefficient * 1.0 * physics.Gravity * fwd / scalar.Efficiency
	v = last(t, e, "pt")
	if !near(v[2], motor, 0.02*motor) || !near(v[1], scalar.IdleCurrent+motor/scalar.NominalVoltage, 0.01) || v[0] >= 7.93 {
		t.Fatalf("cruising at %.3f m/s: %v, want motor %.3f W", fwd, v, motor)
	}
}

// The altimeter reads the altitude of the mount: a drone's base altitude plus the mount's z.
func TestAltimeter(t *testing.T) {
	v := sensortest.Builtin(t, "vehicle.drone.simple.v1", sensor("alt", "altimeter", 1, plugins.Pose3{Z: 0.05}, nil))
	e := sensortest.New(t, &plugins.Layout{}, []world.AgentSpec{{Name: "ego", Vehicle: v, Spawn: &world.Pose{}}}, sensors.Options{})
	e.Step(1)
	if got := last(t, e, "alt")[0]; !near(got, 1.05, 1e-6) {
		t.Fatalf("drone at its start altitude 1 m, mount 0.05 m up: %g m", got)
	}
	e.World.SetCommand("ego", drive.Command{Vertical: 1})
	e.Step(200)
	if got, base := last(t, e, "alt")[0], e.World.Model("ego").Body.Base; base < 2 || !near(got, base+0.05, 1e-6) {
		t.Fatalf("after climbing to %.3f m: %g m", base, got)
	}
}

// A contract shape that does not fit the sensor's values is refused.
func TestShapeChecked(t *testing.T) {
	v := sensortest.KS0223(t, sensor("odo", "odometry", 3, plugins.Pose3{}, nil))
	w, err := world.New(world.Config{Track: &plugins.TrackDescriptor{ID: "t"}, Agents: []world.AgentSpec{{Name: "ego", Vehicle: v}},
		BuildLayout: func(*plugins.TrackDescriptor, map[string]any, int64) (*plugins.Layout, error) {
			return &plugins.Layout{}, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	w.AddSystem(sensors.New(sensors.Options{}), world.SystemOptions{Name: "sensors"})
	if err := w.Start(); err == nil {
		t.Fatal("odometry with shape [3] accepted")
	} else {
		t.Log(err)
	}
}
