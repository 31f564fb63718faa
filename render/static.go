package render

import (
	"fmt"
	"sync"

	"github.com/go-gl/mathgl/mgl64"

	"simgui/plugins"
)

// Static is the part of a scene that does not move: the floor, the ground beyond it, the sky,
// the light and every non-movable element of a track, built once into world-frame triangles
// with their lighting baked in. It is immutable and may be shared by any number of Renderers,
// cameras and goroutines.
type Static struct {
	env    Environment
	light  mgl64.Vec3 // unit, towards the light
	sky    [skyLUTSize]RGB
	ground RGB // lit
	floor  floorRect
	chunks []chunk
	real   realScene // what the realistic pipeline draws with
	// A flat Static's real is made on its first realistic frame (a camera with a lens or
	// film): most are never drawn that way, and a training reset builds one per episode.
	realOnce  sync.Once
	realReady bool
}

// floorRect is the textured floor rectangle on z = 0.
type floorRect struct {
	ok                    bool
	x0, y0, length, width float64  // corner (min x, min y) and extent along x, y
	tex                   *Texture // lit; nil for a plain floor
	plain                 RGB      // lit
}

// chunk is one element's triangles with a world bounding box for frustum culling.
type chunk struct {
	mesh   *Mesh
	cols   []RGB     // lit colour per triangle
	rl     []triReal // the realistic pipeline's per triangle
	lo, hi mgl64.Vec3
	// foot is set for solids standing on the floor (their footprints darken it).
	foot bool
}

// Default floor colour when a floor has neither texture nor colour.
var colorFloor = RGB{170, 170, 164}

// NewStatic builds the static scene of a track layout. Movable elements are left out: draw them
// each frame as Objects (see NewElementMesh). env nil means DefaultEnvironment(). Errors name
// the element at fault.
func NewStatic(layout *plugins.Layout, env *Environment) (*Static, error) {
	s := &Static{env: DefaultEnvironment()}
	if env != nil {
		s.env = *env
	}
	if s.env.Realistic {
		return newRealStatic(layout, s)
	}
	s.light = s.env.lightDir()
	s.sky = s.env.skyLUT()
	up := s.env.shadeFactor(mgl64.Vec3{0, 0, 1}, s.light)
	s.ground = s.env.Ground.Scale(up)
	if layout == nil {
		return s, nil
	}
	if f := layout.Floor; f.Length > 0 && f.Width > 0 {
		s.floor = floorRect{ok: true, x0: f.X - f.Length/2, y0: f.Y - f.Width/2, length: f.Length, width: f.Width}
		if f.Texture == "" {
			c, err := colorOr(f.Color, colorFloor)
			if err != nil {
				return nil, fmt.Errorf("floor: %w", err)
			}
			s.floor.plain = c.Scale(up)
		} else {
			t, err := litFloorTexture(layout, f.Texture, f.Color, up)
			if err != nil {
				return nil, fmt.Errorf("floor: %w", err)
			}
			s.floor.tex = t
		}
	}
	lifts := layerLifts(layout)
	var b MeshBuilder
	for i := range layout.Elements {
		e := &layout.Elements[i]
		if e.Movable {
			continue
		}
		b = MeshBuilder{verts: b.verts[:0], tris: b.tris[:0], marks: b.marks[:0], convex: b.convex[:0]}
		if err := buildElement(&b, lifted(e, lifts[i])); err != nil {
			return nil, fmt.Errorf("element %d %s: %w", i, elementName(e), err)
		}
		s.AddMesh(b.Mesh())
	}
	return s, nil
}

// AddMesh adds a mesh given in the world frame, lit by the scene's light. It is for building
// a Static beyond what a Layout describes (a scenario's decorations); call it before the
// Static is shared.
func (s *Static) AddMesh(m *Mesh) {
	if len(m.tris) == 0 {
		return
	}
	c := chunk{mesh: m, cols: make([]RGB, len(m.tris)), lo: vec64(m.min), hi: vec64(m.max)}
	for i, t := range m.tris {
		c.cols[i] = t.col.Scale(s.env.shadeFactor(vec64(t.n), s.light))
	}
	switch {
	case s.env.Realistic:
		c.rl = s.realTris(m, [3]float32{1, 1, 1}, 0)
	case s.realReady:
		c.rl = flatTris(c.cols)
	}
	s.chunks = append(s.chunks, c)
}

// Triangles is the number of static triangles (the floor and ground are not triangles).
func (s *Static) Triangles() int {
	n := 0
	for _, c := range s.chunks {
		n += len(c.mesh.tris)
	}
	return n
}

// Environment returns the sky, ground and light the scene was built with.
func (s *Static) Environment() Environment { return s.env }

// litFloors caches lit floor textures: generating one takes milliseconds, and training
// resets build a new Static for every episode with the same few floors (a handful in
// practice; bounded anyway).
var litFloors = textureCache[litFloorKey]{maxCount: 64, maxBytes: 128 << 20}

type litFloorKey struct {
	name, color string
	light       float64
	png         *byte // first byte of the layout's own image of the material (nil: built in)
}

// litFloorTexture returns the floor texture name (layout l's own material, or a built-in one)
// in color, shaded by light.
func litFloorTexture(l *plugins.Layout, name, color string, light float64) (*Texture, error) {
	k := litFloorKey{name: name, color: color, light: light, png: ownImage(l, name)}
	return litFloors.get(k, func() (*Texture, error) {
		base, _, err := materialTexture(l, name, color, 0)
		if err != nil {
			return nil, err
		}
		return base.shaded(light), nil
	})
}

// ownImage returns the first byte of layout l's own first image of material name, nil when l
// does not define it.
func ownImage(l *plugins.Layout, name string) *byte {
	if l == nil {
		return nil
	}
	for i := range l.Materials {
		if m := &l.Materials[i]; m.Name == name && len(m.Images) > 0 && len(m.Images[0]) > 0 {
			return &m.Images[0][0]
		}
	}
	return nil
}
