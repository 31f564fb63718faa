package lidar_test

import (
	"math"
	"testing"

	"simgui/app/sensors"
	"simgui/app/sensors/sensortest"
	_ "simgui/app/sensors/standard"
	"simgui/app/transport/msgs"
	"simgui/app/world"
	"simgui/plugins"
)

// room is a closed room whose inner faces are x = ±2 and y = ±1.5, walls 0.25 m high, with a
// low kerb (0.05 m, below the lidar) across it.
func room() *plugins.Layout {
	wall := func(x, y, l, w float64) plugins.Element {
		return plugins.Element{Kind: plugins.ElementWall, X: x, Y: y, Length: l, Width: w, Height: 0.25}
	}
	return &plugins.Layout{Elements: []plugins.Element{
		wall(2.05, 0, 0.1, 3.2), wall(-2.05, 0, 0.1, 3.2), wall(0, 1.55, 4.2, 0.1), wall(0, -1.55, 4.2, 0.1),
		{Kind: plugins.ElementWall, X: 1, Y: 0, Length: 0.05, Width: 3, Height: 0.05},
	}}
}

// roomRange is the distance from (x, y) along angle a to the room's walls.
func roomRange(x, y, a float64) float64 {
	s, c := math.Sincos(a)
	t := math.Inf(1)
	if c > 0 {
		t = min(t, (2-x)/c)
	} else if c < 0 {
		t = min(t, (-2-x)/c)
	}
	if s > 0 {
		t = min(t, (1.5-y)/s)
	} else if s < 0 {
		t = min(t, (-1.5-y)/s)
	}
	return t
}

func mountLidar(rangeMax, stddev float64) sensortest.Sensor {
	s := sensortest.Sensor{
		Mount: plugins.SensorMount{ID: "lidar", Kind: "lidar", Pose: plugins.Pose3{X: 0.05, Z: 0.1, YawDeg: 10},
			Params: map[string]float64{"samples": 360, "angleMinDeg": -180, "angleMaxDeg": 179, "rangeMin": 0.1, "rangeMax": rangeMax}},
		Contract: plugins.SensorDescriptor{ID: "lidar", SensorType: "lidar", Format: "float32", Unit: "m", Shape: []int{360}, RateHz: 10},
	}
	if stddev > 0 {
		s.Contract.Noise = &plugins.Noise{Stddev: stddev}
	}
	return s
}

func scan(t *testing.T, s sensortest.Sensor, pose world.Pose, extra ...world.AgentSpec) *msgs.LaserScan {
	t.Helper()
	agents := append([]world.AgentSpec{{Name: "ego", Vehicle: sensortest.KS0223(t, s), Spawn: &pose}}, extra...)
	env := sensortest.New(t, room(), agents, sensors.Options{})
	sub := env.Subscribe("ego", "lidar", sensors.TopicScan)
	env.Step(1)
	ls := env.Last(sub).Msg.(*msgs.LaserScan)
	if ls.GetCount() != 360 || len(ls.GetRanges()) != 360 || ls.GetRangeMax() != s.Mount.Params["rangeMax"] ||
		math.Abs(ls.GetAngleMin()+math.Pi) > 1e-12 || math.Abs(ls.GetAngleStep()-math.Pi/180) > 1e-12 {
		t.Fatalf("scan header: count %d, %d ranges, angles %g + k·%g, max %g", ls.GetCount(), len(ls.GetRanges()),
			ls.GetAngleMin(), ls.GetAngleStep(), ls.GetRangeMax())
	}
	return ls
}

// Ranges to the walls match the geometry within the configured noise (stddev 1 cm): every
// error within 5σ, their spread about σ; the low kerb and the lidar's own car are not seen.
func TestRangesToWalls(t *testing.T) {
	const sigma = 0.01
	pose := world.Pose{X: 0.3, Y: 0.2, Yaw: 0.5}
	ls := scan(t, mountLidar(12, sigma), pose)
	yaw := pose.Yaw + 10*math.Pi/180
	mx, my := pose.X+0.05*math.Cos(pose.Yaw), pose.Y+0.05*math.Sin(pose.Yaw)
	var sum, sum2 float64
	for i, r := range ls.GetRanges() {
		want := roomRange(mx, my, yaw+ls.GetAngleMin()+float64(i)*ls.GetAngleStep())
		e := r - want
		if math.Abs(e) > 5*sigma {
			t.Fatalf("ray %d: %.4f m, want %.4f ± %.2f", i, r, want, 5*sigma)
		}
		sum += e
		sum2 += e * e
	}
	mean, sd := sum/360, math.Sqrt(sum2/360-(sum/360)*(sum/360))
	if math.Abs(mean) > 0.003 || sd < 0.7*sigma || sd > 1.3*sigma {
		t.Fatalf("errors: mean %.4f m, spread %.4f m; want about 0 and %.2f", mean, sd, sigma)
	}
}

// Beyond rangeMax a ray reads +Inf; nearer than rangeMin (a car parked 2 cm to the right of the
// lidar's car, 9.5 cm from the lidar), −Inf.
func TestOutOfRange(t *testing.T) {
	pose := world.Pose{X: 1.6, Y: 0} // 0.35 m from the east wall at the mount, 1.5 m from the others
	ls := scan(t, mountLidar(1.0, 0), pose, world.AgentSpec{Name: "close", Vehicle: sensortest.KS0223(t), Spawn: &world.Pose{X: 1.6, Y: -0.17}})
	yaw := 10 * math.Pi / 180
	inf, finite, neg := 0, 0, 0
	for i, r := range ls.GetRanges() {
		a := yaw + ls.GetAngleMin() + float64(i)*ls.GetAngleStep()
		want := roomRange(1.65, 0, a)
		switch {
		case math.IsInf(r, -1):
			neg++
		case want > 1.0 && !math.IsInf(r, 1):
			// Only the other car, 2 cm to the right, may be hit where the walls are out of range.
			if r > 0.3 {
				t.Fatalf("ray %d at %.2f rad: %.3f m where the wall is %.3f m away (beyond range)", i, a, r, want)
			}
		case math.IsInf(r, 1):
			inf++
			if want <= 1.0 {
				t.Fatalf("ray %d: +Inf, the wall is %.3f m away", i, want)
			}
		default:
			finite++
		}
	}
	if inf < 100 || finite < 100 || neg == 0 {
		t.Fatalf("%d +Inf, %d finite returns", inf, finite)
	}
	t.Logf("%d +Inf, %d finite, %d −Inf (the other car nearer than rangeMin)", inf, finite, neg)
}

// A lidar sees other vehicles at its height: a car parked across the beam shortens the ranges
// that cross it.
func TestSeesOtherVehicles(t *testing.T) {
	pose := world.Pose{X: -1, Y: 0}
	ls := scan(t, mountLidar(12, 0), pose, world.AgentSpec{Name: "other", Vehicle: sensortest.KS0223(t), Spawn: &world.Pose{X: 0, Y: 0}})
	// Ray at −10° from the mount's yaw looks along +x: the other car's rear face is at x = −0.125.
	i := int(math.Round((0 - 10*math.Pi/180 - ls.GetAngleMin()) / ls.GetAngleStep()))
	if r, want := ls.GetRanges()[i], -0.125-(-0.95); math.Abs(r-want) > 1e-9 {
		t.Fatalf("ray %d along +x: %.6f m, want the other car at %.6f m", i, r, want)
	}
}

// A lidar mounted past the bumper and pushed through a wall reports every ray too close
// (−Inf), not the room behind the wall.
func TestMountPastAWall(t *testing.T) {
	s := mountLidar(3, 0)
	s.Mount.Pose = plugins.Pose3{X: 0.25, Z: 0.1}
	// The east wall is x = 2..2.1: the car's centre 0.1 m before it, the mount 0.05 m past it.
	ls := scan(t, s, world.Pose{X: 1.9})
	for i, r := range ls.GetRanges() {
		if !math.IsInf(r, -1) {
			t.Fatalf("ray %d: %g m, want −Inf (the mount is in the wall)", i, r)
		}
	}
	// Clear of the wall, it reads the room.
	ls = scan(t, s, world.Pose{X: 1.5})
	if r := ls.GetRanges()[180]; math.Abs(r-0.25) > 1e-6 {
		t.Errorf("forward ray clear of the wall: %g m, want 0.25", r)
	}
}
