package window

import (
	"image"
	"image/color"
	"math"
	"slices"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"simgui/app/sensors/raycast"
	"simgui/app/world"
	"simgui/plugins"
	"simgui/render"
)

// Default colours of elements that give none (render's, so both views agree).
var (
	colorCardboard = rgb8(186, 150, 106)
	colorBox       = rgb8(166, 124, 82)
	colorSolid     = rgb8(150, 150, 150)
	colorRoad      = rgb8(62, 62, 66)
	colorMarker    = rgb8(20, 20, 20)
	colorFloor     = rgb8(170, 170, 164)
	colorGround    = rgb8(46, 50, 46)
	colorGrid      = rgba{1, 1, 1, 0.10}
	colorGridAxis  = rgba{1, 1, 1, 0.22}
	colorRoute     = rgba{0.3, 0.8, 1, 0.55}
	colorSpawn     = rgba{0.4, 1, 0.5, 0.7}
)

// parseColor reads "#rrggbb", falling back to def.
func parseColor(s string, def rgba) rgba {
	if s == "" {
		return def
	}
	c, err := render.ParseColor(s)
	if err != nil {
		return def
	}
	return rgb8(c.R, c.G, c.B)
}

// worldTri is a triangle of the track in world coordinates.
type worldTri struct {
	p [3][2]float64
	c rgba
}

// trackGeom is a layout prepared for the top-down view: solid shapes as world-frame
// triangles, roads and flat polygons as vector paths (they may be concave and have round
// joints), the floor with its texture. Built once per layout (Snapshot.LayoutVersion).
type trackGeom struct {
	version uint64
	layout  *plugins.Layout

	floor     bool
	floorRect [4]float64 // x0, y0, x1, y1
	floorCol  rgba
	floorTex  *ebiten.Image // nil for a plain floor
	texPeriod float64       // metres per texture repeat
	texMean   rgba          // the texture's mean colour, for a floor zoomed out past its detail

	// rays clips the sensor wedges: the layout's obstacles and, set every tick, the boxes and
	// robots where they are (nil when the layout has none that raycast takes).
	rays     *raycast.Caster
	movingSh []raycast.Shape

	roads []roadMesh
	flats []fillPath // one path per colour
	solid []worldTri
	walls []wallSeg

	// scratch for transformed paths and the floor's quads
	scratch vector.Path
	floorVs []ebiten.Vertex
	floorIs []uint32
}

// wallSeg is a wall seen from above: a segment along its length, at least 2 pixels wide
// whatever the zoom, so thin cardboard walls stay visible.
type wallSeg struct {
	x0, y0, x1, y1, width float64
	c                     rgba
}

type fillPath struct {
	path vector.Path
	c    rgba
}

// newTrackGeom prepares l. It is called on the game goroutine (it may create an image).
func newTrackGeom(l *plugins.Layout, version uint64) *trackGeom {
	t := &trackGeom{version: version, layout: l}
	if l == nil {
		return t
	}
	if f := l.Floor; f.Length > 0 && f.Width > 0 {
		t.floor = true
		t.floorRect = [4]float64{f.X - f.Length/2, f.Y - f.Width/2, f.X + f.Length/2, f.Y + f.Width/2}
		t.floorCol = parseColor(f.Color, colorFloor)
		if f.Texture != "" {
			if tex, err := render.NewNamedTexture(f.Texture, f.Color); err == nil {
				t.floorTex, t.texMean = textureImage(tex)
				t.texPeriod = tex.Period()
			}
		}
	}
	for i := range l.Elements {
		t.add(&l.Elements[i])
	}
	if shapes, err := raycast.LayoutShapes(l); err == nil {
		t.rays = raycast.NewCaster(raycast.NewStatic(shapes))
	}
	return t
}

// setMoving gives the wedge clipping the boxes and robots of snap where they are.
func (t *trackGeom) setMoving(snap *world.Snapshot) {
	if t.rays == nil {
		return
	}
	t.movingSh = t.movingSh[:0]
	for _, bx := range snap.Boxes {
		t.movingSh = append(t.movingSh, raycast.Shape{Kind: raycast.Box, X: bx.Pose.X, Y: bx.Pose.Y, Yaw: bx.Pose.Yaw,
			HalfL: bx.Length / 2, HalfW: bx.Width / 2, ZMin: bx.Pose.Z, ZMax: bx.Pose.Z + bx.Height, ID: bx.ID})
	}
	for i := range snap.Models {
		m := &snap.Models[i]
		hl, hw, round := footprint(m.Vehicle)
		h := 0.1
		if m.Vehicle != nil && m.Vehicle.Body != nil && m.Vehicle.Body.Height > 0 {
			h = m.Vehicle.Body.Height
		}
		sh := raycast.Shape{Kind: raycast.Box, X: m.Pose.X, Y: m.Pose.Y, Yaw: m.Pose.Yaw, HalfL: hl, HalfW: hw,
			ZMin: m.Pose.Z, ZMax: m.Pose.Z + h, ID: m.ID}
		if round {
			sh.Kind, sh.Radius = raycast.Circle, hl
		}
		t.movingSh = append(t.movingSh, sh)
	}
	t.rays.SetDynamic(t.movingSh)
}

// textureImage samples a floor texture's level 0 into an image and returns its mean colour.
func textureImage(tex *render.Texture) (*ebiten.Image, rgba) {
	n := tex.Size()
	px := make([]byte, 4*n*n)
	var sum [3]float64
	for row := range n {
		for col := range n {
			// Row 0 of the image is the far (north) edge of one repeat: v grows north.
			c := tex.At((float64(col)+0.5)/float64(n)*tex.Period(), (float64(n-1-row)+0.5)/float64(n)*tex.Period())
			o := 4 * (row*n + col)
			px[o], px[o+1], px[o+2], px[o+3] = c.R, c.G, c.B, 255
			sum[0], sum[1], sum[2] = sum[0]+float64(c.R), sum[1]+float64(c.G), sum[2]+float64(c.B)
		}
	}
	k := 255 * float64(n*n)
	mean := rgba{float32(sum[0] / k), float32(sum[1] / k), float32(sum[2] / k), 1}
	// Unmanaged: outside Ebiten's texture atlas, so that linear filtering at a repeat's edge
	// does not blend in a neighbour on the atlas.
	img := ebiten.NewImageWithOptions(image.Rect(0, 0, n, n), &ebiten.NewImageOptions{Unmanaged: true})
	img.WritePixels(px)
	return img, mean
}

func (t *trackGeom) add(e *plugins.Element) {
	switch e.Kind {
	case plugins.ElementWall:
		s, c := math.Sincos(e.YawDeg * math.Pi / 180)
		hl := e.Length / 2
		t.walls = append(t.walls, wallSeg{e.X - hl*c, e.Y - hl*s, e.X + hl*c, e.Y + hl*s, e.Width,
			shade(parseColor(e.Color, colorCardboard), 0.62)})
	case plugins.ElementBox:
		if !e.Movable { // movable boxes come from the snapshot with their poses
			t.box(e, shade(parseColor(e.Color, colorBox), 0.8))
		}
	case plugins.ElementCylinder:
		c := shade(parseColor(e.Color, colorSolid), 0.8)
		const n = 24
		for k := range n {
			a0, a1 := 2*math.Pi*float64(k)/n, 2*math.Pi*float64(k+1)/n
			t.solid = append(t.solid, worldTri{p: [3][2]float64{{e.X, e.Y},
				{e.X + e.Radius*math.Cos(a0), e.Y + e.Radius*math.Sin(a0)},
				{e.X + e.Radius*math.Cos(a1), e.Y + e.Radius*math.Sin(a1)}}, c: c})
		}
	case plugins.ElementPolygon:
		if len(e.Points) < 3 {
			return
		}
		c := parseColor(e.Color, colorSolid)
		if e.Height > 0 { // solid blocks read darker than flat paint
			c = shade(c, 0.8)
		}
		// One path per colour: each path drawn costs the vector package a stencil image the
		// size of what it covers on screen, so many paths cost memory at any zoom.
		i := slices.IndexFunc(t.flats, func(f fillPath) bool { return f.c == c })
		if i < 0 {
			t.flats = append(t.flats, fillPath{c: c})
			i = len(t.flats) - 1
		}
		f := &t.flats[i].path
		f.MoveTo(float32(e.Points[0][0]), float32(e.Points[0][1]))
		for _, p := range e.Points[1:] {
			f.LineTo(float32(p[0]), float32(p[1]))
		}
		f.Close()
	case plugins.ElementRoad:
		if len(e.Points) < 2 || e.Width <= 0 {
			return
		}
		if r := newRoadMesh(e.Points, e.Width, parseColor(e.Color, colorRoad)); len(r.tris) > 0 {
			t.roads = append(t.roads, r)
		}
	case plugins.ElementMarker:
		w := e.Width
		if w == 0 {
			w = e.Length
		}
		if e.Z > 0 { // standing against a wall: seen from above as a thin strip
			w = math.Min(w, 0.02)
		}
		m := *e
		m.Width = w
		t.box(&m, parseColor(e.Color, colorMarker))
	}
}

// box adds a rectangle of Length along YawDeg and Width across, centred at (X, Y).
func (t *trackGeom) box(e *plugins.Element, c rgba) {
	if e.Length <= 0 || e.Width <= 0 {
		return
	}
	s, co := math.Sincos(e.YawDeg * math.Pi / 180)
	hl, hw := e.Length/2, e.Width/2
	corner := func(a, b float64) [2]float64 { return [2]float64{e.X + a*co - b*s, e.Y + a*s + b*co} }
	p0, p1, p2, p3 := corner(-hl, -hw), corner(hl, -hw), corner(hl, hw), corner(-hl, hw)
	t.solid = append(t.solid, worldTri{p: [3][2]float64{p0, p1, p2}, c: c}, worldTri{p: [3][2]float64{p0, p2, p3}, c: c})
}

// draw draws the floor, roads, flat shapes and solids of the track onto dst through v.
func (t *trackGeom) draw(dst *ebiten.Image, v *view, b *batch) {
	if t.floor {
		x0, y0 := v.toScreen(t.floorRect[0], t.floorRect[3])
		x1, y1 := v.toScreen(t.floorRect[2], t.floorRect[1])
		switch {
		case t.floorTex != nil && t.texPeriod*v.Scale >= minRepeatPx:
			t.drawFloorTexture(dst, v)
		case t.floorTex != nil:
			// Zoomed out so far that a repeat is a few pixels: its quads would only alias,
			// and a large floor in view (a 330 m city of 1 m repeats) made 109,000 of them a frame.
			b.rect(x0, y0, x1-x0, y1-y0, t.texMean)
			b.draw(dst)
		default:
			b.rect(x0, y0, x1-x0, y1-y0, t.floorCol)
			b.draw(dst)
		}
	}
	x0, y1 := v.toWorld(0, 0)
	x1, y0 := v.toWorld(float64(v.W), float64(v.H))
	for i := range t.roads {
		r := &t.roads[i]
		if r.hi[0] < x0 || r.lo[0] > x1 || r.hi[1] < y0 || r.lo[1] > y1 {
			continue
		}
		for _, tr := range r.tris {
			ax, ay := v.toScreen(tr.p[0][0], tr.p[0][1])
			bx, by := v.toScreen(tr.p[1][0], tr.p[1][1])
			cx, cy := v.toScreen(tr.p[2][0], tr.p[2][1])
			b.tri(ax, ay, bx, by, cx, cy, tr.c)
		}
	}
	b.draw(dst)
	geo := v.geoM()
	for i := range t.flats {
		f := &t.flats[i]
		t.scratch.Reset()
		t.scratch.AddPath(&f.path, &vector.AddPathOptions{GeoM: geo})
		op := &vector.DrawPathOptions{AntiAlias: true}
		op.ColorScale.ScaleWithColor(toColor(f.c))
		vector.FillPath(dst, &t.scratch, nil, op)
	}
	for _, w := range t.walls {
		x0, y0 := v.toScreen(w.x0, w.y0)
		x1, y1 := v.toScreen(w.x1, w.y1)
		b.line(x0, y0, x1, y1, float32(max(w.width*v.Scale, 2)), w.c)
	}
	for _, tr := range t.solid {
		x0, y0 := v.toScreen(tr.p[0][0], tr.p[0][1])
		x1, y1 := v.toScreen(tr.p[1][0], tr.p[1][1])
		x2, y2 := v.toScreen(tr.p[2][0], tr.p[2][1])
		b.tri(x0, y0, x1, y1, x2, y2, tr.c)
	}
	b.draw(dst)
}

// minRepeatPx is the fewest pixels a floor texture's repeat spans for the texture to be drawn;
// below it the floor takes the texture's mean colour. It bounds the quads a frame draws by the
// window's size, whatever the floor's: about 8,000 on a 1920×1080 window.
const minRepeatPx = 16

// drawFloorTexture draws the floor texture over the part of the floor in view, one quad per
// texture repeat (the texture anchored at the world origin), each sampling inside the texture:
// tiling by geometry rather than by address wrapping keeps the result the same on every GPU
// driver.
func (t *trackGeom) drawFloorTexture(dst *ebiten.Image, v *view) {
	n := float32(t.floorTex.Bounds().Dx())
	t.floorVs, t.floorIs = t.floorVs[:0], t.floorIs[:0]
	vert := func(x, y, u, w float64) {
		sx, sy := v.toScreen(x, y)
		t.floorVs = append(t.floorVs, ebiten.Vertex{DstX: sx, DstY: sy, SrcX: float32(u) * n, SrcY: (1 - float32(w)) * n,
			ColorR: 1, ColorG: 1, ColorB: 1, ColorA: 1})
	}
	floorRepeats(t.floorRect, v.visible(), t.texPeriod, func(q repeatQuad) {
		k := uint32(len(t.floorVs))
		vert(q.x0, q.y1, q.u0, q.w1)
		vert(q.x1, q.y1, q.u1, q.w1)
		vert(q.x1, q.y0, q.u1, q.w0)
		vert(q.x0, q.y0, q.u0, q.w0)
		t.floorIs = append(t.floorIs, k, k+1, k+2, k, k+2, k+3)
	})
	if len(t.floorIs) > 0 {
		dst.DrawTriangles32(t.floorVs, t.floorIs, t.floorTex, &ebiten.DrawTrianglesOptions{Filter: ebiten.FilterLinear})
	}
}

// repeatQuad is the part of one texture repeat to draw: world x0..x1, y0..y1, and where those
// lie inside the repeat, u0..u1 east and w0..w1 north, each 0..1.
type repeatQuad struct {
	x0, y0, x1, y1 float64
	u0, w0, u1, w1 float64
}

// floorRepeats calls fn for each repeat of a texture of period p (anchored at the world
// origin) over the part of floor r that lies in vis (both x0, y0, x1, y1). Only the repeats in
// view: the whole floor of a large track was hundreds of thousands of quads a frame, 1 GB of
// vertices, and the window drew two frames a second.
func floorRepeats(r, vis [4]float64, p float64, fn func(repeatQuad)) {
	r = [4]float64{max(r[0], vis[0]), max(r[1], vis[1]), min(r[2], vis[2]), min(r[3], vis[3])}
	for j := math.Floor(r[1] / p); j*p < r[3]; j++ {
		y0, y1 := math.Max(r[1], j*p), math.Min(r[3], (j+1)*p)
		for i := math.Floor(r[0] / p); i*p < r[2]; i++ {
			x0, x1 := math.Max(r[0], i*p), math.Min(r[2], (i+1)*p)
			fn(repeatQuad{x0, y0, x1, y1, x0/p - i, y0/p - j, x1/p - i, y1/p - j})
		}
	}
}

// drawOverlay draws the route and the spawn points.
func (t *trackGeom) drawOverlay(v *view, b *batch) {
	if t.layout == nil {
		return
	}
	if r := t.layout.Route; r != nil && len(r.Waypoints) > 1 {
		pts := r.Waypoints
		for i := 1; i < len(pts); i++ {
			x0, y0 := v.toScreen(pts[i-1][0], pts[i-1][1])
			x1, y1 := v.toScreen(pts[i][0], pts[i][1])
			b.line(x0, y0, x1, y1, 1.5, colorRoute)
		}
		if r.Loop {
			x0, y0 := v.toScreen(pts[len(pts)-1][0], pts[len(pts)-1][1])
			x1, y1 := v.toScreen(pts[0][0], pts[0][1])
			b.line(x0, y0, x1, y1, 1.5, colorRoute)
		}
	}
	for _, s := range t.layout.SpawnPoints {
		x, y := v.toScreen(s.X, s.Y)
		yaw := s.YawDeg * math.Pi / 180
		dx, dy := float32(math.Cos(yaw))*8, -float32(math.Sin(yaw))*8
		b.tri(x+dx, y+dy, x-dx/2-dy/2, y-dy/2+dx/2, x-dx/2+dy/2, y-dy/2-dx/2, colorSpawn)
	}
}

// shade darkens c by k: solid things seen from above stand out from the floor.
func shade(c rgba, k float32) rgba { return rgba{c.R * k, c.G * k, c.B * k, c.A} }

func toColor(c rgba) color.Color {
	return color.NRGBA{uint8(c.R*255 + 0.5), uint8(c.G*255 + 0.5), uint8(c.B*255 + 0.5), uint8(c.A*255 + 0.5)}
}
