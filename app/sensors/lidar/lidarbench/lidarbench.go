// Package lidarbench holds the lidar's speed claim, registered for `simgui bench` and run by
// go test -bench too: a 360-ray scan by the KS0223 in the default scenario (the cardboard
// corridor) through the sensor (ray queries on the grid caster, noise, the LaserScan message),
// against the same 360 rays cast through cp (physics.Space.RayCast) in the same world.
package lidarbench

import (
	"math"

	"simgui/app/bench"
	"simgui/app/sensors"
	_ "simgui/app/sensors/lidar" // the sensor kind measured
	"simgui/app/sensors/sensortest"
	"simgui/plugins"
	"simgui/render"
)

func init() {
	bench.Register(bench.Case{Name: "physics/raycast/360", F: benchPhysics,
		Doc: "360 rays through physics.Space.RayCast (cp segment queries) from the corridor's spawn point"})
	bench.Register(bench.Case{Name: "sensors/lidar/360", Baseline: "physics/raycast/360", F: benchScan,
		Doc: "one 360-ray lidar scan (0.05–12 m) by the KS0223 in the default scenario, message included"})
}

// benchEnv is the default scenario with a 360-ray lidar on the KS0223, 0.1 m up.
func benchEnv(b bench.B) (*sensortest.Env, plugins.SensorMount) {
	m := plugins.SensorMount{ID: "lidar", Kind: "lidar", Pose: plugins.Pose3{Z: 0.1},
		Params: map[string]float64{"samples": 360, "angleMinDeg": -180, "angleMaxDeg": 179, "rangeMin": 0.05, "rangeMax": 12}}
	v := sensortest.KS0223(b, sensortest.Sensor{Mount: m, Contract: plugins.SensorDescriptor{
		ID: "lidar", SensorType: plugins.SensorLidar, Format: "float32", Unit: "m", Shape: []int{360}, RateHz: 10,
		Noise: &plugins.Noise{Stddev: 0.01}}})
	env := sensortest.Default(b, v, sensors.Options{})
	env.Step(1)
	return env, m
}

// benchScan measures one scan per op through System.FireNow, reporting scans/s.
func benchScan(b bench.B) {
	env, _ := benchEnv(b)
	b.ReportAllocs()
	ops := 0
	for b.Loop() {
		if err := env.System.FireNow("ego", "lidar"); err != nil {
			b.Fatal(err)
		}
		ops++
	}
	b.ReportMetric(float64(ops)/b.Elapsed().Seconds(), "scans/s")
}

// benchPhysics casts the same 360 rays through cp per op, reporting scans/s.
func benchPhysics(b bench.B) {
	env, m := benchEnv(b)
	ego := env.World.Model("ego")
	mp := sensors.BodyPose(ego).Compose(render.PoseFromPose3(m.Pose))
	hits, ops := 0, 0
	b.ReportAllocs()
	for b.Loop() {
		ops++
		for i := range 360 {
			a := mp.Yaw + float64(i-180)*math.Pi/180
			if _, ok := env.World.Space().RayCast(mp.X, mp.Y, mp.X+12*math.Cos(a), mp.Y+12*math.Sin(a), mp.Z, ego.Body); ok {
				hits++
			}
		}
	}
	if hits == 0 {
		b.Fatal("no ray hit the corridor")
	}
	b.ReportMetric(float64(ops)/b.Elapsed().Seconds(), "scans/s")
}
