package editor

import (
	"image"
	"image/color"
	"math"
	"unicode/utf8"

	"github.com/ebitengine/debugui"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"simgui/plugins"
	"simgui/render"
)

// Colours of the top-down views.
var (
	topBackground = color.NRGBA{36, 39, 44, 255}
	gridColor     = color.NRGBA{58, 62, 70, 255}
	labelColor    = color.NRGBA{225, 228, 232, 255}
	sensorColor   = color.NRGBA{255, 214, 64, 255}
	fovColor      = color.NRGBA{255, 214, 64, 60}
	spawnColor    = color.NRGBA{255, 170, 40, 255}
	routeColor    = color.NRGBA{80, 200, 240, 255}
	labelShade    = color.NRGBA{20, 22, 26, 150}
	// markerFaceColor is the tick out of an upright marker's face.
	markerFaceColor = color.NRGBA{255, 80, 200, 255}
)

// topView maps a plane onto an image: a point (u, v) in metres goes to pixel
// (ox + u·s, oy − v·s).
type topView struct {
	dst    *ebiten.Image
	ox, oy float64
	s      float64
	// fitS is the scale that shows the whole track (drawTrackTop), 0 when not known.
	fitS float64
	// labels are the rectangles of the labels drawn so far, so that the next one can move
	// clear of them.
	labels *[]image.Rectangle
}

func (t topView) at(u, v float64) (float32, float32) {
	return float32(t.ox + u*t.s), float32(t.oy - v*t.s)
}

// metres is at's inverse: the point (u, v) drawn at pixel (x, y).
func (t topView) metres(x, y float64) (float64, float64) {
	return (x - t.ox) / t.s, (t.oy - y) / t.s
}

// fit makes a view showing [u0,u1] × [v0,v1] centred in dst with a margin.
func fit(dst *ebiten.Image, u0, v0, u1, v1 float64) topView {
	b := dst.Bounds()
	w, h := float64(b.Dx()), float64(b.Dy())
	du, dv := math.Max(u1-u0, 1e-3), math.Max(v1-v0, 1e-3)
	s := math.Min((w-24)/du, (h-24)/dv)
	return topView{dst: dst, s: s, ox: w/2 - (u0+u1)/2*s, oy: h/2 + (v0+v1)/2*s, labels: &[]image.Rectangle{}}
}

func (t topView) grid(step float64, u0, v0, u1, v1 float64) {
	for u := math.Floor(u0/step) * step; u <= u1; u += step {
		x0, y0 := t.at(u, v0)
		x1, y1 := t.at(u, v1)
		vector.StrokeLine(t.dst, x0, y0, x1, y1, 1, gridColor, false)
	}
	for v := math.Floor(v0/step) * step; v <= v1; v += step {
		x0, y0 := t.at(u0, v)
		x1, y1 := t.at(u1, v)
		vector.StrokeLine(t.dst, x0, y0, x1, y1, 1, gridColor, false)
	}
}

// poly fills (and optionally outlines) a polygon given in metres.
func (t topView) poly(pts [][2]float64, fill color.Color, outline color.Color) {
	if len(pts) < 3 {
		return
	}
	var p vector.Path
	for i, q := range pts {
		x, y := t.at(q[0], q[1])
		if i == 0 {
			p.MoveTo(x, y)
		} else {
			p.LineTo(x, y)
		}
	}
	p.Close()
	op := &vector.DrawPathOptions{AntiAlias: true}
	op.ColorScale.ScaleWithColor(fill)
	vector.FillPath(t.dst, &p, nil, op)
	if outline != nil {
		sop := &vector.DrawPathOptions{AntiAlias: true}
		sop.ColorScale.ScaleWithColor(outline)
		vector.StrokePath(t.dst, &p, &vector.StrokeOptions{Width: 1}, sop)
	}
}

// rect returns the corners of a length × width rectangle centred at (cu, cv), its length
// along angle a (radians from the u axis).
func rect(cu, cv, length, width, a float64) [][2]float64 {
	c, s := math.Cos(a), math.Sin(a)
	hl, hw := length/2, width/2
	var out [][2]float64
	for _, k := range [][2]float64{{hl, hw}, {-hl, hw}, {-hl, -hw}, {hl, -hw}} {
		out = append(out, [2]float64{cu + k[0]*c - k[1]*s, cv + k[0]*s + k[1]*c})
	}
	return out
}

// fan is a circular sector at (u, v) of radius r between angles a0 and a1 (radians).
func fan(u, v, r, a0, a1 float64) [][2]float64 {
	pts := [][2]float64{{u, v}}
	n := max(2, int((a1-a0)/0.1))
	for i := 0; i <= n; i++ {
		a := a0 + (a1-a0)*float64(i)/float64(n)
		pts = append(pts, [2]float64{u + r*math.Cos(a), v + r*math.Sin(a)})
	}
	return pts
}

// label draws s at (x, y), moved down until it overlaps no label drawn before; one that would
// then leave the view's bottom edge (a line near the bottom, under a spawn point's name) moves
// up above them instead, where it is read whole.
func (t topView) label(s string, x, y float32, c color.Color) {
	const lh = 14
	at := image.Rect(int(x), int(y), int(x)+7*len(s), int(y)+lh)
	r := t.clearOfLabels(at, 1)
	if r.Max.Y > t.dst.Bounds().Dy() {
		if up := t.clearOfLabels(at, -1); up.Min.Y >= 0 {
			r = up
		}
	}
	*t.labels = append(*t.labels, r)
	x, y = float32(r.Min.X), float32(r.Min.Y)
	// A shade under the text, so that it reads over the floor and the walls it may cover.
	w := float32(charWidth * utf8.RuneCountInString(s))
	vector.FillRect(t.dst, x-2, y, w+4, lh, labelShade, false)
	op := &text.DrawOptions{}
	op.GeoM.Translate(float64(x), float64(y))
	op.ColorScale.ScaleWithColor(c)
	debugui.DrawText(t.dst, s, op)
}

// clearOfLabels moves r down (dir 1) or up (dir -1) until it overlaps no label drawn before.
func (t topView) clearOfLabels(r image.Rectangle, dir int) image.Rectangle {
	for moved := true; moved; {
		moved = false
		for _, o := range *t.labels {
			if o.Overlaps(r) {
				if dir > 0 {
					r = r.Add(image.Pt(0, o.Max.Y-r.Min.Y+1))
				} else {
					r = r.Add(image.Pt(0, o.Min.Y-r.Max.Y-1))
				}
				moved = true
			}
		}
	}
	return r
}

// drawVehicleTop draws a vehicle from above in its own frame: x forward is up the image, y
// left is left, with its body, front, sensor mounts and their fields of view.
func drawVehicleTop(dst *ebiten.Image, v *plugins.VehicleDescriptor) {
	dst.Fill(topBackground)
	if v == nil {
		return
	}
	length, _ := bodySize(v)
	width := length * 0.7
	if b := v.Body; b != nil && b.Shape == "box" && b.Width > 0 {
		width = min(b.Width, 20)
	}
	reach := 0.9 * length
	for _, m := range v.Sensors {
		reach = max(reach, math.Abs(m.Pose.X)+0.6*length, math.Abs(m.Pose.Y)+0.6*length)
	}
	reach = min(reach, 20)
	// The image's u axis is the vehicle's -y (right), v its x (forward).
	t := fit(dst, -reach, -reach*0.6, reach, reach)
	step := 0.1
	for step*t.s < 12 {
		step *= 5
	}
	t.grid(step, -reach, -reach*0.6, reach, reach)
	body, _ := parseColor(visualColor(v, false))
	accent, ok := parseColor(visualColor(v, true))
	if !ok {
		accent = labelColor
	}
	if b := v.Body; b != nil && b.Shape == "circle" {
		r := min(b.Radius, 10)
		x, y := t.at(0, 0)
		vector.FillCircle(dst, x, y, float32(r*t.s), body, true)
		vector.StrokeCircle(dst, x, y, float32(r*t.s), 1.5, accent, true)
	} else {
		t.poly(rect(0, 0, width, length, 0), body, accent)
	}
	// The front: a triangle at the nose.
	t.poly([][2]float64{{0, length / 2}, {-width / 4, length/2 - length/5}, {width / 4, length/2 - length/5}}, accent, nil)
	for _, m := range v.Sensors {
		u, w := -m.Pose.Y, m.Pose.X
		heading := math.Pi/2 + rad(m.Pose.YawDeg) // yaw turns left: towards -u
		var sector [][2]float64
		switch m.Kind {
		case "camera", "depth":
			left, right := cameraSpan(v, &m)
			sector = fan(u, w, 0.5*length, heading-right, heading+left)
		case "lidar":
			r := math.Min(mountParam(&m, "rangeMax"), 0.45*reach)
			sector = fan(u, w, r, heading+rad(mountParam(&m, "angleMinDeg")), heading+rad(mountParam(&m, "angleMaxDeg")))
		case "ultrasonic":
			half := rad(mountParam(&m, "coneDeg")) / 2
			sector = fan(u, w, 0.4*length, heading-half, heading+half)
		}
		if sector != nil {
			t.poly(sector, fovColor, nil)
		}
		x, y := t.at(u, w)
		hx, hy := t.at(u+0.08*length*math.Cos(heading), w+0.08*length*math.Sin(heading))
		vector.StrokeLine(dst, x, y, hx, hy, 2, sensorColor, true)
		vector.FillCircle(dst, x, y, 3, sensorColor, true)
		t.label(m.ID, x+5, y-14, sensorColor)
	}
	t.label("x forward is up, y left is left; grid "+num(step)+" m", 6, 4, labelColor)
}

// cameraSpan is how far a camera or depth mount sees to the left and the right of its
// heading, radians, in its contract's frame: a camera's as it draws it (render.MountView: a
// calibrated fx or a fisheye lens, which leave fovDeg unused), a depth camera's from its
// vertical field of view and the frame's aspect ratio.
func cameraSpan(v *plugins.VehicleDescriptor, m *plugins.SensorMount) (left, right float64) {
	// A shape out of range is drawn at the preview's own size, as the camera view is.
	w, h := previewW, previewH
	if v.Contract != nil {
		for _, s := range v.Contract.Sensors {
			if sw, sh, ok := s.FrameSize(); s.ID == m.ID && ok {
				w, h = sw, sh
			}
		}
	}
	if m.Kind == plugins.SensorCamera {
		if left, right, ok := render.MountView(validParams(m), w, h); ok {
			return left, right
		}
	}
	half := math.Atan(math.Tan(rad(mountParam(m, "fovDeg"))/2) * float64(w) / float64(h))
	return half, half
}

func visualColor(v *plugins.VehicleDescriptor, accent bool) string {
	if v.Visual == nil {
		return ""
	}
	if accent {
		return v.Visual.Accent
	}
	if _, ok := parseColor(v.Visual.Color); !ok {
		return "#78808a"
	}
	return v.Visual.Color
}

// drawTrackTop draws a track layout from above: x east is right, y north is up. It fits
// the layout into dst, or uses keep's scale and offset when keep is not nil (the user's zoom,
// or a drag under way: the view stays still under the pointer), and returns the view it drew
// with.
func drawTrackTop(dst *ebiten.Image, l *plugins.Layout, keep *topView) topView {
	dst.Fill(topBackground)
	if l == nil {
		return topView{}
	}
	f := l.Floor
	u0, v0, u1, v1 := f.X-f.Length/2, f.Y-f.Width/2, f.X+f.Length/2, f.Y+f.Width/2
	grow := func(x, y float64) { u0, v0, u1, v1 = min(u0, x), min(v0, y), max(u1, x), max(v1, y) }
	for _, e := range l.Elements {
		grow(e.X, e.Y)
		for _, p := range e.Points {
			grow(p[0], p[1])
		}
	}
	for _, s := range l.SpawnPoints {
		grow(s.X, s.Y)
	}
	t := fit(dst, u0, v0, u1, v1)
	t.fitS = t.s
	if keep != nil {
		t.ox, t.oy, t.s = keep.ox, keep.oy, keep.s
		u0, v0 = t.metres(0, float64(dst.Bounds().Dy()))
		u1, v1 = t.metres(float64(dst.Bounds().Dx()), 0)
	}
	floor := color.NRGBA{150, 150, 140, 255}
	if c, ok := parseColor(f.Color); ok {
		floor = c
	}
	t.poly(rect(f.X, f.Y, f.Length, f.Width, 0), floor, nil)
	// The finest of 1, 5, 10, 50 cm, 1, 5, 10 m ... whose lines are 12 pixels apart or more.
	step := 0.01
	for i := 0; step*t.s < 12; i++ {
		step *= [2]float64{5, 2}[i%2]
	}
	step = math.Round(step*100) / 100
	t.grid(step, u0, v0, u1, v1)
	for _, e := range l.Elements {
		drawElementTop(t, &e)
	}
	if r := l.Route; r != nil && len(r.Waypoints) > 0 {
		for i, p := range r.Waypoints {
			x, y := t.at(p[0], p[1])
			vector.FillCircle(dst, x, y, 3, routeColor, true)
			if i > 0 {
				px, py := t.at(r.Waypoints[i-1][0], r.Waypoints[i-1][1])
				vector.StrokeLine(dst, px, py, x, y, 1.5, routeColor, true)
			}
		}
	}
	for _, s := range l.SpawnPoints {
		a := rad(s.YawDeg)
		size := 12 / t.s
		tip := [2]float64{s.X + size*math.Cos(a), s.Y + size*math.Sin(a)}
		l := [2]float64{s.X + 0.6*size*math.Cos(a+2.4), s.Y + 0.6*size*math.Sin(a+2.4)}
		r := [2]float64{s.X + 0.6*size*math.Cos(a-2.4), s.Y + 0.6*size*math.Sin(a-2.4)}
		t.poly([][2]float64{tip, l, r}, spawnColor, nil)
		x, y := t.at(s.X, s.Y)
		t.label(s.Name, x+8, y+2, spawnColor)
	}
	t.label("x east is right, y north is up; grid "+num(step)+" m", 6, 4, labelColor)
	return t
}

var elementColors = map[string]color.NRGBA{
	plugins.ElementWall: {176, 138, 90, 255}, plugins.ElementBox: {217, 164, 65, 255},
	plugins.ElementCylinder: {160, 160, 170, 255}, plugins.ElementPolygon: {140, 130, 120, 255},
	plugins.ElementRoad: {59, 61, 64, 255}, plugins.ElementMarker: {250, 250, 250, 255},
}

func drawElementTop(t topView, e *plugins.Element) {
	c := elementColors[e.Kind]
	if pc, ok := parseColor(e.Color); ok {
		c = pc
	}
	switch e.Kind {
	case plugins.ElementWall, plugins.ElementBox:
		t.poly(rect(e.X, e.Y, e.Length, e.Width, rad(e.YawDeg)), c, color.NRGBA{0, 0, 0, 120})
	case plugins.ElementMarker:
		side := max(e.Length, 0.05)
		if e.Z <= 0 { // on the floor
			t.poly(rect(e.X, e.Y, side, side, rad(e.YawDeg)), c, color.NRGBA{0, 0, 0, 255})
			return
		}
		// Upright: a bar across its width, and a tick out of its face, the way it is seen from.
		a := rad(e.YawDeg)
		t.poly(rect(e.X, e.Y, 3/t.s, side, a), c, color.NRGBA{0, 0, 0, 255})
		x0, y0 := t.at(e.X, e.Y)
		x1, y1 := t.at(e.X+10/t.s*math.Cos(a), e.Y+10/t.s*math.Sin(a))
		vector.StrokeLine(t.dst, x0, y0, x1, y1, 2, markerFaceColor, true)
	case plugins.ElementCylinder:
		x, y := t.at(e.X, e.Y)
		vector.FillCircle(t.dst, x, y, float32(e.Radius*t.s), c, true)
	case plugins.ElementPolygon:
		t.poly(e.Points, c, color.NRGBA{0, 0, 0, 120})
	case plugins.ElementRoad:
		if len(e.Points) < 2 {
			return
		}
		var p vector.Path
		for i, q := range e.Points {
			x, y := t.at(q[0], q[1])
			if i == 0 {
				p.MoveTo(x, y)
			} else {
				p.LineTo(x, y)
			}
		}
		op := &vector.DrawPathOptions{AntiAlias: true}
		op.ColorScale.ScaleWithColor(c)
		vector.StrokePath(t.dst, &p, &vector.StrokeOptions{Width: float32(max(e.Width*t.s, 1)), LineJoin: vector.LineJoinRound, LineCap: vector.LineCapRound}, op)
	}
}
