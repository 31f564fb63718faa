package window

import (
	"fmt"
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"

	"simgui/app/markers"
	"simgui/app/sensors/raycast"
	"simgui/app/world"
	"simgui/plugins"
)

// Robot colours when a descriptor has no visual.
var (
	colorRobot     = rgb8(80, 150, 230)
	colorAccent    = rgb8(250, 210, 70)
	colorSelected  = rgba{1, 1, 1, 0.9}
	colorFrustum   = rgba{1, 0.85, 0.3, 0.16}
	colorFrustumLn = rgba{1, 0.85, 0.3, 0.55}
	colorDepthFr   = rgba{0.4, 0.9, 1, 0.14}
	colorRangeFr   = rgba{0.6, 1, 0.6, 0.14}
	colorRay       = rgba{1, 0.3, 0.3, 0.22}
	colorHit       = rgba{1, 0.35, 0.3, 0.95}
	colorSonar     = rgba{0.55, 1, 0.55, 0.28}
	sonarText      = color.NRGBA{170, 255, 170, 255}
	colorBoxDyn    = rgb8(166, 124, 82)
)

// footprint returns a vehicle's half length and half width in metres (a circle body is as
// long as wide).
func footprint(v *plugins.VehicleDescriptor) (hl, hw float64, round bool) {
	hl, hw = 0.15, 0.1
	if v == nil || v.Body == nil {
		return hl, hw, false
	}
	if v.Body.Shape == "circle" {
		return v.Body.Radius, v.Body.Radius, true
	}
	if v.Body.Length > 0 && v.Body.Width > 0 {
		hl, hw = v.Body.Length/2, v.Body.Width/2
	}
	return hl, hw, false
}

// flies reports whether a vehicle flies (its drive model's declaration), so that the window
// shows its altitude.
func flies(v *plugins.VehicleDescriptor) bool {
	return v != nil && v.Drive != nil && plugins.DriveFlies(v.Drive.Model)
}

// robotColors returns a vehicle's main and accent colours.
func robotColors(v *plugins.VehicleDescriptor) (rgba, rgba) {
	if v == nil || v.Visual == nil {
		return colorRobot, colorAccent
	}
	return parseColor(v.Visual.Color, colorRobot), parseColor(v.Visual.Accent, colorAccent)
}

// drawBoxes draws the movable boxes at their poses, in their elements' colours.
func drawBoxes(v *view, b *batch, boxes []world.BoxState) {
	for _, bx := range boxes {
		e := plugins.Element{X: bx.Pose.X, Y: bx.Pose.Y, Length: bx.Length, Width: bx.Width, YawDeg: bx.Pose.Yaw * 180 / math.Pi}
		quadOf(v, b, &e, parseColor(bx.Color, colorBoxDyn))
	}
}

// quadOf adds the rectangle of an element-like box.
func quadOf(v *view, b *batch, e *plugins.Element, c rgba) {
	s, co := math.Sincos(e.YawDeg * math.Pi / 180)
	hl, hw := e.Length/2, e.Width/2
	pt := func(a, d float64) (float32, float32) { return v.toScreen(e.X+a*co-d*s, e.Y+a*s+d*co) }
	x0, y0 := pt(-hl, -hw)
	x1, y1 := pt(hl, -hw)
	x2, y2 := pt(hl, hw)
	x3, y3 := pt(-hl, hw)
	b.quad(x0, y0, x1, y1, x2, y2, x3, y3, c)
}

// drawRobot adds one robot: its footprint in its colour, a wedge at the front in its accent
// colour (so the heading shows at any zoom), and a ring when it is selected. Robots smaller
// than a few pixels are drawn at a minimum size.
func drawRobot(v *view, b *batch, m *world.ModelState, selected bool) {
	hl, hw, round := footprint(m.Vehicle)
	main, accent := robotColors(m.Vehicle)
	const minPx = 5.0
	if k := minPx / (math.Max(hl, hw) * v.Scale); k > 1 {
		hl, hw = hl*k, hw*k
	}
	s, c := math.Sincos(m.Pose.Yaw)
	pt := func(a, d float64) (float32, float32) {
		return v.toScreen(m.Pose.X+a*c-d*s, m.Pose.Y+a*s+d*c)
	}
	cx, cy := v.toScreen(m.Pose.X, m.Pose.Y)
	r := float32(math.Max(hl, hw) * v.Scale)
	if selected {
		b.ring(cx, cy, r*1.45+3, 2, colorSelected)
	}
	if round {
		b.circle(cx, cy, float32(hl*v.Scale), main)
	} else {
		x0, y0 := pt(-hl, -hw)
		x1, y1 := pt(hl, -hw)
		x2, y2 := pt(hl, hw)
		x3, y3 := pt(-hl, hw)
		b.quad(x0, y0, x1, y1, x2, y2, x3, y3, main)
	}
	// Heading wedge: from a third of the length to the nose, half the body's width at its
	// base, so that its tip is plainly the sharp corner (a wedge about as wide as long read as
	// pointing sideways at diagonal headings).
	tip, back, half := hl, -0.35*hl, 0.5*hw
	if round {
		// A round body has no nose and is as wide as long, so that wedge was nearly as wide as
		// long too (a drone at 151.5° was read as heading south-east): a needle four times as
		// long as wide, its tip out past the rim, points one way only.
		tip, back, half = 1.4*hl, -0.3*hl, 0.21*hw
	}
	ax, ay := pt(tip, 0)
	bx, by := pt(back, half)
	dx, dy := pt(back, -half)
	b.tri(ax, ay, bx, by, dx, dy, accent)
}

// sensorFans adds every camera, depth, ultrasonic and lidar mount of m as a translucent wedge
// seen from above, as far as the sensor sees: its range (at most maxRange metres), cut short
// where a ray of the wedge, cast at the mount's altitude, first meets a wall, a box or another
// robot. A range sensor whose reading is in readings ends at its echo instead and is labelled
// with the distance (added to labels).
func sensorFans(v *view, b *batch, m *world.ModelState, rc *raycast.Caster, readings map[string]float64, labels []label) []label {
	d := m.Vehicle
	if d == nil {
		return labels
	}
	const maxRange = 1.5
	for i := range d.Sensors {
		s := &d.Sensors[i]
		var a0, a1, rng float64
		col := colorFrustum
		edges := true
		x, y, yaw := mountPose(m, s)
		switch s.Kind {
		case plugins.SensorCamera, plugins.SensorDepth:
			w, h := sensorSize(d, s.ID)
			left, right := cameraView(s, w, h)
			a0, a1, rng = yaw-right, yaw+left, math.Min(s.Param("far"), maxRange)
			if s.Kind == plugins.SensorDepth {
				col = colorDepthFr
			}
		case sensorUltrasonic:
			half := s.Param("coneDeg") * math.Pi / 360
			a0, a1, rng = yaw-half, yaw+half, math.Min(s.Param("rangeMax"), maxRange)
			col = colorRangeFr
			if r, ok := readings[s.ID]; ok && !math.IsNaN(r) {
				// The echo, not the geometry, says how far it sees.
				sx, sy := v.toScreen(x, y)
				reach := math.Min(r, s.Param("rangeMax"))
				b.fan(sx, sy, float32(reach*v.Scale), a0, a1, 12, colorSonar)
				ex, ey := v.toScreen(x+reach*math.Cos(yaw), y+reach*math.Sin(yaw))
				text := fmt.Sprintf("%.2f m", r)
				if r >= s.Param("rangeMax") {
					text = fmt.Sprintf("no echo (%.1f m)", r)
				}
				l := label{text: text, x: ex + 6, y: ey - lineHeight/2, c: sonarText}
				b.rect(l.x-3, l.y+1, textWidth(text)+6, lineHeight, rgba{0, 0, 0, 0.55})
				labels = append(labels, l)
				continue
			}
		case plugins.SensorLidar:
			a0, a1 = yaw+s.Param("angleMinDeg")*math.Pi/180, yaw+s.Param("angleMaxDeg")*math.Pi/180
			rng = math.Min(s.Param("rangeMax"), maxRange)
			col, edges = colorRangeFr, false
		default:
			continue
		}
		clippedFan(v, b, m, rc, x, y, m.Pose.Z+s.Pose.Z, a0, a1, rng, col, edges)
	}
	return labels
}

// clippedFan adds a wedge from (x, y) between angles a0 and a1, each of its rays rng metres
// long or ending where it meets something (cast at altitude z, ignoring m itself), with its
// two straight edges outlined when edges is set.
func clippedFan(v *view, b *batch, m *world.ModelState, rc *raycast.Caster, x, y, z, a0, a1, rng float64, c rgba, edges bool) {
	// A ray every 6 pixels of arc, 3 to 48.
	n := int(min(48, max(3, rng*v.Scale*(a1-a0)/6)))
	sx, sy := v.toScreen(x, y)
	centre := b.vertex(sx, sy, c)
	var first, last [2]float32
	for k := 0; k <= n; k++ {
		a := a0 + (a1-a0)*float64(k)/float64(n)
		r := rng
		if rc != nil {
			r = math.Min(r, rc.Cast(x, y, z, a, rng, m.ID))
		}
		ex, ey := v.toScreen(x+r*math.Cos(a), y+r*math.Sin(a))
		b.vertex(ex, ey, c)
		if k > 0 {
			i := centre + uint32(k)
			b.is = append(b.is, centre, i, i+1)
		}
		if k == 0 {
			first = [2]float32{ex, ey}
		}
		last = [2]float32{ex, ey}
	}
	if edges {
		b.line(sx, sy, first[0], first[1], 1, colorFrustumLn)
		b.line(sx, sy, last[0], last[1], 1, colorFrustumLn)
	}
}

// mountPose is a sensor's position and heading in the world frame.
func mountPose(m *world.ModelState, s *plugins.SensorMount) (x, y, yaw float64) {
	sn, cs := math.Sincos(m.Pose.Yaw)
	x = m.Pose.X + s.Pose.X*cs - s.Pose.Y*sn
	y = m.Pose.Y + s.Pose.X*sn + s.Pose.Y*cs
	return x, y, m.Pose.Yaw + s.Pose.YawDeg*math.Pi/180
}

// sensorSize is a camera's frame size from the device contract (shape [h, w, c]); the default
// when the contract does not say.
func sensorSize(d *plugins.VehicleDescriptor, id string) (w, h int) {
	if d.Contract != nil {
		for _, c := range d.Contract.Sensors {
			if w, h, ok := c.FrameSize(); c.ID == id && ok {
				return w, h
			}
		}
	}
	return plugins.DefaultFrameWidth, plugins.DefaultFrameHeight
}

// drawScan adds the rays of a lidar scan that hit something, each ending in a dot at the hit,
// taken at the sensor pose (x, y, yaw). Rays that hit nothing are left out: hundreds of them
// reaching range_max would cover the view. More than 720 rays are thinned evenly.
func drawScan(v *view, b *batch, sc *scan) {
	sx, sy := v.toScreen(sc.x, sc.y)
	stride := max(1, len(sc.ranges)/720)
	for i := 0; i < len(sc.ranges); i += stride {
		r := sc.ranges[i]
		if !(r < sc.rangeMax) || math.IsInf(r, 0) || math.IsNaN(r) {
			continue
		}
		a := sc.yaw + sc.angleMin + float64(i)*sc.step
		ex, ey := v.toScreen(sc.x+r*math.Cos(a), sc.y+r*math.Sin(a))
		b.line(sx, sy, ex, ey, 1, colorRay)
		b.rect(ex-1.5, ey-1.5, 3, 3, colorHit)
	}
}

// drawMarkers adds the /markers overlay: lines, boxes and spheres (text is drawn by
// markerTexts). Sizes are metres; lines are at least one pixel wide.
func drawMarkers(v *view, b *batch, set *markers.Set) {
	for m := range set.All() {
		c := fromNRGBA(m.RGBA.NRGBA())
		x, y := v.toScreen(m.Point.X, m.Point.Y)
		size := float32(m.Size * v.Scale)
		switch m.Kind {
		case "Line":
			ex, ey := v.toScreen(m.End.X, m.End.Y)
			b.line(x, y, ex, ey, max(size, 1), c)
		case "Box":
			size = max(size, 2)
			b.rect(x-size/2, y-size/2, size, size, c)
		case "Sphere":
			b.circle(x, y, max(size/2, 1.5), c)
		}
	}
}

// markerTexts draws the text markers, following their model (found by models) when they
// name one.
func markerTexts(dst *ebiten.Image, v *view, set *markers.Set, models *modelFinder) {
	for m := range set.All() {
		if m.Kind != "Text" || m.Text == "" {
			continue
		}
		px, py := textAnchor(&m, models)
		x, y := v.toScreen(px, py)
		w := textWidth(m.Text)
		switch m.Align {
		case markers.AlignCenter:
			x -= w / 2
		case markers.AlignRight:
			x -= w
		}
		drawText(dst, m.Text, x, y-lineHeight/2, m.RGBA.NRGBA())
	}
}

// textAnchor is where text marker m stands in the world: its point, from the model it
// follows when there is one.
func textAnchor(m *markers.Marker, models *modelFinder) (x, y float64) {
	x, y = m.Point.X, m.Point.Y
	if m.Following != "" {
		if st, ok := models.find(m.Following); ok {
			x, y = st.Pose.X+x, st.Pose.Y+y
		}
	}
	return x, y
}
