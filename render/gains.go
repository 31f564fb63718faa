package render

import (
	"encoding/binary"
	"math"
)

// GainTable maps each channel of RGB pixels through a gain, rounded and clamped to 0..255: the
// brightness and colour gains of domain randomization. A Camera with Gains draws every colour
// through it (Camera.Gains); Apply maps pixels drawn without.
type GainTable [3][256]byte

// NewGainTable returns the table of gains g (red, green, blue); nil when every gain is 1.
func NewGainTable(g [3]float64) *GainTable {
	if g == [3]float64{1, 1, 1} {
		return nil
	}
	t := new(GainTable)
	for ch := range 3 {
		for x := range 256 {
			t[ch][x] = byte(max(0, min(255, math.Round(float64(x)*g[ch])))) // builtins: math.Max is a call
		}
	}
	return t
}

// Apply maps RGB pixels through the table in place (byte-indexed arrays and a three-byte
// window per pixel: no bounds checks in the loop). A nil table leaves them as they are.
func (t *GainTable) Apply(pix []byte) {
	if t == nil {
		return
	}
	r, g, b := &t[0], &t[1], &t[2]
	for i := 0; i+3 <= len(pix); i += 3 {
		px := pix[i : i+3 : i+3]
		px[0], px[1], px[2] = r[px[0]], g[px[1]], b[px[2]]
	}
}

// rgb maps one colour through the table; a nil table returns it as it is.
func (t *GainTable) rgb(c RGB) RGB {
	if t == nil {
		return c
	}
	return RGB{t[0][c.R], t[1][c.G], t[2][c.B]}
}

// gainWords is a GainTable as words: row k maps byte x of channel k to its gained byte
// already in its place in a packed colour (packRGB), so that a packed colour maps by three
// loads and two ors. The compiler cannot tell that the words' top byte is zero, so a pixel's
// four-byte store stays one store.
type gainWords [3][256]uint32

// of fills w from t.
func (w *gainWords) of(t *GainTable) {
	for k := range 3 {
		for x := range 256 {
			w[k][x] = uint32(t[k][x]) << (8 * k)
		}
	}
}

// packed maps a packed colour through the table.
func (w *gainWords) packed(c uint32) uint32 {
	return w[0][byte(c)] | w[1][byte(c>>8)] | w[2][byte(c>>16)]
}

// packRGB packs c as the little-endian word of its three bytes: R, G, B, 0.
func packRGB(c RGB) uint32 { return uint32(c.R) | uint32(c.G)<<8 | uint32(c.B)<<16 }

// put3 stores packed colour c as pixel x of an RGB row.
func put3(cr []byte, x int, c uint32) {
	p := cr[3*x : 3*x+3 : 3*x+3]
	p[0], p[1], p[2] = byte(c), byte(c>>8), byte(c>>16)
}

// put4 stores packed colour c as pixel x of an RGB row with one 4-byte store, which also sets
// the next pixel's red byte: only for a pixel whose right neighbour is written next.
func put4(cr []byte, x int, c uint32) { binary.LittleEndian.PutUint32(cr[3*x:], c) }

// fillPacked paints every pixel of dst (3 bytes each) in packed colour c: eight pixels at a
// time as three 8-byte words, then one pixel at a time.
func fillPacked(dst []byte, c uint32) {
	n := len(dst) / 3
	if n == 0 {
		return
	}
	x := 0
	if n >= 8 {
		// The 24 bytes of eight pixels: the pattern R G B repeats every 3 bytes.
		w0 := uint64(c) | uint64(c)<<24 | uint64(c&0xffff)<<48                  // RGBRGBRG
		w1 := uint64(c>>16) | uint64(c)<<8 | uint64(c)<<32 | uint64(c&0xff)<<56 // BRGBRGBR
		w2 := uint64(c>>8) | uint64(c)<<16 | uint64(c)<<40                      // GBRGBRGB
		for ; x+8 <= n; x += 8 {
			q := dst[3*x : 3*x+24 : 3*x+24]
			binary.LittleEndian.PutUint64(q[0:], w0)
			binary.LittleEndian.PutUint64(q[8:], w1)
			binary.LittleEndian.PutUint64(q[16:], w2)
		}
	}
	for ; x+1 < n; x++ {
		put4(dst, x, c)
	}
	put3(dst, n-1, c)
}
