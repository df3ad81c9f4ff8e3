#include "textflag.h"

// func prefetchSlots(slots []uint32, idx *[touchGroup]uint32, n int) uint64
TEXT ·prefetchSlots(SB), NOSPLIT, $0-48
	MOVQ slots_base+0(FP), SI
	MOVQ idx+24(FP), DI
	MOVQ n+32(FP), CX
	TESTQ CX, CX
	JE done
loop:
	MOVL (DI), AX
	PREFETCHT0 (SI)(AX*4)
	ADDQ $4, DI
	DECQ CX
	JNE loop
done:
	MOVQ $0, ret+40(FP)
	RET
