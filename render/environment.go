package render

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// Environment is what a Static scene has besides its geometry: the sky, the ground beyond the
// floor rectangle and one directional light. Lighting is Lambert plus ambient, flat per face:
// a face of colour c and unit normal n is drawn as c·(Ambient + Diffuse·max(0, n·L̂)), each
// channel rounded to nearest and clamped to 255. There are no shadows.
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
}

// DefaultEnvironment is a pale blue sky, a grey-green ground and a light high in the
// north-east, so that walls facing east, north, west and south get distinct shades.
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

// lightDir returns the unit light direction.
func (e *Environment) lightDir() mgl64.Vec3 {
	if e.LightDir.Len() == 0 {
		return mgl64.Vec3{0, 0, 1}
	}
	return e.LightDir.Normalize()
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
