package window

import (
	"math"

	"github.com/hajimehoshi/ebiten/v2"

	"simgui/plugins"
)

// view maps the world's ground plane to the screen for the top-down view: north up, east
// right. Scale is in pixels per metre.
type view struct {
	// CX, CY is the world point at the centre of the view, metres.
	CX, CY float64
	Scale  float64
	// W, H is the size of the view in pixels.
	W, H int
}

// Zoom limits, pixels per metre.
const (
	minScale = 2.0
	maxScale = 2000.0
)

// toScreen maps a world point to screen pixels.
func (v *view) toScreen(x, y float64) (float32, float32) {
	return float32(float64(v.W)/2 + (x-v.CX)*v.Scale), float32(float64(v.H)/2 - (y-v.CY)*v.Scale)
}

// toWorld maps screen pixels to the world point under them.
func (v *view) toWorld(sx, sy float64) (float64, float64) {
	return v.CX + (sx-float64(v.W)/2)/v.Scale, v.CY - (sy-float64(v.H)/2)/v.Scale
}

// visible returns the world rectangle in view: x0, y0, x1, y1.
func (v *view) visible() [4]float64 {
	x0, y1 := v.toWorld(0, 0)
	x1, y0 := v.toWorld(float64(v.W), float64(v.H))
	return [4]float64{x0, y0, x1, y1}
}

// geoM returns the world-to-screen transform for paths drawn in world coordinates.
func (v *view) geoM() ebiten.GeoM {
	var m ebiten.GeoM
	m.Translate(-v.CX, -v.CY)
	m.Scale(v.Scale, -v.Scale)
	m.Translate(float64(v.W)/2, float64(v.H)/2)
	return m
}

// pan moves the view by a screen-space drag of (dx, dy) pixels.
func (v *view) pan(dx, dy float64) {
	v.CX -= dx / v.Scale
	v.CY += dy / v.Scale
}

// zoomAt multiplies the scale by f, keeping the world point under (sx, sy) in place.
func (v *view) zoomAt(sx, sy, f float64) {
	wx, wy := v.toWorld(sx, sy)
	v.Scale = math.Min(maxScale, math.Max(minScale, v.Scale*f))
	nx, ny := v.toWorld(sx, sy)
	v.CX += wx - nx
	v.CY += wy - ny
}

// fit centres the view on the layout's extent (floor, elements and spawn points) with a margin.
func (v *view) fit(l *plugins.Layout) {
	lo, hi, ok := layoutBounds(l)
	if !ok {
		v.CX, v.CY, v.Scale = 0, 0, 100
		return
	}
	v.CX, v.CY = (lo[0]+hi[0])/2, (lo[1]+hi[1])/2
	w, h := math.Max(hi[0]-lo[0], 0.5), math.Max(hi[1]-lo[1], 0.5)
	s := math.Min(float64(v.W)/(w*1.15), float64(v.H)/(h*1.15))
	v.Scale = math.Min(maxScale, math.Max(minScale, s))
}

// layoutBounds is the world-frame bounding box of what a layout draws.
func layoutBounds(l *plugins.Layout) (lo, hi [2]float64, ok bool) {
	lo = [2]float64{math.Inf(1), math.Inf(1)}
	hi = [2]float64{math.Inf(-1), math.Inf(-1)}
	add := func(x, y float64) {
		lo[0], lo[1] = math.Min(lo[0], x), math.Min(lo[1], y)
		hi[0], hi[1] = math.Max(hi[0], x), math.Max(hi[1], y)
		ok = true
	}
	if l == nil {
		return lo, hi, false
	}
	if f := l.Floor; f.Length > 0 && f.Width > 0 {
		add(f.X-f.Length/2, f.Y-f.Width/2)
		add(f.X+f.Length/2, f.Y+f.Width/2)
	}
	for _, e := range l.Elements {
		r := math.Max(math.Max(e.Length, e.Width)/2, e.Radius)
		if len(e.Points) > 0 {
			for _, p := range e.Points {
				add(p[0]-e.Width/2, p[1]-e.Width/2)
				add(p[0]+e.Width/2, p[1]+e.Width/2)
			}
			continue
		}
		add(e.X-r, e.Y-r)
		add(e.X+r, e.Y+r)
	}
	for _, s := range l.SpawnPoints {
		add(s.X, s.Y)
	}
	return lo, hi, ok
}

// gridStep is the grid spacing in metres: 1 m while lines stay at least 12 pixels apart,
// else 10 m, 100 m, ...
func gridStep(scale float64) float64 {
	step := 1.0
	for step*scale < 12 && step < 1e4 {
		step *= 10
	}
	return step
}
