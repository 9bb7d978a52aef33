// SPDX-License-Identifier: GPL-2.0
/*
 * One CUDA context per measured GPU, set up before the first copy and
 * torn down after the last: its streams (one per peer, so a GPU can send
 * to every other at once), the two device buffers copies go between, the
 * check counters, and the gate/fill/check/chase kernels.  Peer access
 * between contexts is switched here too, for every selected pair at once.
 *
 * Nothing here blocks in the driver: waiting for streams goes through
 * meas_wait(), against the run's deadline.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/gpu_measuring.h"
#include "gpu/gpu_pattern.h"

bool ctx_current(struct meas *m, int dev)
{
	return meas_ok(m, m->cu->cuCtxSetCurrent(m->g[dev].ctx),
		       "cuCtxSetCurrent");
}

/* Pinned host memory every context can reach (the gate, host buffers). */
bool ctx_host_alloc(struct meas *m, void **p, size_t bytes)
{
	return meas_ok(m, m->cu->cuMemHostAlloc(p, bytes,
						CU_MEMHOSTALLOC_PORTABLE |
							CU_MEMHOSTALLOC_DEVICEMAP),
		       "cuMemHostAlloc");
}

bool ctx_launch(struct meas *m, int dev, CUfunction f, unsigned int blocks,
		unsigned int threads, CUstream s, void **params)
{
	return ctx_current(m, dev) &&
	       meas_ok(m, m->cu->cuLaunchKernel(f, blocks, 1, 1, threads, 1, 1,
						0, s, params, NULL),
		       "cuLaunchKernel");
}

/* Poll every stream of every context until idle. */
bool ctx_wait_idle(struct meas *m)
{
	unsigned int d, s;

	for (d = 0; d < m->st->nr_dev; d++) {
		struct gpu_ctx *g = &m->g[d];

		if (!g->ready)
			continue;
		for (s = 0; s < g->nr_streams; s++) {
			enum meas_wait w;

			do
				w = meas_wait(m, m->cu->cuStreamQuery(g->stream[s]),
					      "cuStreamQuery");
			while (w == WAIT_AGAIN);
			if (w == WAIT_FAILED)
				return false;
		}
	}
	return true;
}

static size_t round_pow2(size_t v)
{
	size_t p = 1ul << 20;

	while (p < v)
		p <<= 1;
	return p;
}

bool ctx_setup(struct meas *m, int d, unsigned int nr_streams)
{
	struct gpu_ctx *g = &m->g[d];
	struct cuda_api *cu = m->cu;
	int sms = 0, l2 = 0;
	CUdevice dev;
	unsigned int s;

	if (!meas_ok(m, cu->cuDeviceGet(&dev, m->st->dev[d].ordinal),
		     "cuDeviceGet") ||
	    !meas_ok(m, cu->cuDevicePrimaryCtxRetain(&g->ctx, dev),
		     "cuDevicePrimaryCtxRetain"))
		return false;
	g->dev = dev;
	g->ready = true;	/* from here on it must be released */
	if (!ctx_current(m, d) ||
	    !meas_ok(m, cu->cuDeviceGetAttribute(
				&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev),
		     "cuDeviceGetAttribute") ||
	    !meas_ok(m, cu->cuDeviceGetAttribute(
				&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, dev),
		     "cuDeviceGetAttribute") ||
	    !meas_ok(m, cu->cuModuleLoadData(&g->mod, gpu_kernels_ptx),
		     "cuModuleLoadData (gate/fill/check kernels)") ||
	    !meas_ok(m, cu->cuModuleGetFunction(&g->gate, g->mod, "p2pd_gate"),
		     "cuModuleGetFunction") ||
	    !meas_ok(m, cu->cuModuleGetFunction(&g->fill, g->mod, "p2pd_fill"),
		     "cuModuleGetFunction") ||
	    !meas_ok(m, cu->cuModuleGetFunction(&g->check, g->mod, "p2pd_check"),
		     "cuModuleGetFunction") ||
	    !meas_ok(m, cu->cuModuleGetFunction(&g->chase, g->mod, "p2pd_chase"),
		     "cuModuleGetFunction"))
		return false;
	g->blocks = (unsigned int)(sms > 0 ? sms : 1) * 2;
	/*
	 * At least eight times the L2, so the device-local copy measures
	 * memory, rounded up to a power of two: 512 MiB on an H100/H200,
	 * nvbandwidth's size (480 MiB read 1.5% faster there).
	 */
	g->local_bytes = round_pow2(m->par.size > 8ul * (size_t)l2 ?
					    m->par.size : 8ul * (size_t)l2);
	m->st->dev[d].local_bytes = g->local_bytes;
	g->stream = calloc(nr_streams, sizeof(*g->stream));
	if (!g->stream) {
		snprintf(m->st->error, sizeof(m->st->error), "out of memory");
		m->st->measure = GPU_FAILED;
		return false;
	}
	for (s = 0; s < nr_streams; s++) {
		if (!meas_ok(m, cu->cuStreamCreate(&g->stream[s],
						   CU_STREAM_NON_BLOCKING),
			     "cuStreamCreate"))
			return false;
		g->nr_streams = s + 1;
	}
	return meas_ok(m, cu->cuMemAlloc(&g->a, g->local_bytes), "cuMemAlloc") &&
	       meas_ok(m, cu->cuMemAlloc(&g->b, g->local_bytes), "cuMemAlloc") &&
	       meas_ok(m, cu->cuMemAlloc(&g->counters,
					 CHECK_SLOTS * GPU_CHECK_SLOT * 4),
		       "cuMemAlloc");
}

/* One device buffer freed: its failure counts (see ctx_teardown()). */
static void free_device(struct meas *m, CUdeviceptr p)
{
	if (p)
		meas_teardown_ok(m, m->cu->cuMemFree(p), "cuMemFree");
}

/*
 * The worker exits right after this, and the driver reclaims what a
 * process held when it ends, so a failing release leaks nothing for long.
 * The failures that count (meas_teardown_ok) are those where the driver
 * says the GPU's own state is wrong, which the user must know about:
 * CUDA reports a fault in work already done (an MMU fault, an Xid) late,
 * at the next call, and after the last figure these are the next calls.
 *   - cuCtxSetCurrent: a context that can no longer be made current is
 *     broken, or its GPU gone;
 *   - cuMemFree: device memory the driver could not take back from the
 *     GPU: a broken context or a GPU that no longer answers;
 *   - cuStreamDestroy: a stream is a channel on the GPU; one that cannot
 *     be torn down is the same;
 *   - cuDevicePrimaryCtxRelease: the release that ends the context, with
 *     its memory and peer mappings, on the GPU.
 * Not counted: cuModuleUnload, the events (cuEventDestroy,
 * lanes_release()) and pinned host memory (cuMemFreeHost, run_release()):
 * they free host memory and driver bookkeeping that end with the context
 * or the process, and a broken context shows in the counted calls that
 * follow them.
 * cuDevicePrimaryCtxRelease runs even when a call before it failed, so
 * the context is released whatever else went wrong.
 */
void ctx_teardown(struct meas *m, int d)
{
	struct gpu_ctx *g = &m->g[d];
	struct cuda_api *cu = m->cu;
	unsigned int s;

	if (!g->ready)
		return;
	meas_teardown_ok(m, cu->cuCtxSetCurrent(g->ctx), "cuCtxSetCurrent");
	free_device(m, g->a);
	free_device(m, g->b);
	free_device(m, g->counters);
	free_device(m, g->xrecv);
	free_device(m, g->xsend);
	for (s = 0; s < g->nr_streams; s++)
		meas_teardown_ok(m, cu->cuStreamDestroy(g->stream[s]),
				 "cuStreamDestroy");
	free(g->stream);
	if (g->mod)
		cu->cuModuleUnload(g->mod);
	meas_teardown_ok(m, cu->cuDevicePrimaryCtxRelease(g->dev),
			 "cuDevicePrimaryCtxRelease");
	memset(g, 0, sizeof(*g));
}

/* Both ends of @p have a context: the pair is measured. */
bool ctx_pair_ready(const struct meas *m, const struct gpu_pair *p)
{
	return m->g[p->src].ready && m->g[p->dst].ready;
}

/* The next pair from *@i on whose src may map its dst's memory, or NULL. */
static struct gpu_pair *next_peer_pair(struct meas *m, unsigned int *i)
{
	while (*i < m->st->nr_pairs) {
		struct gpu_pair *p = &m->st->pair[(*i)++];

		if (ctx_pair_ready(m, p) && p->can_access)
			return p;
	}
	return NULL;
}

/* Peer access from each pair's src context to its dst's memory. */
bool ctx_peer_access_on(struct meas *m)
{
	struct gpu_pair *p;
	unsigned int i = 0;
	CUresult r;

	while ((p = next_peer_pair(m, &i))) {
		if (!ctx_current(m, p->src))
			return false;
		r = m->cu->cuCtxEnablePeerAccess(m->g[p->dst].ctx, 0);
		if (r != CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED &&
		    !meas_ok(m, r, "cuCtxEnablePeerAccess"))
			return false;
	}
	return true;
}

/*
 * Peer access off again, once every figure is measured: a failure here
 * is the teardown's (st->teardown_error), not the measurements', and
 * every other pair is still switched off.
 */
void ctx_peer_access_off(struct meas *m)
{
	struct gpu_pair *p;
	unsigned int i = 0;
	CUresult r;

	while ((p = next_peer_pair(m, &i))) {
		r = m->cu->cuCtxSetCurrent(m->g[p->src].ctx);
		if (r != CUDA_SUCCESS) {
			meas_teardown_ok(m, r, "cuCtxSetCurrent");
			continue;
		}
		r = m->cu->cuCtxDisablePeerAccess(m->g[p->dst].ctx);
		if (r != CUDA_ERROR_PEER_ACCESS_NOT_ENABLED)
			meas_teardown_ok(m, r, "cuCtxDisablePeerAccess");
	}
}
