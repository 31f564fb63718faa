package render

import "unsafe"

// lensRow develops one output row through the lens's taps: lensRowGo's bytes, in assembly
// that keeps the row's pointers, the noise stream and the pixel in registers (the Go loop
// spills a third of its instructions). Every tap must lie inside src (newLensMap's taps do:
// developLens checks src covers the lens's undistorted image).
func lensRow(dst []byte, taps []lensTap, vig []uint16, src []uint64, iw int, b *[3][linMax + 1]uint16, o *noiseOut, seed uint64) {
	n := len(taps)
	if n == 0 {
		return
	}
	_, _, _ = dst[3*n-1], vig[n-1], src[len(src)-1]
	lensRowAsm(unsafe.SliceData(dst), unsafe.SliceData(taps), unsafe.SliceData(vig), n, unsafe.SliceData(src), iw, b, o, seed)
}

// lensRowAsm is lensRow's loop over n pixels (lensrow_amd64.s).
//
//go:noescape
func lensRowAsm(dst *byte, taps *lensTap, vig *uint16, n int, src *uint64, iw int, b *[3][linMax + 1]uint16, o *noiseOut, seed uint64)
