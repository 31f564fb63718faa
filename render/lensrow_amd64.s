#include "go_asm.h"
#include "textflag.h"
#include "lensrow.h"

// Register use: DI dst, SI taps, R8 vig (all at the current group of 4 pixels), R9 src,
// R10 its width in pixels, R11 the bucket tables, R12 the output tables, R13 the noise
// stream's state, R14 its last draw (16 bits a pixel), R15 the pixels left; AX, BX, CX and DX
// are scratch.


// CHANNEL develops one channel: its lane (in DX, scaled by 32) times the vignette (BX) to a
// bucket, or'd with the 4 noise bits at bit nshift of R14, to the byte at off(DI). The bucket
// table's entries are at most noiseMask with their low 4 bits clear (filmTable), so the or is
// lensRowGo's (b|level)&noiseMask without the and.
#define CHANNEL(tbl, nshift, off) \
	IMULQ   BX, DX; \
	SHRQ    $const_resampledShift, DX; \
	MOVWQZX DX, DX; \
	MOVWQZX (tbl*BUCKETS)(R11)(DX*2), DX; \
	MOVQ    R14, CX; \
	SHRQ    $(nshift), CX; \
	ANDQ    $(const_noiseLevels-1), CX; \
	ORQ     CX, DX; \
	MOVBLZX (tbl*OUTS)(R12)(DX*1), DX; \
	MOVB    DX, (off)(DI)

// PIXEL develops pixel i of the group: the tap's bilinear blend of src into AX, then its
// three channels with the i-th 16 bits of the draw.
#define PIXEL(i) \
	MOVLQSX (i*lensTap__size+lensTap_idx)(SI), BX; \
	MOVBQZX (i*lensTap__size+lensTap_w+0)(SI), AX; \
	IMULQ   (R9)(BX*8), AX; \
	MOVBQZX (i*lensTap__size+lensTap_w+1)(SI), DX; \
	IMULQ   8(R9)(BX*8), DX; \
	ADDQ    DX, AX; \
	ADDQ    R10, BX; \
	MOVBQZX (i*lensTap__size+lensTap_w+2)(SI), DX; \
	IMULQ   (R9)(BX*8), DX; \
	ADDQ    DX, AX; \
	MOVBQZX (i*lensTap__size+lensTap_w+3)(SI), DX; \
	IMULQ   8(R9)(BX*8), DX; \
	ADDQ    DX, AX; \
	MOVWQZX (i*2)(R8), BX; \
	MOVQ    AX, DX; \
	ANDQ    $const_laneMask, DX; \
	CHANNEL(0, 16*i, 3*i); \
	MOVQ    AX, DX; \
	SHRQ    $const_laneShift, DX; \
	ANDQ    $const_laneMask, DX; \
	CHANNEL(1, 16*i+4, 3*i+1); \
	MOVQ    AX, DX; \
	SHRQ    $(2*const_laneShift), DX; \
	CHANNEL(2, 16*i+8, 3*i+2)

// func lensRowAsm(dst *byte, taps *lensTap, vig *uint16, n int, src *uint64, iw int, b *[3][linMax + 1]uint16, o *noiseOut, seed uint64)
TEXT ·lensRowAsm(SB), NOSPLIT, $0-72
	MOVQ dst+0(FP), DI
	MOVQ taps+8(FP), SI
	MOVQ vig+16(FP), R8
	MOVQ n+24(FP), R15
	MOVQ src+32(FP), R9
	MOVQ iw+40(FP), R10
	MOVQ b+48(FP), R11
	MOVQ o+56(FP), R12
	MOVQ seed+64(FP), R13

	// Groups of 4 pixels, one draw each.
group:
	CMPQ R15, $4
	JLT  tail
	SPLITMIX
	PIXEL(0)
	PIXEL(1)
	PIXEL(2)
	PIXEL(3)
	ADDQ $(4*lensTap__size), SI
	ADDQ $8, R8
	ADDQ $12, DI
	SUBQ $4, R15
	JMP  group

	// The last 1 to 3 pixels.
tail:
	TESTQ R15, R15
	JEQ   done
	SPLITMIX
	PIXEL(0)
	CMPQ  R15, $1
	JEQ   done
	PIXEL(1)
	CMPQ  R15, $2
	JEQ   done
	PIXEL(2)

done:
	RET
