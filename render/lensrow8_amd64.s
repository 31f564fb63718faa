#include "go_asm.h"
#include "textflag.h"
#include "lensrow.h"

// lensRow8Asm is lensRowAsm 8 pixels a round with AVX-512, the same bytes: the vector unit
// blends the taps, vignettes the three channels down to their bucket-table indices and cuts
// the noise levels out of the draws; the table lookups, which gathers do slower than scalar
// loads, stay scalar. A round's taps are fetched with loads and permutes where they lie in
// two neighbouring rows within 15 pixels after the first tap's column (a distorted row
// crosses the source's rows as it curves), and gathered elsewhere.
//
// Registers: DI dst (at the round being looked up), SI taps, R8 vig (at the round being
// blended), R9 src, R10 its width, R11 the bucket tables, R12 the output tables, R13 the
// noise stream's state, R14 its draw, R15 the pixels left to blend, BX the last first tap
// whose three rows of 16 lie inside src; AX, CX, DX scratch. Z31 the lane mask, Z30 0xff
// (a weight), Y29 the source width, Z28 each pixel's shift into its draw, Z27 a noise
// level's mask, Z26 one, Y25 the span a row's taps may reach (14), X24 the lanes' scale (a shift), Z23
// 0xffff; K3 the round's upper 4
// pixels (its second draw). The frame holds two buffers of a round's lookups, 3 channels ×
// 8 dwords each: the bucket-table index, and the noise level above it.

DATA lensNoiseShifts<>+0(SB)/8, $0
DATA lensNoiseShifts<>+8(SB)/8, $16
DATA lensNoiseShifts<>+16(SB)/8, $32
DATA lensNoiseShifts<>+24(SB)/8, $48
DATA lensNoiseShifts<>+32(SB)/8, $0
DATA lensNoiseShifts<>+40(SB)/8, $16
DATA lensNoiseShifts<>+48(SB)/8, $32
DATA lensNoiseShifts<>+56(SB)/8, $48
GLOBL lensNoiseShifts<>(SB), RODATA|NOPTR, $64

#define GATHERMASK KXNORW K0, K0, K1

// INDEX8 turns channel lanes Z10 (scaled as X24 says) into bucket-table indices (uint16s,
// as the Go code converts them), each with the channel's noise level (nshift into the pixel's 16 bits) above it, as dwords at off(SP).
#define INDEX8(off, nshift) \
	VPMULUDQ Z9, Z10, Z10; \
	VPSRLQ   X24, Z10, Z10; \
	VPANDQ   Z23, Z10, Z10; \
	VPSRLQ   $(nshift), Z20, Z12; \
	VPANDQ   Z27, Z12, Z12; \
	VPSLLQ   $16, Z12, Z12; \
	VPORQ    Z12, Z10, Z10; \
	VPMOVQD  Z10, Y11; \
	VMOVDQU  Y11, off(SP)

// LOOKUP develops channel c of pixel i from the frame's index and noise level. The bucket
// table's entries have their low 4 bits clear (filmTable: buckets times noiseLevels, at most
// noiseMask), so or-ing the level in is lensRowAsm's (b|level)&noiseMask.
#define LOOKUP(buf, i, c) \
	MOVL    (buf+32*c+4*i)(SP), AX; \
	MOVWLZX AX, DX; \
	SHRL    $16, AX; \
	MOVWLZX (c*BUCKETS)(R11)(DX*2), DX; \
	ORL     AX, DX; \
	MOVBLZX (c*OUTS)(R12)(DX*1), DX; \
	MOVB    DX, (3*i+c)(DI)

#define LOOKUPS(buf, i) LOOKUP(buf, i, 0); LOOKUP(buf, i, 1); LOOKUP(buf, i, 2)

// LOOKUPS8 develops a round's 8 pixels from buffer buf and moves dst on.
#define LOOKUPS8(buf) \
	LOOKUPS(buf, 0); LOOKUPS(buf, 1); LOOKUPS(buf, 2); LOOKUPS(buf, 3); \
	LOOKUPS(buf, 4); LOOKUPS(buf, 5); LOOKUPS(buf, 6); LOOKUPS(buf, 7); \
	ADDQ $24, DI

// PERM2 sets dst to the qwords of the row pair (lo, hi) at the indices in idx.
#define PERM2(idx, lo, hi, dst) \
	VMOVDQA64 idx, dst; \
	VPERMI2Q  hi, lo, dst

// DRAWS8 makes the round's two draws, pixel i's 16 bits at the bottom of Z20's lane i.
#define DRAWS8 \
	SPLITMIX; \
	VPBROADCASTQ R14, Z20; \
	SPLITMIX; \
	VPBROADCASTQ R14, Z21; \
	VPBLENDMQ    Z21, Z20, K3, Z20; \
	VPSRLVQ      Z28, Z20, Z20

// TAPS8 is the taps' bilinear blend into Z3 (lanes scaled by 32). A round's taps are
// fetched with loads and permutes where they lie in two neighbouring rows within 15 pixels
// after the first tap's column: K4 marks the taps on the first tap's row, K5 those on the
// row below (or, rebased, on the row above it: K6), Y2 and Y4 their column offsets; the
// rows are Z16:Z17, Z18:Z19 and Z21:Z22 (the lower taps' bottom row), Z15 the columns.
// Elsewhere they are gathered. (The labels are arguments: the loop runs it twice.)
#define TAPS8(lrows, lgather, lblend) \
	VMOVDQU64    (SI), Z0; \
	VPMOVQD      Z0, Y1; \
	MOVLQSX      (SI), CX; \
	VPBROADCASTD CX, Y2; \
	VPSUBD       Y2, Y1, Y2; \
	VPSUBD       Y29, Y2, Y4; \
	VPCMPUD      $2, Y25, Y2, K4; \
	VPCMPUD      $2, Y25, Y4, K5; \
	KORB         K4, K5, K6; \
	KORTESTB     K6, K6; \
	JCS          lrows; \
	VPADDD   Y29, Y2, Y5; \
	VPCMPUD  $2, Y25, Y5, K6; \
	KORB     K4, K6, K7; \
	KORTESTB K7, K7; \
	JCC      lgather; \
	SUBQ     R10, CX; \
	JLT      lgather; \
	VMOVDQA64 Y2, Y4; \
	VMOVDQA64 Y5, Y2; \
	KMOVB     K4, K5; \
lrows: \
	CMPQ         CX, BX; \
	JGT          lgather; \
	VPBLENDMD    Y4, Y2, K5, Y2; \
	VPMOVZXDQ    Y2, Z15; \
	VPADDQ       Z26, Z15, Z14; \
	LEAQ         (R9)(CX*8), DX; \
	VMOVDQU64    (DX), Z16; \
	VMOVDQU64    64(DX), Z17; \
	LEAQ         (DX)(R10*8), DX; \
	VMOVDQU64    (DX), Z18; \
	VMOVDQU64    64(DX), Z19; \
	LEAQ         (DX)(R10*8), DX; \
	VMOVDQU64    (DX), Z21; \
	VMOVDQU64    64(DX), Z22; \
	PERM2(Z15, Z16, Z17, Z3); \
	PERM2(Z15, Z18, Z19, Z7); \
	VPBLENDMQ    Z7, Z3, K5, Z3; \
	PERM2(Z14, Z16, Z17, Z4); \
	PERM2(Z14, Z18, Z19, Z11); \
	VPBLENDMQ    Z11, Z4, K5, Z4; \
	PERM2(Z15, Z21, Z22, Z5); \
	VPBLENDMQ    Z5, Z7, K5, Z5; \
	PERM2(Z14, Z21, Z22, Z6); \
	VPBLENDMQ    Z6, Z11, K5, Z6; \
	JMP          lblend; \
lgather: \
	VPADDD     Y29, Y1, Y2; \
	GATHERMASK; \
	VPXORQ     Z3, Z3, Z3; \
	VPGATHERDQ (R9)(Y1*8), K1, Z3; \
	GATHERMASK; \
	VPXORQ     Z4, Z4, Z4; \
	VPGATHERDQ 8(R9)(Y1*8), K1, Z4; \
	GATHERMASK; \
	VPXORQ     Z5, Z5, Z5; \
	VPGATHERDQ (R9)(Y2*8), K1, Z5; \
	GATHERMASK; \
	VPXORQ     Z6, Z6, Z6; \
	VPGATHERDQ 8(R9)(Y2*8), K1, Z6; \
lblend: \
	VPSRLQ  $32, Z0, Z7; \
	VPANDQ  Z30, Z7, Z7; \
	VPMULLQ Z7, Z3, Z3; \
	VPSRLQ  $40, Z0, Z7; \
	VPANDQ  Z30, Z7, Z7; \
	VPMULLQ Z7, Z4, Z4; \
	VPSRLQ  $48, Z0, Z7; \
	VPANDQ  Z30, Z7, Z7; \
	VPMULLQ Z7, Z5, Z5; \
	VPSRLQ  $56, Z0, Z7; \
	VPMULLQ Z7, Z6, Z6; \
	VPADDQ  Z4, Z3, Z3; \
	VPADDQ  Z6, Z5, Z5; \
	VPADDQ  Z5, Z3, Z3

// CHANNELS8 vignettes the round's pixels Z3 and leaves each channel's lookups in buffer buf.
#define CHANNELS8(buf) \
	VPMOVZXWQ (R8), Z9; \
	VPANDQ    Z31, Z3, Z10; \
	INDEX8(buf, 0); \
	VPSRLQ    $const_laneShift, Z3, Z10; \
	VPANDQ    Z31, Z10, Z10; \
	INDEX8(buf+32, 4); \
	VPSRLQ    $(2*const_laneShift), Z3, Z10; \
	INDEX8(buf+64, 8)

// CONSTANTS8 loads the constant registers (but the lanes' scale, X24).
#define CONSTANTS8 \
	MOVQ         $const_laneMask, AX; \
	VPBROADCASTQ AX, Z31; \
	MOVQ         $0xff, AX; \
	VPBROADCASTQ AX, Z30; \
	VMOVDQU64    lensNoiseShifts<>(SB), Z28; \
	MOVQ         $(const_noiseLevels-1), AX; \
	VPBROADCASTQ AX, Z27; \
	MOVQ         $1, AX; \
	VPBROADCASTQ AX, Z26; \
	MOVL         $14, AX; \
	VPBROADCASTD AX, Y25; \
	MOVL         $0xf0, AX; \
	KMOVW        AX, K3; \
	MOVQ         $0xffff, AX; \
	VPBROADCASTQ AX, Z23

// ROUND8 is a round's vector work through the lens, into buffer buf; taps and vignette move on.
#define ROUND8(buf, lrows, lgather, lblend) \
	DRAWS8; \
	TAPS8(lrows, lgather, lblend); \
	CHANNELS8(buf); \
	ADDQ $(8*lensTap__size), SI; \
	ADDQ $16, R8

// PIPELINE is a kernel's loop, software-pipelined: the vector work of round r+1 (roundA,
// roundB: the same round into the two buffers, at offsets 0 and 96; roundA2 is roundA again
// with labels of its own) goes before the lookups of round r, whose indices are then ready.
// The labels are arguments, as each kernel has its own.
#define PIPELINE(roundA, roundB, roundA2, lookups, lpair, llastA, llastB, lfinish) \
	roundA; \
	SUBQ $8, R15; \
lpair: \
	TESTQ R15, R15; \
	JEQ   llastA; \
	roundB; \
	SUBQ $8, R15; \
	lookups(0); \
	TESTQ R15, R15; \
	JEQ   llastB; \
	roundA2; \
	SUBQ $8, R15; \
	lookups(96); \
	JMP  lpair; \
llastA: \
	lookups(0); \
	JMP lfinish; \
llastB: \
	lookups(96); \
lfinish: \
	VZEROUPPER; \
	RET

// LENSSETUP readies a lens kernel whose BX holds src's length and R10 its width: BX becomes
// the last first tap whose three rows of 16 lie inside src, and the constants are loaded,
// the lanes' scale the resampled one.
#define LENSSETUP \
	SUBQ         R10, BX; \
	SUBQ         R10, BX; \
	SUBQ         $16, BX; \
	CONSTANTS8; \
	VPBROADCASTD R10, Y29; \
	MOVQ         $const_resampledShift, AX; \
	VMOVQ        AX, X24

// func lensRow8Asm(dst *byte, taps *lensTap, vig *uint16, n int, src *uint64, iw int, b *[3][linMax + 1]uint16, o *noiseOut, seed uint64, srclen int)
TEXT ·lensRow8Asm(SB), NOSPLIT, $192-80
	MOVQ dst+0(FP), DI
	MOVQ taps+8(FP), SI
	MOVQ vig+16(FP), R8
	MOVQ n+24(FP), R15
	MOVQ src+32(FP), R9
	MOVQ iw+40(FP), R10
	MOVQ b+48(FP), R11
	MOVQ o+56(FP), R12
	MOVQ seed+64(FP), R13
	MOVQ srclen+72(FP), BX
	LENSSETUP

	PIPELINE(ROUND8(0, rowsA, gatherA, blendA), ROUND8(96, rowsB, gatherB, blendB), ROUND8(0, rowsA2, gatherA2, blendA2), LOOKUPS8, pair, lastA, lastB, finish)

// DROUND8 is a round's vector work straight from the drawn pixels, into buffer buf.
#define DROUND8(buf) \
	DRAWS8; \
	VMOVDQU64 (SI), Z3; \
	CHANNELS8(buf); \
	ADDQ $64, SI; \
	ADDQ $16, R8

// func developRow8Asm(dst *byte, src *uint64, vig *uint16, n int, shift uint, b *[3][linMax + 1]uint16, o *noiseOut, seed uint64)
TEXT ·developRow8Asm(SB), NOSPLIT, $192-64
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ vig+16(FP), R8
	MOVQ n+24(FP), R15
	MOVQ b+40(FP), R11
	MOVQ o+48(FP), R12
	MOVQ seed+56(FP), R13
	CONSTANTS8
	MOVQ  shift+32(FP), AX
	VMOVQ AX, X24

	PIPELINE(DROUND8(0), DROUND8(96), DROUND8(0), LOOKUPS8, dpair, dlastA, dlastB, dfinish)

// LOOKUPE develops channel c of pixel i of a film without noise: one table, the index's.
#define LOOKUPE(buf, i, c) \
	MOVWLZX (buf+32*c+4*i)(SP), DX; \
	MOVBLZX (c*(const_linMax+1))(R11)(DX*1), DX; \
	MOVB    DX, (3*i+c)(DI)

#define LOOKUPSE(buf, i) LOOKUPE(buf, i, 0); LOOKUPE(buf, i, 1); LOOKUPE(buf, i, 2)

// LOOKUPSE8 develops a round's 8 pixels of a film without noise from buffer buf and moves
// dst on.
#define LOOKUPSE8(buf) \
	LOOKUPSE(buf, 0); LOOKUPSE(buf, 1); LOOKUPSE(buf, 2); LOOKUPSE(buf, 3); \
	LOOKUPSE(buf, 4); LOOKUPSE(buf, 5); LOOKUPSE(buf, 6); LOOKUPSE(buf, 7); \
	ADDQ $24, DI

// ROUNDE8 is ROUND8 without the draws (the levels it leaves are not looked at).
#define ROUNDE8(buf, lrows, lgather, lblend) \
	TAPS8(lrows, lgather, lblend); \
	CHANNELS8(buf); \
	ADDQ $(8*lensTap__size), SI; \
	ADDQ $16, R8

// func lensRowEnc8Asm(dst *byte, taps *lensTap, vig *uint16, n int, src *uint64, iw int, e *encodeLUTs3, srclen int)
TEXT ·lensRowEnc8Asm(SB), NOSPLIT, $192-64
	MOVQ dst+0(FP), DI
	MOVQ taps+8(FP), SI
	MOVQ vig+16(FP), R8
	MOVQ n+24(FP), R15
	MOVQ src+32(FP), R9
	MOVQ iw+40(FP), R10
	MOVQ e+48(FP), R11
	MOVQ srclen+56(FP), BX
	LENSSETUP

	PIPELINE(ROUNDE8(0, erowsA, egatherA, eblendA), ROUNDE8(96, erowsB, egatherB, eblendB), ROUNDE8(0, erowsA2, egatherA2, eblendA2), LOOKUPSE8, epair, elastA, elastB, efinish)
