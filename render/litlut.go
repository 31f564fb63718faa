package render

// A textured pixel reflects amb·ao + sun·f of light (ambient times the contact shadow, the
// sun times its share past the shadows) per channel off its texel's sRGB colour. Written out,
// that is six products, three table lookups and three clamps a pixel. A static triangle's amb
// and sun are fixed, so a table per light maps each channel's texel byte to its reflected
// light already in its lane (reflectLUT), and the ambient part is three lookups times the
// contact shadow (one product for the three lanes) and the sun's part three lookups more.
// Moving objects' light changes as they turn: they are lit the long way.

// reflectLUT is, for one light (L_r, L_g, L_b), lut[c][b] = srgb(b)·L_c in lane c (linOne
// units), clamped to what the pixel's other term leaves room for.
type reflectLUT [3][256]uint64

// Lane budgets of the two terms: the ambient one is multiplied by the contact shadow (0..256)
// inside its lane, so it stays below 2^13 (twice full scale) and the product below 2^21; the
// sun's term is added to it and keeps the sum within linMax.
const (
	ambLaneMax = 1<<13 - 1
	sunLaneMax = linMax - ambLaneMax
)

// ambLaneMask keeps the 13 bits of each lane the ambient term's product leaves after its
// shift by 8.
const ambLaneMask = uint64(ambLaneMax) | uint64(ambLaneMax)<<laneShift | uint64(ambLaneMax)<<(2*laneShift)

// maxReflectLUTs bounds the tables a Static keeps (6 kB each); its other triangles are lit
// the long way.
const maxReflectLUTs = 256

// newReflectLUT returns the table of light l, or nil when a channel of l could reflect more
// than lmax (then the pixel is lit the long way).
func newReflectLUT(l [3]int32, lmax int32) *reflectLUT {
	srgb := srgbTable
	for _, v := range l {
		if v < 0 || int64(v)*int64(srgb[255])>>linShift > int64(lmax) {
			return nil
		}
	}
	t := new(reflectLUT)
	for ch, v := range l {
		for b := range 256 {
			t[ch][b] = uint64(int32(srgb[b])*v>>linShift) << (ch * laneShift)
		}
	}
	return t
}

// reflectLUTs are a Static's tables by light, made when it is built: a static triangle's light
// is the same every frame, and a scene has few.
type reflectLUTs map[[3]int32]*reflectLUT

// get returns the table of light l (nil past lmax, as newReflectLUT, or past maxReflectLUTs).
func (c reflectLUTs) get(l [3]int32, lmax int32) *reflectLUT {
	if t, ok := c[l]; ok {
		return t
	}
	if len(c) >= maxReflectLUTs {
		return nil
	}
	t := newReflectLUT(l, lmax)
	c[l] = t
	return t
}

// reflect returns texel c's reflection of the table's light, packed.
func (t *reflectLUT) reflect(c RGB) uint64 {
	return t[0][c.R] | t[1][c.G] | t[2][c.B]
}

// plus returns the table of t's light plus u's: each lane the sum, within linMax when t's
// is an ambient term's and u's a sun's (their budgets add up to it).
func (t *reflectLUT) plus(u *reflectLUT) *reflectLUT {
	out := new(reflectLUT)
	for c := range out {
		for b := range out[c] {
			out[c][b] = t[c][b] + u[c][b]
		}
	}
	return out
}
