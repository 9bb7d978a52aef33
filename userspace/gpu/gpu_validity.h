/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What decides whether a GPU's figures say anything about its path: other
 * work on the GPU (processes, utilisation), clock throttling while the
 * copies ran, where the worker and its pinned buffers sat; the settings
 * that change copy and P2P performance (the report's fourth step, after
 * topology, software and measurements); and the
 * small-message curve.  Part of gpu.h; filled in the worker.
 */
#ifndef P2PDIAG_GPU_VALIDITY_H
#define P2PDIAG_GPU_VALIDITY_H

#include <stdbool.h>
#include <stddef.h>

#define GPU_MAX_PROCS		16
#define GPU_PROC_NAME_LEN	64
/*
 * Utilisation (share of NVML's last sample period with a kernel running)
 * at or above which the GPU counts as busy even when no process is visible
 * (another container's, or a VM's that shares it).
 */
#define GPU_BUSY_UTIL_PCT	10u
#define GPU_NVLINK_LINKS	18u	/* NVML_NVLINK_MAX_LINKS */

struct gpu_process {
	unsigned int pid;
	char name[GPU_PROC_NAME_LEN];	/* "" where NVML cannot see it */
	unsigned long long used_bytes;	/* GPU memory; 0 when not reported */
	bool graphics;			/* a graphics context, not compute */
};

struct gpu_activity {
	bool procs_valid;		/* the process lists were read */
	unsigned int nr_procs;		/* others than this tool */
	struct gpu_process proc[GPU_MAX_PROCS];
	bool util_valid;
	unsigned int util_gpu, util_mem;	/* %, read before measuring */
	bool throttle_valid;
	/* nvmlClocksEventReason* bits seen in any sample taken during copies */
	unsigned long long throttle;
	unsigned int throttle_samples;
	unsigned int sm_clock_load;	/* MHz during a copy, 0 unknown */
	int pstate_load;		/* P-state during a copy, -1 unknown */
	double waited_s;		/* spent waiting for the GPU to be idle */
};

/* The host side of a measurement: where the copies' CPU work and buffers were. */
struct gpu_placement {
	bool valid;
	int cpu, cpu_node;		/* where the worker ran, -1 unknown */
	int buf_node;			/* node of the pinned buffers, -1 unknown */
};

/* -1 in an int field: NVML did not say (not supported, older driver). */
struct gpu_settings {
	bool valid;			/* NVML answered for this GPU */
	int ecc, ecc_pending;		/* 1 on, 0 off */
	int persistence;		/* 1 on */
	int compute_mode;		/* nvmlComputeMode_t */
	int mig, mig_pending;		/* 1 on */
	/* MHz, 0 when unknown; application clocks below default slow copies */
	unsigned int app_sm, app_sm_default, app_mem, app_mem_default;
	unsigned int max_sm, max_mem;
	unsigned int mem_bus_width;	/* bits */
	unsigned int nvlink_version[GPU_NVLINK_LINKS];	/* 0: down/unknown */
};

/* Copy time against size, 4 B doubling up to the copy size. */
#define GPU_CURVE_MAX		32
enum gpu_curve_kind { CURVE_H2D, CURVE_D2H, CURVE_LOCAL, CURVE_KINDS };

struct gpu_curve {
	unsigned int n;
	size_t bytes[GPU_CURVE_MAX];
	double us[GPU_CURVE_MAX];	/* median time per copy */
	bool verified;			/* every copy's data arrived intact */
};

/* The one rule for "busy": the worker's gate and the judgement share it. */
static inline bool gpu_activity_busy(const struct gpu_activity *a)
{
	return (a->procs_valid && a->nr_procs) ||
	       (a->util_valid && a->util_gpu >= GPU_BUSY_UTIL_PCT);
}

/* What to do when a GPU is busy before measuring (after --wait-idle). */
enum gpu_busy_policy {
	GPU_BUSY_REFUSE = 0,		/* do not measure it: the default */
	GPU_BUSY_MEASURE,		/* measure and say the figures are confounded */
	GPU_BUSY_SKIP,			/* measure nothing, and say so as information */
};

#endif /* P2PDIAG_GPU_VALIDITY_H */
