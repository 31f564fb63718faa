package render

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"simgui/plugins"
)

// MaxDistractors is the most distractor objects a scene takes (Environment.Distractors).
const MaxDistractors = 64

// pick draws the scene's randomized choices from the environment's seed: each element's by its
// index, so that one element's draws do not depend on the others'.
type pick struct{ seed uint64 }

func newPick(seed uint64) pick { return pick{seed: seed} }

// unit returns a number in [0, 1) for element i, draw k.
func (p pick) unit(i, k int) float64 {
	g := splitmix64{p.seed ^ uint64(int64(i))*0x9e3779b97f4a7c15 ^ uint64(k)*0xd1b54a32d192ed03}
	g.next()
	return float64(g.next()>>11) / (1 << 53)
}

// variant returns the texture variant of element i: 0, or with probability swap a random
// other one (variant is taken modulo the material's set size; 1 + a random number keeps it
// from being 0 where the set has more than one).
func (p pick) variant(i int, swap float64) int {
	if swap <= 0 || p.unit(i, 0) >= swap {
		return 0
	}
	return 1 + int(p.unit(i, 1)*1e6)
}

// jitter returns element i's colour gains in [1 − j, 1 + j].
func (p pick) jitter(i int, j float64) [3]float32 {
	if j <= 0 {
		return [3]float32{1, 1, 1}
	}
	var g [3]float32
	for c := range g {
		g[c] = float32(1 + j*(2*p.unit(i, 2+c)-1))
	}
	return g
}

// offset returns element i's texture offset in metres, so that neighbouring walls of one
// material do not show the same pattern; with seed 0 it depends on the index alone.
func (p pick) offset(i int) [2]float32 {
	return [2]float32{float32(p.unit(i, 5) * 3), float32(p.unit(i, 6) * 3)}
}

// splitmix64 is SplitMix64 (Steele, Lea, Flood 2014).
type splitmix64 struct{ s uint64 }

func (g *splitmix64) next() uint64 {
	var z uint64
	g.s, z = splitmixStep(g.s)
	return z
}

// splitmixGamma is splitmixStep's increment: k draws move a stream's state by k of it
// (lensRow's kernels continue a row's stream so; lensrow.h's SPLITMIX spells it out).
const splitmixGamma = 0x9e3779b97f4a7c15

// splitmixStep is SplitMix64 on its state as a value: the next state and the draw (a loop
// that keeps the state in a local keeps it in a register, where a method's receiver would
// be kept in memory).
func splitmixStep(s uint64) (next, z uint64) {
	s += splitmixGamma
	z = s
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return s, z ^ z>>31
}

// Distractor placement: at least distractorClearance metres plus the object's radius from the
// path robots drive (drivenPath), clear of every element's footprint by its radius.
const distractorClearance = 0.16

var distractorMaterials = []string{"cardboard", "painted_wood", "concrete", "brick", "tape", "plywood", "carpet"}

// distractors returns up to env.Distractors meshes (world frame, textured, each with its
// tint) on the floor rectangle (or around the elements) away from the route and from elements.
func distractors(l *plugins.Layout, env *Environment, p *pick) []distractor {
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	if f := l.Floor; f.Length > 0 && f.Width > 0 {
		x0, y0, x1, y1 = f.X-f.Length/2, f.Y-f.Width/2, f.X+f.Length/2, f.Y+f.Width/2
	}
	type disc struct{ x, y, r float64 }
	var blocked []disc // element footprints, coarsely, as discs along them
	var rects [][4][2]float64
	for _, e := range l.Elements {
		if e.Height <= 0 && e.Kind != plugins.ElementMarker {
			continue
		}
		switch e.Kind {
		case plugins.ElementWall, plugins.ElementBox:
			s, c := math.Sincos(mgl64.DegToRad(e.YawDeg))
			hl, hw := e.Length/2, e.Width/2
			var q [4][2]float64
			for k, sg := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
				q[k] = [2]float64{e.X + c*sg[0]*hl - s*sg[1]*hw, e.Y + s*sg[0]*hl + c*sg[1]*hw}
			}
			rects = append(rects, q)
		case plugins.ElementCylinder:
			blocked = append(blocked, disc{e.X, e.Y, e.Radius})
		default:
			for _, pt := range e.Points {
				blocked = append(blocked, disc{pt[0], pt[1], 0.05})
			}
			if len(e.Points) == 0 {
				blocked = append(blocked, disc{e.X, e.Y, math.Max(e.Length, e.Width) / 2})
			}
		}
		if math.IsInf(x0, 1) {
			x0, y0 = math.Min(x0, e.X-1), math.Min(y0, e.Y-1)
			x1, y1 = math.Max(x1, e.X+1), math.Max(y1, e.Y+1)
		}
	}
	if !(x0 < x1 && y0 < y1) {
		return nil
	}
	path := drivenPath(l)
	var placed []disc
	var out []distractor
	for k := range env.Distractors {
		u := func(j int) float64 { return p.unit(1<<24+k, j) }
		kind := int(u(0) * 3)
		size := 0.03 + 0.09*u(1)
		height := 0.04 + 0.16*u(2)
		r := size
		if kind == 2 {
			r = size * 1.5 // a sheet lying flat, up to A4
		}
		ok := false
		var x, y float64
		for try := range 40 {
			x = x0 + r + (x1-x0-2*r)*u(10+2*try)
			y = y0 + r + (y1-y0-2*r)*u(11+2*try)
			ok = clearOf(x, y, r+distractorClearance, path)
			for _, d := range blocked {
				ok = ok && math.Hypot(x-d.x, y-d.y) > r+d.r
			}
			for _, q := range rects {
				ok = ok && !nearRect(x, y, r, q)
			}
			for _, d := range placed {
				ok = ok && math.Hypot(x-d.x, y-d.y) > r+d.r
			}
			if ok {
				break
			}
		}
		if !ok {
			continue
		}
		placed = append(placed, disc{x, y, r})
		name := distractorMaterials[int(u(3)*float64(len(distractorMaterials)))]
		col := RGB{uint8(40 + 200*u(4)), uint8(40 + 200*u(5)), uint8(40 + 200*u(6))}
		// The material in its own colours (made once, then cached), turned to col by a
		// tint: a texture made in col would be made anew for every distractor of every reset.
		tex, _, err := materialTexture(nil, name, "", int(u(7)*8))
		if err != nil {
			continue
		}
		var b MeshBuilder
		b.SetTexture(tex)
		yaw := u(8) * math.Pi
		switch kind {
		case 0:
			b.Box(mgl64.Vec3{x, y, height / 2}, mgl64.Vec3{size * 1.4, size, height}, yaw, col)
		case 1:
			b.Cylinder(mgl64.Vec3{x, y, 0}, mgl64.Vec3{x, y, height}, size/2, 16, col)
		default:
			b.Box(mgl64.Vec3{x, y, markerLift / 2}, mgl64.Vec3{size * 2, size * 1.41, markerLift}, yaw, col)
		}
		out = append(out, distractor{mesh: b.Mesh(), tint: tintTo(col, materialBase(name))})
	}
	return out
}

// distractor is a distractor's mesh and the tint its texture is drawn with.
type distractor struct {
	mesh *Mesh
	tint [3]float32
}

// maxTint bounds a distractor's tint per channel: a dark channel of a material's own colour
// would otherwise take a gain that turns its texture's detail to noise.
const maxTint = 4

// tintTo is the per-channel linear gain that turns colour from into colour to.
func tintTo(to, from RGB) [3]float32 {
	t, f := linearOf(to), linearOf(from)
	var g [3]float32
	for c := range g {
		g[c] = float32(min(maxTint, t[c]/max(f[c], 1e-3)))
	}
	return g
}

// drivenPath is the path robots drive on l, as segments: from each spawn point to the route's
// first waypoint (a spawn point alone without a route), along the route, and back to its
// first waypoint when it loops.
func drivenPath(l *plugins.Layout) [][2][2]float64 {
	var route [][2]float64
	if l.Route != nil {
		route = l.Route.Waypoints
	}
	var out [][2][2]float64
	for _, sp := range l.SpawnPoints {
		s := [2]float64{sp.X, sp.Y}
		to := s
		if len(route) > 0 {
			to = route[0]
		}
		out = append(out, [2][2]float64{s, to})
	}
	for i := range route {
		switch {
		case i+1 < len(route):
			out = append(out, [2][2]float64{route[i], route[i+1]})
		case l.Route.Loop && i > 1:
			out = append(out, [2][2]float64{route[i], route[0]})
		default:
			out = append(out, [2][2]float64{route[i], route[i]})
		}
	}
	return out
}

// clearOf reports whether (x, y) is farther than d from every segment of path.
func clearOf(x, y, d float64, path [][2][2]float64) bool {
	for _, sg := range path {
		if plugins.SegmentDistance(sg[0], sg[1], [2]float64{x, y}) < d {
			return false
		}
	}
	return true
}

// nearRect reports whether the disc (x, y, r) touches the convex quadrilateral q.
func nearRect(x, y, r float64, q [4][2]float64) bool {
	inside := true
	for i := range 4 {
		a, b := q[i], q[(i+1)%4]
		if plugins.SegmentDistance(a, b, [2]float64{x, y}) < r {
			return true
		}
		if (b[0]-a[0])*(y-a[1])-(b[1]-a[1])*(x-a[0]) < 0 {
			inside = false
		}
	}
	return inside
}
