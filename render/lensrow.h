// lensrow.h holds what both lens-row kernels (lensrow_amd64.s, lensrow8_amd64.s) use.

// Byte strides of the film's per-channel tables.
#define BUCKETS (2*(const_linMax+1))
#define OUTS (const_noiseMask+1)

// SPLITMIX is splitmixStep: R13 steps, R14 is the draw.
#define SPLITMIX \
	MOVQ  $0x9e3779b97f4a7c15, AX; \
	ADDQ  AX, R13; \
	MOVQ  R13, R14; \
	MOVQ  R14, AX; \
	SHRQ  $30, AX; \
	XORQ  AX, R14; \
	MOVQ  $0xbf58476d1ce4e5b9, AX; \
	IMULQ AX, R14; \
	MOVQ  R14, AX; \
	SHRQ  $27, AX; \
	XORQ  AX, R14; \
	MOVQ  $0x94d049bb133111eb, AX; \
	IMULQ AX, R14; \
	MOVQ  R14, AX; \
	SHRQ  $31, AX; \
	XORQ  AX, R14
