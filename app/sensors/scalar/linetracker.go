package scalar

import (
	"math"
	"strconv"

	"simgui/app/sensors"
	"simgui/plugins"
)

// LineFalloff is the distance at which a line-tracker probe stops seeing a centreline: a probe
// reads 1 − d/LineFalloff, clamped to [0, 1] (rusim's arena line tracker).
const LineFalloff = plugins.LineTrackerFalloff

func init() {
	register("line_tracker", "probe values 1 − d/"+strconv.FormatFloat(LineFalloff, 'g', -1, 64)+" in [0, 1], d the distance to the nearest centreline", newLineTracker)
}

type lineTracker struct {
	emitter
	probes [][2]float64 // probe positions in the mount frame (x forward, y left)

	version uint64
	lines   [][4]float64 // centreline segments x0, y0, x1, y1
}

func newLineTracker(spec *sensors.Spec) (sensors.Sensor, error) {
	p := spec.Params
	n := p.Int("count")
	e, err := newEmitter(spec)
	if err != nil {
		return nil, err
	}
	t := &lineTracker{emitter: e}
	ahead, span := p.Get("ahead"), p.Get("span")
	for i := range n {
		y := 0.0
		if n > 1 {
			y = span - 2*span*float64(i)/float64(n-1)
		}
		t.probes = append(t.probes, [2]float64{ahead, y})
	}
	return t, nil
}

// centrelines returns the segments of the route and the roads of a layout.
func centrelines(l *plugins.Layout) [][4]float64 {
	var out [][4]float64
	poly := func(pts [][2]float64, closed bool) {
		for i := 0; i+1 < len(pts); i++ {
			out = append(out, [4]float64{pts[i][0], pts[i][1], pts[i+1][0], pts[i+1][1]})
		}
		if closed && len(pts) > 2 {
			a, b := pts[len(pts)-1], pts[0]
			out = append(out, [4]float64{a[0], a[1], b[0], b[1]})
		}
		if len(pts) == 1 {
			out = append(out, [4]float64{pts[0][0], pts[0][1], pts[0][0], pts[0][1]})
		}
	}
	if r := l.Route; r != nil {
		poly(r.Waypoints, r.Loop)
	}
	for _, e := range l.Elements {
		if e.Kind == plugins.ElementRoad {
			poly(e.Points, false)
		}
	}
	return out
}

// segmentDistance is the distance from (px, py) to the segment s.
func segmentDistance(px, py float64, s [4]float64) float64 {
	dx, dy := s[2]-s[0], s[3]-s[1]
	t := 0.0
	if l2 := dx*dx + dy*dy; l2 > 0 {
		t = max(0, min(1, ((px-s[0])*dx+(py-s[1])*dy)/l2))
	}
	return math.Hypot(px-s[0]-t*dx, py-s[1]-t*dy)
}

func (t *lineTracker) Fire(c *sensors.Context) {
	if t.lines == nil || t.version != c.World.LayoutVersion() {
		t.version, t.lines = c.World.LayoutVersion(), centrelines(c.World.Layout())
	}
	mp := c.MountPose(t.spec.Mount.Pose)
	sn, cs := math.Sincos(mp.Yaw)
	vals := make([]float64, len(t.probes))
	for i, p := range t.probes {
		x, y := mp.X+p[0]*cs-p[1]*sn, mp.Y+p[0]*sn+p[1]*cs
		d := math.Inf(1)
		for _, s := range t.lines {
			d = min(d, segmentDistance(x, y, s))
		}
		vals[i] = 1 - d/LineFalloff
	}
	for i := range vals {
		vals[i] = max(0, min(1, t.spec.Noise.Add(max(0, min(1, vals[i])))))
	}
	t.emitRaw(c, vals...)
}
