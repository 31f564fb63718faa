package render

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// Environment is what a Static scene has besides its geometry: the sky, the ground beyond the
// floor rectangle, one directional light (the sun) and, for the realistic look, its colours,
// shadows and the scene's domain randomization.
//
// The flat look (Realistic false) is Lambert plus ambient, flat per face: a face of colour c
// and unit normal n is drawn as c·(Ambient + Diffuse·max(0, n·L̂)), each channel rounded to
// nearest and clamped to 255, with no textures on walls and no shadows.
//
// The realistic look (Realistic true) works in linear light: every surface has a material
// (a texture mapped in metres, see Material) whose sRGB texels are decoded to linear albedo
// ρ, lit as ρ·(Ambient·AmbientColor·ao + Diffuse·SunColor·max(0, n·L̂)·vis), where vis is 0 in
// the shadow of elements and vehicles (Shadows) and ao darkens the floor and the foot of walls
// where they meet (ContactShadow). The camera's film (see Film) then exposes, adds noise and
// encodes the frame.
type Environment struct {
	// SkyZenith and SkyHorizon are the sky colours straight up and at the horizon; the sky
	// blends between them by the sine of a view ray's elevation. They are not lit.
	SkyZenith, SkyHorizon RGB
	// Ground is the colour of the plane z = 0 outside the floor rectangle (lit like the floor).
	Ground RGB
	// LightDir points from the scene towards the light, in the world frame; it need not be unit
	// length. A zero vector means straight down from above.
	LightDir mgl64.Vec3
	// Ambient and Diffuse weight the two lighting terms (typically summing to about 1).
	Ambient, Diffuse float64

	// Realistic turns on the realistic look; the fields below apply to it only.
	Realistic bool
	// SunColor and AmbientColor tint the direct and ambient terms, linear gains per channel
	// (R, G, B); zero means white {1, 1, 1}.
	SunColor, AmbientColor [3]float64
	// SkyIntensity scales the sky's linear radiance; 0 means 1.
	SkyIntensity float64
	// Shadows makes elements and vehicles cast shadows on the floor and on each other.
	Shadows bool
	// ContactShadow is how much the floor and the foot of walls darken where they meet
	// (ambient occlusion), 0 (none) to 1 (black in the corner).
	ContactShadow float64

	// Seed seeds the randomized choices below: which texture of its material's set each
	// element takes, each element's colour jitter and the distractors.
	Seed uint64
	// TextureSwap is the share (0..1) of elements that take a random texture of their
	// material's set instead of the first one.
	TextureSwap float64
	// ColorJitter scales each element's albedo per channel by a factor drawn from
	// [1 − ColorJitter, 1 + ColorJitter] (0..0.5).
	ColorJitter float64
	// Distractors is how many distractor objects (boxes, cylinders, floor sheets of random
	// materials and colours) are placed on the floor away from the route and the walls. They
	// are drawn only, not obstacles: physics and ray sensors do not see them.
	Distractors int
}

// DefaultEnvironment is a pale blue sky, a grey-green ground and a light high in the
// north-east, so that walls facing east, north, west and south get distinct shades. It is the
// flat look.
func DefaultEnvironment() Environment {
	return Environment{
		SkyZenith:  RGB{96, 150, 214},
		SkyHorizon: RGB{206, 224, 240},
		Ground:     RGB{120, 128, 110},
		LightDir:   mgl64.Vec3{0.45, 0.30, 0.84},
		Ambient:    0.5,
		Diffuse:    0.5,
	}
}

// RealisticEnvironment is DefaultEnvironment's sky and ground lit the realistic way, with the
// camera kind's default look (plugins.SensorParams("camera"): a slightly warm sun high in the
// north-east, bluish sky light, shadows and contact shadows, nothing randomized).
func RealisticEnvironment() Environment {
	return lookEnvironment(DefaultEnvironment(), mountParams(nil))
}

// SunDirection returns the unit vector towards a sun at azimuth (degrees counter-clockwise from
// east, world x) and elevation (degrees above the horizon).
func SunDirection(azimuthDeg, elevationDeg float64) mgl64.Vec3 {
	sa, ca := math.Sincos(mgl64.DegToRad(azimuthDeg))
	se, ce := math.Sincos(mgl64.DegToRad(elevationDeg))
	return mgl64.Vec3{ce * ca, ce * sa, se}
}

// lightDir returns the unit light direction.
func (e *Environment) lightDir() mgl64.Vec3 {
	if e.LightDir.Len() == 0 || !finiteVec(e.LightDir) {
		return mgl64.Vec3{0, 0, 1}
	}
	return e.LightDir.Normalize()
}

func finiteVec(v mgl64.Vec3) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// shadeFactor is Ambient + Diffuse·max(0, n·L) for a unit normal n and unit light l.
func (e *Environment) shadeFactor(n, l mgl64.Vec3) float64 {
	d := n[0]*l[0] + n[1]*l[1] + n[2]*l[2]
	if d < 0 {
		d = 0
	}
	return e.Ambient + e.Diffuse*d
}

// skyLUTSize is the number of entries of the sky gradient table, indexed by the sine of the
// elevation of a view ray mapped from [-1, 1].
const skyLUTSize = 256

func (e *Environment) skyLUT() [skyLUTSize]RGB {
	var lut [skyLUTSize]RGB
	for i := range lut {
		s := float64(i)/(skyLUTSize-1)*2 - 1
		if s < 0 {
			s = 0
		}
		// sqrt brightens the lower sky the way a hazy horizon does.
		lut[i] = e.SkyHorizon.Lerp(e.SkyZenith, math.Sqrt(s))
	}
	return lut
}

// clampTo clamps x to [lo, hi], NaN to lo.
func clampTo(x, lo, hi float64) float64 {
	if !(x >= lo) {
		return lo
	}
	return math.Min(x, hi)
}

// normalized returns e with the realistic terms with zero values defaulted and ranges clamped.
func (e *Environment) normalized() Environment {
	n := *e
	one := [3]float64{1, 1, 1}
	if n.SunColor == ([3]float64{}) {
		n.SunColor = one
	}
	if n.AmbientColor == ([3]float64{}) {
		n.AmbientColor = one
	}
	for k := range 3 {
		n.SunColor[k] = clampTo(n.SunColor[k], 0, 16)
		n.AmbientColor[k] = clampTo(n.AmbientColor[k], 0, 16)
	}
	if n.SkyIntensity == 0 {
		n.SkyIntensity = 1
	}
	n.SkyIntensity = clampTo(n.SkyIntensity, 0, 16)
	n.Ambient = clampTo(n.Ambient, 0, 16)
	n.Diffuse = clampTo(n.Diffuse, 0, 16)
	n.ContactShadow = clampTo(n.ContactShadow, 0, 1)
	n.TextureSwap = clampTo(n.TextureSwap, 0, 1)
	n.ColorJitter = clampTo(n.ColorJitter, 0, 0.5)
	n.Distractors = max(0, min(n.Distractors, MaxDistractors))
	if n.TextureSwap == 0 && n.ColorJitter == 0 && n.Distractors == 0 {
		// The seed then picks only where textures start on each element: one fixed by the
		// element alone, so that a look whose seed alone differs (a reset that randomizes
		// the film only) is the same scene, and shared (SharedStatic).
		n.Seed = 0
	}
	return n
}
