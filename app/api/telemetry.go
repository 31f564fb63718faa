package api

import (
	"math"
	"math/rand/v2"

	"simgui/app/world"
	"simgui/physics"
	"simgui/plugins"
)

// Telemetry keys, in the order rusim's KS0223 reports them.
const (
	telLeftPWM   = "drive.left_pwm_norm"
	telRightPWM  = "drive.right_pwm_norm"
	telSpeed     = "sensor.speedometer.mps"
	telSonar     = "sensor.ultrasonic.front.m"
	telVoltage   = "power.battery.voltage_v"
	telCurrent   = "power.battery.current_a"
	telMotorW    = "power.motor.estimated_w"
	lineFalloffM = 0.12 // a line-tracker probe reads 1 − d/0.12 at distance d from a centreline
)

var lineKeys = [...]string{
	"sensor.line_tracker.s1_norm", "sensor.line_tracker.s2_norm", "sensor.line_tracker.s3_norm",
	"sensor.line_tracker.s4_norm", "sensor.line_tracker.s5_norm",
}

// Power estimate constants. rusim's formula is not public; this is a plain two-cell pack
// with internal resistance, feeding motors whose current grows with the commanded load.
const (
	batteryNominalV = 7.4
	batteryInternal = 0.25 // Ω
	idleCurrentA    = 0.12
	stallCurrentA   = 1.6
)

// sensorRig is an agent's scalar sensors as the API reads them: mounts and noise from the
// vehicle descriptor, noise drawn from the agent's own world random stream.
type sensorRig struct {
	sonar      *plugins.SensorMount
	sonarMin   float64
	sonarMax   float64
	sonarNoise float64
	speedNoise float64
	line       *plugins.SensorMount
	lineCount  int
	lineAhead  float64
	lineSpan   float64
	gainL      float64
	gainR      float64
}

func newSensorRig(v *plugins.VehicleDescriptor) sensorRig {
	r := sensorRig{sonarMin: 0.02, sonarMax: 3.5, lineCount: 5, lineAhead: 0.19, lineSpan: 0.08, gainL: 1, gainR: 1}
	noise := func(id string) float64 {
		if v.Contract == nil {
			return 0
		}
		for _, s := range v.Contract.Sensors {
			if s.ID == id && s.Noise != nil {
				return s.Noise.Stddev
			}
		}
		return 0
	}
	for i := range v.Sensors {
		m := &v.Sensors[i]
		switch m.Kind {
		case "ultrasonic":
			if r.sonar == nil {
				r.sonar = m
				r.sonarMin = paramOr(m, "rangeMin", r.sonarMin)
				r.sonarMax = paramOr(m, "rangeMax", r.sonarMax)
				r.sonarNoise = noise(m.ID)
			}
		case "speedometer":
			r.speedNoise = noise(m.ID)
		case "line_tracker":
			if r.line == nil {
				r.line = m
				r.lineCount = int(paramOr(m, "count", 5))
				r.lineAhead = paramOr(m, "ahead", r.lineAhead)
				r.lineSpan = paramOr(m, "span", r.lineSpan)
			}
		}
	}
	// rusim reports the KS0223's telemetry for every ground car: vehicles without a sonar or a
	// line tracker get the KS0223's, placed at the front of their body.
	if r.sonar == nil {
		front := 0.125
		if b := v.Body; b != nil {
			front = max(b.Length/2, b.Radius)
		}
		r.sonar = &plugins.SensorMount{ID: "ultrasonic.front", Kind: "ultrasonic", Pose: plugins.Pose3{X: front, Z: 0.07}}
	}
	if r.line == nil {
		r.line = &plugins.SensorMount{ID: "line_tracker.front", Kind: "line_tracker", Pose: plugins.Pose3{Z: 0.01}}
	}
	if v.Drive != nil {
		if g, ok := v.Drive.Params["motorGainLeft"]; ok {
			r.gainL = g
		}
		if g, ok := v.Drive.Params["motorGainRight"]; ok {
			r.gainR = g
		}
	}
	return r
}

func paramOr(m *plugins.SensorMount, name string, def float64) float64 {
	if x, ok := m.Params[name]; ok {
		return x
	}
	return def
}

// read returns the telemetry of model m (rusim's keys, values with at most three decimals).
// echo is the last motor command in rusim's naming; lines are the track's centrelines.
// Loop goroutine only.
func (r *sensorRig) read(w *world.World, m *world.Model, echo motorEcho, lines [][2][2]float64, rng *rand.Rand) []KV {
	p := m.Body.Pose()
	vx, vy := m.Body.Velocity()
	speed := math.Hypot(vx, vy)
	if r.speedNoise > 0 {
		speed = math.Max(0, speed+rng.NormFloat64()*r.speedNoise)
	}
	kv := make([]KV, 0, 8+len(lineKeys))
	kv = append(kv,
		KV{telLeftPWM, KVValue(fmt3(echo.left))},
		KV{telRightPWM, KVValue(fmt3(echo.right))},
		KV{telSpeed, KVValue(fmt3(speed))},
	)
	kv = append(kv, KV{telSonar, KVValue(fmt3(r.sonarRange(w, m, p, rng)))})
	{
		sin, cos := math.Sincos(p.Yaw)
		n := min(r.lineCount, len(lineKeys))
		for j := range n {
			// s1 is the leftmost probe (Unity −x), s5 the rightmost.
			lat := r.lineSpan
			if n > 1 {
				lat = r.lineSpan * (1 - 2*float64(j)/float64(n-1))
			}
			lx, ly := r.line.Pose.X+r.lineAhead, r.line.Pose.Y+lat
			x, y := p.X+lx*cos-ly*sin, p.Y+lx*sin+ly*cos
			d := distanceToLines(x, y, lines)
			kv = append(kv, KV{lineKeys[j], KVValue(fmt3(clamp(1-d/lineFalloffM, 0, 1)))})
		}
	}
	// Power: the motors draw more the harder they are commanded (after the gains).
	load := (math.Abs(echo.left*r.gainR) + math.Abs(echo.right*r.gainL)) / 2
	current := idleCurrentA + stallCurrentA*clamp(load, 0, 1)
	voltage := batteryNominalV - batteryInternal*current
	kv = append(kv,
		KV{telVoltage, KVValue(fmt3(voltage))},
		KV{telCurrent, KVValue(fmt3(current))},
		KV{telMotorW, KVValue(fmt3(voltage * (current - idleCurrentA)))},
	)
	return kv
}

// sonarRange casts the ultrasonic ray forward from its mount; a miss reads rangeMax (rusim:
// 3.5 = no echo), a hit its distance plus noise, kept inside rangeMin..rangeMax.
func (r *sensorRig) sonarRange(w *world.World, m *world.Model, p physics.Pose, rng *rand.Rand) float64 {
	mp := r.sonar.Pose
	sin, cos := math.Sincos(p.Yaw)
	x0, y0 := p.X+mp.X*cos-mp.Y*sin, p.Y+mp.X*sin+mp.Y*cos
	s, c := math.Sincos(p.Yaw + mp.YawDeg*math.Pi/180)
	hit, ok := w.Space().RayCast(x0, y0, x0+r.sonarMax*c, y0+r.sonarMax*s, m.Body.Base+mp.Z, m.Body)
	if !ok {
		return r.sonarMax
	}
	d := hit.Distance
	if r.sonarNoise > 0 {
		d += rng.NormFloat64() * r.sonarNoise
	}
	return clamp(d, r.sonarMin, r.sonarMax)
}

// distanceToLines is the distance from (x, y) to the nearest segment; +Inf with none.
func distanceToLines(x, y float64, lines [][2][2]float64) float64 {
	best := math.Inf(1)
	for _, s := range lines {
		ax, ay, bx, by := s[0][0], s[0][1], s[1][0], s[1][1]
		dx, dy := bx-ax, by-ay
		t := 0.0
		if l2 := dx*dx + dy*dy; l2 > 0 {
			t = clamp(((x-ax)*dx+(y-ay)*dy)/l2, 0, 1)
		}
		best = math.Min(best, math.Hypot(x-(ax+t*dx), y-(ay+t*dy)))
	}
	return best
}

// centrelines returns the segments line trackers follow: every road's centreline, or the
// route's polyline when the track has no roads (corridors, mazes).
func centrelines(l *plugins.Layout) [][2][2]float64 {
	var out [][2][2]float64
	add := func(pts [][2]float64, loop bool) {
		for i := 1; i < len(pts); i++ {
			out = append(out, [2][2]float64{pts[i-1], pts[i]})
		}
		if loop && len(pts) > 2 {
			out = append(out, [2][2]float64{pts[len(pts)-1], pts[0]})
		}
	}
	for _, e := range l.Elements {
		if e.Kind == plugins.ElementRoad {
			add(e.Points, false)
		}
	}
	if len(out) == 0 && l.Route != nil {
		add(l.Route.Waypoints, l.Route.Loop)
	}
	return out
}
