//go:build !amd64

package render

// hasLensRow8 says a vector kernel develops lens rows: none here.
var hasLensRow8 = false

// lensRow develops one output row through the lens's taps (see lensRowGo).
func lensRow(dst []byte, taps []lensTap, vig []uint16, src []uint64, iw int, b *[3][linMax + 1]uint16, o *noiseOut, seed uint64) {
	lensRowGo(dst, taps, vig, src, iw, b, o, seed)
}
