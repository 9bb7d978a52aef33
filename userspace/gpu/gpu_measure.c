// SPDX-License-Identifier: GPL-2.0
/*
 * gpu_measure_all(), run inside the worker process (gpu_worker.c): the
 * parameters of the run, a context for every selected GPU, then the
 * plans in their order (each GPU alone, then the pairs and the
 * exchange), then the counters read after the copies and the teardown.
 * What each step does lives in the files gpu_measuring.h lists.
 *
 * A run that timed out leaves everything allocated: a copy that never
 * completed still owns its buffers, and freeing them could hang in the
 * driver.  The worker's parent ends the process instead.
 */
#include <stdio.h>
#include <string.h>

#include "gpu/gpu_measuring.h"
#include "gpu/gpu_pattern.h"

/* Copy size and sample count as asked for, within what the engine takes. */
static struct meas_params params_of(const struct gpu_options *opt,
				    double deadline)
{
	struct meas_params par = {
		.deadline = deadline,
		.size = (opt->size ? opt->size : GPU_DEFAULT_SIZE) & ~(size_t)3,
		.samples = opt->iterations < GPU_MIN_SAMPLES ? GPU_MIN_SAMPLES :
			   opt->iterations > GPU_MAX_SAMPLES ? GPU_MAX_SAMPLES :
							   opt->iterations,
	};

	return par;
}

/* The first GPU with a context, or -1 when --pairs left none. */
static int first_ready(const struct meas *m)
{
	unsigned int d;

	for (d = 0; d < m->st->nr_dev; d++)
		if (m->g[d].ready)
			return (int)d;
	return -1;
}

/* The gate word and the check results, pinned, in context @d. */
static bool run_buffers(struct meas *m, int d)
{
	void *flag = NULL, *results = NULL;
	bool ok;

	ok = ctx_current(m, d) && ctx_host_alloc(m, &flag, 4096) &&
	     ctx_host_alloc(m, &results,
			    (size_t)MAX_LANES * GPU_CHECK_SLOT * 4);
	m->flag = flag;
	m->results = results;
	return ok;
}

static void run_release(struct meas *m)
{
	unsigned int d;

	lanes_release(m);
	if (m->flag)
		m->cu->cuMemFreeHost((void *)m->flag);
	if (m->results)
		m->cu->cuMemFreeHost(m->results);
	for (d = 0; d < m->st->nr_dev; d++)
		ctx_teardown(m, (int)d);
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
	m->par = params_of(opt, deadline);
	m->load_dev = -1;
	m->sample_dev = -1;
	st->measure = GPU_OK;
	if (m->par.size < GPU_MIN_SIZE) {
		snprintf(st->error, sizeof(st->error),
			 "--size %zu is below the %lu-byte minimum", m->par.size,
			 GPU_MIN_SIZE);
		return st->measure = GPU_FAILED;
	}
	if (!cu->measure_ok) {
		snprintf(st->error, sizeof(st->error),
			 "libcuda.so.1: entry point %s not found", cu->missing);
		return st->measure = GPU_NO_SYMBOL;
	}
	/* one stream per peer, so a GPU can send to every other at once */
	nr_streams = st->nr_dev > 2 ? st->nr_dev : 2;
	if (!gpu_activity_gate(st, opt, nv, deadline))
		return st->measure;

	for (d = 0; d < st->nr_dev && ok; d++)
		if (gpu_selected(st, opt, (int)d)) {
			meas_step(m, "setting up", (int)d, -1);
			ok = ctx_setup(m, (int)d, nr_streams);
		}
	if (ok) {
		int first = first_ready(m);

		if (first < 0) {
			snprintf(st->error, sizeof(st->error),
				 "--pairs names no GPU that CUDA lists");
			return st->measure = GPU_FAILED;
		}
		ok = run_buffers(m, first);
	}
	for (d = 0; d < st->nr_dev && ok; d++)
		if (m->g[d].ready)
			ok = plan_device(m, (int)d);
	if (ok)
		ok = plan_pairs(m);
	if (st->measure == GPU_TIMEOUT)
		return GPU_TIMEOUT;	/* a stuck copy: nothing can be freed */

	gpu_nvml_read_counters(st, nv, true);
	for (d = 0; d < st->nr_dev; d++)
		if (m->g[d].ready)	/* who came while the copies ran */
			gpu_activity_read(st, nv, (int)d, true);
	run_release(m);
	gpu_record_step(st, "", -1, -1);
	return st->measure;
}
