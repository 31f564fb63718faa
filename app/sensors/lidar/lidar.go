package lidar

import (
	"fmt"
	"math"

	"simgui/app/sensors"
	"simgui/app/sensors/raycast"
	"simgui/app/transport/msgs"
)

func init() {
	sensors.Register(sensors.Kind{
		Name: "lidar", Topic: sensors.TopicScan, New: New,
		Doc: "2D laser scan: ranges in metres counter-clockwise from angleMin, +Inf beyond rangeMax",
	})
}

// Lidar is one mounted 2D lidar.
type Lidar struct {
	spec                     *sensors.Spec
	samples                  int
	angleMin, angleMax, step float64 // radians
	rangeMin, rangeMax       float64
	fan                      *raycast.Fan
	hits                     []float64
}

// New builds a lidar from its spec.
func New(spec *sensors.Spec) (sensors.Sensor, error) {
	p := spec.Params
	l := &Lidar{
		spec: spec, samples: p.Int("samples"),
		angleMin: p.Get("angleMinDeg") * math.Pi / 180, angleMax: p.Get("angleMaxDeg") * math.Pi / 180,
		rangeMin: p.Get("rangeMin"), rangeMax: p.Get("rangeMax"),
	}
	if l.angleMax < l.angleMin {
		return nil, fmt.Errorf("angleMaxDeg %g is below angleMinDeg %g", p.Get("angleMaxDeg"), p.Get("angleMinDeg"))
	}
	if !(l.rangeMin < l.rangeMax) {
		return nil, fmt.Errorf("rangeMin %g m must be below rangeMax %g m", l.rangeMin, l.rangeMax)
	}
	if err := sensors.CheckShape(spec.Contract, l.samples); err != nil {
		return nil, err
	}
	if l.samples > 1 {
		l.step = (l.angleMax - l.angleMin) / float64(l.samples-1)
	}
	l.fan, l.hits = raycast.NewFan(l.angleMin, l.step, l.samples), make([]float64, l.samples)
	return l, nil
}

// Fire scans and emits the ranges.
func (l *Lidar) Fire(c *sensors.Context) {
	caster, err := c.Rays()
	if err != nil {
		l.spec.Warn(err)
		return
	}
	mp := c.MountPose(l.spec.Mount.Pose)
	if c.MountBlocked(caster, mp) {
		clear(l.hits) // pushed past a wall: every ray meets it at once (too close, −Inf)
	} else {
		caster.ScanFan(mp.X, mp.Y, mp.Z, mp.Yaw, l.fan, l.rangeMax, c.Model.ID, l.hits)
	}
	ranges := make([]float64, l.samples) // the message keeps it
	noise := &l.spec.Noise
	for i, d := range l.hits {
		n := noise.Sample()
		switch {
		case math.IsInf(d, 1):
			ranges[i] = math.Inf(1)
		case d < l.rangeMin:
			ranges[i] = math.Inf(-1)
		default:
			ranges[i] = min(l.rangeMax, max(l.rangeMin, d+n))
		}
	}
	qz, qw := math.Sincos(mp.Yaw / 2)
	l.spec.Out.Emit(sensors.Reading{Step: c.Step, Stamp: c.Stamp, Msg: &msgs.LaserScan{
		Header: sensors.Header(c.Stamp), Frame: l.spec.Name(),
		WorldPose: &msgs.Pose{Position: &msgs.Vector3D{X: mp.X, Y: mp.Y, Z: mp.Z},
			Orientation: &msgs.Quaternion{Z: qz, W: qw}},
		AngleMin: l.angleMin, AngleMax: l.angleMax, AngleStep: l.step,
		RangeMin: l.rangeMin, RangeMax: l.rangeMax, Count: uint32(l.samples), VerticalCount: 1,
		Ranges: ranges,
	}})
}
