package sensors

import "math"

// GainTable maps each channel of RGB pixels through a gain, rounded and clamped to 0..255: the
// brightness and colour gains of domain randomization, applied alike by every face that hands
// frames to training code.
type GainTable [3][256]byte

// NewGainTable returns the table of gains g (red, green, blue); nil when every gain is 1.
func NewGainTable(g [3]float64) *GainTable {
	if g == [3]float64{1, 1, 1} {
		return nil
	}
	t := new(GainTable)
	for ch := range 3 {
		for x := range 256 {
			t[ch][x] = byte(math.Max(0, math.Min(255, math.Round(float64(x)*g[ch]))))
		}
	}
	return t
}

// Apply maps RGB pixels through the table in place (byte-indexed arrays and a three-byte
// window per pixel: no bounds checks in the loop).
func (t *GainTable) Apply(pix []byte) {
	r, g, b := &t[0], &t[1], &t[2]
	for i := 0; i+3 <= len(pix); i += 3 {
		px := pix[i : i+3 : i+3]
		px[0], px[1], px[2] = r[px[0]], g[px[1]], b[px[2]]
	}
}
