package editor

import (
	"fmt"
	"image"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"simgui/plugins"
)

// A track whose form is its layout (the static generator) is edited on the top-down view too: a
// spawn point, a waypoint or an element is dragged to where it goes, and its fields follow.

// dragReach is how near the pointer, in pixels, a press must be to take a handle.
const dragReach = 10

// Grid steps a dragged point snaps to, metres: the usual one, and with Shift held.
const (
	dragSnap     = 0.05
	dragSnapFine = 0.01
)

// trackHandle is a point of the form that a drag moves: kind "spawn", "waypoint" or
// "element", the row (or the waypoint's place in the list), and where it is, metres.
type trackHandle struct {
	kind  string
	index int
	x, y  float64
}

// name is how the handle is listed in the state and the status line.
func (h trackHandle) name() string { return h.kind + "[" + itoa(h.index) + "]" }

// trackDrag is a drag under way.
type trackDrag struct {
	trackHandle
	view   topView // the view as the drag started: it stays still while the drag lasts
	dx, dy float64 // the pointer's offset from the handle, metres
}

// handles lists the points of the form a drag can move, those whose text reads as numbers;
// none for a generated track, whose form is not its layout.
func (f *trackForm) handles() []trackHandle {
	if f == nil || !plugins.DescriptorIsLayout(f.Generator) {
		return nil
	}
	var hs []trackHandle
	read := func(a, b string) (float64, float64, bool) {
		x, errx := strconv.ParseFloat(strings.TrimSpace(a), 64)
		y, erry := strconv.ParseFloat(strings.TrimSpace(b), 64)
		return x, y, errx == nil && erry == nil && finite(x) && finite(y)
	}
	for i, s := range f.Spawns {
		if x, y, ok := read(s.X, s.Y); ok {
			hs = append(hs, trackHandle{"spawn", i, x, y})
		}
	}
	if f.RouteOn {
		var p parser
		for i, w := range p.points("", f.Waypoints) {
			hs = append(hs, trackHandle{"waypoint", i, w[0], w[1]})
		}
	}
	for i, el := range f.Elements {
		switch el.Kind {
		case plugins.ElementPolygon, plugins.ElementRoad: // their points place them
			continue
		}
		if x, y, ok := read(el.X, el.Y); ok {
			hs = append(hs, trackHandle{"element", i, x, y})
		}
	}
	return hs
}

// move puts the handle h at (x, y) in the form's text.
func (f *trackForm) move(h trackHandle, x, y float64) {
	switch {
	case h.kind == "spawn" && h.index < len(f.Spawns):
		f.Spawns[h.index].X, f.Spawns[h.index].Y = num(x), num(y)
	case h.kind == "element" && h.index < len(f.Elements):
		f.Elements[h.index].X, f.Elements[h.index].Y = num(x), num(y)
	case h.kind == "waypoint":
		var p parser
		if ws := p.points("", f.Waypoints); h.index < len(ws) {
			ws[h.index] = [2]float64{x, y}
			f.Waypoints = formatPoints(ws)
		}
	}
}

// handleAt returns where the handles are on the screen (the top-down view is drawn at the
// size of its cell, from its corner).
func (e *Editor) handleAt(v topView, h trackHandle) image.Point {
	x, y := v.at(h.x, h.y)
	return e.views.topRect.Min.Add(image.Pt(int(math.Round(float64(x))), int(math.Round(float64(y)))))
}

// dragTrack starts, carries on and ends drags on the track's top-down view, and zooms and
// pans it. Game goroutine, after the layout (the view's cell is this frame's).
func (e *Editor) dragTrack() {
	f := e.d.track
	if e.views.zoomFor != e.d {
		e.views.zoom, e.views.pan, e.views.zoomFor = nil, nil, e.d
	}
	if f == nil || !e.views.trackShown {
		e.endDrag()
		e.views.pan = nil
		return
	}
	p := image.Pt(ebiten.CursorPosition())
	if e.panTrack(p) {
		return
	}
	if e.drag == nil {
		if !inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) || !e.under(e.views.topRect) {
			return
		}
		best, reach := -1, dragReach*dragReach+1
		var hs []trackHandle
		if plugins.DescriptorIsLayout(f.Generator) {
			hs = f.handles()
		}
		for i, h := range hs {
			if d := p.Sub(e.handleAt(e.views.trackView, h)); d.X*d.X+d.Y*d.Y < reach {
				best, reach = i, d.X*d.X+d.Y*d.Y
			}
		}
		if best < 0 && plugins.DescriptorIsLayout(f.Generator) {
			// On a zoomed view a wall is long: it is taken anywhere on its footprint.
			x, y := e.views.metresAt(e.views.trackView, p)
			if i := f.elementAt(x, y); i >= 0 {
				best = slices.IndexFunc(hs, func(h trackHandle) bool { return h.kind == "element" && h.index == i })
			}
		}
		switch {
		case best >= 0:
		case e.views.zoom != nil:
			e.views.pan = &trackPan{from: p, view: *e.views.zoom}
			return
		case !plugins.DescriptorIsLayout(f.Generator):
			e.setStatus("the " + f.Generator + " generator lays this track out from its parameters: there is nothing to drag")
			return
		default:
			return
		}
		v := e.views.trackView
		x, y := e.views.metresAt(v, p)
		e.drag = &trackDrag{trackHandle: hs[best], view: v, dx: hs[best].x - x, dy: hs[best].y - y}
		e.fields.focus = "" // the fields take the drag's numbers, not the keys
		return
	}
	e.carryDrag(f, p, ebiten.IsMouseButtonPressed(ebiten.MouseButtonLeft))
}

// carryDrag moves the dragged handle to pointer p, and drops it there when the button is no
// longer held.
func (e *Editor) carryDrag(f *trackForm, p image.Point, held bool) {
	d := e.drag
	// The pointer's place this frame first: a release seen in the frame of the last move
	// still drops the handle where the pointer went.
	e.dragTo(d, f, p)
	if !held {
		e.endDrag()
		e.setStatus(fmt.Sprintf("moved %s to (%s, %s)", d.name(), num(d.x), num(d.y)))
	}
}

// endDrag ends the drag under way. Its last move is checked while the drag lasts, to join the
// drag's undo step (Update's check comes after the drop), and that step ends with it, so that
// the next drag of the same handle is a step of its own.
func (e *Editor) endDrag() {
	if e.drag == nil {
		return
	}
	e.check()
	e.drag, e.undo.group = nil, ""
}

// dragTo moves the dragged handle to where pointer p puts it, on the snap grid.
func (e *Editor) dragTo(d *trackDrag, f *trackForm, p image.Point) {
	step := dragSnap
	if ebiten.IsKeyPressed(ebiten.KeyShift) {
		step = dragSnapFine
	}
	// Rounded again so that the fields read 0.15, not 0.15000000000000002.
	snap := func(m float64) float64 { return math.Round(math.Round(m/step)*step*1e6) / 1e6 }
	x, y := e.views.metresAt(d.view, p)
	x, y = snap(x+d.dx), snap(y+d.dy)
	if x != d.x || y != d.y {
		d.x, d.y = x, y
		f.move(d.trackHandle, x, y)
	}
}

// trackPan is a pan of the zoomed track view under way.
type trackPan struct {
	from image.Point // where the press was, window pixels
	view topView     // the view then
}

// Zoom limits of the track's top-down view: the whole track at the least, a centimetre to
// maxTrackZoom pixels at the most.
const (
	trackZoomStep = 1.25
	maxTrackZoom  = 40 * 100 // pixels a metre
)

// panTrack zooms the track view at the pointer on a wheel turn over it, and carries on a pan;
// it reports whether the frame's pointer went to one of them.
func (e *Editor) panTrack(p image.Point) bool {
	v := &e.views
	if pan := v.pan; pan != nil {
		z := pan.view
		z.ox, z.oy = z.ox+float64(p.X-pan.from.X), z.oy+float64(p.Y-pan.from.Y)
		if v.zoom == nil || z.ox != v.zoom.ox || z.oy != v.zoom.oy {
			v.zoom, v.topGen = &z, 0 // drawn again
		}
		if !ebiten.IsMouseButtonPressed(ebiten.MouseButtonLeft) { // after the move: see dragTrack
			v.pan = nil
		}
		return true
	}
	_, wy := ebiten.Wheel()
	if wy == 0 || e.drag != nil || !e.under(v.topRect) {
		return false
	}
	t := v.trackView
	s := min(t.s*math.Pow(trackZoomStep, wy), maxTrackZoom)
	if t.fitS <= 0 || s <= t.fitS*1.001 {
		v.zoom, v.topGen = nil, 0 // the whole track again
		return true
	}
	// The point under the pointer stays there.
	px, py := float64(p.X-v.topRect.Min.X), float64(p.Y-v.topRect.Min.Y)
	u, w := t.metres(px, py)
	v.zoom = &topView{ox: px - u*s, oy: py + w*s, s: s}
	v.topGen = 0
	return true
}

// elementAt returns the row of the element whose footprint holds (x, y), metres — the last of
// them, drawn on top — or -1. Walls, boxes and markers are rectangles, cylinders circles;
// polygons and roads are moved by their points, not here.
func (f *trackForm) elementAt(x, y float64) int {
	read := func(s string) float64 { // as the form reads it: empty is 0
		if strings.TrimSpace(s) == "" {
			return 0
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || !finite(v) {
			return math.NaN()
		}
		return v
	}
	for i := len(f.Elements) - 1; i >= 0; i-- {
		el := &f.Elements[i]
		cx, cy := read(el.X), read(el.Y)
		switch el.Kind {
		case plugins.ElementWall, plugins.ElementBox, plugins.ElementMarker:
			l, w := read(el.Length), read(el.Width)
			if el.Kind == plugins.ElementMarker && !(w > 0) {
				w = l
			}
			a := read(el.YawDeg) * math.Pi / 180
			s, c := math.Sincos(a)
			dx, dy := x-cx, y-cy
			if u, v := dx*c+dy*s, -dx*s+dy*c; math.Abs(u) <= l/2 && math.Abs(v) <= w/2 {
				return i
			}
		case plugins.ElementCylinder:
			if math.Hypot(x-cx, y-cy) <= read(el.Radius) {
				return i
			}
		}
	}
	return -1
}

// metresAt is the point (metres) of view t under window pixel p: t is drawn at the size of the
// top-down view's cell, from its corner.
func (v *previewImages) metresAt(t topView, p image.Point) (float64, float64) {
	return t.metres(float64(p.X-v.topRect.Min.X), float64(p.Y-v.topRect.Min.Y))
}
