/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the GPU side of p2pdiag-check (CUDA and NVML through dlopen, the
 * measurements) hands to the judgement and the reports.  Filled by
 * gpu_probe() and gpu_measure(); nothing here knows PCI topology except
 * the PCI address that ties a GPU to the snapshot model.
 */
#ifndef P2PDIAG_GPU_H
#define P2PDIAG_GPU_H

#include <stdbool.h>
#include <stddef.h>

#include "gpu/gpu_validity.h"

struct fsroot;
struct fsroot_refusal;

#define GPU_MAX		64
#define GPU_NAME_LEN	96
#define GPU_MAX_NVLINKS	18		/* NVML_NVLINK_MAX_LINKS */

/* Why a GPU-side step could not run: distinct, so reports can say which. */
enum gpu_status {
	GPU_OK = 0,
	GPU_NOT_BUILT,		/* built without cuda.h */
	GPU_NO_LIBRARY,		/* libcuda.so.1 / libnvidia-ml.so.1 absent */
	GPU_NO_SYMBOL,		/* an entry point is missing */
	GPU_INIT_FAILED,	/* cuInit / nvmlInit failed */
	GPU_NO_DEVICE,
	GPU_FAILED,		/* a call failed: see gpu_state.error */
	GPU_TIMEOUT,		/* the watchdog ended a stuck call or copy */
	GPU_SKIPPED,		/* not asked for (--quick, --no-cuda) */
	GPU_BUSY,		/* other work on a GPU: not measured (--if-busy) */
};

/* How copied data compared with what was sent. */
enum gpu_verify {
	VERIFY_NOT_RUN = 0,
	VERIFY_OK,
	VERIFY_ZEROS,		/* writes dropped */
	VERIFY_ONES,		/* unsupported request: all ones */
	VERIFY_STALE,		/* an older pattern */
	VERIFY_PARTIAL,		/* some bytes right, some not */
};

/* A bandwidth or latency figure: median of samples, with its spread. */
struct gpu_figure {
	bool valid;
	double median;		/* GB/s (1e9 bytes/s) or microseconds */
	double min, max;
	unsigned int samples;
	enum gpu_verify verify;
};

struct gpu_link_reading {
	bool valid;
	unsigned int gen, width;		/* idle, before measuring */
	unsigned int gen_load, width_load;	/* read while a copy ran */
	unsigned int max_gen, max_width;
};

/*
 * NVML's BAR1, the window through which peers and NICs map the GPU's
 * memory, and the memory it is to span, in bytes; valid with all three.
 */
struct gpu_bar1_reading {
	bool valid;
	unsigned long long total, used, memory;
};

struct gpu_counters {
	bool valid;
	unsigned long long replay;		/* PCIe replay counter */
	unsigned long long ecc_corrected, ecc_uncorrected;
	unsigned long long xid;			/* Xid events seen */
};

/*
 * An NVML call that failed for one GPU: the reading it left unknown (a
 * word: "link", "replay_counter", ...), the call, and NVML's error
 * string.  NOT_SUPPORTED is no failure (the GPU has no such thing).
 */
#define GPU_NVML_FAILURES	26	/* every reading gpu_nvml*.c names */
struct gpu_nvml_failure {
	char field[24];
	char call[48];
	char error[64];
};

struct gpu_device {
	int ordinal;			/* CUDA device ordinal */
	unsigned long long pci_addr;	/* P2PD_ADDR() */
	char name[GPU_NAME_LEN];
	char uuid[96];			/* NVML's "GPU-...", "" when unknown */
	int numa_node;
	struct gpu_link_reading link;
	struct gpu_bar1_reading bar1;
	struct gpu_counters before, after;
	unsigned int nvlinks_active;
	/* P2PD_ADDR() of the far end of each active NVLink, 0 when down. */
	unsigned long long nvlink_remote[GPU_MAX_NVLINKS];
	struct gpu_figure h2d, d2h, bidir_h2d, bidir_d2h, local, latency_h2d;
	/*
	 * latency_h2d is the per-copy cost of small copy-engine copies;
	 * latency_chase is one dependent load by the GPU from pinned host
	 * memory (pointer chase), the figure nvbandwidth calls
	 * host_device_latency_sm.  Both in microseconds.
	 */
	struct gpu_figure latency_chase;
	size_t local_bytes;		/* device-local copy size (> L2) */
	struct gpu_activity activity;
	struct gpu_placement placement;
	struct gpu_settings settings;
	struct gpu_curve curve[CURVE_KINDS];	/* --curve */
	/* the first failure of each reading; nr_nvml_failures counts all */
	unsigned int nr_nvml_failures;
	struct gpu_nvml_failure nvml_failure[GPU_NVML_FAILURES];
};

/* NVML's nvmlGpuP2PStatus_t, per capability. */
enum gpu_p2p_status {
	P2P_STATUS_UNKNOWN = 0, P2P_STATUS_OK, P2P_STATUS_CHIPSET_NS,
	P2P_STATUS_GPU_NS, P2P_STATUS_IOH_TOPOLOGY_NS, P2P_STATUS_DISABLED_BY_REG,
	P2P_STATUS_NOT_SUPPORTED,
};

/*
 * cuDeviceGetP2PAtomicCapabilities (CUDA 13.0) by number, as cuda.h
 * defines them, because this header is built without cuda.h too: the
 * operations are CUatomicOperation 0 .. GPU_ATOMIC_OPS - 1, and each
 * answer is a mask of CUatomicOperationCapability bits, the forms and
 * sizes the link carries natively.
 */
#define GPU_ATOMIC_OPS		13
#define GPU_ATOMIC_SIGNED	(1u << 0)
#define GPU_ATOMIC_UNSIGNED	(1u << 1)
#define GPU_ATOMIC_REDUCTION	(1u << 2)
#define GPU_ATOMIC_SCALAR_32	(1u << 3)
#define GPU_ATOMIC_SCALAR_64	(1u << 4)
#define GPU_ATOMIC_SCALAR_128	(1u << 5)
#define GPU_ATOMIC_VECTOR_32X4	(1u << 6)
#define GPU_ATOMIC_SIZES	(GPU_ATOMIC_SCALAR_32 | GPU_ATOMIC_SCALAR_64 | \
				 GPU_ATOMIC_SCALAR_128 | GPU_ATOMIC_VECTOR_32X4)

/* Whether the capabilities call answered for a pair. */
enum gpu_atomic_caps {
	GPU_ATOMIC_CAPS_ABSENT = 0,	/* the driver lacks the call: nothing known */
	GPU_ATOMIC_CAPS_READ,
	GPU_ATOMIC_CAPS_FAILED,		/* it returned an error: unknown */
};

/* One ordered pair of GPUs (src -> dst). */
struct gpu_pair {
	int src, dst;			/* indices into gpu_state.dev[] */
	bool cuda_valid;
	int can_access, perf_rank, access_supported, native_atomics, array_access;
	/*
	 * CU_DEVICE_P2P_ATTRIBUTE_ONLY_PARTIAL_NATIVE_ATOMIC_SUPPORTED (5):
	 * 1 when only some atomics work over the link; -1 when the driver
	 * does not know the attribute (before CUDA 13).
	 */
	int partial_atomics;
	/* atomic_caps[op]: the GPU_ATOMIC_* bits native over the link */
	enum gpu_atomic_caps atomic_caps_state;
	unsigned int atomic_caps[GPU_ATOMIC_OPS];
	char atomic_caps_error[48];	/* the error's name, when FAILED */
	bool nvml_valid;
	int topo_level;			/* nvmlGpuTopologyLevel_t */
	enum gpu_p2p_status p2p_read, p2p_write, p2p_nvlink, p2p_atomics;
	unsigned int nvlinks;		/* links from src to dst */
	struct gpu_figure p2p, p2p_bidir, staged, latency_p2p, latency_staged;
	enum gpu_status status;		/* GPU_TIMEOUT when the watchdog fired */
	struct gpu_curve curve;		/* P2P, --curve */
};

/*
 * The gradient exchange: all GPUs send a shard to all others at once; the
 * time is the slowest sender's, the median of the samples.  size[k] is
 * 4 KiB << k; sizes above --size are not measured and stay 0.
 */
#define GPU_EXCHANGE_SIZES 15		/* 4 KiB .. 64 MiB, powers of two */
struct gpu_exchange {
	bool valid;
	size_t size[GPU_EXCHANGE_SIZES];
	double p2p_us[GPU_EXCHANGE_SIZES], staged_us[GPU_EXCHANGE_SIZES];
};

/*
 * The measurement's defaults and limits, which the command line offers
 * and checks: a copy of GPU_DEFAULT_SIZE bytes (at least GPU_MIN_SIZE), a
 * figure the median of GPU_MIN_SAMPLES to GPU_MAX_SAMPLES samples, a run
 * ended after GPU_DEFAULT_TIMEOUT_S seconds.
 */
#define GPU_DEFAULT_SIZE	(64UL << 20)
#define GPU_MIN_SIZE		4096UL
#define GPU_MIN_SAMPLES		3u
#define GPU_MAX_SAMPLES		1000u
#define GPU_DEFAULT_TIMEOUT_S	60.0

struct gpu_options {
	bool no_cuda, quick;
	size_t size;			/* bytes per bandwidth copy */
	unsigned int iterations;	/* samples per figure, >= 3 */
	double timeout_s;		/* each step's deadline (probe, measuring) */
	/*
	 * The whole run's deadline (--deadline), a gpu_now() time, or 0:
	 * no step's watchdog waits past it, whatever timeout_s says.
	 */
	double deadline;
	const unsigned long long *only_pairs;	/* PCI addresses from --pairs, or NULL */
	unsigned int nr_only_pairs;
	void (*progress)(const char *what);	/* stderr line, or NULL */
	enum gpu_busy_policy busy;	/* --if-busy */
	double wait_idle_s;		/* --wait-idle: bounded wait, 0 none */
	bool curve;			/* --curve: the small-message curve */
};

/*
 * From CUDA 13.5 (driver API 13050) on, cuDeviceCanAccessPeer() and
 * cuCtxEnablePeerAccess() check whether the IOMMU and PCI ACS topology
 * supports PCIe P2P, unless GPU_CUDA_ACS_CHECK_OVERRIDE is set to 1; older
 * drivers leave that to the user.
 */
#define GPU_CUDA_ACS_CHECK_VERSION	13050
#define GPU_CUDA_ACS_CHECK_OVERRIDE	"CUDA_DISABLE_IOMMU_ACS_P2P_CAPABILITY_CHECK"

struct gpu_state {
	enum gpu_status cuda, nvml;
	char error[256];		/* the failing call and its error name */
	int driver_version;		/* cuDriverGetVersion */
	/* GPU_CUDA_ACS_CHECK_OVERRIDE was 1 in the environment CUDA read */
	bool acs_check_overridden;
	char nvml_driver[64];
	/* why nvml_driver is empty: "nvmlSystemGetDriverVersion failed: ..." */
	char nvml_driver_error[112];
	/*
	 * ncclGetVersion() of the libnccl.so.2 this machine's loader finds
	 * (major * 10000 + minor * 100 + patch from NCCL 2.9 on); 0 when
	 * none loaded, nccl_error then says why.
	 */
	int nccl_version;
	char nccl_error[112];
	unsigned int nr_dev;
	struct gpu_device dev[GPU_MAX];
	unsigned int nr_pairs;
	struct gpu_pair *pair;		/* nr_dev * (nr_dev - 1), malloc'd */
	struct gpu_exchange exchange;
	/*
	 * How the measuring ended: GPU_TIMEOUT when the deadline passed,
	 * GPU_FAILED when a call failed or the measuring process died.
	 * stuck_step names what was running ("p2p 0000:17:00.0 ->
	 * 0000:18:00.0"); stuck_pair/stuck_dev index it, or -1.
	 */
	enum gpu_status measure;
	/*
	 * The calls that failed after the last figure was measured
	 * (switching peer access off again, freeing device memory,
	 * destroying streams, releasing the contexts: gpu_context.c says
	 * why those), each once with CUDA's error, "; " between them: the
	 * figures stand, and measure stays GPU_OK.  Empty when the teardown
	 * went well.
	 */
	char teardown_error[256];
	char stuck_step[96];
	int stuck_pair, stuck_dev;
	/* the watchdog fired at the run's deadline, not at timeout_s */
	bool deadline_hit;
	enum gpu_busy_policy busy;	/* what --if-busy asked of the measuring */
	/*
	 * The kernel log's last NVIDIA Xid line ("NVRM: Xid (PCI:...): 79,
	 * ..."), read when a call or copy timed out; "" when it has none or
	 * could not be read (kernel_log_error then says why, when it knows).
	 */
	char kernel_xid[192];
	char kernel_log_error[96];
	double probe_s, measure_s;	/* wall time of each step */
};

/*
 * Load the libraries, enumerate GPUs, read attributes, and each GPU's
 * NUMA node from the sysfs under @root.  Never fails hard; a numa_node
 * file there that is no regular file is named in @refused
 * (platform/fsroot.h) for the caller to end the run with.
 */
void gpu_probe(struct gpu_state *st, const struct gpu_options *opt,
	       const struct fsroot *root, struct fsroot_refusal *refused);
/* Run the measurements asked for; a stuck copy ends as GPU_TIMEOUT. */
void gpu_measure(struct gpu_state *st, const struct gpu_options *opt);

void gpu_release(struct gpu_state *st);
const char *gpu_status_name(enum gpu_status s);

/*
 * Whether @value of GPU_CUDA_ACS_CHECK_OVERRIDE switches the driver's
 * check off: NVIDIA documents 1; any other set value but 0 is taken as
 * on too, since the tool cannot tell how the driver parses it.
 */
static inline bool gpu_acs_override_on(const char *value)
{
	return value && *value && (value[0] != '0' || value[1]);
}

/* Whether @st's driver checks IOMMU and ACS itself before peer access. */
static inline bool gpu_driver_checks_acs(const struct gpu_state *st)
{
	return st->driver_version >= GPU_CUDA_ACS_CHECK_VERSION;
}

/*
 * Whether a "yes" to peer access from @st's driver was forced by
 * GPU_CUDA_ACS_CHECK_OVERRIDE rather than judged by the driver's check.
 */
static inline bool gpu_peer_access_forced(const struct gpu_state *st)
{
	return gpu_driver_checks_acs(st) && st->acs_check_overridden;
}
const char *gpu_verify_name(enum gpu_verify v);
/* CUatomicOperation @op's name, "integer-add" .. "float-max"; NULL past them. */
const char *gpu_atomic_op_name(unsigned int op);
/* The word for capability bit @bit ("signed" .. "32x4"); NULL past them. */
const char *gpu_atomic_cap_name(unsigned int bit);

/*
 * gpu_median() - the median of @n values, sorting @v in place: the middle
 * value, or the mean of the two middle ones for an even @n; 0 for none.
 */
double gpu_median(double *v, unsigned int n);

/*
 * gpu_figure_set() - @f becomes the figure of @n samples @v (sorted in
 * place): their median, minimum and maximum, and @verify.
 */
void gpu_figure_set(struct gpu_figure *f, double *v, unsigned int n,
		    enum gpu_verify verify);

#endif /* P2PDIAG_GPU_H */
