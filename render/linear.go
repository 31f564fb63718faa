package render

import (
	"math"
	"sync"
)

// The realistic look works in linear light held as fixed-point numbers: linOne is linear 1.0
// (a white surface under unit light, and the full scale of the film), so a uint16 holds up to
// 16 times full scale before exposure. Light coefficients use the same scale.
const (
	linShift = 12
	linOne   = 1 << linShift
	linMax   = 1<<16 - 1
)

// srgbToLinear decodes an 8-bit sRGB value to linear (IEC 61966-2-1).
func srgbToLinear(c float64) float64 {
	if c <= 0.04045 {
		return c / 12.92
	}
	return math.Pow((c+0.055)/1.055, 2.4)
}

// linearToSRGB encodes linear light in [0, 1] as sRGB in [0, 1].
func linearToSRGB(l float64) float64 {
	if l <= 0.0031308 {
		return 12.92 * l
	}
	return 1.055*math.Pow(l, 1/2.4) - 0.055
}

// srgbLUT maps an 8-bit sRGB value to linear in linOne units.
var srgbLUT = sync.OnceValue(func() *[256]uint16 {
	var t [256]uint16
	for i := range t {
		t[i] = uint16(math.Round(srgbToLinear(float64(i)/255) * linOne))
	}
	return &t
})

// linearOf returns the linear value of an sRGB colour, per channel, as float64 in [0, 1].
func linearOf(c RGB) [3]float64 {
	return [3]float64{srgbToLinear(float64(c.R) / 255), srgbToLinear(float64(c.G) / 255), srgbToLinear(float64(c.B) / 255)}
}

// encodeLUT is the film's transfer curve: linear 0..linOne (inclusive; brighter clips) to 8 bits.
type encodeLUT [linOne + 1]uint8

var encodeLUTs struct {
	sync.Mutex
	m map[float64]*encodeLUT
}

// encodeTable returns the transfer curve for gamma: 0 is the sRGB curve, otherwise the power
// law v^(1/gamma). Tables are cached (a handful of gammas in practice, bounded anyway).
func encodeTable(gamma float64) *encodeLUT {
	encodeLUTs.Lock()
	defer encodeLUTs.Unlock()
	if t := encodeLUTs.m[gamma]; t != nil {
		return t
	}
	t := new(encodeLUT)
	for i := range t {
		l := float64(i) / linOne
		var v float64
		if gamma == 0 {
			v = linearToSRGB(l)
		} else {
			v = math.Pow(l, 1/gamma)
		}
		t[i] = clamp8(255 * v)
	}
	if encodeLUTs.m == nil || len(encodeLUTs.m) >= 32 {
		encodeLUTs.m = map[float64]*encodeLUT{}
	}
	encodeLUTs.m[gamma] = t
	return t
}

// fixed converts a linear coefficient to linOne units (rounded), clamped to what uint16
// arithmetic takes.
func fixed(x float64) int32 {
	if !(x > 0) {
		return 0
	}
	return int32(math.Min(x, 15.99)*linOne + 0.5)
}
