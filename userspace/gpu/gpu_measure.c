// SPDX-License-Identifier: GPL-2.0
/*
 * The measurements, run inside the worker process (gpu_worker.c).
 *
 * Method (the one nvbandwidth uses, made cheaper): copy-engine copies on
 * non-blocking streams; each stream that takes part first runs a gate
 * kernel that spins on a pinned host word, then warm-up copies, a start
 * event, the timed copies and an end event; one host store releases every
 * gate at once, so concurrent copies really overlap.  A figure is the
 * median of >= 3 such samples.  64 MiB x 8 copies per sample lands within
 * 1% of nvbandwidth's 512 MiB x 16 on Gen5 links at a sixteenth of the
 * host memory and time.
 *
 * Every copy is verified: before each sample the source gets a fresh
 * pattern and the destination that pattern's "stale" twin; afterwards a
 * kernel counts the destination words that are zero, all ones, stale or
 * otherwise wrong.
 *
 * Nothing here blocks in the driver: completion is polled (cuEventQuery,
 * cuStreamQuery) against the run's deadline, so a copy that never
 * completes returns GPU_TIMEOUT naming its step.  The worker's parent
 * kills the process if even that does not return.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "gpu/gpu_priv.h"
#include "topology/pciaddr.h"
#include "gpu/gpu_pattern.h"
#include "../include/p2pdiag/model.h"

#define DEFAULT_SIZE		(64ul << 20)
#define MIN_SAMPLES		3u
#define MAX_SAMPLES		64u
#define COPIES_PER_SAMPLE	8u
#define WARMUP_COPIES		4u
#define LATENCY_COPIES		100u	/* queued 4-byte copies */
#define LATENCY_BYTES		4ul
/* Pointer chase over pinned host memory, one node per 128-byte line, each
 * line visited once per sample so no cache can answer. */
#define CHASE_BYTES		(2ul << 20)
#define CHASE_STRIDE		128ul
#define CHASE_STEPS		10000u
#define MAX_LANES		(GPU_MAX * (GPU_MAX - 1))
#define LOAD_READ_AFTER_S	0.003	/* NVML link read, into a copy */
#define FILL_THREADS		256u
/* The curve: each sample copies about this much, in 4 to 100 copies. */
#define CURVE_SAMPLE_BYTES	(16ul << 20)
#define CURVE_MIN_COPIES	4u
#define CURVE_MIN_BYTES		4ul

struct gpu_ctx {
	bool ready;
	CUcontext ctx;
	CUmodule mod;
	CUfunction gate, fill, check, chase;
	unsigned int nr_streams;
	CUstream *stream;
	CUdeviceptr a, b, counters, xsend, xrecv;
	size_t local_bytes;
	unsigned int blocks;		/* grid for fill/check */
};

/* One stream's share of a sample: WARMUP + count copies src -> dst. */
struct lane {
	int dev;			/* context whose stream copies */
	CUstream stream;
	CUdeviceptr dst, src;
	int dst_dev, src_dev;		/* context that fills/checks each */
	size_t bytes;
	unsigned int count, warmup;
	/*
	 * Untimed copies after the end event, so that in a two-way test each
	 * direction's timed copies run entirely against the other direction's
	 * traffic: without them the direction that finishes last runs alone
	 * at the end and reads several per cent fast.  nvbandwidth gives its
	 * interfering copy twice the bytes for the same reason.
	 */
	unsigned int trail;
	bool peer;			/* cuMemcpyPeerAsync between contexts */
	uint32_t seed;
	CUevent start, end;
	int ev_dev;			/* context the events belong to */
	double ms;
	enum gpu_verify verify;
};

struct meas {
	struct gpu_state *st;
	const struct gpu_options *opt;
	struct cuda_api *cu;
	struct nvml_api *nv;
	double deadline;
	size_t size;
	unsigned int samples;
	uint32_t seed;
	struct gpu_ctx g[GPU_MAX];
	volatile uint32_t *flag;	/* pinned, portable: the gate */
	uint32_t *results;		/* pinned: check counters per lane */
	struct lane lane[MAX_LANES];
	int load_dev;			/* read NVML under load, or -1 */
	int sample_dev;			/* sample clocks during copies, or -1 */
};

static bool cu_ok(struct meas *m, CUresult r, const char *what)
{
	if (r == CUDA_SUCCESS)
		return true;
	if (m->st->measure == GPU_OK) {
		snprintf(m->st->error, sizeof(m->st->error), "%s: %s", what,
			 gpu_cuda_error(m->cu, r));
		m->st->measure = GPU_FAILED;
	}
	return false;
}

static void pause_briefly(void)
{
	struct timespec ts = { 0, 20000 };

	nanosleep(&ts, NULL);
}

static bool past_deadline(struct meas *m)
{
	if (gpu_now() < m->deadline)
		return false;
	m->st->measure = GPU_TIMEOUT;
	snprintf(m->st->error, sizeof(m->st->error),
		 "no completion within the %.0f s deadline: %s",
		 m->opt->timeout_s, m->st->stuck_step);
	return true;
}

enum wait_step { WAIT_DONE, WAIT_AGAIN, WAIT_FAILED };

/*
 * What one answer of a CUDA query that is waited on means: the work is
 * done; not yet, so ask again (after a short pause); or give up, on an
 * error (recorded) or when the run's deadline has passed.
 */
static enum wait_step wait_step(struct meas *m, CUresult r, const char *what)
{
	if (r == CUDA_SUCCESS)
		return WAIT_DONE;
	if (r != CUDA_ERROR_NOT_READY) {
		cu_ok(m, r, what);
		return WAIT_FAILED;
	}
	if (past_deadline(m))
		return WAIT_FAILED;
	pause_briefly();
	return WAIT_AGAIN;
}

static bool set_ctx(struct meas *m, int dev)
{
	return cu_ok(m, m->cu->cuCtxSetCurrent(m->g[dev].ctx),
		     "cuCtxSetCurrent");
}

/* Poll every stream of every context until idle. */
static bool wait_idle(struct meas *m)
{
	unsigned int d, s;

	for (d = 0; d < m->st->nr_dev; d++) {
		struct gpu_ctx *g = &m->g[d];

		if (!g->ready)
			continue;
		for (s = 0; s < g->nr_streams; s++) {
			enum wait_step w;

			do
				w = wait_step(m, m->cu->cuStreamQuery(g->stream[s]),
					      "cuStreamQuery");
			while (w == WAIT_AGAIN);
			if (w == WAIT_FAILED)
				return false;
		}
	}
	return true;
}

static bool launch(struct meas *m, int dev, CUfunction f, unsigned int blocks,
		   unsigned int threads, CUstream s, void **params)
{
	return set_ctx(m, dev) &&
	       cu_ok(m, m->cu->cuLaunchKernel(f, blocks, 1, 1, threads, 1, 1, 0,
					      s, params, NULL),
		     "cuLaunchKernel");
}

static bool fill(struct meas *m, int dev, CUdeviceptr buf, size_t bytes,
		 uint32_t seed, uint32_t xor)
{
	uint64_t words = bytes / 4;
	void *params[] = { &buf, &words, &seed, &xor };

	return launch(m, dev, m->g[dev].fill, m->g[dev].blocks, FILL_THREADS,
		      m->g[dev].stream[0], params);
}

static bool check(struct meas *m, int dev, CUdeviceptr buf, size_t bytes,
		  uint32_t seed, CUdeviceptr counters, void *result)
{
	struct gpu_ctx *g = &m->g[dev];
	uint64_t words = bytes / 4;
	void *params[] = { &buf, &words, &seed, &counters };

	uint32_t *back = result;
	unsigned int i;

	for (i = 0; i < GPU_CHECK_WORDS; i++)
		back[i] = GPU_CHECK_SENTINEL;
	return set_ctx(m, dev) &&
	       cu_ok(m, m->cu->cuMemsetD32Async(counters, 0, GPU_CHECK_COUNTERS,
					       g->stream[0]),
		     "cuMemsetD32Async") &&
	       cu_ok(m, m->cu->cuMemsetD32Async(counters + GPU_CHECK_CANARY * 4,
					       GPU_CHECK_CANARY_VALUE, 1,
					       g->stream[0]),
		     "cuMemsetD32Async") &&
	       launch(m, dev, g->check, g->blocks, FILL_THREADS, g->stream[0],
		      params) &&
	       cu_ok(m, m->cu->cuMemcpyAsync((CUdeviceptr)(uintptr_t)result,
					     counters, GPU_CHECK_WORDS * 4,
					     g->stream[0]),
		     "cuMemcpyAsync (check counters)");
}

static enum gpu_verify classify(const uint32_t *c, size_t bytes)
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

static bool enqueue_copy(struct meas *m, struct lane *l)
{
	CUresult r;

	if (l->peer)
		r = m->cu->cuMemcpyPeerAsync(l->dst, m->g[l->dst_dev].ctx, l->src,
					     m->g[l->src_dev].ctx, l->bytes,
					     l->stream);
	else
		r = m->cu->cuMemcpyAsync(l->dst, l->src, l->bytes, l->stream);
	return cu_ok(m, r, l->peer ? "cuMemcpyPeerAsync" : "cuMemcpyAsync");
}

static bool enqueue_copies(struct meas *m, struct lane *l,
			   unsigned int count)
{
	unsigned int k;

	for (k = 0; k < count; k++)
		if (!enqueue_copy(m, l))
			return false;
	return true;
}

/* Wait for every lane's end event; read NVML under load on the way. */
static bool wait_lanes(struct meas *m, struct lane *lanes, unsigned int n,
		       double released)
{
	unsigned int i;
	bool sampled = m->sample_dev < 0;

	for (i = 0; i < n; i++)
		for (;;) {
			CUresult r = m->cu->cuEventQuery(lanes[i].end);
			enum wait_step w;

			/* Once per sample, while the copies run (or as the
			 * last ends, when they are shorter than that). */
			if (!sampled &&
			    (gpu_now() - released >= LOAD_READ_AFTER_S ||
			     (r == CUDA_SUCCESS && i == n - 1))) {
				gpu_activity_sample_load(m->st, m->nv,
							 m->sample_dev);
				sampled = true;
			}

			/* Read a few ms in, or as the copies end if they are
			 * shorter: a link retrains far slower than that. */
			if (m->load_dev >= 0 &&
			    (gpu_now() - released >= LOAD_READ_AFTER_S ||
			     (r == CUDA_SUCCESS && i == n - 1))) {
				gpu_nvml_read_link_load(m->st, m->nv,
							m->load_dev);
				m->load_dev = -1;
			}
			w = wait_step(m, r, "cuEventQuery");
			if (w == WAIT_DONE)
				break;
			if (w == WAIT_FAILED)
				return false;
		}
	return true;
}

/*
 * One sample: fill, gate, copy, release, wait, verify.  Fills and checks
 * run on the owning context's first stream and are waited for, so that
 * lanes spanning two contexts need no cross-context ordering.
 */
static bool run_sample(struct meas *m, struct lane *lanes, unsigned int n)
{
	unsigned int i, k;
	uint64_t gate_ns;
	double released, left;

	for (i = 0; i < n; i++) {
		struct lane *l = &lanes[i];

		l->seed = ++m->seed * GPU_PATTERN_GOLDEN;
		if (!fill(m, l->src_dev, l->src, l->bytes, l->seed, 0) ||
		    !fill(m, l->dst_dev, l->dst, l->bytes, l->seed,
			  GPU_PATTERN_STALE_XOR))
			return false;
	}
	if (!wait_idle(m))
		return false;

	/* The gate gives up when the run's deadline passes (never < 1 ms). */
	left = m->deadline - gpu_now();
	gate_ns = (uint64_t)((left > 1e-3 ? left : 1e-3) * 1e9);
	*m->flag = 0;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	for (i = 0; i < n; i++) {
		struct lane *l = &lanes[i];
		CUdeviceptr flag = (CUdeviceptr)(uintptr_t)m->flag;
		void *params[] = { &flag, &gate_ns };

		if (!launch(m, l->dev, m->g[l->dev].gate, 1, 1, l->stream, params))
			goto release;
		/* warm-ups, the timed copies between the two events, trailers */
		if (!enqueue_copies(m, l, l->warmup) ||
		    !cu_ok(m, m->cu->cuEventRecord(l->start, l->stream),
			   "cuEventRecord") ||
		    !enqueue_copies(m, l, l->count) ||
		    !cu_ok(m, m->cu->cuEventRecord(l->end, l->stream),
			   "cuEventRecord") ||
		    !enqueue_copies(m, l, l->trail))
			goto release;
	}
	__atomic_store_n(m->flag, 1, __ATOMIC_SEQ_CST);
	released = gpu_now();
	if (!wait_lanes(m, lanes, n, released))
		return false;
	/* Trailing copies still write the destinations: let them finish. */
	for (i = 0, k = 0; i < n; i++)
		k += lanes[i].trail;
	if (k && !wait_idle(m))
		return false;

	for (i = 0; i < n; i++) {
		float ms = 0;

		if (!cu_ok(m, m->cu->cuEventElapsedTime(&ms, lanes[i].start,
							lanes[i].end),
			   "cuEventElapsedTime"))
			return false;
		lanes[i].ms = ms;
		if (!check(m, lanes[i].dst_dev, lanes[i].dst, lanes[i].bytes,
			   lanes[i].seed,
			   m->g[lanes[i].dst_dev].counters +
				   (CUdeviceptr)(i % 256) * GPU_CHECK_SLOT * 4,
			   m->results + (size_t)i * GPU_CHECK_SLOT))
			return false;
		/* Counter slots are per lane; wait before reusing a slot. */
		if (i % 256 == 255 && !wait_idle(m))
			return false;
	}
	if (!wait_idle(m))
		return false;
	for (i = 0; i < n; i++)
		lanes[i].verify = classify(m->results +
						   (size_t)i * GPU_CHECK_SLOT,
					   lanes[i].bytes);
	return true;

release:
	/* Never leave a gate closed behind an error. */
	__atomic_store_n(m->flag, 1, __ATOMIC_SEQ_CST);
	wait_idle(m);
	return false;
}

static void figure_set(struct gpu_figure *f, double *v, unsigned int n,
		       enum gpu_verify verify)
{
	f->median = gpu_median(v, n);	/* sorts v */
	f->valid = n > 0;
	f->samples = n;
	f->min = n ? v[0] : 0;
	f->max = n ? v[n - 1] : 0;
	f->verify = verify;
}

/* Bandwidth per lane (GB/s, 1e9 bytes) or, for latency, us per copy. */
static double lane_value(const struct lane *l, bool latency)
{
	if (latency)
		return l->ms * 1e3 / l->count;
	return l->ms > 0 ? (double)l->bytes * l->count / (l->ms * 1e6) : 0;
}

static enum gpu_verify worse(enum gpu_verify a, enum gpu_verify b)
{
	return a != VERIFY_OK && a != VERIFY_NOT_RUN ? a : b;
}

/*
 * Run the same lanes m->samples times; lane i's figure goes to out[i].
 * What is being done is named first, for the watchdog.
 */
static bool measure_lanes(struct meas *m, struct lane *lanes, unsigned int n,
			  struct gpu_figure **out, bool latency)
{
	double v[MAX_SAMPLES];
	enum gpu_verify verify[2] = { VERIFY_NOT_RUN, VERIFY_NOT_RUN };
	double values[2][MAX_SAMPLES];
	unsigned int s, i;

	for (s = 0; s < m->samples; s++) {
		if (!run_sample(m, lanes, n))
			return false;
		for (i = 0; i < n && i < 2; i++) {
			values[i][s] = lane_value(&lanes[i], latency);
			verify[i] = worse(verify[i], lanes[i].verify);
		}
	}
	for (i = 0; i < n && i < 2; i++) {
		memcpy(v, values[i], sizeof(double) * m->samples);
		figure_set(out[i], v, m->samples, verify[i]);
	}
	return true;
}

/* One end of a copy: the buffer and the context that fills or checks it. */
struct lane_end {
	CUdeviceptr ptr;
	int dev;
};

/* What a lane copies: lane_init() turns it into a struct lane. */
struct lane_spec {
	int dev;			/* context whose stream copies */
	unsigned int stream;		/* which of its streams (modulo their count) */
	struct lane_end dst, src;
	size_t bytes;
	unsigned int count;		/* timed copies per sample */
};

/* Set @l up to copy as @spec says; its events are kept. */
static void lane_init(struct meas *m, struct lane *l,
		      const struct lane_spec *spec)
{
	const struct gpu_ctx *g = &m->g[spec->dev];
	CUevent start = l->start, end = l->end;
	int ev_dev = l->ev_dev;

	memset(l, 0, sizeof(*l));
	l->start = start;
	l->end = end;
	l->ev_dev = ev_dev;
	l->dev = spec->dev;
	l->stream = g->stream[spec->stream % g->nr_streams];
	l->dst = spec->dst.ptr;
	l->dst_dev = spec->dst.dev;
	l->src = spec->src.ptr;
	l->src_dev = spec->src.dev;
	l->bytes = spec->bytes;
	l->count = spec->count;
	l->warmup = spec->count > 1 ? WARMUP_COPIES : 1;
}

/* Events belong to a context: (re)create a lane's pair in its device's. */
static bool lane_events(struct meas *m, struct lane *l)
{
	if (l->start && l->ev_dev == l->dev)
		return true;
	if (l->start) {
		m->cu->cuEventDestroy(l->start);
		m->cu->cuEventDestroy(l->end);
		l->start = l->end = NULL;
	}
	l->ev_dev = l->dev;
	return set_ctx(m, l->dev) &&
	       cu_ok(m, m->cu->cuEventCreate(&l->start, CU_EVENT_DEFAULT),
		     "cuEventCreate") &&
	       cu_ok(m, m->cu->cuEventCreate(&l->end, CU_EVENT_DEFAULT),
		     "cuEventCreate");
}

static void step(struct meas *m, const char *what, int a, int b)
{
	char name[96], sa[P2PD_ADDR_STRLEN], sb[P2PD_ADDR_STRLEN];
	int pair = -1;

	pciaddr_format(sa, m->st->dev[a].pci_addr);
	if (b >= 0) {
		pciaddr_format(sb, m->st->dev[b].pci_addr);
		snprintf(name, sizeof(name), "%s %s -> %s", what, sa, sb);
		pair = (int)gpu_pair_index(m->st->nr_dev, a, b);
	} else {
		snprintf(name, sizeof(name), "%s %s", what, sa);
	}
	gpu_record_step(m->st, name, pair, a);
	if (m->opt->progress)
		m->opt->progress(name);
}

/* Prefer the GPU's NUMA node for the next pinned allocation. */
static void prefer_node(int node)
{
	unsigned long mask[16] = { 0 };

	if (node < 0 || node >= (int)(sizeof(mask) * 8)) {
		syscall(SYS_set_mempolicy, 0 /* MPOL_DEFAULT */, NULL, 0);
		return;
	}
	mask[node / (8 * sizeof(long))] = 1ul << (node % (8 * sizeof(long)));
	syscall(SYS_set_mempolicy, 1 /* MPOL_PREFERRED */, mask,
		sizeof(mask) * 8);
}

static bool host_alloc(struct meas *m, void **p, size_t bytes)
{
	return cu_ok(m, m->cu->cuMemHostAlloc(p, bytes,
					      CU_MEMHOSTALLOC_PORTABLE |
						      CU_MEMHOSTALLOC_DEVICEMAP),
		     "cuMemHostAlloc");
}

static size_t round_pow2(size_t v)
{
	size_t p = 1ul << 20;

	while (p < v)
		p <<= 1;
	return p;
}

static bool ctx_setup(struct meas *m, int d, unsigned int nr_streams)
{
	struct gpu_ctx *g = &m->g[d];
	struct cuda_api *cu = m->cu;
	int sms = 0, l2 = 0;
	CUdevice dev;
	unsigned int s;

	if (!cu_ok(m, cu->cuDeviceGet(&dev, m->st->dev[d].ordinal),
		   "cuDeviceGet") ||
	    !cu_ok(m, cu->cuDevicePrimaryCtxRetain(&g->ctx, dev),
		   "cuDevicePrimaryCtxRetain"))
		return false;
	g->ready = true;	/* from here on it must be released */
	if (!set_ctx(m, d) ||
	    !cu_ok(m, cu->cuDeviceGetAttribute(
			      &sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev),
		   "cuDeviceGetAttribute") ||
	    !cu_ok(m, cu->cuDeviceGetAttribute(
			      &l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, dev),
		   "cuDeviceGetAttribute") ||
	    !cu_ok(m, cu->cuModuleLoadData(&g->mod, gpu_kernels_ptx),
		   "cuModuleLoadData (gate/fill/check kernels)") ||
	    !cu_ok(m, cu->cuModuleGetFunction(&g->gate, g->mod, "p2pd_gate"),
		   "cuModuleGetFunction") ||
	    !cu_ok(m, cu->cuModuleGetFunction(&g->fill, g->mod, "p2pd_fill"),
		   "cuModuleGetFunction") ||
	    !cu_ok(m, cu->cuModuleGetFunction(&g->check, g->mod, "p2pd_check"),
		   "cuModuleGetFunction") ||
	    !cu_ok(m, cu->cuModuleGetFunction(&g->chase, g->mod, "p2pd_chase"),
		   "cuModuleGetFunction"))
		return false;
	g->blocks = (unsigned int)(sms > 0 ? sms : 1) * 2;
	/*
	 * At least eight times the L2, so the device-local copy measures
	 * memory, rounded up to a power of two: 512 MiB on an H100/H200,
	 * nvbandwidth's size (480 MiB read 1.5% faster there).
	 */
	g->local_bytes = round_pow2(m->size > 8ul * (size_t)l2 ? m->size :
								 8ul * (size_t)l2);
	m->st->dev[d].local_bytes = g->local_bytes;
	g->stream = calloc(nr_streams, sizeof(*g->stream));
	if (!g->stream) {
		snprintf(m->st->error, sizeof(m->st->error), "out of memory");
		m->st->measure = GPU_FAILED;
		return false;
	}
	for (s = 0; s < nr_streams; s++) {
		if (!cu_ok(m, cu->cuStreamCreate(&g->stream[s],
						 CU_STREAM_NON_BLOCKING),
			   "cuStreamCreate"))
			return false;
		g->nr_streams = s + 1;
	}
	return cu_ok(m, cu->cuMemAlloc(&g->a, g->local_bytes), "cuMemAlloc") &&
	       cu_ok(m, cu->cuMemAlloc(&g->b, g->local_bytes), "cuMemAlloc") &&
	       cu_ok(m, cu->cuMemAlloc(&g->counters, 256 * GPU_CHECK_SLOT * 4),
		     "cuMemAlloc");
}

static void ctx_teardown(struct meas *m, int d)
{
	struct gpu_ctx *g = &m->g[d];
	struct cuda_api *cu = m->cu;
	CUdevice dev;
	unsigned int s;

	if (!g->ready)
		return;
	cu->cuCtxSetCurrent(g->ctx);
	if (g->a)
		cu->cuMemFree(g->a);
	if (g->b)
		cu->cuMemFree(g->b);
	if (g->counters)
		cu->cuMemFree(g->counters);
	if (g->xrecv)
		cu->cuMemFree(g->xrecv);
	if (g->xsend)
		cu->cuMemFree(g->xsend);
	for (s = 0; s < g->nr_streams; s++)
		cu->cuStreamDestroy(g->stream[s]);
	free(g->stream);
	if (g->mod)
		cu->cuModuleUnload(g->mod);
	if (cu->cuDeviceGet(&dev, m->st->dev[d].ordinal) == CUDA_SUCCESS)
		cu->cuDevicePrimaryCtxRelease(dev);
	memset(g, 0, sizeof(*g));
}

/* Build the chain: node k points to node (k + 1) mod nodes. */
static CUdeviceptr chase_build(void *host, size_t bytes)
{
	size_t nodes = bytes / CHASE_STRIDE, k;
	char *base = host;

	for (k = 0; k < nodes; k++)
		*(uint64_t *)(base + k * CHASE_STRIDE) =
			(uint64_t)(uintptr_t)(base +
					       ((k + 1) % nodes) * CHASE_STRIDE);
	return (CUdeviceptr)(uintptr_t)host;
}

static bool measure_chase(struct meas *m, int d, void *host)
{
	struct gpu_ctx *g = &m->g[d];
	struct lane *l = &m->lane[0];
	double v[MAX_SAMPLES];
	size_t bytes = m->size < CHASE_BYTES ? m->size : CHASE_BYTES;
	CUdeviceptr start = chase_build(host, bytes);
	uint64_t expect = start + (CHASE_STEPS % (bytes / CHASE_STRIDE)) *
					  CHASE_STRIDE;
	enum gpu_verify verify = VERIFY_OK;
	unsigned int s, steps = CHASE_STEPS;
	uint64_t *result = (uint64_t *)m->results;

	for (s = 0; s < m->samples; s++) {
		void *params[] = { &start, &steps, &g->counters };
		float ms = 0;

		if (!set_ctx(m, d) ||
		    !cu_ok(m, m->cu->cuEventRecord(l->start, g->stream[0]),
			   "cuEventRecord") ||
		    !launch(m, d, g->chase, 1, 1, g->stream[0], params) ||
		    !cu_ok(m, m->cu->cuEventRecord(l->end, g->stream[0]),
			   "cuEventRecord") ||
		    !cu_ok(m, m->cu->cuMemcpyAsync((CUdeviceptr)(uintptr_t)result,
						   g->counters, 8, g->stream[0]),
			   "cuMemcpyAsync") ||
		    !wait_idle(m) ||
		    !cu_ok(m, m->cu->cuEventElapsedTime(&ms, l->start, l->end),
			   "cuEventElapsedTime"))
			return false;
		v[s] = ms * 1e3 / CHASE_STEPS;
		if (*result != expect)
			verify = VERIFY_PARTIAL;
	}
	figure_set(&m->st->dev[d].latency_chase, v, m->samples, verify);
	return true;
}

static unsigned int curve_copies(size_t bytes)
{
	size_t n = CURVE_SAMPLE_BYTES / bytes;

	return n < CURVE_MIN_COPIES ? CURVE_MIN_COPIES :
	       n > LATENCY_COPIES ? LATENCY_COPIES : (unsigned int)n;
}

/*
 * Time per copy from 4 B doubling up to the copy size, for lane l[0] as
 * its caller set it up (only bytes and count change).
 */
static bool measure_curve(struct meas *m, struct gpu_curve *c, size_t max)
{
	struct lane *l = &m->lane[0];
	struct gpu_figure f, *one[1] = { &f };
	size_t bytes;

	c->n = 0;
	c->verified = true;
	for (bytes = CURVE_MIN_BYTES; bytes <= max && c->n < GPU_CURVE_MAX;
	     bytes <<= 1) {
		unsigned int count = curve_copies(bytes);

		l->bytes = bytes;
		l->count = count;
		l->warmup = WARMUP_COPIES;
		memset(&f, 0, sizeof(f));
		if (!measure_lanes(m, l, 1, one, true))
			return false;
		c->bytes[c->n] = bytes;
		c->us[c->n++] = f.median;
		c->verified &= f.verify == VERIFY_OK;
	}
	return true;
}

/* --curve: host to device, device to host and device-local. */
static bool measure_curves(struct meas *m, int d, CUdeviceptr host)
{
	struct gpu_device *dev = &m->st->dev[d];
	struct gpu_ctx *g = &m->g[d];
	struct lane *l = m->lane;

	step(m, "small-message curve, host to device", d, -1);
	lane_init(m, &l[0], &(struct lane_spec){
		.dev = d,
		.dst = { g->a, d },
		.src = { host, d },
		.count = 1,
	});
	if (!measure_curve(m, &dev->curve[CURVE_H2D], m->size))
		return false;
	step(m, "small-message curve, device to host", d, -1);
	lane_init(m, &l[0], &(struct lane_spec){
		.dev = d,
		.dst = { host, d },
		.src = { g->a, d },
		.count = 1,
	});
	if (!measure_curve(m, &dev->curve[CURVE_D2H], m->size))
		return false;
	step(m, "small-message curve, device-local", d, -1);
	lane_init(m, &l[0], &(struct lane_spec){
		.dev = d,
		.dst = { g->b, d },
		.src = { g->a, d },
		.count = 1,
	});
	return measure_curve(m, &dev->curve[CURVE_LOCAL], m->size);
}

/* H2D, D2H, both at once, device-local, small-copy latency, chase. */
static bool measure_gpu(struct meas *m, int d)
{
	struct gpu_device *dev = &m->st->dev[d];
	struct gpu_ctx *g = &m->g[d];
	struct lane *l = m->lane;
	void *h1 = NULL, *h2 = NULL;
	CUdeviceptr H1, H2;
	struct gpu_figure *one[1], *two[2];
	struct lane_spec h2d;
	bool ok = false;

	gpu_nvml_bind_cpu(m->nv, d);
	prefer_node(dev->numa_node);
	ok = set_ctx(m, d) && host_alloc(m, &h1, m->size) &&
	     host_alloc(m, &h2, m->size);
	prefer_node(-1);
	if (!ok)
		goto out;
	gpu_placement_read(&dev->placement, h1);
	m->sample_dev = d;
	ok = false;
	H1 = (CUdeviceptr)(uintptr_t)h1;
	H2 = (CUdeviceptr)(uintptr_t)h2;
	l[0].dev = l[1].dev = d;
	if (!lane_events(m, &l[0]) || !lane_events(m, &l[1]))
		goto out;

	step(m, "host to device", d, -1);
	h2d = (struct lane_spec){
		.dev = d,
		.dst = { g->a, d },
		.src = { H1, d },
		.bytes = m->size,
		.count = COPIES_PER_SAMPLE,
	};
	lane_init(m, &l[0], &h2d);
	one[0] = &dev->h2d;
	if (!measure_lanes(m, l, 1, one, false))
		goto out;

	step(m, "device to host", d, -1);
	lane_init(m, &l[0], &(struct lane_spec){
		.dev = d,
		.dst = { H2, d },
		.src = { g->a, d },
		.bytes = m->size,
		.count = COPIES_PER_SAMPLE,
	});
	one[0] = &dev->d2h;
	if (!measure_lanes(m, l, 1, one, false))
		goto out;

	step(m, "host to device and back at once", d, -1);
	lane_init(m, &l[0], &h2d);
	lane_init(m, &l[1], &(struct lane_spec){
		.dev = d,
		.stream = 1,
		.dst = { H2, d },
		.src = { g->b, d },
		.bytes = m->size,
		.count = COPIES_PER_SAMPLE,
	});
	l[0].trail = l[1].trail = COPIES_PER_SAMPLE;
	two[0] = &dev->bidir_h2d;
	two[1] = &dev->bidir_d2h;
	m->load_dev = d;
	if (!measure_lanes(m, l, 2, two, false))
		goto out;
	m->load_dev = -1;

	step(m, "device-local copy", d, -1);
	lane_init(m, &l[0], &(struct lane_spec){
		.dev = d,
		.dst = { g->b, d },
		.src = { g->a, d },
		.bytes = g->local_bytes,
		.count = COPIES_PER_SAMPLE,
	});
	one[0] = &dev->local;
	if (!measure_lanes(m, l, 1, one, false))
		goto out;

	step(m, "host to device latency", d, -1);
	lane_init(m, &l[0], &(struct lane_spec){
		.dev = d,
		.dst = { g->a, d },
		.src = { H1, d },
		.bytes = LATENCY_BYTES,
		.count = LATENCY_COPIES,
	});
	one[0] = &dev->latency_h2d;
	if (!measure_lanes(m, l, 1, one, true))
		goto out;

	step(m, "host memory latency (pointer chase)", d, -1);
	ok = measure_chase(m, d, h1);
	if (ok && m->opt->curve)
		ok = measure_curves(m, d, H1);
out:
	m->load_dev = -1;
	m->sample_dev = -1;
	if (h1)
		m->cu->cuMemFreeHost(h1);
	if (h2)
		m->cu->cuMemFreeHost(h2);
	return ok;
}

static bool pair_selected(struct meas *m, const struct gpu_pair *p)
{
	return m->g[p->src].ready && m->g[p->dst].ready;
}

static bool set_peer_access(struct meas *m, bool on)
{
	unsigned int i;

	for (i = 0; i < m->st->nr_pairs; i++) {
		struct gpu_pair *p = &m->st->pair[i];
		CUresult r;

		if (!pair_selected(m, p) || !p->can_access)
			continue;
		if (!set_ctx(m, p->src))
			return false;
		/* Access from src's context to dst's memory. */
		r = on ? m->cu->cuCtxEnablePeerAccess(m->g[p->dst].ctx, 0) :
			 m->cu->cuCtxDisablePeerAccess(m->g[p->dst].ctx);
		if (r == CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED ||
		    r == CUDA_ERROR_PEER_ACCESS_NOT_ENABLED)
			continue;
		if (!cu_ok(m, r, on ? "cuCtxEnablePeerAccess" :
				      "cuCtxDisablePeerAccess"))
			return false;
	}
	return true;
}

/* Staged (peer access off) or direct: one way, both ways, latency. */
static bool measure_pair(struct meas *m, struct gpu_pair *p, bool direct)
{
	struct gpu_ctx *a = &m->g[p->src], *b = &m->g[p->dst];
	struct lane *l = m->lane;
	struct gpu_figure *one[1], *two[2], spare;

	l[0].dev = p->src;
	l[1].dev = p->dst;
	if (!lane_events(m, &l[0]) || !lane_events(m, &l[1]))
		return false;

	step(m, direct ? "p2p" : "staged", p->src, p->dst);
	lane_init(m, &l[0], &(struct lane_spec){
		.dev = p->src,
		.dst = { b->a, p->dst },
		.src = { a->b, p->src },
		.bytes = m->size,
		.count = COPIES_PER_SAMPLE,
	});
	l[0].peer = true;
	one[0] = direct ? &p->p2p : &p->staged;
	if (!measure_lanes(m, l, 1, one, false))
		return false;

	step(m, direct ? "p2p latency" : "staged latency", p->src, p->dst);
	lane_init(m, &l[0], &(struct lane_spec){
		.dev = p->src,
		.dst = { b->a, p->dst },
		.src = { a->b, p->src },
		.bytes = LATENCY_BYTES,
		.count = LATENCY_COPIES,
	});
	l[0].peer = true;
	one[0] = direct ? &p->latency_p2p : &p->latency_staged;
	if (!measure_lanes(m, l, 1, one, true))
		return false;
	if (!direct)
		return true;

	step(m, "p2p both ways", p->src, p->dst);
	lane_init(m, &l[0], &(struct lane_spec){
		.dev = p->src,
		.dst = { b->a, p->dst },
		.src = { a->b, p->src },
		.bytes = m->size,
		.count = COPIES_PER_SAMPLE,
	});
	lane_init(m, &l[1], &(struct lane_spec){
		.dev = p->dst,
		.stream = 1,
		.dst = { a->a, p->src },
		.src = { b->b, p->dst },
		.bytes = m->size,
		.count = COPIES_PER_SAMPLE,
	});
	l[0].peer = l[1].peer = true;
	l[0].trail = l[1].trail = COPIES_PER_SAMPLE;
	two[0] = &p->p2p_bidir;
	two[1] = &spare;	/* the reverse pair reports its own */
	if (!measure_lanes(m, l, 2, two, false))
		return false;
	if (!m->opt->curve)
		return true;
	step(m, "small-message curve, p2p", p->src, p->dst);
	lane_init(m, &l[0], &(struct lane_spec){
		.dev = p->src,
		.dst = { b->a, p->dst },
		.src = { a->b, p->src },
		.count = 1,
	});
	l[0].peer = true;
	return measure_curve(m, &p->curve, m->size);
}

/*
 * The gradient exchange: every selected GPU sends a shard of `bytes` to
 * every other at once; the time is the slowest lane's.  Each receiver keeps
 * one slot per sender in xrecv.
 */
static bool exchange_once(struct meas *m, size_t bytes, bool direct,
			  double *us)
{
	unsigned int i, n = 0, nr = m->st->nr_dev;
	double v[MAX_SAMPLES];
	unsigned int s;

	for (i = 0; i < m->st->nr_pairs; i++) {
		struct gpu_pair *p = &m->st->pair[i];
		struct lane *l = &m->lane[n];
		/* Sender's slot at the receiver and receiver's at the
		 * sender: each lane has buffers of its own. */
		CUdeviceptr rslot = (CUdeviceptr)(p->src < p->dst ? p->src :
								    p->src - 1);
		CUdeviceptr sslot = (CUdeviceptr)(p->dst < p->src ? p->dst :
								    p->dst - 1);

		if (!pair_selected(m, p) || (direct && !p->can_access))
			continue;
		l->dev = p->src;
		if (!lane_events(m, l))
			return false;
		lane_init(m, l, &(struct lane_spec){
			.dev = p->src,
			.stream = (unsigned int)p->dst,
			.dst = { m->g[p->dst].xrecv + rslot * m->size, p->dst },
			.src = { m->g[p->src].xsend + sslot * m->size, p->src },
			.bytes = bytes,
			.count = 1,
		});
		l->peer = true;
		n++;
	}
	if (n < 2)
		return true;
	for (s = 0; s < m->samples; s++) {
		double slowest = 0;

		if (!run_sample(m, m->lane, n))
			return false;
		for (i = 0; i < n; i++) {
			if (m->lane[i].verify != VERIFY_OK) {
				struct gpu_pair *p = &m->st->pair[gpu_pair_index(
					nr, m->lane[i].src_dev,
					m->lane[i].dst_dev)];
				struct gpu_figure *f = direct ? &p->p2p :
								&p->staged;

				f->verify = worse(f->verify, m->lane[i].verify);
			}
			if (m->lane[i].ms > slowest)
				slowest = m->lane[i].ms;
		}
		v[s] = slowest * 1e3;
	}
	*us = gpu_median(v, m->samples);
	return true;
}

static bool measure_exchange(struct meas *m, bool direct)
{
	struct gpu_exchange *x = &m->st->exchange;
	unsigned int k, d, senders = 0;
	char what[64];

	for (d = 0; d < m->st->nr_dev; d++)
		senders += m->g[d].ready;
	if (senders < 2)
		return true;
	for (d = 0; d < m->st->nr_dev; d++)
		if (m->g[d].ready && !m->g[d].xrecv &&
		    (!set_ctx(m, (int)d) ||
		     !cu_ok(m, m->cu->cuMemAlloc(&m->g[d].xrecv,
						 m->size * (m->st->nr_dev - 1)),
			    "cuMemAlloc") ||
		     !cu_ok(m, m->cu->cuMemAlloc(&m->g[d].xsend,
						 m->size * (m->st->nr_dev - 1)),
			    "cuMemAlloc")))
			return false;
	for (k = 0; k < GPU_EXCHANGE_SIZES; k++) {
		size_t bytes = (size_t)4096 << k;
		double us = 0;

		if (bytes > m->size)
			break;
		snprintf(what, sizeof(what), "gradient exchange %s %zu KiB",
			 direct ? "p2p" : "staged", bytes >> 10);
		gpu_record_step(m->st, what, -1, -1);
		if (m->opt->progress)
			m->opt->progress(what);
		if (!exchange_once(m, bytes, direct, &us))
			return false;
		x->size[k] = bytes;
		if (direct)
			x->p2p_us[k] = us;
		else
			x->staged_us[k] = us;
	}
	x->valid = true;
	return true;
}

static void lanes_release(struct meas *m)
{
	unsigned int i;

	for (i = 0; i < MAX_LANES; i++)
		if (m->lane[i].start) {
			m->cu->cuEventDestroy(m->lane[i].start);
			m->cu->cuEventDestroy(m->lane[i].end);
		}
}

static bool measure_pairs(struct meas *m)
{
	unsigned int i;

	/* Staged first: peer access is off in fresh contexts. */
	for (i = 0; i < m->st->nr_pairs; i++)
		if (pair_selected(m, &m->st->pair[i]) &&
		    !measure_pair(m, &m->st->pair[i], false))
			return false;
	if (!measure_exchange(m, false))
		return false;
	if (!set_peer_access(m, true))
		return false;
	for (i = 0; i < m->st->nr_pairs; i++) {
		struct gpu_pair *p = &m->st->pair[i];

		if (pair_selected(m, p) && p->can_access &&
		    !measure_pair(m, p, true))
			return false;
	}
	if (!measure_exchange(m, true))
		return false;
	return set_peer_access(m, false);
}

enum gpu_status gpu_measure_all(struct gpu_state *st,
				const struct gpu_options *opt,
				struct cuda_api *cu, struct nvml_api *nv,
				double deadline)
{
	static struct meas meas;	/* large; the worker runs one */
	struct meas *m = &meas;
	unsigned int d, nr_streams;
	bool ok = true;

	memset(m, 0, sizeof(*m));
	for (d = 0; d < MAX_LANES; d++)
		m->lane[d].ev_dev = -1;
	m->st = st;
	m->opt = opt;
	m->cu = cu;
	m->nv = nv;
	m->deadline = deadline;
	m->size = opt->size ? opt->size : DEFAULT_SIZE;
	m->size &= ~(size_t)3;
	m->samples = opt->iterations < MIN_SAMPLES ? MIN_SAMPLES :
		     opt->iterations > MAX_SAMPLES ? MAX_SAMPLES :
						     opt->iterations;
	m->load_dev = -1;
	m->sample_dev = -1;
	st->measure = GPU_OK;
	if (m->size < 4096) {
		snprintf(st->error, sizeof(st->error),
			 "--size %zu is below the 4 KiB minimum", m->size);
		return st->measure = GPU_FAILED;
	}
	if (!cu->measure_ok) {
		snprintf(st->error, sizeof(st->error),
			 "libcuda.so.1: entry point %s not found", cu->missing);
		return st->measure = GPU_NO_SYMBOL;
	}
	nr_streams = st->nr_dev > 2 ? st->nr_dev : 2;
	if (!gpu_activity_gate(st, opt, nv, deadline))
		return st->measure;

	for (d = 0; d < st->nr_dev && ok; d++)
		if (gpu_selected(st, opt, (int)d)) {
			step(m, "setting up", (int)d, -1);
			ok = ctx_setup(m, (int)d, nr_streams);
		}
	if (ok) {
		void *flag = NULL, *results = NULL;

		for (d = 0; d < st->nr_dev && !m->g[d].ready; d++)
			;
		if (d == st->nr_dev) {
			snprintf(st->error, sizeof(st->error),
				 "--pairs names no GPU that CUDA lists");
			return st->measure = GPU_FAILED;
		}
		ok = set_ctx(m, (int)d) &&
		     host_alloc(m, &flag, 4096) &&
		     host_alloc(m, &results,
				(size_t)MAX_LANES * GPU_CHECK_SLOT * 4);
		m->flag = flag;
		m->results = results;
	}
	for (d = 0; d < st->nr_dev && ok; d++)
		if (m->g[d].ready)
			ok = measure_gpu(m, (int)d);
	if (ok)
		ok = measure_pairs(m);
	if (st->measure == GPU_TIMEOUT)
		return GPU_TIMEOUT;	/* a stuck copy: nothing can be freed */

	gpu_nvml_read_counters(st, nv, true);
	for (d = 0; d < st->nr_dev; d++)
		if (m->g[d].ready)	/* who came while the copies ran */
			gpu_activity_read(st, nv, (int)d, true);
	lanes_release(m);
	if (m->flag)
		cu->cuMemFreeHost((void *)m->flag);
	if (m->results)
		cu->cuMemFreeHost(m->results);
	for (d = 0; d < st->nr_dev; d++)
		ctx_teardown(m, (int)d);
	gpu_record_step(st, "", -1, -1);
	return st->measure;
}
