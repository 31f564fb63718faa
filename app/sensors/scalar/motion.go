package scalar

import (
	"math"

	"simgui/app/sensors"
)

func init() {
	register("speedometer", "forward speed in m/s, signed", func(spec *sensors.Spec) (sensors.Sensor, error) {
		e, err := newEmitter(spec)
		return &speedometer{e}, err
	})
	register("altimeter", "altitude of the mount in m", func(spec *sensors.Spec) (sensors.Sensor, error) {
		e, err := newEmitter(spec)
		return &altimeter{e}, err
	})
	register("odometry", "left and right wheel distance in m since the model appeared", func(spec *sensors.Spec) (sensors.Sensor, error) {
		e, err := newEmitter(spec)
		return &odometry{emitter: e, track: trackWidth(spec.Vehicle)}, err
	})
}

type speedometer struct{ emitter }

func (s *speedometer) Fire(c *sensors.Context) {
	fwd, _ := c.Model.Body.LocalVelocity()
	s.emit(c, fwd)
}

type altimeter struct{ emitter }

func (a *altimeter) Fire(c *sensors.Context) {
	a.emit(c, c.Model.Body.Base+a.spec.Mount.Pose.Z)
}

// TeleportDistance is the largest distance a body may move in one step for odometry to count
// it; a larger jump is a pose being set, not wheels turning.
const TeleportDistance = 1.0

type odometry struct {
	emitter
	track       float64
	started     bool
	x, y, yaw   float64
	left, right float64
}

// Track integrates the wheels' travel over the last step.
func (o *odometry) Track(c *sensors.Context) {
	p := c.Model.Body.Pose()
	if !o.started {
		o.started, o.x, o.y, o.yaw = true, p.X, p.Y, p.Yaw
		return
	}
	dx, dy, dth := p.X-o.x, p.Y-o.y, p.Yaw-o.yaw // cp's angle is continuous: no wrap
	o.x, o.y, o.yaw = p.X, p.Y, p.Yaw
	if math.Hypot(dx, dy) > TeleportDistance {
		return
	}
	sn, cs := math.Sincos(p.Yaw - dth/2)
	s := dx*cs + dy*sn
	o.left += s - dth*o.track/2
	o.right += s + dth*o.track/2
}

func (o *odometry) Fire(c *sensors.Context) { o.emit(c, o.left, o.right) }
