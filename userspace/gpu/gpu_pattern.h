/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The data pattern every measured copy carries.  Word i of a buffer filled
 * with seed s holds gpu_pattern_word(s, i).  The GPU kernels in
 * gpu_kernels.c compute the same function in PTX, and the CI test double
 * of libcuda (tests/doubles/) in C: all three must agree, so the function
 * lives here and nowhere else in C.
 *
 * A hash of the index rather than a counter, so that a copy landing at the
 * wrong offset, a stale buffer and a partial copy all read as wrong words.
 */
#ifndef P2PDIAG_GPU_PATTERN_H
#define P2PDIAG_GPU_PATTERN_H

#include <stdint.h>

#define GPU_PATTERN_GOLDEN	0x9E3779B1U
#define GPU_PATTERN_MUL1	0x7FEB352DU
#define GPU_PATTERN_MUL2	0x846CA68BU
/* The destination is pre-filled with every word XORed with this: a copy
 * that never landed leaves exactly that behind ("stale").  Bits 0 and 31
 * are clear, so stale words keep the properties below. */
#define GPU_PATTERN_STALE_XOR	0x5A5A5A5AU

static inline uint32_t gpu_pattern_word(uint32_t seed, uint64_t index)
{
	uint32_t x = ((uint32_t)index * GPU_PATTERN_GOLDEN) ^ seed;

	x ^= x >> 16;
	x *= GPU_PATTERN_MUL1;
	x ^= x >> 15;
	x *= GPU_PATTERN_MUL2;
	x ^= x >> 16;
	/* Bit 0 set, bit 31 clear: never 0 and never all ones, so those two
	 * failure signatures cannot pass for data. */
	return (x | 1u) & 0x7fffffffu;
}

/*
 * What the check kernel counts, in this order, one 32-bit counter each,
 * then a canary word the device sets before the counters travel back: the
 * way back is a device-to-host copy too, and a broken one must not read as
 * "no errors".
 */
enum gpu_check_counter {
	GPU_CHECK_ZEROS,
	GPU_CHECK_ONES,
	GPU_CHECK_STALE,
	GPU_CHECK_OTHER,
	GPU_CHECK_COUNTERS,
	GPU_CHECK_CANARY = GPU_CHECK_COUNTERS,
	GPU_CHECK_WORDS,		/* what is copied back */
	GPU_CHECK_SLOT = 8		/* words per lane, 32 bytes */
};
#define GPU_CHECK_CANARY_VALUE	0x600dc0deU
/* The host's result words before the copy back lands. */
#define GPU_CHECK_SENTINEL	0x5e57e5e5U

#endif /* P2PDIAG_GPU_PATTERN_H */
