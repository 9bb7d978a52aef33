/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the measuring files share inside the worker process: one run
 * (struct meas), the per-GPU contexts, and the lanes that copies go
 * through.  Each file below owns one step of a measurement:
 *
 *   gpu_run.c       the run's outcome: first failing call, deadline, step
 *   gpu_context.c   a context per GPU: streams, buffers, kernels, peers
 *   gpu_verify.c    the pattern written before and checked after a copy
 *   gpu_sample.c    the sample engine: lanes gated, copied, timed
 *   gpu_plan_*.c    which lanes make which figure
 *   gpu_measure.c   gpu_measure_all(): the order of the plans
 *
 * Only these files include this header; gpu_priv.h stays what the worker
 * and the probes share.
 */
#ifndef P2PDIAG_GPU_MEASURING_H
#define P2PDIAG_GPU_MEASURING_H

#include <stdint.h>

#include "gpu/gpu_priv.h"

#define COPIES_PER_SAMPLE	8u
#define WARMUP_COPIES		4u
#define LATENCY_COPIES		100u	/* queued 4-byte copies */
#define LATENCY_BYTES		4ul
#define MAX_LANES		(GPU_MAX * (GPU_MAX - 1))
/* Check counters live in per-lane slots of a context's counter buffer. */
#define CHECK_SLOTS		256u

struct gpu_ctx {
	bool ready;
	CUdevice dev;			/* whose primary context ctx is */
	CUcontext ctx;
	CUmodule mod;
	CUfunction gate, fill, check, chase;
	unsigned int nr_streams;
	CUstream *stream;
	CUdeviceptr a, b, counters, xsend, xrecv;
	size_t local_bytes;
	unsigned int blocks;		/* grid for fill/check */
};

/* One stream's share of a sample: warm-up + count copies src -> dst. */
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
	unsigned int trail;		/* untimed copies after the end event */
	bool peer;			/* between two contexts */
};

/* What every sample of a run is measured with. */
struct meas_params {
	double deadline;		/* gpu_now() at which the run gives up */
	size_t size;			/* bytes per bandwidth copy, a multiple of 4 */
	unsigned int samples;		/* GPU_MIN_SAMPLES .. GPU_MAX_SAMPLES */
};

struct meas {
	struct gpu_state *st;
	const struct gpu_options *opt;
	struct cuda_api *cu;
	struct nvml_api *nv;
	struct meas_params par;
	uint32_t seed;
	struct gpu_ctx g[GPU_MAX];
	volatile uint32_t *flag;	/* pinned, portable: the gate */
	uint32_t *results;		/* pinned: check counters per lane */
	struct lane lane[MAX_LANES];
	int load_dev;			/* read NVML under load, or -1 */
	int sample_dev;			/* sample clocks during copies, or -1 */
};

/* gpu_run.c */
bool meas_ok(struct meas *m, CUresult r, const char *what);
/*
 * meas_teardown_ok() - a call of the teardown after the last figure that
 * failed, with CUDA's error, added to st->teardown_error (the first
 * failure of each call); the run's outcome (st->measure) is left as it
 * is.  After a measurement that failed, the teardown's failures are that
 * failure's consequences and are not recorded.
 */
void meas_teardown_ok(struct meas *m, CUresult r, const char *what);
enum meas_wait { WAIT_DONE, WAIT_AGAIN, WAIT_FAILED };
enum meas_wait meas_wait(struct meas *m, CUresult r, const char *what);
void meas_step(struct meas *m, const char *what, int a, int b);

/* gpu_context.c */
bool ctx_setup(struct meas *m, int d, unsigned int nr_streams);
void ctx_teardown(struct meas *m, int d);
bool ctx_current(struct meas *m, int dev);
bool ctx_host_alloc(struct meas *m, void **p, size_t bytes);
bool ctx_launch(struct meas *m, int dev, CUfunction f, unsigned int blocks,
		unsigned int threads, CUstream s, void **params);
bool ctx_wait_idle(struct meas *m);
bool ctx_peer_access_on(struct meas *m);
void ctx_peer_access_off(struct meas *m);
bool ctx_pair_ready(const struct meas *m, const struct gpu_pair *p);

/* gpu_verify.c */
bool verify_fill(struct meas *m, int dev, CUdeviceptr buf, size_t bytes,
		 uint32_t seed, uint32_t xor);
bool verify_check(struct meas *m, int dev, CUdeviceptr buf, size_t bytes,
		  uint32_t seed, CUdeviceptr counters, void *result);
enum gpu_verify verify_classify(const uint32_t *c, size_t bytes);
enum gpu_verify verify_worse(enum gpu_verify a, enum gpu_verify b);

/* gpu_sample.c */
void lane_init(struct meas *m, struct lane *l, const struct lane_spec *spec);
bool lane_events(struct meas *m, struct lane *l);
void lanes_release(struct meas *m);
bool sample_run(struct meas *m, struct lane *lanes, unsigned int n);
bool sample_lanes(struct meas *m, struct lane *lanes, unsigned int n,
		  struct gpu_figure **out, bool latency);

/* gpu_plan_device.c, gpu_plan_curve.c, gpu_plan_pairs.c, gpu_plan_exchange.c */
bool plan_device(struct meas *m, int d);
bool plan_curve(struct meas *m, struct gpu_curve *c,
		const struct lane_spec *spec);
bool plan_device_curves(struct meas *m, int d, CUdeviceptr host);
bool plan_pairs(struct meas *m);
bool plan_exchange(struct meas *m, bool direct);

#endif /* P2PDIAG_GPU_MEASURING_H */
