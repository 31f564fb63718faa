package window

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"

	"simgui/app/markers"
	"simgui/app/world"
)

// Draw implements Screen: it draws the snapshot taken in Update and the images uploaded there.
func (s *simScreen) Draw(dst *ebiten.Image) {
	s.kb.Drawn()
	if s.snap == nil {
		return
	}
	dst.Fill(toColor(colorGround))
	b := &s.b
	if s.show.chase && s.chase != nil {
		s.chase.draw(dst, s.w, s.h, s.chaseErr)
	} else {
		s.drawWorld(dst, b)
		s.drawAim(dst, b)
	}
	s.panels.draw(dst, b)
	hud := s.hudFitted()
	drawBox(dst, b, hud, 8, 8)
	if s.worlds.on {
		s.worlds.draw(dst, b, s.hudBottom())
	}
	if s.spawnOn {
		s.spawn.draw(dst, b, s.hudBottom())
	}
	if s.panels.enlarged >= 0 {
		s.panels.drawEnlarged(dst, b, s.hudBottom(), s.h-s.barH)
		drawBox(dst, b, hud, 8, 8) // over the dimming: speed and sonar beside the big frame
	}
	// Toolbar and status line, over an enlarged panel's dimming: both take clicks under it,
	// and F12's "screenshot saved to" was hidden under the big frame.
	b.rect(0, float32(s.h-s.barH), float32(s.w), float32(s.barH), colorBar)
	b.draw(dst)
	drawButtons(dst, b, s.tools)
	s.statusBox = image.Rectangle{}
	if msg := s.statusLine(); msg != "" && (s.prompt == nil || s.prompt.note != msg || s.prompt.noteCut()) {
		bottom := s.h - s.barH
		if s.prompt != nil {
			bottom = s.prompt.box.Min.Y - 4 // above an open prompt, not hidden under it
		}
		lines := s.statusText(msg, bottom)
		y := float32(bottom - len(lines)*lineHeight - 14)
		w, h := drawBox(dst, b, lines, 8, y)
		s.statusBox, s.statusBoxOf = image.Rect(8, int(y), 8+int(w), int(y+h)), s.statusShownAs()
	} else if s.spawn.picked != "" {
		where := "click in the world"
		if s.show.chase {
			where = "click in the top view (C leaves the chase view)" // placing needs the map's ground
		}
		drawBox(dst, b, []string{where + " to place " + s.spawn.picked + " (drag to aim; right click cancels, Esc closes the list)"}, 8, float32(s.h-s.barH-lineHeight-14))
	}
	if s.prompt != nil {
		s.prompt.draw(dst, b)
	}
	if s.show.help {
		// Opaque: the map showing through made the key list hard to read.
		x, y, w, h := s.helpBox()
		b.rect(x, y, w, h, rgba{panelBG.R, panelBG.G, panelBG.B, 1})
		b.draw(dst)
		drawBox(dst, b, s.helpShown(), x, y)
	}
}

// drawAim draws, while a spawn is dragged to aim, an arrow from where it will stand to the
// pointer: the heading it will get.
func (s *simScreen) drawAim(dst *ebiten.Image, b *batch) {
	if s.spawn.picked == "" || !s.mouse.down || !s.mouse.moved {
		return
	}
	x0, y0, x1, y1 := float32(s.mouse.sx), float32(s.mouse.sy), float32(s.mouse.lx), float32(s.mouse.ly)
	a := math.Atan2(float64(y1-y0), float64(x1-x0))
	c := rgba{0.98, 0.82, 0.25, 1}
	b.line(x0, y0, x1, y1, 3, c)
	for _, side := range [2]float64{-1, 1} {
		hx, hy := x1-float32(14*math.Cos(a+side*0.45)), y1-float32(14*math.Sin(a+side*0.45))
		b.line(x1, y1, hx, hy, 3, c)
	}
	b.circle(x0, y0, 5, c)
	b.draw(dst)
}

// drawWorld draws the top-down view: track, grid, route and spawn points, boxes, sensor
// frusta, robots with names, lidar rays and markers.
func (s *simScreen) drawWorld(dst *ebiten.Image, b *batch) {
	v := &s.view
	s.track.draw(dst, v, b)
	if s.show.grid {
		s.drawGrid(b)
	}
	s.track.drawOverlay(v, b)
	drawBoxes(v, b, s.snap.Boxes)
	s.labels = s.labels[:0]
	if s.show.frusta {
		readings := s.panels.rangeReadings()
		for i := range s.snap.Models {
			m := &s.snap.Models[i]
			r := readings
			if m.Name != s.selected {
				r = nil // the feeds are the selected robot's
			}
			s.labels = sensorFans(v, b, m, s.track.rays, r, s.labels)
		}
	}
	for i := range s.snap.Models {
		m := &s.snap.Models[i]
		drawRobot(v, b, m, m.Name == s.selected)
	}
	if m, ok := s.snap.Model(s.selected); ok && s.show.lidar {
		for _, sc := range s.panels.scans() {
			if !sc.hasPose {
				placed := *sc
				for i := range m.Vehicle.Sensors {
					if mt := &m.Vehicle.Sensors[i]; mt.ID == sc.sensor {
						placed.x, placed.y, placed.yaw = mountPose(&m, mt)
					}
				}
				sc = &placed
			}
			drawScan(v, b, sc)
		}
	}
	set, _ := s.snap.Overlays[markers.OverlayKey].(*markers.Set)
	if s.show.markers {
		drawMarkers(v, b, set)
	}
	// Names on dark tags (one batch), then the text: the selected robot's first, then each
	// other's that covers no robot and no name placed before it (a crowd's rows of names ran
	// together over the robots).
	s.nameTags.reset(float32(s.w), float32(s.h))
	onScreen := 0
	for i := range s.snap.Models {
		x, y, r := robotDisc(v, &s.snap.Models[i])
		if x+r >= 0 && y+r >= 0 && x-r <= float32(s.w) && y-r <= float32(s.h) {
			onScreen++
		}
		s.nameTags.add(rect32{x - r, y - r, 2 * r, 2 * r})
	}
	few := onScreen <= fewRobots
	if m, ok := s.snap.Model(s.selected); ok {
		s.nameTag(b, &m, true, few)
	}
	for i := range s.snap.Models {
		if m := &s.snap.Models[i]; m.Name != s.selected {
			s.nameTag(b, m, false, few)
		}
	}
	b.draw(dst)
	for _, l := range s.labels {
		drawText(dst, l.text, l.x, l.y, l.c)
	}
	if s.show.markers && set.Len() > 0 {
		s.models.use(s.snap)
		markerTexts(dst, v, set, &s.models)
	}
}

// robotDisc returns where robot m is on the screen and the radius of the disc its name
// keeps clear of: its footprint's larger half-side, 5 pixels at least.
func robotDisc(v *view, m *world.ModelState) (x, y, r float32) {
	hl, hw, _ := footprint(m.Vehicle)
	x, y = v.toScreen(m.Pose.X, m.Pose.Y)
	return x, y, float32(max(math.Max(hl, hw)*v.Scale, 5))
}

// fewRobots is how many robots on the screen still all get names however small they are
// drawn; past it a robot under 12 pixels across is named only when selected (a zoomed-out
// fleet's names would cover the view).
const fewRobots = 16

// nameTag adds robot m's name beside it (its tag to b, the text to s.labels), unless, not
// selected, it is too small to label among many (few is false) or no side of it is free of
// robots, names and the edge.
func (s *simScreen) nameTag(b *batch, m *world.ModelState, selected, few bool) {
	x, y, r := robotDisc(&s.view, m)
	if 2*r < 12 && !selected && !few {
		return
	}
	c := dimColor
	if selected {
		c = textColor
		r = r*1.45 + 4 // below the selection ring
	}
	text := tagText(m)
	w := textWidth(text)
	// Below the robot, else above, right or left of it, where the name covers nothing; the
	// selected robot's goes below when no side is free.
	spots := [...][2]float32{
		{x - w/2, y + r + 2},
		{x - w/2, y - r - 3 - lineHeight},
		{x + r + 6, y - lineHeight/2},
		{x - r - 6 - w, y - lineHeight/2},
	}
	at := -1
	for i, p := range spots {
		if s.nameTags.place(rect32{p[0] - 3, p[1] + 1, w + 6, lineHeight}) {
			at = i
			break
		}
	}
	if at < 0 {
		if !selected {
			return
		}
		at = 0
	}
	l := label{text: text, x: spots[at][0], y: spots[at][1], c: c}
	b.rect(l.x-3, l.y+1, w+6, lineHeight, rgba{0, 0, 0, 0.45})
	s.labels = append(s.labels, l)
}

// tagText is robot m's name tag: its name, and a flying robot's altitude, which the top-down
// view shows nothing else of (a drone 6 m up looked as one 1 m up, and only the selected
// robot's altitude is in the HUD).
func tagText(m *world.ModelState) string {
	if !flies(m.Vehicle) {
		return m.Name
	}
	return fmt.Sprintf("%s  %.2f m", m.Name, unsigned0(m.Pose.Z, 2))
}

// drawGrid adds the metre grid over the visible part of the world, with the axes brighter.
func (s *simScreen) drawGrid(b *batch) {
	v := &s.view
	step := gridStep(v.Scale)
	x0, y1 := v.toWorld(0, 0)
	x1, y0 := v.toWorld(float64(s.w), float64(s.h))
	for x := math.Floor(x0/step) * step; x <= x1; x += step {
		sx, _ := v.toScreen(x, 0)
		c := colorGrid
		if math.Abs(x) < step/2 {
			c = colorGridAxis
		}
		b.line(sx, 0, sx, float32(s.h), 1, c)
	}
	for y := math.Floor(y0/step) * step; y <= y1; y += step {
		_, sy := v.toScreen(0, y)
		c := colorGrid
		if math.Abs(y) < step/2 {
			c = colorGridAxis
		}
		b.line(0, sy, float32(s.w), sy, 1, c)
	}
}

// label is a robot's name placed for drawing.
type label struct {
	text string
	x, y float32
	c    color.NRGBA
}
