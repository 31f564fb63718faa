package scalar

import (
	"math"

	"simgui/app/sensors"
)

// UltrasonicRays is how many rays sample an ultrasonic cone wider than 0°.
const UltrasonicRays = 7

func init() {
	register("ultrasonic", "range in m to the nearest echo in a narrow cone, rangeMax when none", newUltrasonic)
}

type ultrasonic struct {
	emitter
	rangeMin, rangeMax float64
	angles             []float64 // ray directions relative to the mount's yaw, radians
}

func newUltrasonic(spec *sensors.Spec) (sensors.Sensor, error) {
	e, err := newEmitter(spec)
	if err != nil {
		return nil, err
	}
	p := spec.Params
	u := &ultrasonic{emitter: e, rangeMin: p.Get("rangeMin"), rangeMax: p.Get("rangeMax")}
	cone := p.Get("coneDeg") * math.Pi / 180
	if cone == 0 {
		u.angles = []float64{0}
	} else {
		for i := range UltrasonicRays {
			u.angles = append(u.angles, -cone/2+cone*float64(i)/(UltrasonicRays-1))
		}
	}
	return u, nil
}

func (u *ultrasonic) Fire(c *sensors.Context) {
	noise := u.spec.Noise.Sample()
	caster, err := c.Rays()
	if err != nil {
		u.spec.Warn(err)
		return
	}
	mp := c.MountPose(u.spec.Mount.Pose)
	best := math.Inf(1)
	for _, a := range u.angles {
		best = min(best, caster.Cast(mp.X, mp.Y, mp.Z, mp.Yaw+a, u.rangeMax, c.Model.ID))
	}
	r := u.rangeMax
	if !math.IsInf(best, 1) {
		r = min(u.rangeMax, max(u.rangeMin, best+noise))
	}
	u.emitRaw(c, r)
}
