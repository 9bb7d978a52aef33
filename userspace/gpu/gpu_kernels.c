// SPDX-License-Identifier: GPL-2.0
/*
 * The four small GPU kernels the measuring needs, as PTX text, so that the
 * tool needs no CUDA compiler: the driver compiles PTX for whatever GPU it
 * finds (cuModuleLoadData).  PTX ISA 6.0 / sm_50: every driver that can run
 * a GPU p2pdiag-check cares about accepts it.
 *
 *   p2pd_gate   spins until a pinned host word turns non-zero, or until its
 *               own timeout: every stream that must start at the same moment
 *               queues its copies behind one, and the host releases them all
 *               with one store.  The timeout keeps a lost release from
 *               holding the GPU.
 *   p2pd_fill   buf[i] = gpu_pattern_word(seed, i) ^ xor  (gpu_pattern.h)
 *   p2pd_check  counts words that differ from that pattern, by kind
 *   p2pd_chase  one thread follows a pointer chain: dependent loads, so the
 *               time per step is the load latency
 *
 * Pointers are generic, so the same kernels work on device memory and on
 * pinned host memory mapped into the GPU's address space.
 */
#include "gpu/gpu_priv.h"
#include "gpu/gpu_pattern.h"

#define STR_(x) #x
#define STR(x) STR_(x)

/* out = gpu_pattern_word(seed, idx); clobbers %t. */
#define PTX_PATTERN(out, idx, seed) \
	"	mul.lo.u32 " out ", " idx ", " STR(GPU_PATTERN_GOLDEN) ";\n" \
	"	xor.b32 " out ", " out ", " seed ";\n" \
	"	shr.u32 %t, " out ", 16;\n" \
	"	xor.b32 " out ", " out ", %t;\n" \
	"	mul.lo.u32 " out ", " out ", " STR(GPU_PATTERN_MUL1) ";\n" \
	"	shr.u32 %t, " out ", 15;\n" \
	"	xor.b32 " out ", " out ", %t;\n" \
	"	mul.lo.u32 " out ", " out ", " STR(GPU_PATTERN_MUL2) ";\n" \
	"	shr.u32 %t, " out ", 16;\n" \
	"	xor.b32 " out ", " out ", %t;\n" \
	"	or.b32 " out ", " out ", 1;\n" \
	"	and.b32 " out ", " out ", 0x7fffffff;\n"

/* %i = global thread index, %stride = total threads (grid-stride loop). */
#define PTX_GRID_STRIDE \
	"	mov.u32 %bx, %ctaid.x;\n" \
	"	mov.u32 %bd, %ntid.x;\n" \
	"	mov.u32 %tx, %tid.x;\n" \
	"	mov.u32 %gd, %nctaid.x;\n" \
	"	mul.wide.u32 %i, %bx, %bd;\n" \
	"	cvt.u64.u32 %a, %tx;\n" \
	"	add.u64 %i, %i, %a;\n" \
	"	mul.wide.u32 %stride, %gd, %bd;\n"

#define PTX_GRID_REGS \
	"	.reg .pred %p;\n" \
	"	.reg .b32 %bx, %bd, %tx, %gd, %t, %seed, %idx, %w, %e;\n" \
	"	.reg .b64 %buf, %n, %i, %stride, %a;\n"

const char gpu_kernels_ptx[] =
	".version 6.0\n"
	".target sm_50\n"
	".address_size 64\n"
	"\n"
	".visible .entry p2pd_gate(.param .u64 p_flag, .param .u64 p_timeout_ns)\n"
	"{\n"
	"	.reg .pred %p;\n"
	"	.reg .b32 %v;\n"
	"	.reg .b64 %flag, %limit, %t0, %t1;\n"
	"	ld.param.u64 %flag, [p_flag];\n"
	"	ld.param.u64 %limit, [p_timeout_ns];\n"
	"	mov.u64 %t0, %globaltimer;\n"
	"GATE_WAIT:\n"
	"	ld.volatile.u32 %v, [%flag];\n"
	"	setp.ne.u32 %p, %v, 0;\n"
	"	@%p bra GATE_OPEN;\n"
	"	mov.u64 %t1, %globaltimer;\n"
	"	sub.u64 %t1, %t1, %t0;\n"
	"	setp.lt.u64 %p, %t1, %limit;\n"
	"	@%p bra GATE_WAIT;\n"
	"GATE_OPEN:\n"
	"	ret;\n"
	"}\n"
	"\n"
	".visible .entry p2pd_fill(.param .u64 p_buf, .param .u64 p_n,\n"
	"	.param .u32 p_seed, .param .u32 p_xor)\n"
	"{\n"
	PTX_GRID_REGS
	"	.reg .b32 %mask;\n"
	"	ld.param.u64 %buf, [p_buf];\n"
	"	ld.param.u64 %n, [p_n];\n"
	"	ld.param.u32 %seed, [p_seed];\n"
	"	ld.param.u32 %mask, [p_xor];\n"
	PTX_GRID_STRIDE
	"FILL_LOOP:\n"
	"	setp.ge.u64 %p, %i, %n;\n"
	"	@%p bra FILL_DONE;\n"
	"	cvt.u32.u64 %idx, %i;\n"
	PTX_PATTERN("%w", "%idx", "%seed")
	"	xor.b32 %w, %w, %mask;\n"
	"	shl.b64 %a, %i, 2;\n"
	"	add.u64 %a, %buf, %a;\n"
	"	st.u32 [%a], %w;\n"
	"	add.u64 %i, %i, %stride;\n"
	"	bra FILL_LOOP;\n"
	"FILL_DONE:\n"
	"	ret;\n"
	"}\n"
	"\n"
	".visible .entry p2pd_check(.param .u64 p_buf, .param .u64 p_n,\n"
	"	.param .u32 p_seed, .param .u64 p_out)\n"
	"{\n"
	PTX_GRID_REGS
	"	.reg .b32 %stale, %cz, %co, %cs, %cx;\n"
	"	.reg .b64 %out;\n"
	"	ld.param.u64 %buf, [p_buf];\n"
	"	ld.param.u64 %n, [p_n];\n"
	"	ld.param.u32 %seed, [p_seed];\n"
	"	ld.param.u64 %out, [p_out];\n"
	"	mov.u32 %cz, 0;\n"
	"	mov.u32 %co, 0;\n"
	"	mov.u32 %cs, 0;\n"
	"	mov.u32 %cx, 0;\n"
	PTX_GRID_STRIDE
	"CHECK_LOOP:\n"
	"	setp.ge.u64 %p, %i, %n;\n"
	"	@%p bra CHECK_DONE;\n"
	"	shl.b64 %a, %i, 2;\n"
	"	add.u64 %a, %buf, %a;\n"
	"	ld.volatile.u32 %w, [%a];\n"
	"	cvt.u32.u64 %idx, %i;\n"
	PTX_PATTERN("%e", "%idx", "%seed")
	"	setp.eq.u32 %p, %w, %e;\n"
	"	@%p bra CHECK_NEXT;\n"
	"	setp.eq.u32 %p, %w, 0;\n"
	"	@%p bra CHECK_ZERO;\n"
	"	setp.eq.u32 %p, %w, 0xffffffff;\n"
	"	@%p bra CHECK_ONES;\n"
	"	xor.b32 %stale, %e, " STR(GPU_PATTERN_STALE_XOR) ";\n"
	"	setp.eq.u32 %p, %w, %stale;\n"
	"	@%p bra CHECK_STALE;\n"
	"	add.u32 %cx, %cx, 1;\n"
	"	bra CHECK_NEXT;\n"
	"CHECK_ZERO:\n"
	"	add.u32 %cz, %cz, 1;\n"
	"	bra CHECK_NEXT;\n"
	"CHECK_ONES:\n"
	"	add.u32 %co, %co, 1;\n"
	"	bra CHECK_NEXT;\n"
	"CHECK_STALE:\n"
	"	add.u32 %cs, %cs, 1;\n"
	"CHECK_NEXT:\n"
	"	add.u64 %i, %i, %stride;\n"
	"	bra CHECK_LOOP;\n"
	"CHECK_DONE:\n"
	/* Atomics only for non-zero counts: a clean buffer costs none. */
	"	setp.ne.u32 %p, %cz, 0;\n"
	"	@%p red.add.u32 [%out], %cz;\n"
	"	setp.ne.u32 %p, %co, 0;\n"
	"	@%p red.add.u32 [%out+4], %co;\n"
	"	setp.ne.u32 %p, %cs, 0;\n"
	"	@%p red.add.u32 [%out+8], %cs;\n"
	"	setp.ne.u32 %p, %cx, 0;\n"
	"	@%p red.add.u32 [%out+12], %cx;\n"
	"	ret;\n"
	"}\n"
	"\n"
	".visible .entry p2pd_chase(.param .u64 p_start, .param .u32 p_steps,\n"
	"	.param .u64 p_out)\n"
	"{\n"
	"	.reg .pred %p;\n"
	"	.reg .b32 %steps;\n"
	"	.reg .b64 %ptr, %out;\n"
	"	ld.param.u64 %ptr, [p_start];\n"
	"	ld.param.u32 %steps, [p_steps];\n"
	"	ld.param.u64 %out, [p_out];\n"
	"CHASE_LOOP:\n"
	"	setp.eq.u32 %p, %steps, 0;\n"
	"	@%p bra CHASE_DONE;\n"
	"	ld.u64 %ptr, [%ptr];\n"
	"	sub.u32 %steps, %steps, 1;\n"
	"	bra CHASE_LOOP;\n"
	"CHASE_DONE:\n"
	"	st.u64 [%out], %ptr;\n"
	"	ret;\n"
	"}\n";
