package imu_test

import (
	"math"
	"testing"
	"time"

	"simgui/app/sensors"
	"simgui/app/sensors/imu"
	"simgui/app/sensors/sensortest"
	_ "simgui/app/sensors/standard"
	"simgui/app/transport"
	"simgui/app/transport/msgs"
	"simgui/app/world"
	"simgui/physics/drive"
	"simgui/plugins"
)

func mount(pose plugins.Pose3, stddev float64) sensortest.Sensor {
	s := sensortest.Sensor{
		Mount:    plugins.SensorMount{ID: "imu", Kind: "imu", Pose: pose},
		Contract: plugins.SensorDescriptor{ID: "imu", SensorType: "imu", Format: "float32", Shape: []int{6}, RateHz: 100},
	}
	if stddev > 0 {
		s.Contract.Noise = &plugins.Noise{Stddev: stddev}
	}
	return s
}

func setup(t *testing.T, v *plugins.VehicleDescriptor, yaw float64) (*sensortest.Env, *transport.Subscription) {
	env := sensortest.New(t, &plugins.Layout{}, []world.AgentSpec{{Name: "ego", Vehicle: v, Spawn: &world.Pose{Yaw: yaw}}}, sensors.Options{})
	return env, env.Subscribe("ego", "imu", sensors.TopicIMU)
}

func readings(env *sensortest.Env, sub *transport.Subscription) []*msgs.IMU {
	var out []*msgs.IMU
	for _, m := range env.Drain(sub) {
		out = append(out, m.Msg.(*msgs.IMU))
	}
	return out
}

// At rest an IMU reads gravity on z (+9.80665 m/s², as a real accelerometer does), zero angular
// rate, and its orientation is the vehicle's heading.
func TestAtRest(t *testing.T) {
	env, sub := setup(t, sensortest.KS0223(t, mount(plugins.Pose3{Z: 0.08}, 0)), 0.7)
	env.Step(100)
	rs := readings(env, sub)
	if len(rs) != 51 {
		t.Fatalf("%d readings in 0.5 s at 100 Hz, want 51", len(rs))
	}
	for i, r := range rs {
		a, w, q := r.GetLinearAcceleration(), r.GetAngularVelocity(), r.GetOrientation()
		if math.Abs(a.GetX()) > 1e-9 || math.Abs(a.GetY()) > 1e-9 || math.Abs(a.GetZ()-imu.Gravity) > 1e-9 {
			t.Fatalf("reading %d: acceleration %v, want (0, 0, 9.80665)", i, a)
		}
		if w.GetX() != 0 || w.GetY() != 0 || w.GetZ() != 0 {
			t.Fatalf("reading %d: angular velocity %v, want 0", i, w)
		}
		if math.Abs(q.GetZ()-math.Sin(0.35)) > 1e-9 || math.Abs(q.GetW()-math.Cos(0.35)) > 1e-9 {
			t.Fatalf("reading %d: orientation %v, want yaw 0.7 rad", i, q)
		}
	}
	if r := rs[0]; r.GetEntityName() != "ego/imu" || r.GetHeader().GetStamp().AsDuration() != 5*time.Millisecond {
		t.Fatalf("first reading: entity %q stamp %v", r.GetEntityName(), r.GetHeader().GetStamp().AsDuration())
	}
}

// Accelerating forward, x reads the drive's acceleration (KS0223: 4.0 m/s² towards its top
// speed); turning in place, z reads the yaw rate and an IMU 0.1 m ahead of the centre feels the
// centripetal acceleration −ω²·0.1 on x.
func TestMotion(t *testing.T) {
	env, sub := setup(t, sensortest.KS0223(t, mount(plugins.Pose3{X: 0.1, Z: 0.08}, 0)), 0)
	env.World.SetCommand("ego", drive.Command{Throttle: 1})
	env.Step(10) // 0.05 s: the speed ramps at 4 m/s² for 0.18 s
	rs := readings(env, sub)
	last := rs[len(rs)-1].GetLinearAcceleration()
	if math.Abs(last.GetX()-4) > 0.4 || math.Abs(last.GetY()) > 0.05 || math.Abs(last.GetZ()-imu.Gravity) > 1e-9 {
		t.Fatalf("accelerating: %v, want about (4, 0, 9.81)", last)
	}

	env.World.SetCommand("ego", drive.Command{Steer: 1})
	env.Step(400) // speed gone, yaw rate settled
	rs = readings(env, sub)
	r := rs[len(rs)-1]
	m := env.World.Model("ego")
	omega := m.Body.AngularVelocity()
	if omega < 3 {
		t.Fatalf("yaw rate %g rad/s: the car does not turn", omega)
	}
	if w := r.GetAngularVelocity(); math.Abs(w.GetZ()-omega) > 1e-9 || w.GetX() != 0 || w.GetY() != 0 {
		t.Fatalf("turning at %.3f rad/s: gyro %v", omega, w)
	}
	a := r.GetLinearAcceleration()
	if want := -omega * omega * 0.1; math.Abs(a.GetX()-want) > 0.05*math.Abs(want) {
		t.Fatalf("turning: acceleration x %.3f, want the centripetal %.3f", a.GetX(), want)
	}
}

// A mount turned 90° to look down (pitch +90°) sees gravity along its −x axis.
func TestTiltedMount(t *testing.T) {
	env, sub := setup(t, sensortest.KS0223(t, mount(plugins.Pose3{PitchDeg: 90}, 0)), 0)
	env.Step(2)
	a := readings(env, sub)[0].GetLinearAcceleration()
	if math.Abs(a.GetX()+imu.Gravity) > 1e-9 || math.Abs(a.GetY()) > 1e-9 || math.Abs(a.GetZ()) > 1e-9 {
		t.Fatalf("pitched 90°: %v, want (−9.80665, 0, 0)", a)
	}
}

// A climbing drone feels its vertical acceleration on z; the contract's noise spreads each
// value with its stddev.
func TestDroneAndNoise(t *testing.T) {
	v := sensortest.Builtin(t, "vehicle.drone.simple.v1", mount(plugins.Pose3{Z: 0.05}, 0.02))
	env, sub := setup(t, v, 0)
	env.Step(200)
	var zs []float64
	for _, r := range readings(env, sub) {
		zs = append(zs, r.GetLinearAcceleration().GetZ())
	}
	mean, sd := stats(zs)
	if math.Abs(mean-imu.Gravity) > 0.01 || sd < 0.015 || sd > 0.025 {
		t.Fatalf("hovering: z %.4f ± %.4f, want %.4f ± 0.02", mean, sd, imu.Gravity)
	}
	env.World.SetCommand("ego", drive.Command{Vertical: 1})
	env.Step(10)
	rs := readings(env, sub)
	if z := rs[len(rs)-1].GetLinearAcceleration().GetZ(); z < imu.Gravity+1 {
		t.Fatalf("climbing: z %.3f m/s², want well above g (the drive ramps at 3 m/s²)", z)
	}
}

func stats(xs []float64) (mean, sd float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		sd += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(sd / float64(len(xs)))
}

// A drone told to climb from its first step reads the drive's ramp of 3 m/s² over g from its
// second reading on (the first has no velocity before it to difference, and reads g): the
// second read twice that, from a climb rate of 0 taken for the first step's.
func TestDroneClimbsFromTheFirstStep(t *testing.T) {
	v := sensortest.Builtin(t, "vehicle.drone.simple.v1", mount(plugins.Pose3{Z: 0.05}, 0))
	env, sub := setup(t, v, 0)
	env.World.SetCommand("ego", drive.Command{Vertical: 1})
	env.Step(100)
	rs := readings(env, sub)
	if len(rs) < 5 {
		t.Fatalf("%d readings", len(rs))
	}
	for i, r := range rs[1:] {
		if z := r.GetLinearAcceleration().GetZ(); math.Abs(z-(imu.Gravity+3)) > 0.01 {
			t.Errorf("reading %d: z %.3f m/s², want %.3f", i+1, z, imu.Gravity+3)
		}
	}
}
