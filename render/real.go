package render

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// The realistic pipeline: triangles and the floor are drawn into a buffer of scene-linear light
// (one packed uint64 per pixel, see packLin; linOne = the film's full scale at exposure 1), lit
// per pixel from the Static's light terms, with shadow-map lookups where a shadow may fall;
// then the film pass (film.go) resamples through the lens, vignettes, applies the exposure and
// white balance, adds noise and encodes.

// realFrame is the realistic part of a frame's state, set up serially by Render.
type realFrame struct {
	lin     []uint64 // w·h packed pixels, the drawing buffer (the lens's undistorted image)
	blurred []uint64 // lin after motion blur
	scene   *realScene
	lt      *lightTerms // the scene's
	dyn     dynMap
	tris    []rtriR
	// shadePolys are the screen-space polygons of the casters' floor shadows (their chains
	// in shadeEdges), shade their mask (see shadeBand; filled band by band when there are any).
	shadePolys []shadePoly
	shadeEdges []shadeEdge
	shade      []uint16
	shadeCover []rowCover // per row, the columns the mask has any sample set in
	noShade    []uint16   // a row of zeros: the mask of a floor no caster shadows
	rowTmp     []uint64   // a row of scratch per band (the floor's samples)
}

// lightTerms are a realistic scene's light as the pipeline draws with it, made once when the
// Static is built.
type lightTerms struct {
	// amb and sun are the ambient and direct light per unit albedo (linear, 1 = full scale).
	amb, sun [3]float64
	sky      [skyLUTSize]uint64 // packed
	ground   uint64
	// floorLUT is the light of a floor light-map code times the plain floor's albedo (or the
	// floor texture's tint), linOne units.
	floorLUT [256][3]int32
	aoWall   [256]int32 // contact shadow by height above the floor in mm, 256 = none
}

// rtriR is a triangle of the realistic pipeline: its geometry as the flat pipeline scans it,
// attribute planes (value·(1/depth) over the screen) for perspective-correct texture and light
// space coordinates, and its light.
type rtriR struct {
	rtri
	tex       *Texture
	texel     float64 // metres per level-0 texel
	u, v      aplane  // texture coordinates, metres
	s, t, d   aplane  // light-space position, metres
	amb, sun  [3]int32
	voff      float32
	bias      float32
	flags     uint8
	constant  uint64 // the packed radiance when nothing varies across the triangle
	staticMap bool   // look up the static shadow map
	dynMap    bool   // look up the caster maps in casters
	casters   uint8  // the caster maps that may shadow the triangle
	// ambLUT and sunLUT reflect the triangle's amb and sun off a texel (nil: lit the long
	// way; see reflectLUT).
	ambLUT, sunLUT *reflectLUT
	// litLUT is ambLUT plus sunLUT in one table: the fully lit pixel without contact shadow
	// in three lookups instead of six (nil: use the two).
	litLUT *reflectLUT
	vis    *sunVis // a static triangle's sun past the static shadows, baked
}

// aplane is an attribute a·(1/depth) as a plane over the screen: a0 at the triangle's top
// vertex (xt, yt), ax and ay its change per pixel right and down.
type aplane struct{ a0, ax, ay float64 }

// newAPlane fits the plane through three vertices' values q (already multiplied by 1/depth).
func newAPlane(p0, p1, p2 *cvert, q0, q1, q2, det float64) aplane {
	return aplane{
		a0: q0,
		ax: ((q1-q0)*(p2.sy-p0.sy) - (q2-q0)*(p1.sy-p0.sy)) / det,
		ay: ((p1.sx-p0.sx)*(q2-q0) - (p2.sx-p0.sx)*(q1-q0)) / det,
	}
}

func (p *aplane) at(dx, dy float64) float64 { return p.a0 + dx*p.ax + dy*p.ay }

// realVertex carries what a vertex of a realistic triangle interpolates.
type realVertex struct {
	cvert
	tu, tv     float64 // texture coordinates, metres
	ls, lt, ld float64 // light space: static shadow-map texels, depth in metres
}

// setupLight computes the scene's light terms.
func (sc *realScene) setupLight() {
	lt := &sc.light
	*lt = lightTerms{}
	env := &sc.env
	for c := range 3 {
		lt.amb[c] = env.Ambient * env.AmbientColor[c]
		lt.sun[c] = env.Diffuse * env.SunColor[c]
		if !sc.lit {
			lt.amb[c], lt.sun[c] = 1, 0
		}
		for i := range lt.sky {
			lt.sky[i] |= uint64(min(linMax, math.Round(float64(sc.sky[i][c])*linOne))) << (c * laneShift)
		}
		g := float64(sc.ground[c]) * (lt.amb[c] + lt.sun[c]*sc.sunUp)
		lt.ground |= uint64(min(linMax, math.Round(g*linOne))) << (c * laneShift)
		for code := range 256 {
			ao, vis := float64(code>>4)/15, float64(code&15)/15
			lt.floorLUT[code][c] = fixed((lt.amb[c]*ao + lt.sun[c]*sc.sunUp*vis) * float64(sc.floorAlb[c]))
		}
	}
	for mm := range lt.aoWall {
		lt.aoWall[mm] = int32(math.Round(256 * contactAO(env.ContactShadow, float64(mm)/1000)))
	}
}

// realLight fills a triangle's light terms: albedo alb (texture tint when textured), cosine
// to the sun cos, and whether shadow maps are to be consulted.
func (rf *realFrame) realLight(t *rtriR, alb [3]float32, cos float64) {
	for c := range 3 {
		t.amb[c] = fixed(rf.lt.amb[c] * float64(alb[c]))
		t.sun[c] = fixed(rf.lt.sun[c] * cos * float64(alb[c]))
	}
	t.constant = packLight(t.amb[0]+t.sun[0], t.amb[1]+t.sun[1], t.amb[2]+t.sun[2])
}

// lightSpace returns world point p in the frame's light space: s and t in static shadow-map
// texels, d in metres.
func (rf *realFrame) lightSpace(p mgl64.Vec3) (s, t, d float64) {
	m := rf.scene.shadow
	a, b, dd := m.project(p)
	return (a - m.s0) / m.texel, (b - m.t0) / m.texel, dd
}
