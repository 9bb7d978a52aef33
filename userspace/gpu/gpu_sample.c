// SPDX-License-Identifier: GPL-2.0
/*
 * The sample engine: how one sample of one or more concurrent lanes is
 * taken, and how samples become a figure.
 *
 * Method (the one nvbandwidth uses, made cheaper): copy-engine copies on
 * non-blocking streams; each stream that takes part first runs a gate
 * kernel that spins on a pinned host word, then warm-up copies, a start
 * event, the timed copies and an end event; one host store releases every
 * gate at once, so concurrent copies really overlap.  A figure is the
 * median of >= GPU_MIN_SAMPLES such samples.  64 MiB x 8 copies per sample
 * lands within 1% of nvbandwidth's 512 MiB x 16 on Gen5 links at a
 * sixteenth of the host memory and time.
 *
 * Completion is polled (cuEventQuery, cuStreamQuery) against the run's
 * deadline, so a copy that never completes returns GPU_TIMEOUT naming its
 * step; the worker's parent kills the process if even that does not
 * return.
 */
#include <stdint.h>
#include <string.h>

#include "gpu/gpu_measuring.h"
#include "gpu/gpu_pattern.h"

#define LOAD_READ_AFTER_S	0.003	/* NVML link read, into a copy */

/* Set @l up to copy as @spec says; its events are kept. */
void lane_init(struct meas *m, struct lane *l, const struct lane_spec *spec)
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
	l->trail = spec->trail;
	l->peer = spec->peer;
}

/* Events belong to a context: (re)create a lane's pair in its device's. */
bool lane_events(struct meas *m, struct lane *l)
{
	if (l->start && l->ev_dev == l->dev)
		return true;
	if (l->start) {
		m->cu->cuEventDestroy(l->start);
		m->cu->cuEventDestroy(l->end);
		l->start = l->end = NULL;
	}
	l->ev_dev = l->dev;
	return ctx_current(m, l->dev) &&
	       meas_ok(m, m->cu->cuEventCreate(&l->start, CU_EVENT_DEFAULT),
		       "cuEventCreate") &&
	       meas_ok(m, m->cu->cuEventCreate(&l->end, CU_EVENT_DEFAULT),
		       "cuEventCreate");
}

void lanes_release(struct meas *m)
{
	unsigned int i;

	for (i = 0; i < MAX_LANES; i++)
		if (m->lane[i].start) {
			m->cu->cuEventDestroy(m->lane[i].start);
			m->cu->cuEventDestroy(m->lane[i].end);
		}
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
	return meas_ok(m, r, l->peer ? "cuMemcpyPeerAsync" : "cuMemcpyAsync");
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
			enum meas_wait w;

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
			w = meas_wait(m, r, "cuEventQuery");
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
bool sample_run(struct meas *m, struct lane *lanes, unsigned int n)
{
	unsigned int i, k;
	uint64_t gate_ns;
	double released, left;

	for (i = 0; i < n; i++) {
		struct lane *l = &lanes[i];

		l->seed = ++m->seed * GPU_PATTERN_GOLDEN;
		if (!verify_fill(m, l->src_dev, l->src, l->bytes, l->seed, 0) ||
		    !verify_fill(m, l->dst_dev, l->dst, l->bytes, l->seed,
				 GPU_PATTERN_STALE_XOR))
			return false;
	}
	if (!ctx_wait_idle(m))
		return false;

	/* The gate gives up when the run's deadline passes (never < 1 ms). */
	left = m->par.deadline - gpu_now();
	gate_ns = (uint64_t)((left > 1e-3 ? left : 1e-3) * 1e9);
	*m->flag = 0;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	for (i = 0; i < n; i++) {
		struct lane *l = &lanes[i];
		CUdeviceptr flag = (CUdeviceptr)(uintptr_t)m->flag;
		void *params[] = { &flag, &gate_ns };

		if (!ctx_launch(m, l->dev, m->g[l->dev].gate, 1, 1, l->stream,
				params))
			goto release;
		/* warm-ups, the timed copies between the two events, trailers */
		if (!enqueue_copies(m, l, l->warmup) ||
		    !meas_ok(m, m->cu->cuEventRecord(l->start, l->stream),
			     "cuEventRecord") ||
		    !enqueue_copies(m, l, l->count) ||
		    !meas_ok(m, m->cu->cuEventRecord(l->end, l->stream),
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
	if (k && !ctx_wait_idle(m))
		return false;

	for (i = 0; i < n; i++) {
		float ms = 0;

		if (!meas_ok(m, m->cu->cuEventElapsedTime(&ms, lanes[i].start,
							  lanes[i].end),
			     "cuEventElapsedTime"))
			return false;
		lanes[i].ms = ms;
		if (!verify_check(m, lanes[i].dst_dev, lanes[i].dst,
				  lanes[i].bytes, lanes[i].seed,
				  m->g[lanes[i].dst_dev].counters +
					  (CUdeviceptr)(i % CHECK_SLOTS) *
						  GPU_CHECK_SLOT * 4,
				  m->results + (size_t)i * GPU_CHECK_SLOT))
			return false;
		/* Counter slots are per lane; wait before reusing a slot. */
		if (i % CHECK_SLOTS == CHECK_SLOTS - 1 && !ctx_wait_idle(m))
			return false;
	}
	if (!ctx_wait_idle(m))
		return false;
	for (i = 0; i < n; i++)
		lanes[i].verify = verify_classify(m->results +
							  (size_t)i * GPU_CHECK_SLOT,
						  lanes[i].bytes);
	return true;

release:
	/* Never leave a gate closed behind an error. */
	__atomic_store_n(m->flag, 1, __ATOMIC_SEQ_CST);
	ctx_wait_idle(m);
	return false;
}

/* Bandwidth per lane (GB/s, 1e9 bytes) or, for latency, us per copy. */
static double lane_value(const struct lane *l, bool latency)
{
	if (latency)
		return l->ms * 1e3 / l->count;
	return l->ms > 0 ? (double)l->bytes * l->count / (l->ms * 1e6) : 0;
}

/*
 * Run the same lanes par.samples times; lane i's figure goes to out[i]
 * (the first two lanes have one).  The caller names the step first, for
 * the watchdog.
 */
bool sample_lanes(struct meas *m, struct lane *lanes, unsigned int n,
		  struct gpu_figure **out, bool latency)
{
	enum gpu_verify verify[2] = { VERIFY_NOT_RUN, VERIFY_NOT_RUN };
	double values[2][GPU_MAX_SAMPLES];
	unsigned int s, i;

	for (s = 0; s < m->par.samples; s++) {
		if (!sample_run(m, lanes, n))
			return false;
		for (i = 0; i < n && i < 2; i++) {
			values[i][s] = lane_value(&lanes[i], latency);
			verify[i] = verify_worse(verify[i], lanes[i].verify);
		}
	}
	for (i = 0; i < n && i < 2; i++)
		gpu_figure_set(out[i], values[i], m->par.samples, verify[i]);
	return true;
}
