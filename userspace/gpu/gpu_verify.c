// SPDX-License-Identifier: GPL-2.0
/*
 * Every measured copy is verified, so that a fast figure from a copy that
 * dropped its writes (a redirect that completes as zeros, an unsupported
 * request read as all ones) never counts as bandwidth.  Before each
 * sample the source gets a fresh pattern (gpu_pattern.h) and the
 * destination that pattern's "stale" twin; afterwards a kernel counts the
 * destination words that are zero, all ones, stale or otherwise wrong,
 * and verify_classify() names what the counts mean.
 */
#include <stdint.h>

#include "gpu/gpu_measuring.h"
#include "gpu/gpu_pattern.h"

#define FILL_THREADS		256u

/* Queue on @dev's first stream: @buf gets the pattern of @seed, XOR @xor. */
bool verify_fill(struct meas *m, int dev, CUdeviceptr buf, size_t bytes,
		 uint32_t seed, uint32_t xor)
{
	uint64_t words = bytes / 4;
	void *params[] = { &buf, &words, &seed, &xor };

	return ctx_launch(m, dev, m->g[dev].fill, m->g[dev].blocks,
			  FILL_THREADS, m->g[dev].stream[0], params);
}

/*
 * Queue on @dev's first stream: count @buf's words against @seed's
 * pattern into @counters, then copy the counters to host @result.  The
 * host copy starts as sentinels and the device one carries a canary, so
 * a way back that is itself broken shows.
 */
bool verify_check(struct meas *m, int dev, CUdeviceptr buf, size_t bytes,
		  uint32_t seed, CUdeviceptr counters, void *result)
{
	struct gpu_ctx *g = &m->g[dev];
	uint64_t words = bytes / 4;
	void *params[] = { &buf, &words, &seed, &counters };
	uint32_t *back = result;
	unsigned int i;

	for (i = 0; i < GPU_CHECK_WORDS; i++)
		back[i] = GPU_CHECK_SENTINEL;
	return ctx_current(m, dev) &&
	       meas_ok(m, m->cu->cuMemsetD32Async(counters, 0, GPU_CHECK_COUNTERS,
						  g->stream[0]),
		       "cuMemsetD32Async") &&
	       meas_ok(m, m->cu->cuMemsetD32Async(counters + GPU_CHECK_CANARY * 4,
						  GPU_CHECK_CANARY_VALUE, 1,
						  g->stream[0]),
		       "cuMemsetD32Async") &&
	       ctx_launch(m, dev, g->check, g->blocks, FILL_THREADS,
			  g->stream[0], params) &&
	       meas_ok(m, m->cu->cuMemcpyAsync((CUdeviceptr)(uintptr_t)result,
					       counters, GPU_CHECK_WORDS * 4,
					       g->stream[0]),
		       "cuMemcpyAsync (check counters)");
}

enum gpu_verify verify_classify(const uint32_t *c, size_t bytes)
{
	uint64_t words = bytes / 4;
	uint64_t bad = (uint64_t)c[GPU_CHECK_ZEROS] + c[GPU_CHECK_ONES] +
		       c[GPU_CHECK_STALE] + c[GPU_CHECK_OTHER];
	unsigned int i, sentinels = 0;

	/* The counters did not come back intact: the way back is broken. */
	if (c[GPU_CHECK_CANARY] != GPU_CHECK_CANARY_VALUE) {
		for (i = 0; i < GPU_CHECK_WORDS; i++)
			sentinels += c[i] == GPU_CHECK_SENTINEL;
		if (c[GPU_CHECK_CANARY] == 0)
			return VERIFY_ZEROS;
		if (c[GPU_CHECK_CANARY] == 0xffffffffu)
			return VERIFY_ONES;
		return sentinels == GPU_CHECK_WORDS ? VERIFY_STALE :
						      VERIFY_PARTIAL;
	}
	if (!bad)
		return VERIFY_OK;
	if (bad < words)
		return VERIFY_PARTIAL;
	if (c[GPU_CHECK_ZEROS] == words)
		return VERIFY_ZEROS;
	if (c[GPU_CHECK_ONES] == words)
		return VERIFY_ONES;
	if (c[GPU_CHECK_STALE] == words)
		return VERIFY_STALE;
	return VERIFY_PARTIAL;
}

/* Of two verdicts on one figure's samples, the one that says a fault. */
enum gpu_verify verify_worse(enum gpu_verify a, enum gpu_verify b)
{
	return a != VERIFY_OK && a != VERIFY_NOT_RUN ? a : b;
}
