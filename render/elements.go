package render

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/go-gl/mathgl/mgl64"

	"simgui/plugins"
)

// Heights of flat elements above the floor (metres): enough to win the depth test against the
// floor at any distance a camera sees them, small enough not to show.
const (
	roadLift = 0.001
	// layerSpan is how far above roadLift a track's flat elements (roads, polygons of height
	// 0) are spread, each a layer above those listed before it, so that where two overlap the
	// later one shows (a tape line over its road), as the top-down views draw roads; at one
	// height, the depth test of the two faces would pick one pixel by pixel. It ends below
	// markerLift, so that floor markers stay on top.
	layerSpan = 0.0009
	// maxLayerStep is the layers' gap for tracks of up to 91 flat elements; more share
	// layerSpan (the 138 of a generated road system are 6.6 µm apart). Depth is tested as
	// float32 1/depth, which tells two layers apart while their gap is over about 2·10⁻⁷ of
	// the camera's height (measured): 10 µm to a camera 50 m up, the 45 nm of a track of
	// 20,000 flat elements to one 20 cm up.
	maxLayerStep = 10e-6
	markerLift   = 0.002
	// markerProud is how far a standing marker is drawn in front of its position, so that it
	// shows on the wall it is placed against.
	markerProud = 0.001
)

// Default colours of elements that give none.
var (
	colorCardboard = RGB{186, 150, 106}
	colorBox       = RGB{166, 124, 82}
	colorSolid     = RGB{150, 150, 150}
	colorRoad      = RGB{62, 62, 66}
	colorMarker    = RGB{20, 20, 20}
	// colorPaper is the white of an ArUco marker's cells and margin: printer paper.
	colorPaper = RGB{236, 236, 232}
)

// elementFunc adds the geometry of e to b in the world frame.
type elementFunc func(b *MeshBuilder, e *plugins.Element) error

var (
	elemMu    sync.Mutex
	elemKinds = map[string]elementFunc{}
)

// registerElement makes an element kind drawable; it panics on a duplicate kind.
func registerElement(kind string, fn elementFunc) {
	elemMu.Lock()
	defer elemMu.Unlock()
	if _, dup := elemKinds[kind]; dup {
		panic("render: duplicate element kind " + kind)
	}
	elemKinds[kind] = fn
}

// ElementKinds lists the plugins.Element kinds the renderer draws, sorted.
func ElementKinds() []string {
	elemMu.Lock()
	defer elemMu.Unlock()
	return slices.Sorted(maps.Keys(elemKinds))
}

func init() {
	registerElement(plugins.ElementWall, func(b *MeshBuilder, e *plugins.Element) error {
		return addBlock(b, e, colorCardboard)
	})
	registerElement(plugins.ElementBox, func(b *MeshBuilder, e *plugins.Element) error {
		return addBlock(b, e, colorBox)
	})
	registerElement(plugins.ElementCylinder, addCylinder)
	registerElement(plugins.ElementPolygon, addPolygon)
	registerElement(plugins.ElementRoad, addRoad)
	registerElement(plugins.ElementMarker, addMarker)
}

// flatElement reports whether e is drawn flat in a Static, and so takes a layer (layerSpan).
func flatElement(e *plugins.Element) bool {
	return !e.Movable && (e.Kind == plugins.ElementRoad || e.Kind == plugins.ElementPolygon && e.Height == 0)
}

// layerLifts returns how far above its Z and roadLift each of l's elements is drawn: its
// layer's height for flat ones, the first at 0 (see layerSpan), and 0 for the others.
func layerLifts(l *plugins.Layout) []float64 {
	lifts := make([]float64, len(l.Elements))
	n := 0
	for i := range l.Elements {
		if flatElement(&l.Elements[i]) {
			n++
		}
	}
	step := min(maxLayerStep, layerSpan/float64(max(n-1, 1)))
	k := 0
	for i := range l.Elements {
		if flatElement(&l.Elements[i]) {
			lifts[i] = float64(k) * step
			k++
		}
	}
	return lifts
}

// lifted returns e raised by dz, or e itself when dz is 0.
func lifted(e *plugins.Element, dz float64) *plugins.Element {
	if dz == 0 {
		return e
	}
	up := *e
	up.Z += dz
	return &up
}

// buildElement adds e to b through its kind's builder.
func buildElement(b *MeshBuilder, e *plugins.Element) error {
	elemMu.Lock()
	fn, ok := elemKinds[e.Kind]
	elemMu.Unlock()
	if !ok {
		return fmt.Errorf("unknown element kind %q: known are %s", e.Kind, strings.Join(ElementKinds(), ", "))
	}
	return fn(b, e)
}

// NewElementMesh builds the mesh of one element in its own frame, for elements that move (a
// movable box): the element is built as if at X = Y = Z = 0 with YawDeg = 0, so that
// Object{Mesh: m, Pose: Pose{X: e.X, Y: e.Y, Z: e.Z, Yaw: yaw}} draws it where it is. Kinds
// placed by Points (polygon, road) keep world coordinates and are drawn with a zero Pose.
//
// The mesh carries the element's material for the realistic look: a built-in one or one of
// l's own (the track's images; l nil: built-in ones only), its kind's default when it names
// none or one neither has.
func NewElementMesh(l *plugins.Layout, e *plugins.Element) (*Mesh, error) {
	local := *e
	local.X, local.Y, local.Z, local.YawDeg = 0, 0, 0, 0
	var b MeshBuilder
	tex, err := elementTexture(l, &local, 0)
	if err != nil {
		local.Material = ""
		tex, _ = elementTexture(nil, &local, 0)
	}
	b.SetTexture(tex)
	if err := buildElement(&b, &local); err != nil {
		return nil, fmt.Errorf("element %s: %w", elementName(e), err)
	}
	return b.Mesh(), nil
}

func elementName(e *plugins.Element) string {
	if e.Name != "" {
		return fmt.Sprintf("%q (%s)", e.Name, e.Kind)
	}
	return e.Kind
}

func positive(what string, v float64) error {
	if !(v > 0) || math.IsInf(v, 0) {
		return fmt.Errorf("%s is %g: want a positive number of metres", what, v)
	}
	return nil
}

// addBlock draws a wall or a box: Length along YawDeg, Width across, Height up from Z.
func addBlock(b *MeshBuilder, e *plugins.Element, def RGB) error {
	for _, c := range []struct {
		n string
		v float64
	}{{"length", e.Length}, {"width", e.Width}, {"height", e.Height}} {
		if err := positive(c.n, c.v); err != nil {
			return err
		}
	}
	col, err := colorOr(e.Color, def)
	if err != nil {
		return err
	}
	b.Box(mgl64.Vec3{e.X, e.Y, e.Z + e.Height/2}, mgl64.Vec3{e.Length, e.Width, e.Height},
		mgl64.DegToRad(e.YawDeg), col)
	return nil
}

func addCylinder(b *MeshBuilder, e *plugins.Element) error {
	if err := positive("radius", e.Radius); err != nil {
		return err
	}
	if err := positive("height", e.Height); err != nil {
		return err
	}
	col, err := colorOr(e.Color, colorSolid)
	if err != nil {
		return err
	}
	b.Cylinder(mgl64.Vec3{e.X, e.Y, e.Z}, mgl64.Vec3{e.X, e.Y, e.Z + e.Height}, e.Radius, 24, col)
	return nil
}

// addPolygon extrudes Points from Z to Z+Height, or lays them flat on the floor when Height is 0.
func addPolygon(b *MeshBuilder, e *plugins.Element) error {
	col, err := colorOr(e.Color, colorSolid)
	if err != nil {
		return err
	}
	if e.Height == 0 {
		return b.FlatPolygon(e.Points, e.Z+roadLift, col)
	}
	if err := positive("height", e.Height); err != nil {
		return err
	}
	return b.Prism(e.Points, e.Z, e.Z+e.Height, col)
}

// addRoad lays a strip of Width along Points at z = Z + roadLift, with round joints.
func addRoad(b *MeshBuilder, e *plugins.Element) error {
	if len(e.Points) < 2 {
		return fmt.Errorf("road has %d points: want at least 2", len(e.Points))
	}
	if err := positive("width", e.Width); err != nil {
		return err
	}
	col, err := colorOr(e.Color, colorRoad)
	if err != nil {
		return err
	}
	z, h := e.Z+roadLift, e.Width/2
	up := mgl64.Vec3{0, 0, 1}
	for i := 1; i < len(e.Points); i++ {
		a, c := e.Points[i-1], e.Points[i]
		dx, dy := c[0]-a[0], c[1]-a[1]
		l := math.Hypot(dx, dy)
		if l == 0 {
			continue
		}
		px, py := -dy/l*h, dx/l*h
		i0 := b.vertex(mgl64.Vec3{a[0] - px, a[1] - py, z})
		i1 := b.vertex(mgl64.Vec3{c[0] - px, c[1] - py, z})
		i2 := b.vertex(mgl64.Vec3{c[0] + px, c[1] + py, z})
		i3 := b.vertex(mgl64.Vec3{a[0] + px, a[1] + py, z})
		b.quad(i0, i1, i2, i3, up, col)
	}
	// Discs at the inner points fill the wedges between segments (same colour, same plane),
	// and one where a road closing a loop (last point = first) meets its start.
	joints := e.Points[1 : len(e.Points)-1]
	if n := len(e.Points); n > 2 && e.Points[0] == e.Points[n-1] {
		joints = e.Points[:n-1]
	}
	for _, p := range joints {
		const n = 16
		c := b.vertex(mgl64.Vec3{p[0], p[1], z})
		first := int32(len(b.verts))
		for k := range n {
			s, co := math.Sincos(2 * math.Pi * float64(k) / n)
			b.vertex(mgl64.Vec3{p[0] + co*h, p[1] + s*h, z})
		}
		for k := range int32(n) {
			b.tri(c, first+k, first+(k+1)%n, up, col)
		}
	}
	return nil
}

// addMarker draws a square tag of side Length (Width, if set, is its other side). With Z > 0 it
// stands upright centred at height Z and faces YawDeg (its front is seen from that direction),
// 1 mm proud of its position; with Z = 0 it lies on the floor, turned by YawDeg. With an
// ArucoID it is that ArUco marker (addAruco), in Color's black on white.
func addMarker(b *MeshBuilder, e *plugins.Element) error {
	if err := positive("length", e.Length); err != nil {
		return err
	}
	w := e.Width
	if w == 0 {
		w = e.Length
	}
	if err := positive("width", w); err != nil {
		return err
	}
	col, err := colorOr(e.Color, colorMarker)
	if err != nil {
		return err
	}
	s, c := math.Sincos(mgl64.DegToRad(e.YawDeg))
	fwd, left := mgl64.Vec3{c, s, 0}, mgl64.Vec3{-s, c, 0}
	if e.ArucoID != nil {
		cells, ok := plugins.ArucoCells(*e.ArucoID)
		if !ok {
			return fmt.Errorf("arucoId %d is not a marker of %s", *e.ArucoID, plugins.ArucoDictionary)
		}
		if e.Z > 0 { // seen from its front: right is the marker's left, down is -z
			addAruco(b, mgl64.Vec3{e.X, e.Y, e.Z}.Add(fwd.Mul(markerProud)), left, mgl64.Vec3{0, 0, -1}, fwd, e.Length, cells, col)
		} else { // seen from above with its top towards yaw
			addAruco(b, mgl64.Vec3{e.X, e.Y, markerLift}, left.Mul(-1), fwd.Mul(-1), mgl64.Vec3{0, 0, 1}, e.Length, cells, col)
		}
		return nil
	}
	if e.Z > 0 {
		ctr := mgl64.Vec3{e.X, e.Y, e.Z}.Add(fwd.Mul(markerProud))
		r, u := left.Mul(e.Length/2), mgl64.Vec3{0, 0, w / 2}
		b.quad(b.vertex(ctr.Sub(r).Sub(u)), b.vertex(ctr.Add(r).Sub(u)),
			b.vertex(ctr.Add(r).Add(u)), b.vertex(ctr.Sub(r).Add(u)), fwd, col)
		return nil
	}
	ctr := mgl64.Vec3{e.X, e.Y, markerLift}
	a, l := fwd.Mul(e.Length/2), left.Mul(w/2)
	b.quad(b.vertex(ctr.Sub(a).Sub(l)), b.vertex(ctr.Add(a).Sub(l)),
		b.vertex(ctr.Add(a).Add(l)), b.vertex(ctr.Sub(a).Add(l)), mgl64.Vec3{0, 0, 1}, col)
	return nil
}

// addAruco draws an ArUco marker of cells centred at ctr, its black square side metres across,
// on a white margin one cell wide: an 8×8 grid of cells, each row's runs of one colour one
// quad. right and down are the directions of the marker's columns and rows as seen from its
// front, out its normal; dark is the colour of its black cells.
func addAruco(b *MeshBuilder, ctr, right, down, out mgl64.Vec3, side float64, cells [6][6]bool, dark RGB) {
	cell := side / 6
	white := func(r, c int) bool { return r == 0 || r == 7 || c == 0 || c == 7 || cells[r-1][c-1] }
	corner := ctr.Sub(right.Mul(4 * cell)).Sub(down.Mul(4 * cell)) // the margin's top left
	at := func(r, c int) int32 {
		return b.vertex(corner.Add(right.Mul(float64(c) * cell)).Add(down.Mul(float64(r) * cell)))
	}
	for r := range 8 {
		for c := 0; c < 8; {
			w, end := white(r, c), c+1
			for end < 8 && white(r, end) == w {
				end++
			}
			col := dark
			if w {
				col = colorPaper
			}
			b.quad(at(r, c), at(r, end), at(r+1, end), at(r+1, c), out, col)
			c = end
		}
	}
}
