// SPDX-License-Identifier: GPL-2.0
/*
 * The figures of one GPU on its own: host to device, device to host, both
 * at once, a device-local copy, the per-copy cost of small copies, one
 * dependent load from host memory (pointer chase) and, with --curve, the
 * small-message curves.  Each is a plan: which lanes copy what, and
 * which figure they fill.  The host buffers are pinned on the GPU's NUMA
 * node, with the worker bound next to it, so that a far-socket buffer is
 * never what a figure measures.
 */
#include <stdint.h>

#include "gpu/gpu_measuring.h"

/* Pointer chase over pinned host memory, one node per 128-byte line, each
 * line visited once per sample so no cache can answer. */
#define CHASE_BYTES		(2ul << 20)
#define CHASE_STRIDE		128ul
#define CHASE_STEPS		10000u

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

static bool plan_chase(struct meas *m, int d, void *host)
{
	struct gpu_ctx *g = &m->g[d];
	struct lane *l = &m->lane[0];
	double v[GPU_MAX_SAMPLES];
	size_t bytes = m->par.size < CHASE_BYTES ? m->par.size : CHASE_BYTES;
	CUdeviceptr start = chase_build(host, bytes);
	uint64_t expect = start + (CHASE_STEPS % (bytes / CHASE_STRIDE)) *
					  CHASE_STRIDE;
	enum gpu_verify verify = VERIFY_OK;
	unsigned int s, steps = CHASE_STEPS;
	uint64_t *result = (uint64_t *)m->results;

	for (s = 0; s < m->par.samples; s++) {
		void *params[] = { &start, &steps, &g->counters };
		float ms = 0;

		if (!ctx_current(m, d) ||
		    !meas_ok(m, m->cu->cuEventRecord(l->start, g->stream[0]),
			     "cuEventRecord") ||
		    !ctx_launch(m, d, g->chase, 1, 1, g->stream[0], params) ||
		    !meas_ok(m, m->cu->cuEventRecord(l->end, g->stream[0]),
			     "cuEventRecord") ||
		    !meas_ok(m, m->cu->cuMemcpyAsync((CUdeviceptr)(uintptr_t)result,
						     g->counters, 8, g->stream[0]),
			     "cuMemcpyAsync") ||
		    !ctx_wait_idle(m) ||
		    !meas_ok(m, m->cu->cuEventElapsedTime(&ms, l->start, l->end),
			     "cuEventElapsedTime"))
			return false;
		v[s] = ms * 1e3 / CHASE_STEPS;
		if (*result != expect)
			verify = VERIFY_PARTIAL;
	}
	gpu_figure_set(&m->st->dev[d].latency_chase, v, m->par.samples, verify);
	return true;
}

/* The figure of lane 0 copying as @spec says, named @what. */
static bool plan_one(struct meas *m, int d, const char *what,
		     const struct lane_spec *spec, struct gpu_figure *f,
		     bool latency)
{
	struct gpu_figure *one[1] = { f };

	meas_step(m, what, d, -1);
	lane_init(m, &m->lane[0], spec);
	return sample_lanes(m, m->lane, 1, one, latency);
}

/* H2D, D2H, both at once, device-local, small-copy latency, chase. */
bool plan_device(struct meas *m, int d)
{
	struct gpu_device *dev = &m->st->dev[d];
	struct gpu_ctx *g = &m->g[d];
	struct lane *l = m->lane;
	void *h1 = NULL, *h2 = NULL;
	CUdeviceptr H1, H2;
	struct gpu_figure *two[2];
	struct lane_spec h2d, d2h, back, local, latency;
	bool ok = false;

	gpu_nvml_bind_cpu(m->nv, d);
	gpu_placement_prefer_node(dev->numa_node);
	ok = ctx_current(m, d) && ctx_host_alloc(m, &h1, m->par.size) &&
	     ctx_host_alloc(m, &h2, m->par.size);
	gpu_placement_prefer_node(-1);
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

	h2d = (struct lane_spec){
		.dev = d,
		.dst = { g->a, d },
		.src = { H1, d },
		.bytes = m->par.size,
		.count = COPIES_PER_SAMPLE,
	};
	d2h = h2d;
	d2h.dst = (struct lane_end){ H2, d };
	d2h.src = (struct lane_end){ g->a, d };
	if (!plan_one(m, d, "host to device", &h2d, &dev->h2d, false) ||
	    !plan_one(m, d, "device to host", &d2h, &dev->d2h, false))
		goto out;

	/* Each direction from buffers of its own, on a stream of its own. */
	meas_step(m, "host to device and back at once", d, -1);
	h2d.trail = COPIES_PER_SAMPLE;
	back = d2h;
	back.stream = 1;
	back.src = (struct lane_end){ g->b, d };
	back.trail = COPIES_PER_SAMPLE;
	lane_init(m, &l[0], &h2d);
	lane_init(m, &l[1], &back);
	two[0] = &dev->bidir_h2d;
	two[1] = &dev->bidir_d2h;
	m->load_dev = d;
	if (!sample_lanes(m, l, 2, two, false))
		goto out;
	m->load_dev = -1;

	local = h2d;
	local.trail = 0;
	local.dst = (struct lane_end){ g->b, d };
	local.src = (struct lane_end){ g->a, d };
	local.bytes = g->local_bytes;
	latency = h2d;
	latency.trail = 0;
	latency.bytes = LATENCY_BYTES;
	latency.count = LATENCY_COPIES;
	if (!plan_one(m, d, "device-local copy", &local, &dev->local, false) ||
	    !plan_one(m, d, "host to device latency", &latency,
		      &dev->latency_h2d, true))
		goto out;

	meas_step(m, "host memory latency (pointer chase)", d, -1);
	ok = plan_chase(m, d, h1);
	if (ok && m->opt->curve)
		ok = plan_device_curves(m, d, H1);
out:
	m->load_dev = -1;
	m->sample_dev = -1;
	if (h1)
		m->cu->cuMemFreeHost(h1);
	if (h2)
		m->cu->cuMemFreeHost(h2);
	return ok;
}
