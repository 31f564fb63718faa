package scalar

import (
	"math"

	"simgui/app/sensors"
	"simgui/app/sensors/raycast"
)

// UltrasonicRays is how many rays sample an ultrasonic cone wider than 0°.
const UltrasonicRays = 7

func init() {
	register("ultrasonic", "range in m to the nearest echo in a narrow cone, rangeMax when none", newUltrasonic)
}

type ultrasonic struct {
	emitter
	rangeMin, rangeMax float64
	// fan is the cone's rays, relative to the mount's yaw, scanned at once (the shapes near
	// the cone found once, not per ray); hits their distances.
	fan  *raycast.Fan
	hits []float64
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
		u.fan = raycast.NewFan(0, 0, 1)
	} else {
		u.fan = raycast.NewFan(-cone/2, cone/(UltrasonicRays-1), UltrasonicRays)
	}
	u.hits = make([]float64, u.fan.N)
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
	if c.MountBlocked(caster, mp) {
		best = 0 // pressed against what the body touches: the nearest echo there is
	} else {
		caster.ScanFan(mp.X, mp.Y, mp.Z, mp.Yaw, u.fan, u.rangeMax, c.Model.ID, u.hits)
		for _, h := range u.hits {
			best = min(best, h)
		}
	}
	r := u.rangeMax
	if !math.IsInf(best, 1) {
		r = min(u.rangeMax, max(u.rangeMin, best+noise))
	}
	u.emitRaw(c, r)
}
