package render

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"simgui/plugins"
)

// realScene is what the realistic pipeline draws a Static with: linear colours, the floor's
// texture and baked light, and the sun's shadow map. A flat Static has one too, holding its
// baked colours as linear radiance (so a camera with a lens or film draws it as it looks).
type realScene struct {
	lit       bool // lighting is computed here (false: colours are the flat look's, lit)
	env       Environment
	sunUp     float64 // max(0, L·up): the sun's cosine on the floor
	sky       [skyLUTSize][3]float32
	ground    [3]float32 // linear albedo (radiance when !lit)
	floorTex  *Texture   // floor texture (unlit when lit)
	floorAlb  [3]float32 // plain floor albedo, or the texture's tint
	floorLit  *floorLight
	shadow    *shadowMap
	frame     lightFrame
	hasShadow bool
	light     lightTerms
	litFloor  *litFloor // nil: the floor is drawn from its texture and light map
}

// triReal is the realistic pipeline's data of one static triangle.
type triReal struct {
	alb   [3]float32 // linear albedo (untextured) or the tint applied to the texture
	cos   float32    // max(0, n·L)
	voff  float32    // the texture's v offset: height above the floor is v − voff
	bias  float32    // shadow-map depth bias
	flags uint8
	vis   *sunVis // the sun's share baked (nil: look the shadow map up where triShadowTest)
	// ambLUT and sunLUT reflect the triangle's light off its texels (nil: lit the long way),
	// litLUT their sum (see rtriR).
	ambLUT, sunLUT, litLUT *reflectLUT
}

const (
	triTextured   = 1 << iota
	triWallFoot   // a vertical face reaching the floor: contact shadow by height
	triShadowTest // part of it may be in the static scene's shadow
)

// flatTris holds a flat Static's lit colours as linear radiance.
func flatTris(cols []RGB) []triReal {
	out := make([]triReal, len(cols))
	for i, c := range cols {
		l := linearOf(c)
		out[i].alb = [3]float32{float32(l[0]), float32(l[1]), float32(l[2])}
	}
	return out
}

// realPart returns what the realistic pipeline draws s with, making a flat Static's on first
// use.
func (s *Static) realPart() *realScene {
	if !s.env.Realistic {
		s.realOnce.Do(s.flatReal)
	}
	return &s.real
}

// flatReal fills a flat Static's realScene and its chunks' realistic triangles from its baked
// colours.
func (s *Static) flatReal() {
	for i := range s.chunks {
		s.chunks[i].rl = flatTris(s.chunks[i].cols)
	}
	s.realReady = true
	r := &s.real
	r.env = Environment{Ambient: 1, AmbientColor: [3]float64{1, 1, 1}, SunColor: [3]float64{1, 1, 1}, SkyIntensity: 1}
	for i, c := range s.sky {
		l := linearOf(c)
		r.sky[i] = [3]float32{float32(l[0]), float32(l[1]), float32(l[2])}
	}
	r.ground = lin32(s.ground)
	r.floorTex = s.floor.tex
	r.floorAlb = lin32(s.floor.plain)
	if r.floorTex != nil {
		r.floorAlb = [3]float32{1, 1, 1}
	}
	r.setupLight()
}

func lin32(c RGB) [3]float32 {
	l := linearOf(c)
	return [3]float32{float32(l[0]), float32(l[1]), float32(l[2])}
}

// newRealStatic builds the realistic Static: materials on every element (randomized as the
// environment says), distractors, the shadow map and the floor's light.
func newRealStatic(layout *plugins.Layout, s *Static) (*Static, error) {
	s.env = s.env.normalized()
	env := &s.env
	s.light = env.lightDir()
	s.sky = env.skyLUT()
	r := &s.real
	r.lit, r.env = true, *env
	r.sunUp = math.Max(0, s.light[2])
	for i, c := range s.sky {
		l := linearOf(c)
		r.sky[i] = [3]float32{float32(l[0] * env.SkyIntensity), float32(l[1] * env.SkyIntensity), float32(l[2] * env.SkyIntensity)}
	}
	r.ground = lin32(env.Ground)
	// The flat look's fields stay filled, for anything that reads them.
	up := s.env.shadeFactor(mgl64.Vec3{0, 0, 1}, s.light)
	s.ground = env.Ground.Scale(up)
	rng := newPick(env.Seed)
	if layout == nil {
		r.setupLight()
		return s, nil
	}
	if f := layout.Floor; f.Length > 0 && f.Width > 0 {
		s.floor = floorRect{ok: true, x0: f.X - f.Length/2, y0: f.Y - f.Width/2, length: f.Length, width: f.Width}
		c, err := colorOr(f.Color, colorFloor)
		if err != nil {
			return nil, fmt.Errorf("floor: %w", err)
		}
		s.floor.plain = c.Scale(up)
		r.floorAlb = lin32(c)
		if f.Texture != "" {
			t, _, err := materialTexture(layout, f.Texture, f.Color, rng.variant(-1, env.TextureSwap))
			if err != nil {
				return nil, fmt.Errorf("floor: %w", err)
			}
			r.floorTex = t
			r.floorAlb = [3]float32{1, 1, 1}
		}
		r.floorAlb = mul3(r.floorAlb, rng.jitter(-1, env.ColorJitter))
	}
	lifts := layerLifts(layout)
	var b MeshBuilder
	for i := range layout.Elements {
		e := &layout.Elements[i]
		if e.Movable {
			continue
		}
		b = MeshBuilder{verts: b.verts[:0], tris: b.tris[:0], marks: b.marks[:0], convex: b.convex[:0]}
		tex, err := elementTexture(layout, e, rng.variant(i, env.TextureSwap))
		if err != nil {
			return nil, fmt.Errorf("element %d %s: %w", i, elementName(e), err)
		}
		b.SetTexture(tex)
		if err := buildElement(&b, lifted(e, lifts[i])); err != nil {
			return nil, fmt.Errorf("element %d %s: %w", i, elementName(e), err)
		}
		s.addRealMesh(b.Mesh(), rng.jitter(i, env.ColorJitter), rng.offset(i))
	}
	if env.Distractors > 0 {
		for k, d := range distractors(layout, env, &rng) {
			s.addRealMesh(d.mesh, mul3(d.tint, rng.jitter(1<<20+k, env.ColorJitter)), rng.offset(1<<20+k))
		}
	}
	s.bakeLight(layout)
	return s, nil
}

// elementTexture returns the texture of an element in the realistic look: its material's, or
// its kind's default material's; nil for kinds that stay plain (markers).
func elementTexture(l *plugins.Layout, e *plugins.Element, variant int) (*Texture, error) {
	name := e.Material
	if name == "" {
		name = defaultMaterial[e.Kind]
	}
	if name == "" {
		return nil, nil
	}
	color := e.Color
	if color == "" {
		if def, ok := elementColor[e.Kind]; ok {
			color = def.String()
		}
	}
	t, _, err := materialTexture(l, name, color, variant)
	return t, err
}

// elementColor is the default colour of element kinds (as the flat look draws them), which
// tints their default material.
var elementColor = map[string]RGB{
	"wall": colorCardboard, "box": colorBox, "cylinder": colorSolid, "polygon": colorSolid, "road": colorRoad,
}

// addRealMesh adds a world-frame mesh with a colour tint and a texture offset (u, v metres).
func (s *Static) addRealMesh(m *Mesh, tint [3]float32, off [2]float32) {
	if len(m.tris) == 0 {
		return
	}
	for i := range m.tris {
		if m.tris[i].tex != nil {
			for k := range 3 {
				m.tris[i].uv[k][0] += off[0]
				m.tris[i].uv[k][1] += off[1]
			}
		}
	}
	c := chunk{mesh: m, cols: make([]RGB, len(m.tris)), lo: vec64(m.min), hi: vec64(m.max)}
	for i, t := range m.tris {
		c.cols[i] = t.col.Scale(s.env.shadeFactor(vec64(t.n), s.light))
	}
	c.rl = s.realTris(m, tint, off[1])
	c.foot = m.min[2] < 0.01 && m.max[2] > 0.01
	s.chunks = append(s.chunks, c)
}

// realTris computes the realistic data of a static mesh's triangles.
func (s *Static) realTris(m *Mesh, tint [3]float32, voff float32) []triReal {
	out := make([]triReal, len(m.tris))
	for i, t := range m.tris {
		n := vec64(t.n)
		rt := &out[i]
		rt.cos = float32(math.Max(0, n.Dot(s.light)))
		if t.tex != nil {
			rt.alb = tint
			rt.flags |= triTextured
			rt.voff = voff
			lo := min(m.verts[t.v[0]][2], m.verts[t.v[1]][2], m.verts[t.v[2]][2])
			if math.Abs(n[2]) < 0.01 && lo < 0.01 {
				rt.flags |= triWallFoot
			}
		} else {
			rt.alb = mul3(lin32(t.col), tint)
		}
	}
	return out
}

func mul3(a, b [3]float32) [3]float32 { return [3]float32{a[0] * b[0], a[1] * b[1], a[2] * b[2]} }

// floorLevel reports whether a mesh lies flat on the floor (roads, floor markers, tape): it
// casts no shadow there.
func floorLevel(m *Mesh) bool { return m.max[2] < 0.005 }

// bakeLight builds the static shadow map, marks which triangles it may shadow and bakes the
// floor's light.
func (s *Static) bakeLight(layout *plugins.Layout) {
	r := &s.real
	env := &s.env
	r.frame = newLightFrame(s.light)
	if env.Shadows && r.sunUp > 0.02 {
		s0, t0, s1, t1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
		grow := func(p mgl64.Vec3) {
			a, b, _ := r.frame.project(p)
			s0, s1, t0, t1 = math.Min(s0, a), math.Max(s1, a), math.Min(t0, b), math.Max(t1, b)
		}
		for _, c := range s.chunks {
			for _, v := range c.mesh.verts {
				grow(vec64(v))
			}
		}
		if f := s.floor; f.ok {
			for _, p := range [4][2]float64{{f.x0, f.y0}, {f.x0 + f.length, f.y0}, {f.x0, f.y0 + f.width}, {f.x0 + f.length, f.y0 + f.width}} {
				grow(mgl64.Vec3{p[0], p[1], 0})
			}
		}
		if s0 < s1 && t0 < t1 {
			sm := newShadowMap(r.frame, s0, t0, s1, t1, minShadowTexel, maxShadowSide)
			for _, c := range s.chunks {
				if floorLevel(c.mesh) {
					continue
				}
				for _, t := range c.mesh.tris {
					sm.drawTriangle(sm.toTexels(vec64(c.mesh.verts[t.v[0]])), sm.toTexels(vec64(c.mesh.verts[t.v[1]])), sm.toTexels(vec64(c.mesh.verts[t.v[2]])))
				}
			}
			sm.summarize()
			r.shadow, r.hasShadow = sm, true
			budget := maxSunVisTotal
			for ci := range s.chunks {
				c := &s.chunks[ci]
				for i := range c.mesh.tris {
					t := &c.mesh.tris[i]
					rt := &c.rl[i]
					if rt.cos <= 0 {
						continue
					}
					rt.bias = float32(slopeBias(float64(rt.cos), sm.texel))
					if sm.anyShadowed(sm.toTexels(vec64(c.mesh.verts[t.v[0]])), sm.toTexels(vec64(c.mesh.verts[t.v[1]])),
						sm.toTexels(vec64(c.mesh.verts[t.v[2]])), float64(rt.bias)) {
						rt.flags |= triShadowTest
						if rt.flags&triTextured != 0 {
							if rt.vis = bakeSunVis(c.mesh, t, sm, float64(rt.bias), budget); rt.vis != nil {
								budget -= len(rt.vis.f)
							}
						}
					}
				}
			}
		}
	}
	// The floor's light covers the floor rectangle, or what stands on the plane.
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	if f := s.floor; f.ok {
		x0, y0, x1, y1 = f.x0, f.y0, f.x0+f.length, f.y0+f.width
	} else {
		for _, c := range s.chunks {
			x0, y0 = math.Min(x0, c.lo[0]-0.5), math.Min(y0, c.lo[1]-0.5)
			x1, y1 = math.Max(x1, c.hi[0]+0.5), math.Max(y1, c.hi[1]+0.5)
		}
	}
	if x0 < x1 && y0 < y1 && (env.ContactShadow > 0 || r.hasShadow) {
		var solids []*Mesh
		for _, c := range s.chunks {
			if c.foot {
				solids = append(solids, c.mesh)
			}
		}
		texel := math.Max(minLightTexel, math.Max(x1-x0, y1-y0)/maxLightSide)
		if s.floor.ok {
			texel, _ = floorGrid(math.Max(x1-x0, y1-y0), r.floorTex)
		}
		r.floorLit = bakeFloorLight(x0, y0, x1, y1, texel, solids, r.shadow, env, r.sunUp)
	}
	r.setupLight()
	if s.floor.ok {
		r.litFloor = newLitFloor(r, &s.floor)
	}
	s.reflectTables()
}

// anyShadowed reports whether some texel the light-space triangle covers is nearer the sun
// than the triangle by more than bias: a triangle without such texels needs no shadow lookups.
// Texels up to one texel outside the triangle count too, since frames sample unfiltered at
// pixel centres that may fall just beyond a texel the triangle covers.
func (m *shadowMap) anyShadowed(a, b, c [3]float64, bias float64) bool {
	area := (b[0]-a[0])*(c[1]-a[1]) - (c[0]-a[0])*(b[1]-a[1])
	if area == 0 || math.IsNaN(area) {
		return false
	}
	if area < 0 {
		b, c = c, b
		area = -area
	}
	// Edge functions divided by their edge's length are distances in texels.
	la, lb, lc := math.Hypot(c[0]-b[0], c[1]-b[1]), math.Hypot(a[0]-c[0], a[1]-c[1]), math.Hypot(b[0]-a[0], b[1]-a[1])
	x0 := max(0, int(math.Floor(min(a[0], b[0], c[0])))-1)
	x1 := min(m.w-1, int(math.Ceil(max(a[0], b[0], c[0])))+1)
	y0 := max(0, int(math.Floor(min(a[1], b[1], c[1])))-1)
	y1 := min(m.h-1, int(math.Ceil(max(a[1], b[1], c[1])))+1)
	for y := y0; y <= y1; y++ {
		py := float64(y) + 0.5
		for x := x0; x <= x1; x++ {
			px := float64(x) + 0.5
			w0 := (b[0]-px)*(c[1]-py) - (c[0]-px)*(b[1]-py)
			w1 := (c[0]-px)*(a[1]-py) - (a[0]-px)*(c[1]-py)
			w2 := area - w0 - w1
			if w0 < -1.5*la || w1 < -1.5*lb || w2 < -1.5*lc {
				continue
			}
			// Clamp the barycentrics so that texels just outside take the edge's depth.
			u0, u1, u2 := max(w0, 0), max(w1, 0), max(w2, 0)
			sum := u0 + u1 + u2
			if sum == 0 {
				continue
			}
			d := (u0*a[2] + u1*b[2] + u2*c[2]) / sum
			if float64(m.depth[y*m.w+x]) < d-bias {
				return true
			}
		}
	}
	return false
}

// reflectTables gives each textured triangle the tables of its light (see reflectLUT), as the
// realistic pipeline lights it (realLight), shared by the triangles of the same light.
func (s *Static) reflectTables() {
	lt := &s.real.light
	luts := reflectLUTs{}
	sums := map[[2]*reflectLUT]*reflectLUT{}
	for ci := range s.chunks {
		for i := range s.chunks[ci].rl {
			rt := &s.chunks[ci].rl[i]
			if rt.flags&triTextured == 0 {
				continue
			}
			var amb, sun [3]int32
			for c := range 3 {
				amb[c] = fixed(lt.amb[c] * float64(rt.alb[c]))
				sun[c] = fixed(lt.sun[c] * float64(rt.cos) * float64(rt.alb[c]))
			}
			if rt.ambLUT = luts.get(amb, ambLaneMax); rt.ambLUT != nil {
				if rt.sunLUT = luts.get(sun, sunLaneMax); rt.sunLUT == nil {
					rt.ambLUT = nil
				}
			}
			if rt.ambLUT != nil {
				k := [2]*reflectLUT{rt.ambLUT, rt.sunLUT}
				if rt.litLUT = sums[k]; rt.litLUT == nil && len(sums) < maxReflectLUTs {
					rt.litLUT = rt.ambLUT.plus(rt.sunLUT)
					sums[k] = rt.litLUT
				}
			}
		}
	}
}
