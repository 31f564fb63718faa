//go:build !amd64

package render

// hasRow8 says vector kernels develop rows: none here.
var hasRow8 = false

// Kernels names the kernels the lens and film rows run with: Go's, on this architecture.
func Kernels() string { return "Go" }

// lensRow develops one output row through the lens's taps (see lensRowGo).
func lensRow(dst []byte, taps []lensTap, vig []uint16, src []uint64, iw int, b *[3][linMax + 1]uint16, o *noiseOut, seed uint64) {
	lensRowGo(dst, taps, vig, src, iw, b, o, seed)
}

// developNoisy is develop's noisy loop (see developNoisyGo).
func developNoisy(dst []byte, src []uint64, vig []uint16, shift uint, b *[3][linMax + 1]uint16, o *noiseOut, seed uint64) {
	developNoisyGo(dst, src, vig, shift, b, o, seed)
}

// lensRowEnc develops one output row through the lens's taps with a film without noise (see
// lensRowEncGo).
func lensRowEnc(dst []byte, taps []lensTap, vig []uint16, src []uint64, iw int, e *encodeLUTs3) {
	lensRowEncGo(dst, taps, vig, src, iw, e)
}
