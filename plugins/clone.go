package plugins

import "maps"

// Clone returns a deep copy of c; nil stays nil.
func (c *DeviceContract) Clone() *DeviceContract {
	if c == nil {
		return nil
	}
	out := *c
	out.Sensors = cloneSlice(c.Sensors, func(s SensorDescriptor) SensorDescriptor {
		s.Shape = cloneSlice(s.Shape, nil)
		if s.Noise != nil {
			n := *s.Noise
			s.Noise = &n
		}
		return s
	})
	out.Actuators = cloneSlice(c.Actuators, nil)
	return &out
}

// Clone returns a deep copy of v, contract included; nil stays nil.
func (v *VehicleDescriptor) Clone() *VehicleDescriptor {
	if v == nil {
		return nil
	}
	out := *v
	out.Body = clonePtr(v.Body)
	if v.Drive != nil {
		d := *v.Drive
		d.Params = maps.Clone(v.Drive.Params)
		out.Drive = &d
	}
	out.Visual = clonePtr(v.Visual)
	out.Materials = cloneMaterials(v.Materials)
	out.Sensors = cloneSlice(v.Sensors, func(m SensorMount) SensorMount {
		m.Params = maps.Clone(m.Params)
		return m
	})
	out.Contract = v.Contract.Clone()
	return &out
}

// Clone returns a deep copy of t; nil stays nil.
func (t *TrackDescriptor) Clone() *TrackDescriptor {
	if t == nil {
		return nil
	}
	out := *t
	out.Floor = clonePtr(t.Floor)
	out.Elements = cloneElements(t.Elements)
	out.Materials = cloneMaterials(t.Materials)
	out.SpawnPoints = cloneSlice(t.SpawnPoints, nil)
	out.Route = t.Route.Clone()
	return &out
}

// Clone returns a deep copy of r; nil stays nil.
func (r *Route) Clone() *Route {
	if r == nil {
		return nil
	}
	out := *r
	out.Waypoints = cloneSlice(r.Waypoints, nil)
	return &out
}

// Clone returns a deep copy of l; nil stays nil.
func (l *Layout) Clone() *Layout {
	if l == nil {
		return nil
	}
	out := *l
	out.Elements = cloneElements(l.Elements)
	out.Materials = cloneMaterials(l.Materials)
	out.SpawnPoints = cloneSlice(l.SpawnPoints, nil)
	out.Route = l.Route.Clone()
	return &out
}

func cloneElements(es []Element) []Element {
	return cloneSlice(es, func(e Element) Element {
		e.Points = cloneSlice(e.Points, nil)
		return e
	})
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// cloneSlice copies s element by element through deep (nil: a plain copy), keeping nil as nil.
func cloneSlice[T any](s []T, deep func(T) T) []T {
	if s == nil {
		return nil
	}
	out := make([]T, len(s))
	for i, x := range s {
		if deep != nil {
			x = deep(x)
		}
		out[i] = x
	}
	return out
}

// cloneMaterials copies the slices of ms; the image bytes are shared (never modified).
func cloneMaterials(ms []Material) []Material {
	return cloneSlice(ms, func(m Material) Material {
		m.Textures = cloneSlice(m.Textures, nil)
		m.Images = cloneSlice(m.Images, nil)
		return m
	})
}
