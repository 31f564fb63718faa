package trackgen

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"simgui/plugins"
)

func TestCorridorAtDefaultsIsRusims(t *testing.T) {
	tr := builtinTrack(t, "track.cardboard_corridor.v1")
	l := build(t, tr, map[string]any{"length": 2.0, "width": 0.6}, 1)
	aEnd, _ := byName(l.Elements, "wall.a.end")
	bEnd, _ := byName(l.Elements, "wall.b.end")
	if inner := aEnd.Y + aEnd.Width/2; !near(inner, -1.10, 1e-9) {
		t.Errorf("leg A ends at y = %v, want -1.10", inner)
	}
	if inner := bEnd.X - bEnd.Width/2; !near(inner, 0.90, 1e-9) {
		t.Errorf("leg B ends at x = %v, want 0.90", inner)
	}
	for _, e := range l.Elements {
		if e.Kind == plugins.ElementWall && (e.Height != 0.25 || e.Width != 0.02 || e.Friction != 0.9) {
			t.Errorf("wall %s: %+v", e.Name, e)
		}
	}
	if s := l.SpawnPoints[0]; !near(s.X, 0, 1e-12) || !near(s.Y, -0.85, 1e-12) || s.YawDeg != 90 {
		t.Errorf("spawn %+v, want (0, -0.85) facing north", s)
	}
	want := [][2]float64{{0, -0.55}, {0, -0.15}, {0.18, 0}, {0.60, 0}}
	for i, w := range want {
		if !near(l.Route.Waypoints[i][0], w[0], 1e-9) || !near(l.Route.Waypoints[i][1], w[1], 1e-9) {
			t.Errorf("waypoint %d = %v, want %v", i, l.Route.Waypoints[i], w)
		}
	}
	if len(l.Route.Waypoints) != 4 || l.Route.ReachDistance != 0.25 {
		t.Errorf("route %+v", l.Route)
	}
	m, ok := byName(l.Elements, "aruco.0")
	if !ok || m.Kind != plugins.ElementMarker || m.YawDeg != 180 || !near(m.X, 0.9, 0.01) || m.Y != 0 || m.Z <= 0 || m.Z >= 0.25 {
		t.Errorf("marker %+v, want on leg B's end wall facing west", m)
	}
	// ArUco marker 0, its white margin (4/3 of its side) inside the wall's face.
	if m.ArucoID == nil || *m.ArucoID != 0 || m.Length*4/3 > 0.6 || m.Z+m.Length*2/3 > corridorWallH || m.Z-m.Length*2/3 < 0 {
		t.Errorf("marker %+v (aruco id %v), want ArUco marker 0 inside the end wall", m, m.ArucoID)
	}
	if l.Floor.Texture != "plywood" {
		t.Errorf("floor %+v", l.Floor)
	}
	if l2 := build(t, tr, map[string]any{"length": 2.0, "width": 0.6, "floor_texture": "carpet"}, 1); l2.Floor.Texture != "carpet" || l2.Floor.Color == l.Floor.Color {
		t.Errorf("floor_texture carpet gave %+v", l2.Floor)
	}
}

// TestCorridorGeometry checks, for several sizes, that the inner width equals the parameter in
// both legs and that the walls close a region of area width × length around the spawn.
func TestCorridorGeometry(t *testing.T) {
	tr := builtinTrack(t, "track.cardboard_corridor.v1")
	for _, size := range [][2]float64{{2, 0.6}, {2, 0.4}, {5, 1.2}, {20, 0.3}, {6, 2.0}, {1, 0.3}} {
		length, width := size[0], size[1]
		l := build(t, tr, map[string]any{"length": length, "width": width}, 1)
		face := func(name string, sign float64, alongX bool) float64 {
			e, ok := byName(l.Elements, name)
			if !ok {
				t.Fatalf("no %s", name)
			}
			if alongX {
				return e.Y + sign*e.Width/2
			}
			return e.X + sign*e.Width/2
		}
		if w := face("wall.a.east", -1, false) - face("wall.a.west", 1, false); !near(w, width, 1e-9) {
			t.Errorf("%v: leg A inner width %v", size, w)
		}
		if w := face("wall.b.north", -1, true) - face("wall.b.south", 1, true); !near(w, width, 1e-9) {
			t.Errorf("%v: leg B inner width %v", size, w)
		}
		area, leaked := floodArea(l, 0.01)
		if leaked {
			t.Errorf("%v: the corridor is open", size)
		}
		if want := width * length; math.Abs(area-want)/want > 0.04 {
			t.Errorf("%v: enclosed area %.3f m², want %.3f", size, area, want)
		}
	}
}

// floodArea rasterises the layout at res metres, fills from the spawn point and returns the
// free area reached and whether the fill reached the floor's edge.
func floodArea(l *plugins.Layout, res float64) (float64, bool) {
	x0, y0 := l.Floor.X-l.Floor.Length/2, l.Floor.Y-l.Floor.Width/2
	nx, ny := int(l.Floor.Length/res), int(l.Floor.Width/res)
	free := func(i, j int) bool {
		return !inSolid(l.Elements, [2]float64{x0 + (float64(i)+0.5)*res, y0 + (float64(j)+0.5)*res}, 0)
	}
	seen := make([]bool, nx*ny)
	si, sj := int((l.SpawnPoints[0].X-x0)/res), int((l.SpawnPoints[0].Y-y0)/res)
	stack := [][2]int{{si, sj}}
	seen[sj*nx+si] = true
	n, leaked := 0, false
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n++
		for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			i, j := c[0]+d[0], c[1]+d[1]
			if i < 0 || j < 0 || i >= nx || j >= ny {
				leaked = true
				continue
			}
			if !seen[j*nx+i] && free(i, j) {
				seen[j*nx+i] = true
				stack = append(stack, [2]int{i, j})
			}
		}
	}
	return float64(n) * res * res, leaked
}

func TestCorridorTooShortForItsWidth(t *testing.T) {
	tr := builtinTrack(t, "track.cardboard_corridor.v1")
	_, err := Build(tr, map[string]any{"length": 1, "width": 2}, 1)
	var pe *plugins.ParamError
	if !errors.As(err, &pe) || pe.Key != "length" || !strings.Contains(err.Error(), "use a length of at least 2.56") {
		t.Errorf("err = %v", err)
	}
	if l := build(t, tr, map[string]any{"length": 2.56, "width": 2}, 1); l == nil {
		t.Error("the suggested length does not build")
	}
}

func TestCorridorCommonParamsOverride(t *testing.T) {
	tr := builtinTrack(t, "track.cardboard_corridor.v1")
	l := build(t, tr, map[string]any{"length": "2", "width": "0.6", "spawn.position": "0,0.01,-0.85", "route.reach_distance_m": 0.3}, 1)
	if s := l.SpawnPoints[0]; s.X != 0 || s.Y != 0.01 {
		t.Errorf("spawn %+v: x,y,z is the world frame, z dropped", s)
	}
	base := build(t, tr, map[string]any{"length": 2, "width": 0.6}, 1)
	if !reflect.DeepEqual(l.Elements, base.Elements) || l.Route.ReachDistance != 0.3 {
		t.Error("common params changed the geometry or did not set the reach distance")
	}
}
