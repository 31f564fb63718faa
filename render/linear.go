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

// The realistic drawing buffer holds a pixel's linear R, G and B (0..linMax each) in one
// uint64, each in a lane of laneShift bits (R lowest). A lane has room above linMax for the
// sum of 32 samples, so the lens's bilinear taps and the blur's averages add and scale whole
// pixels at once.
const (
	laneShift = 21
	laneMask  = 1<<laneShift - 1
	// lanesLin keeps the 16 value bits of each lane (what is left after a sum is scaled down).
	lanesLin = uint64(linMax) | uint64(linMax)<<laneShift | uint64(linMax)<<(2*laneShift)
)

// packLin packs a pixel's channels, each at most linMax.
func packLin(r, g, b uint32) uint64 {
	return uint64(r) | uint64(g)<<laneShift | uint64(b)<<(2*laneShift)
}

// packLight packs light r, g, b (linOne is 1), each clipped at linMax.
func packLight(r, g, b int32) uint64 {
	return packLin(uint32(min(r, linMax)), uint32(min(g, linMax)), uint32(min(b, linMax)))
}

// reflected is light r, g, b reflected by sRGB texel c (srgb: srgbTable).
func reflected(srgb *[256]uint16, c RGB, r, g, b int32) (int32, int32, int32) {
	return int32(srgb[c.R]) * r >> linShift, int32(srgb[c.G]) * g >> linShift, int32(srgb[c.B]) * b >> linShift
}

// metres turns a drawn pixel's 1/depth into metres: +Inf where nothing was drawn (0).
func metres(iz float32) float32 {
	if iz == 0 {
		return inf32
	}
	return 1 / iz
}

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

// srgbTable maps an 8-bit sRGB value to linear in linOne units.
var srgbTable = func() *[256]uint16 {
	var t [256]uint16
	for i := range t {
		t[i] = uint16(math.Round(srgbToLinear(float64(i)/255) * linOne))
	}
	return &t
}()

// linearOf returns the linear value of an sRGB colour, per channel, as float64 in [0, 1].
func linearOf(c RGB) [3]float64 {
	t := &byteLinear
	return [3]float64{t[c.R], t[c.G], t[c.B]}
}

// byteLinear is srgbToLinear of every 8-bit value: linearOf runs for every triangle and sky
// entry of each Static a training reset builds, and math.Pow is dear there.
var byteLinear = func() (t [256]float64) {
	for i := range t {
		t[i] = srgbToLinear(float64(i) / 255)
	}
	return t
}()

// encodeLUT is the film's transfer curve: linear 0..linMax (in linOne units; above linOne
// clips) to 8 bits, indexed by any uint16 so that no bounds or clip check is needed.
type encodeLUT [linMax + 1]uint8

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
	for i := range linOne + 1 {
		t[i] = clamp8(255 * encodeCurve(gamma, float64(i)/linOne))
	}
	for i := linOne + 1; i < len(t); i++ {
		t[i] = t[linOne]
	}
	if encodeLUTs.m == nil || len(encodeLUTs.m) >= 16 {
		encodeLUTs.m = map[float64]*encodeLUT{}
	}
	encodeLUTs.m[gamma] = t
	return t
}

// encodeCurve is the transfer curve of gamma (0: sRGB) from linear 0..1 to 0..1.
func encodeCurve(gamma, l float64) float64 {
	if gamma == 0 {
		return linearToSRGB(l)
	}
	return math.Pow(l, 1/gamma)
}

// decodeCurve inverts encodeCurve.
func decodeCurve(gamma, v float64) float64 {
	if gamma == 0 {
		return srgbToLinear(v)
	}
	return math.Pow(v, gamma)
}

// fixed converts a linear coefficient to linOne units (rounded), clamped to what uint16
// arithmetic takes.
func fixed(x float64) int32 {
	if !(x > 0) {
		return 0
	}
	return int32(min(x, 15.99)*linOne + 0.5) // x is a number: the builtin min's NaN rule is moot
}
