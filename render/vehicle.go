package render

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"simgui/plugins"
)

// VehicleSpec says how to draw a vehicle: a registered shape, its size and colours.
type VehicleSpec struct {
	// Shape names a registered shape (ShapeNames): "ks0223", "car", "drone", "box".
	Shape string
	// Length (along the vehicle's x, forward), Width and Height in metres; 0 takes the shape's
	// default.
	Length, Width, Height float64
	// Color is the main colour and Accent the secondary one, "#rrggbb"; "" takes the shape's
	// default.
	Color, Accent string
	// Material and AccentMaterial name the materials (see Static's elements) of the parts drawn
	// in the main and the accent colour in the realistic look, tinted by them; "" is plain.
	Material, AccentMaterial string
	// Own and AccentOwn are the vehicle's own materials of those names (its archive's images,
	// drawn as they are, the first of each), nil for built-in ones. Pointers keep a spec
	// comparable: meshes are kept by their spec.
	Own, AccentOwn *plugins.Material
}

// ShapeParams are a vehicle's resolved size (metres) and colours, as a ShapeFunc receives them.
type ShapeParams struct {
	Length, Width, Height float64
	Color, Accent         RGB
}

// ShapeFunc adds a vehicle's parts to b in the vehicle frame: x forward, y left, z up, origin on
// the ground under the body's centre. The front must be recognisable from the parts, so that
// the heading shows in any view.
type ShapeFunc func(b *MeshBuilder, p ShapeParams)

type shapeKind struct {
	def ShapeParams
	fn  ShapeFunc
}

var (
	shapeMu    sync.Mutex
	shapeKinds = map[string]shapeKind{}
)

// RegisterShape makes a vehicle shape available by name with its default size and colours.
// Call it from init; it panics on an empty or duplicate name or a nil fn.
func RegisterShape(name string, defaults ShapeParams, fn ShapeFunc) {
	if name == "" || fn == nil {
		panic("render: RegisterShape needs a name and a func")
	}
	shapeMu.Lock()
	defer shapeMu.Unlock()
	if _, dup := shapeKinds[name]; dup {
		panic("render: duplicate vehicle shape " + name)
	}
	shapeKinds[name] = shapeKind{def: defaults, fn: fn}
}

// ShapeNames lists the registered vehicle shapes, sorted.
func ShapeNames() []string {
	shapeMu.Lock()
	defer shapeMu.Unlock()
	return slices.Sorted(maps.Keys(shapeKinds))
}

// NewVehicleMesh builds the mesh of a vehicle in its own frame (see ShapeFunc). Build it once
// per vehicle and draw it each frame as Object{Mesh: m, Pose: ...} with the body's pose.
func NewVehicleMesh(spec VehicleSpec) (*Mesh, error) {
	shapeMu.Lock()
	k, ok := shapeKinds[spec.Shape]
	shapeMu.Unlock()
	if !ok {
		return nil, fmt.Errorf("unknown vehicle shape %q: known are %s", spec.Shape, strings.Join(ShapeNames(), ", "))
	}
	p := k.def
	for _, d := range []struct {
		v   float64
		dst *float64
		n   string
	}{{spec.Length, &p.Length, "length"}, {spec.Width, &p.Width, "width"}, {spec.Height, &p.Height, "height"}} {
		if d.v < 0 {
			return nil, fmt.Errorf("vehicle %s: %s %g m: want >= 0 (0 for the default)", spec.Shape, d.n, d.v)
		}
		if d.v > 0 {
			*d.dst = d.v
		}
	}
	var err error
	if p.Color, err = colorOr(spec.Color, p.Color); err != nil {
		return nil, fmt.Errorf("vehicle %s: %w", spec.Shape, err)
	}
	if p.Accent, err = colorOr(spec.Accent, p.Accent); err != nil {
		return nil, fmt.Errorf("vehicle %s: accent: %w", spec.Shape, err)
	}
	texFor := map[RGB]*Texture{}
	for _, m := range []struct {
		name string
		own  *plugins.Material
		c    RGB
	}{{spec.Material, spec.Own, p.Color}, {spec.AccentMaterial, spec.AccentOwn, p.Accent}} {
		if m.name == "" {
			continue
		}
		var l *plugins.Layout // the vehicle's own material, looked up as a track's are
		if m.own != nil {
			l = &plugins.Layout{Materials: []plugins.Material{*m.own}}
		}
		t, _, err := materialTexture(l, m.name, m.c.String(), 0)
		if err != nil {
			return nil, fmt.Errorf("vehicle %s: %w", spec.Shape, err)
		}
		texFor[m.c] = t
	}
	build := func(detail float64) *Mesh {
		b := MeshBuilder{detail: detail}
		for c, t := range texFor {
			b.SetTextureFor(c, t)
		}
		k.fn(&b, p)
		return b.Mesh()
	}
	return withLevels(build(1), build), nil
}

// VehicleSpecFor reads a descriptor's Visual and Body: the shape and colours from Visual
// ("box" when there is none), the size from Body (a circle body is 2·Radius long and wide).
func VehicleSpecFor(d *plugins.VehicleDescriptor) VehicleSpec {
	s := VehicleSpec{Shape: "box"}
	if v := d.Visual; v != nil {
		if v.Shape != "" {
			s.Shape = v.Shape
		}
		s.Color, s.Accent = v.Color, v.Accent
		s.Material, s.AccentMaterial = v.Material, v.AccentMaterial
		s.Own, s.AccentOwn = ownMaterial(d, v.Material), ownMaterial(d, v.AccentMaterial)
	}
	if b := d.Body; b != nil {
		s.Length, s.Width, s.Height = b.Length, b.Width, b.Height
		if b.Shape == "circle" {
			s.Length, s.Width = 2*b.Radius, 2*b.Radius
		}
	}
	return s
}

// ownMaterial returns the vehicle's own material called name, nil when it has none of that
// name (a built-in one, or none).
func ownMaterial(d *plugins.VehicleDescriptor, name string) *plugins.Material {
	for i := range d.Materials {
		if name != "" && d.Materials[i].Name == name {
			return &d.Materials[i]
		}
	}
	return nil
}
