package render

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// hasRow8 says the AVX-512 kernels (lensRow8Asm, lensRowEnc8Asm, developRow8Asm) can run
// here: they use AVX-512 F, VL (256-bit lanes and masks) and DQ (the 64-bit multiply, byte
// masks).
var hasRow8 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL && cpu.X86.HasAVX512DQ

// Kernels names the kernels the lens and film rows run with on this CPU, for version and
// benchmark reports: without AVX-512 a realistic 640x480 frame takes about a fifth longer.
// GODEBUG=cpu.avx512f=off turns them off, to measure what a CPU without them gets.
func Kernels() string {
	if hasRow8 {
		return "AVX-512"
	}
	return "x86-64 (no AVX-512)"
}

// lensRow develops one output row through the lens's taps: lensRowGo's bytes, in assembly
// that keeps the row's pointers, the noise stream and the pixel in registers (the Go loop
// spills a third of its instructions), 8 pixels at a time with AVX-512 where the CPU has it
// (twice as fast: BenchmarkLensRow). Every tap must lie inside src (newLensMap's taps do: developLens checks src covers the
// lens's undistorted image).
func lensRow(dst []byte, taps []lensTap, vig []uint16, src []uint64, iw int, b *[3][linMax + 1]uint16, o *noiseOut, seed uint64) {
	n := len(taps)
	if n == 0 {
		return
	}
	_, _, _ = dst[3*n-1], vig[n-1], src[len(src)-1]
	if n8 := n &^ 7; hasRow8 && n8 > 0 {
		lensRow8Asm(unsafe.SliceData(dst), unsafe.SliceData(taps), unsafe.SliceData(vig), n8, unsafe.SliceData(src), iw, b, o, seed, len(src))
		if n == n8 {
			return
		}
		// The rest continues the row's noise stream: 2 draws a round of 8.
		dst, taps, vig, n = dst[3*n8:], taps[n8:], vig[n8:], n-n8
		seed += uint64(n8/4) * splitmixGamma
	}
	lensRowAsm(unsafe.SliceData(dst), unsafe.SliceData(taps), unsafe.SliceData(vig), n, unsafe.SliceData(src), iw, b, o, seed)
}

// lensRowAsm is lensRow's loop over n pixels (lensrow_amd64.s).
//
//go:noescape
func lensRowAsm(dst *byte, taps *lensTap, vig *uint16, n int, src *uint64, iw int, b *[3][linMax + 1]uint16, o *noiseOut, seed uint64)

// lensRow8Asm is lensRowAsm over n pixels, a multiple of 8, with AVX-512 (lensrow8_amd64.s);
// srclen is src's length.
//
//go:noescape
func lensRow8Asm(dst *byte, taps *lensTap, vig *uint16, n int, src *uint64, iw int, b *[3][linMax + 1]uint16, o *noiseOut, seed uint64, srclen int)

// developNoisy is develop's noisy loop, developNoisyGo's bytes: 8 pixels at a time with
// AVX-512 where the CPU has it (a realistic camera's film without a lens), the rest in Go.
func developNoisy(dst []byte, src []uint64, vig []uint16, shift uint, b *[3][linMax + 1]uint16, o *noiseOut, seed uint64) {
	n := len(src)
	if n8 := n &^ 7; hasRow8 && n8 > 0 {
		_, _ = dst[3*n-1], vig[n-1]
		developRow8Asm(unsafe.SliceData(dst), unsafe.SliceData(src), unsafe.SliceData(vig), n8, shift&63, b, o, seed)
		dst, src, vig = dst[3*n8:], src[n8:], vig[n8:]
		seed += uint64(n8/4) * splitmixGamma
	}
	developNoisyGo(dst, src, vig, shift, b, o, seed)
}

// developRow8Asm is developNoisyGo over n pixels, a multiple of 8, with AVX-512
// (lensrow8_amd64.s).
//
//go:noescape
func developRow8Asm(dst *byte, src *uint64, vig *uint16, n int, shift uint, b *[3][linMax + 1]uint16, o *noiseOut, seed uint64)

// lensRowEnc develops one output row through the lens's taps with a film without noise:
// lensRowEncGo's bytes, 8 pixels at a time with AVX-512 where the CPU has it, the rest in Go.
// Every tap must lie inside src (see lensRow).
func lensRowEnc(dst []byte, taps []lensTap, vig []uint16, src []uint64, iw int, e *encodeLUTs3) {
	n := len(taps)
	if n8 := n &^ 7; hasRow8 && n8 > 0 {
		_, _, _ = dst[3*n-1], vig[n-1], src[len(src)-1]
		lensRowEnc8Asm(unsafe.SliceData(dst), unsafe.SliceData(taps), unsafe.SliceData(vig), n8, unsafe.SliceData(src), iw, e, len(src))
		dst, taps, vig = dst[3*n8:], taps[n8:], vig[n8:]
	}
	lensRowEncGo(dst, taps, vig, src, iw, e)
}

// lensRowEnc8Asm is lensRowEncGo over n pixels, a multiple of 8, with AVX-512
// (lensrow8_amd64.s); srclen is src's length.
//
//go:noescape
func lensRowEnc8Asm(dst *byte, taps *lensTap, vig *uint16, n int, src *uint64, iw int, e *encodeLUTs3, srclen int)
