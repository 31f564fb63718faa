package trackgen

import (
	"math"
	"testing"

	"simgui/plugins"
)

func builtinTrack(t *testing.T, id string) *plugins.TrackDescriptor {
	t.Helper()
	tr, err := plugins.Builtin().Track(id)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func defaults(t *testing.T, tr *plugins.TrackDescriptor) map[string]any {
	t.Helper()
	d, err := plugins.TrackParamDefaults(tr)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func build(t *testing.T, tr *plugins.TrackDescriptor, params map[string]any, seed int64) *plugins.Layout {
	t.Helper()
	l, err := Build(tr, params, seed)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// inSolid reports whether p lies inside a wall or box element grown by margin.
func inSolid(es []plugins.Element, p [2]float64, margin float64) bool {
	for _, e := range es {
		if e.Kind != plugins.ElementWall && e.Kind != plugins.ElementBox {
			continue
		}
		yaw := e.YawDeg * math.Pi / 180
		dx, dy := p[0]-e.X, p[1]-e.Y
		u := dx*math.Cos(yaw) + dy*math.Sin(yaw)
		v := -dx*math.Sin(yaw) + dy*math.Cos(yaw)
		if math.Abs(u) <= e.Length/2+margin && math.Abs(v) <= e.Width/2+margin {
			return true
		}
	}
	return false
}

func byName(es []plugins.Element, name string) (plugins.Element, bool) {
	for _, e := range es {
		if e.Name == name {
			return e, true
		}
	}
	return plugins.Element{}, false
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }
