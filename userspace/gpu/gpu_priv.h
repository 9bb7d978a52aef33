/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the GPU side of p2pdiag-check: the driver entry points resolved at
 * run time, and the steps the measuring process runs.  Only gpu_*.c include
 * this; the rest of the tool sees gpu.h.
 *
 * Everything that touches CUDA or NVML runs in one forked worker process
 * (gpu_worker.c), so that a copy that never completes, or a driver that
 * crashes, ends that process and never the tool.
 */
#ifndef P2PDIAG_GPU_PRIV_H
#define P2PDIAG_GPU_PRIV_H

#include <cuda.h>
#define NVML_NO_UNVERSIONED_FUNC_DEFS
#include <nvml.h>

#include "gpu/gpu.h"

/* Needed to enumerate devices and read their attributes. */
#define CUDA_PROBE_CALLS(X) \
	X(cuInit) X(cuDriverGetVersion) X(cuDeviceGetCount) X(cuDeviceGet) \
	X(cuDeviceGetName) X(cuDeviceGetPCIBusId) X(cuDeviceGetAttribute) \
	X(cuDeviceCanAccessPeer) X(cuDeviceGetP2PAttribute) X(cuGetErrorName)

/* Needed only to measure. */
#define CUDA_MEASURE_CALLS(X) \
	X(cuDevicePrimaryCtxRetain) X(cuDevicePrimaryCtxRelease) \
	X(cuCtxSetCurrent) X(cuCtxEnablePeerAccess) X(cuCtxDisablePeerAccess) \
	X(cuMemAlloc) X(cuMemFree) X(cuMemHostAlloc) X(cuMemFreeHost) \
	X(cuMemcpyAsync) X(cuMemcpyPeerAsync) X(cuMemsetD32Async) \
	X(cuStreamCreate) X(cuStreamDestroy) X(cuStreamQuery) \
	X(cuEventCreate) X(cuEventRecord) X(cuEventQuery) \
	X(cuEventElapsedTime) X(cuEventDestroy) \
	X(cuModuleLoadData) X(cuModuleGetFunction) X(cuModuleUnload) \
	X(cuLaunchKernel)

/*
 * cuda.h maps some names to versioned ones (cuMemAlloc -> cuMemAlloc_v2);
 * the field takes the versioned name and type, while cuGetProcAddress is
 * asked for the plain name at CUDA_VERSION, which returns that version.
 */
#define GPU_CUDA_FIELD(name) __typeof__(&name) name;
struct cuda_api {
	void *lib;
	bool measure_ok;		/* every CUDA_MEASURE_CALLS resolved */
	char missing[64];		/* first measuring call not resolved */
	CUDA_PROBE_CALLS(GPU_CUDA_FIELD)
	CUDA_MEASURE_CALLS(GPU_CUDA_FIELD)
	/*
	 * cuDeviceGetP2PAtomicCapabilities (CUDA 13.0), NULL where the
	 * driver lacks it.  Typed here: cuda.h before 13.0 has no
	 * CUatomicOperation, an enum passed as an array of its int-sized
	 * values.
	 */
	CUresult (*p2p_atomic_caps)(unsigned int *caps, const unsigned int *ops,
				    unsigned int count, CUdevice src,
				    CUdevice dst);
};

/* Needed for any NVML reading. */
#define NVML_REQUIRED_CALLS(X) \
	X(nvmlInit_v2) X(nvmlShutdown) \
	X(nvmlDeviceGetHandleByPciBusId_v2) \
	X(nvmlDeviceGetCurrPcieLinkGeneration) X(nvmlDeviceGetCurrPcieLinkWidth) \
	X(nvmlDeviceGetMaxPcieLinkGeneration) X(nvmlDeviceGetMaxPcieLinkWidth)

/* Each reading that needs one of these is left invalid when it is absent
 * (older drivers, GPUs without NVLink or ECC). */
#define NVML_OPTIONAL_CALLS(X) \
	X(nvmlErrorString) \
	X(nvmlSystemGetDriverVersion) X(nvmlDeviceGetTopologyCommonAncestor) \
	X(nvmlDeviceGetP2PStatus) X(nvmlDeviceGetNvLinkState) \
	X(nvmlDeviceGetNvLinkRemotePciInfo_v2) X(nvmlDeviceGetPcieReplayCounter) \
	X(nvmlDeviceGetTotalEccErrors) X(nvmlDeviceSetCpuAffinity) \
	X(nvmlEventSetCreate) X(nvmlDeviceRegisterEvents) \
	X(nvmlEventSetWait_v2) X(nvmlEventSetFree) X(nvmlDeviceGetUUID) \
	X(nvmlDeviceGetBAR1MemoryInfo) X(nvmlDeviceGetMemoryInfo) \
	NVML_VALIDITY_CALLS(X)

/* gpu_activity.c and gpu_settings.c: each reading stays unknown without its call. */
#define NVML_VALIDITY_CALLS(X) \
	X(nvmlDeviceGetComputeRunningProcesses_v3) \
	X(nvmlDeviceGetGraphicsRunningProcesses_v3) X(nvmlSystemGetProcessName) \
	X(nvmlDeviceGetUtilizationRates) \
	X(nvmlDeviceGetCurrentClocksThrottleReasons) X(nvmlDeviceGetClockInfo) \
	X(nvmlDeviceGetMaxClockInfo) X(nvmlDeviceGetClock) \
	X(nvmlDeviceGetPerformanceState) X(nvmlDeviceGetEccMode) \
	X(nvmlDeviceGetPersistenceMode) X(nvmlDeviceGetComputeMode) \
	X(nvmlDeviceGetMigMode) X(nvmlDeviceGetMemoryBusWidth) \
	X(nvmlDeviceGetNvLinkVersion)

struct nvml_api {
	void *lib;
	NVML_REQUIRED_CALLS(GPU_CUDA_FIELD)
	NVML_OPTIONAL_CALLS(GPU_CUDA_FIELD)
	nvmlDevice_t dev[GPU_MAX];	/* NULL where the lookup failed */
	nvmlEventSet_t xid_events;
	bool xid_registered[GPU_MAX];	/* the GPU's Xids come through it */
};

/* gpu_cuda.c */
void gpu_cuda_probe(struct gpu_state *st, struct cuda_api *cu);
const char *gpu_cuda_error(const struct cuda_api *cu, CUresult r);
unsigned int gpu_pair_index(unsigned int nr_dev, int src, int dst);
bool gpu_selected(const struct gpu_state *st, const struct gpu_options *opt,
		  int dev);
bool gpu_parse_bus_id(const char *s, unsigned long long *addr);

/* gpu_nvml.c */
void gpu_nvml_probe(struct gpu_state *st, struct nvml_api *nv);

/*
 * The NCCL library's version (gpu_nccl.c): only ncclGetVersion() is
 * called, which starts nothing; its topology rules depend on it.
 */
void gpu_nccl_probe(struct gpu_state *st);
void gpu_nvml_read_counters(struct gpu_state *st, struct nvml_api *nv,
			    bool after);
void gpu_nvml_read_link_load(struct gpu_state *st, struct nvml_api *nv,
			     int dev);
void gpu_nvml_bind_cpu(struct nvml_api *nv, int dev);
void gpu_nvml_release(struct nvml_api *nv);

/* gpu_nvml_calls.c */
/* NVML's words for @r (nvmlErrorString, or the code where it is absent). */
void gpu_nvml_error_text(struct nvml_api *nv, nvmlReturn_t r, char *buf,
			 size_t len);
/*
 * gpu_nvml_ok() - whether @r is NVML_SUCCESS; any other answer but
 * NOT_SUPPORTED is recorded for GPU @dev's reading @field with @call and
 * NVML's error string (nvmlErrorString, or the code where it is absent).
 */
bool gpu_nvml_ok(struct gpu_state *st, struct nvml_api *nv, int dev,
		 const char *field, const char *call, nvmlReturn_t r);
/* NVML's @call(...) for GPU @d's reading @field, through gpu_nvml_ok(). */
#define NVML_OK(st, nv, d, field, call, ...) \
	gpu_nvml_ok(st, nv, d, field, #call, (nv)->call(__VA_ARGS__))
/*
 * gpu_nvml_link_active() - whether NVLink @link of GPU @dev is up; a
 * failing nvmlDeviceGetNvLinkState is recorded as reading "nvlink_state".
 */
bool gpu_nvml_link_active(struct gpu_state *st, struct nvml_api *nv, int dev,
			  unsigned int link);

/* gpu_activity.c: other work on the GPUs, and clocks during copies. */
void gpu_activity_read(struct gpu_state *st, struct nvml_api *nv, int dev,
		       bool after);
/*
 * gpu_activity_gate() - before measuring: wait (bounded by --wait-idle and
 * @deadline) for the selected GPUs to be idle; when one is still busy and
 * the policy is to refuse, set st->measure to GPU_BUSY naming it.
 * Return: true when measuring may go on.
 */
bool gpu_activity_gate(struct gpu_state *st, const struct gpu_options *opt,
		       struct nvml_api *nv, double deadline);
void gpu_activity_sample_load(struct gpu_state *st, struct nvml_api *nv,
			      int dev);

/* gpu_settings.c: the settings that change copy and P2P performance. */
void gpu_settings_read(struct gpu_state *st, struct nvml_api *nv, int dev);

/*
 * gpu_placement.c: host allocations that follow prefer @node (-1: the
 * default policy again); the CPU and NUMA node of the worker and of @buf.
 */
void gpu_placement_prefer_node(int node);
void gpu_placement_read(struct gpu_placement *p, const void *buf);

/* gpu_measure.c: runs in the worker; returns GPU_OK, GPU_TIMEOUT, ... */
enum gpu_status gpu_measure_all(struct gpu_state *st,
				const struct gpu_options *opt,
				struct cuda_api *cu, struct nvml_api *nv,
				double deadline);

/* gpu_kernels.c: the PTX module the measuring loads into each context. */
extern const char gpu_kernels_ptx[];

/*
 * gpu_progress.c: the step a measurement is in, for the watchdog's
 * finding, and the monotonic clock in seconds.
 */
void gpu_record_step(struct gpu_state *st, const char *what, int pair,
		     int dev);
double gpu_now(void);

/*
 * gpu_kernel_log.c: the last NVIDIA Xid line of the kernel log (/dev/kmsg
 * under @root) into st->kernel_xid, for a run whose driver stopped
 * answering; it never blocks and never fails hard.
 */
void gpu_read_kernel_xid(struct gpu_state *st, const struct fsroot *root);

#endif /* P2PDIAG_GPU_PRIV_H */
