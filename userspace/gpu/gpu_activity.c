// SPDX-License-Identifier: GPL-2.0
/*
 * Whether a GPU's figures can mean anything: the other processes that hold
 * a context on it (compute and graphics, as NVML lists them, with their
 * names where this process can see them), its utilisation before the
 * copies, and the clock event ("throttle") reasons, SM clock and P-state
 * sampled while the copies run.  A copy that shares the copy engines, the
 * link or the memory with someone else's work measures that work, not the
 * path: the judgement needs to know before it blames a link.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gpu/gpu_priv.h"
#include "topology/pciaddr.h"
#include "../include/p2pdiag/model.h"

#define IDLE_POLL_S		0.25
#define PROC_QUERY_MAX		64

/*
 * The name of @p's process; NOT_FOUND is a process that has ended or that
 * this one cannot see (another PID namespace): the pid alone is said.
 */
static void name_process(struct gpu_state *st, struct nvml_api *nv, int dev,
			 struct gpu_process *p)
{
	nvmlReturn_t r = nv->nvmlSystemGetProcessName(p->pid, p->name,
						      sizeof(p->name));

	if (r != NVML_ERROR_NOT_FOUND)
		gpu_nvml_ok(st, nv, dev, "process_names",
			    "nvmlSystemGetProcessName", r);
	if (r != NVML_SUCCESS)
		p->name[0] = '\0';
}

static void add_procs(struct gpu_state *st, struct nvml_api *nv, int dev,
		      const nvmlProcessInfo_t *info, unsigned int n,
		      bool graphics)
{
	struct gpu_activity *a = &st->dev[dev].activity;
	unsigned int i, k;
	unsigned int self = (unsigned int)getpid();

	for (i = 0; i < n; i++) {
		struct gpu_process *p;

		if (info[i].pid == self)
			continue;
		/* a process with both contexts is listed once */
		for (k = 0; k < a->nr_procs && k < GPU_MAX_PROCS; k++)
			if (a->proc[k].pid == info[i].pid)
				break;
		if (k < a->nr_procs && k < GPU_MAX_PROCS)
			continue;
		if (a->nr_procs++ >= GPU_MAX_PROCS)
			continue;
		p = &a->proc[a->nr_procs - 1];
		memset(p, 0, sizeof(*p));
		p->pid = info[i].pid;
		p->graphics = graphics;
		if (info[i].usedGpuMemory !=
		    (unsigned long long)NVML_VALUE_NOT_AVAILABLE)
			p->used_bytes = info[i].usedGpuMemory;
		p->name[0] = '\0';
		if (nv->nvmlSystemGetProcessName)
			name_process(st, nv, dev, p);
		p->name[sizeof(p->name) - 1] = '\0';
	}
}

static bool list_procs(struct gpu_state *st, struct nvml_api *nv, int dev,
		       bool graphics)
{
	struct gpu_activity *a = &st->dev[dev].activity;
	nvmlDevice_t h = nv->dev[dev];
	nvmlProcessInfo_t info[PROC_QUERY_MAX];
	unsigned int n = PROC_QUERY_MAX;
	nvmlReturn_t r;

	__typeof__(nv->nvmlDeviceGetComputeRunningProcesses_v3) fn =
		graphics ? nv->nvmlDeviceGetGraphicsRunningProcesses_v3 :
			   nv->nvmlDeviceGetComputeRunningProcesses_v3;

	if (!fn)
		return false;
	memset(info, 0, sizeof(info));
	r = fn(h, &n, info);
	if (r == NVML_ERROR_INSUFFICIENT_SIZE) {
		/* more than we keep: count them all, name the first ones */
		a->nr_procs += n > PROC_QUERY_MAX ? n - PROC_QUERY_MAX : 0;
		n = PROC_QUERY_MAX;
	} else if (!gpu_nvml_ok(st, nv, dev, "processes",
				graphics ? "nvmlDeviceGetGraphicsRunningProcesses_v3" :
					   "nvmlDeviceGetComputeRunningProcesses_v3",
				r)) {
		return false;
	}
	add_procs(st, nv, dev, info, n > PROC_QUERY_MAX ? PROC_QUERY_MAX : n,
		  graphics);
	return true;
}

/*
 * Processes and utilisation now; the load samples are kept.  After the
 * copies (@after) the processes seen then are added to those seen before,
 * and utilisation, which would count this tool's own kernels, is kept.
 */
void gpu_activity_read(struct gpu_state *st, struct nvml_api *nv, int dev,
		       bool after)
{
	struct gpu_activity *a = &st->dev[dev].activity;
	nvmlDevice_t h = nv->dev[dev];
	nvmlUtilization_t u;
	bool c, g;

	if (!after) {
		a->nr_procs = 0;
		a->procs_valid = a->util_valid = false;
	}
	if (st->nvml != GPU_OK || !h)
		return;
	c = list_procs(st, nv, dev, false);
	g = list_procs(st, nv, dev, true);
	a->procs_valid |= c || g;
	if (!after && nv->nvmlDeviceGetUtilizationRates &&
	    NVML_OK(st, nv, dev, "utilization", nvmlDeviceGetUtilizationRates,
		    h, &u)) {
		a->util_gpu = u.gpu;
		a->util_mem = u.memory;
		a->util_valid = true;
	}
}

static bool any_busy(struct gpu_state *st, const struct gpu_options *opt,
		     struct nvml_api *nv, int *which)
{
	unsigned int d;
	bool busy = false;

	for (d = 0; d < st->nr_dev; d++) {
		if (!gpu_selected(st, opt, (int)d))
			continue;
		gpu_activity_read(st, nv, (int)d, false);
		if (!busy && gpu_activity_busy(&st->dev[d].activity)) {
			busy = true;
			*which = (int)d;
		}
	}
	return busy;
}

bool gpu_activity_gate(struct gpu_state *st, const struct gpu_options *opt,
		       struct nvml_api *nv, double deadline)
{
	double start = gpu_now(), until = start + opt->wait_idle_s;
	int which = -1;
	char addr[P2PD_ADDR_STRLEN];
	const struct gpu_activity *a;

	if (st->nvml != GPU_OK)
		return true;	/* nothing to go by: measure, as before */
	if (until > deadline)
		until = deadline;
	gpu_record_step(st, "waiting for idle GPUs", -1, -1);
	while (any_busy(st, opt, nv, &which) && gpu_now() < until) {
		struct timespec ts = { 0, (long)(IDLE_POLL_S * 1e9) };

		nanosleep(&ts, NULL);
	}
	if (which >= 0 && opt->wait_idle_s > 0) {
		unsigned int d;

		for (d = 0; d < st->nr_dev; d++)
			st->dev[d].activity.waited_s = gpu_now() - start;
	}
	gpu_record_step(st, "", -1, -1);
	if (which < 0 || !gpu_activity_busy(&st->dev[which].activity) ||
	    opt->busy == GPU_BUSY_MEASURE)
		return true;
	pciaddr_format(addr, st->dev[which].pci_addr);
	a = &st->dev[which].activity;
	snprintf(st->error, sizeof(st->error),
		 "GPU %s is busy (%u other process(es), %u%% utilisation)%s: not measured",
		 addr, a->nr_procs, a->util_valid ? a->util_gpu : 0,
		 opt->wait_idle_s > 0 ? " after the wait for idle" : "");
	st->measure = GPU_BUSY;
	return false;
}

/* Called while a copy keeps the GPU busy: what held its clocks back. */
void gpu_activity_sample_load(struct gpu_state *st, struct nvml_api *nv,
			      int dev)
{
	struct gpu_activity *a = &st->dev[dev].activity;
	nvmlDevice_t h = nv->dev[dev];
	unsigned long long reasons;
	unsigned int mhz;
	nvmlPstates_t ps;

	if (st->nvml != GPU_OK || !h)
		return;
	if (nv->nvmlDeviceGetCurrentClocksThrottleReasons &&
	    NVML_OK(st, nv, dev, "throttle_reasons",
		    nvmlDeviceGetCurrentClocksThrottleReasons, h, &reasons)) {
		a->throttle |= reasons;
		a->throttle_samples++;
		a->throttle_valid = true;
	}
	if (nv->nvmlDeviceGetClockInfo &&
	    NVML_OK(st, nv, dev, "sm_clock", nvmlDeviceGetClockInfo, h,
		    NVML_CLOCK_SM, &mhz))
		a->sm_clock_load = mhz;
	a->pstate_load = -1;
	if (nv->nvmlDeviceGetPerformanceState &&
	    NVML_OK(st, nv, dev, "pstate", nvmlDeviceGetPerformanceState, h,
		    &ps))
		a->pstate_load = (int)ps;
}
