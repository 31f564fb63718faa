package window

import (
	"github.com/go-gl/mathgl/mgl64"

	"simgui/app/markers"
	"simgui/app/world"
	"simgui/plugins"
	"simgui/render"
)

// scene3d builds what simgui/render draws from snapshots — the track's Static once per layout,
// a mesh per vehicle descriptor and per movable box, and the markers — and keeps them between
// frames. It is owned by one goroutine.
type scene3d struct {
	layoutVersion uint64
	static        *render.Static
	vehicles      map[*plugins.VehicleDescriptor]*render.Mesh
	boxes         map[[3]float64]*render.Mesh
	markerSet     *markers.Set
	markerMesh    *render.Mesh
	objs          []render.Object
}

func newScene3d() *scene3d {
	return &scene3d{vehicles: map[*plugins.VehicleDescriptor]*render.Mesh{}, boxes: map[[3]float64]*render.Mesh{}}
}

// update makes the scene match snap and returns the static part and the objects to draw.
func (s *scene3d) update(snap *world.Snapshot) (*render.Static, []render.Object, error) {
	if s.static == nil || snap.LayoutVersion != s.layoutVersion {
		st, err := render.NewStatic(snap.Layout, nil)
		if err != nil && snap.Layout != nil && snap.Layout.Floor.Texture != "" {
			// A floor texture render does not know (yet): draw the floor in its plain colour
			// rather than nothing at all.
			l := *snap.Layout
			l.Floor.Texture = ""
			st, err = render.NewStatic(&l, nil)
		}
		if err != nil {
			return nil, nil, err
		}
		s.static, s.layoutVersion = st, snap.LayoutVersion
	}
	s.objs = s.objs[:0]
	for i := range snap.Models {
		m := &snap.Models[i]
		mesh, ok := s.vehicles[m.Vehicle]
		if !ok {
			var err error
			if mesh, err = render.NewVehicleMesh(render.VehicleSpecFor(m.Vehicle)); err != nil {
				mesh = nil // drawn as nothing rather than failing the frame
			}
			s.vehicles[m.Vehicle] = mesh
		}
		s.objs = append(s.objs, render.Object{Mesh: mesh, Pose: render.Pose{X: m.Pose.X, Y: m.Pose.Y, Z: m.Pose.Z, Yaw: m.Pose.Yaw}})
	}
	for _, b := range snap.Boxes {
		key := [3]float64{b.Length, b.Width, b.Height}
		mesh, ok := s.boxes[key]
		if !ok {
			mesh, _ = render.NewElementMesh(&plugins.Element{Kind: plugins.ElementBox, Length: b.Length, Width: b.Width, Height: b.Height})
			s.boxes[key] = mesh
		}
		s.objs = append(s.objs, render.Object{Mesh: mesh, Pose: render.Pose{X: b.Pose.X, Y: b.Pose.Y, Z: b.Pose.Z, Yaw: b.Pose.Yaw}})
	}
	if set, _ := snap.Overlays[markers.OverlayKey].(*markers.Set); set != s.markerSet {
		s.markerSet, s.markerMesh = set, markerMesh(set)
	}
	if s.markerMesh != nil {
		s.objs = append(s.objs, render.Object{Mesh: s.markerMesh})
	}
	return s.static, s.objs, nil
}

// markerMesh builds the lines, boxes and spheres of a marker set in the world frame (text is
// not drawn in 3D).
func markerMesh(set *markers.Set) *render.Mesh {
	if set.Len() == 0 {
		return nil
	}
	var b render.MeshBuilder
	for m := range set.All() {
		c := m.RGBA.NRGBA()
		col := render.RGB{R: c.R, G: c.G, B: c.B}
		p := mgl64.Vec3{m.Point.X, m.Point.Y, m.Point.Z}
		size := max(m.Size, 0.005)
		switch m.Kind {
		case "Line":
			b.Segment(p, mgl64.Vec3{m.End.X, m.End.Y, m.End.Z}, size, col)
		case "Box":
			b.Box(p, mgl64.Vec3{size, size, size}, 0, col)
		case "Sphere":
			b.Sphere(p, size/2, col)
		}
	}
	return b.Mesh()
}
