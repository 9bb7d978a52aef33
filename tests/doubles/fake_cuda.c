// SPDX-License-Identifier: GPL-2.0
/*
 * A test double of libcuda.so.1 for CI machines without a GPU.  It exports
 * cuGetProcAddress (both versions) and the driver calls p2pdiag-check
 * resolves through it, with the prototypes of the cuda.h it is built
 * against, and emulates them on host memory: "device" memory is malloc'd,
 * copies are memcpy, the four PTX kernels (gate, fill, check, chase) are
 * run in C by name, and time is virtual: each stream has a clock that a
 * copy advances by latency + bytes / bandwidth, and events read that
 * clock.
 *
 * Streams that run a gate kernel hold their work until the host releases
 * the gate (seen at the next query), then run it; when several streams were
 * gated together their copies share the link (FAKE_CUDA_BIDIR).
 *
 * Environment (all optional):
 *   FAKE_GPUS, FAKE_GPU_BUSIDS       see fake_common.h
 *   FAKE_CUDA_INIT=fail|nodevice     cuInit fails
 *   FAKE_CUDA_MISSING=name[,name]    cuGetProcAddress does not find these
 *   FAKE_CUDA_HANG_CALL=name         that call never returns
 *   FAKE_CUDA_CRASH_CALL=name        that call aborts the process
 *   FAKE_CUDA_FAIL_CALL=name[,name]  those calls return
 *                                    CUDA_ERROR_ILLEGAL_ADDRESS (what a
 *                                    faulting copy leaves behind)
 *   FAKE_CUDA_FAIL_AFTER=name        ... only once that call has been made
 *                                    (it succeeds): cuMemFree, a driver
 *                                    that breaks in the teardown
 *   FAKE_CUDA_HANG=kind              copies of kind never complete
 *   FAKE_CUDA_CORRUPT=zeros|ones|stale|partial, FAKE_CUDA_CORRUPT_KIND=kind
 *                                    copies of kind (default p2p) land so
 *   FAKE_CUDA_NO_PEER=a-b[,c-d]      cuDeviceCanAccessPeer(a, b) = 0
 *   FAKE_CUDA_DRIVER_VERSION=n       cuDriverGetVersion (13000); from
 *                                    13050 (CUDA 13.5) on, the driver
 *                                    checks IOMMU and ACS itself:
 *   FAKE_CUDA_ACS_REFUSES=a-b[,c-d]  ... pairs whose topology that check
 *                                    rejects: refused on such a driver
 *                                    unless CUDA_DISABLE_IOMMU_ACS_P2P_
 *                                    CAPABILITY_CHECK=1, granted by older
 *                                    ones
 *   FAKE_CUDA_P2P_ATOMICS=all|partial|none  P2P attributes 3 and 5 (all)
 *   FAKE_CUDA_P2P_ATTR5=refused      attribute 5 unknown (a driver
 *                                    before CUDA 13)
 *   cuDeviceGetP2PAtomicCapabilities follows FAKE_CUDA_P2P_ATOMICS: all
 *   (every operation native, at the sizes a Hopper-class link gives),
 *   partial (all but those below), none (no operation native); a driver
 *   below 13000 (FAKE_CUDA_DRIVER_VERSION) does not export it, and
 *   FAKE_CUDA_FAIL_CALL=cuDeviceGetP2PAtomicCapabilities fails it
 *   FAKE_CUDA_P2P_ATOMICS_MISSING=op[,op]  partial: the operations not
 *                                    native (float-add,float-min,
 *                                    float-max), by gpu.h's names
 *   FAKE_CUDA_BW_{H2D,D2H,D2D,P2P,STAGED}=GB/s (55 55 2000 50 20)
 *   FAKE_CUDA_BW_{P2P,STAGED}_MATRIX=r0;r1;...  per pair: row = source
 *                                    GPU, comma-separated GB/s per
 *                                    destination (a measured matrix
 *                                    replayed; 0 or missing: the above)
 *   FAKE_CUDA_BIDIR=factor           per-stream share when gated together
 *                                    (0.92)
 *   FAKE_CUDA_DEV_SCALE=d:factor     host-link bandwidth of GPU d scaled
 *   FAKE_CUDA_LAT_US=us              per-copy cost (2; staged 5x)
 *   FAKE_CUDA_CHASE_NS=ns            per pointer-chase step (1200)
 *   FAKE_CUDA_L2=bytes               L2 cache size (1 MiB); the tool's
 *                                    device-local copy is 8 times it
 * kinds: h2d d2h d2d p2p staged.
 */
#include <cuda.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fake_common.h"
#include "../../userspace/gpu/gpu_pattern.h"
/* the operations' names and capability bits as the tool has them */
#include "gpu/gpu_names.h"

#define EXPORT __attribute__((visibility("default")))

enum op_type { OP_COPY, OP_EVENT };

struct op {
	enum op_type type;
	CUdeviceptr dst, src;
	size_t bytes;
	CUevent event;
	struct op *next;
};

struct CUstream_st {
	int dev;
	int gated;
	int stuck;
	double clock_us;
	struct op *head, *tail;
};

struct CUevent_st {
	int done;
	double t_us;
};

struct CUctx_st {
	int dev;
};

struct CUmod_st {
	int loaded;
};

struct CUfunc_st {
	const char *name;
};

struct alloc {
	char *p;
	size_t bytes;
	int dev;			/* -1: pinned host */
};

static struct CUctx_st ctxs[FAKE_MAX_GPUS];
static int peer_on[FAKE_MAX_GPUS][FAKE_MAX_GPUS];
static __thread CUcontext current;
static struct alloc allocs[4096];
static int nr_allocs;
static volatile uint32_t *gate_flag;
static struct CUstream_st *streams[4096];
static int nr_streams;
static struct CUfunc_st funcs[] = {
	{ "p2pd_gate" }, { "p2pd_fill" }, { "p2pd_check" }, { "p2pd_chase" },
};
static int initialised;

/*
 * Every entry point starts here: the hang and crash switches, and whether
 * the call is to fail (then it returns FAKE_CUDA_FAILURE at once).
 */
#define FAKE_CUDA_FAILURE CUDA_ERROR_ILLEGAL_ADDRESS
static int failing_begun(const char *name)
{
	static int begun;
	const char *after = getenv("FAKE_CUDA_FAIL_AFTER");

	if (!after || !*after || begun)
		return 1;
	begun = !strcmp(after, name);
	return 0;
}

static int hook(const char *name)
{
	int begun = failing_begun(name);

	if (fake_listed("FAKE_CUDA_CRASH_CALL", name))
		abort();
	if (fake_listed("FAKE_CUDA_HANG_CALL", name))
		for (;;)
			pause();
	return begun && fake_listed("FAKE_CUDA_FAIL_CALL", name);
}

static int dev_of(CUdeviceptr p)
{
	int i;

	for (i = 0; i < nr_allocs; i++)
		if (allocs[i].p && (char *)(uintptr_t)p >= allocs[i].p &&
		    (char *)(uintptr_t)p < allocs[i].p + allocs[i].bytes)
			return allocs[i].dev;
	return -1;
}

static const char *copy_kind(CUdeviceptr dst, CUdeviceptr src, int on_dev)
{
	int d = dev_of(dst), s = dev_of(src);

	if (s < 0 && d < 0)
		return "h2h";
	if (s < 0)
		return "h2d";
	if (d < 0)
		return "d2h";
	if (s == d)
		return "d2d";
	return peer_on[on_dev][d == on_dev ? s : d] ? "p2p" : "staged";
}

/* Entry [src][dst] of the matrix in env var @name, or 0. */
static double matrix_bw(const char *name, int src, int dst)
{
	const char *v = getenv(name);
	int row = 0, col = 0;

	if (!v || src < 0 || dst < 0)
		return 0;
	while (*v && row < src) {
		if (*v++ == ';')
			row++;
	}
	while (*v && *v != ';' && col < dst) {
		if (*v++ == ',')
			col++;
	}
	return row == src && col == dst && *v && *v != ';' ? atof(v) : 0;
}

static double kind_bw(const char *kind, CUdeviceptr dst, CUdeviceptr src)
{
	double m;

	const char *scale = getenv("FAKE_CUDA_DEV_SCALE");
	double bw;
	int dev = -1;

	if (!strcmp(kind, "h2d")) {
		bw = fake_env_double("FAKE_CUDA_BW_H2D", 55);
		dev = dev_of(dst);
	} else if (!strcmp(kind, "d2h")) {
		bw = fake_env_double("FAKE_CUDA_BW_D2H", 55);
		dev = dev_of(src);
	} else if (!strcmp(kind, "d2d")) {
		bw = fake_env_double("FAKE_CUDA_BW_D2D", 2000);
	} else if (!strcmp(kind, "p2p")) {
		m = matrix_bw("FAKE_CUDA_BW_P2P_MATRIX", dev_of(src), dev_of(dst));
		bw = m > 0 ? m : fake_env_double("FAKE_CUDA_BW_P2P", 50);
	} else {
		m = matrix_bw("FAKE_CUDA_BW_STAGED_MATRIX", dev_of(src), dev_of(dst));
		bw = m > 0 ? m : fake_env_double("FAKE_CUDA_BW_STAGED", 20);
	}
	if (scale && dev >= 0 && atoi(scale) == dev && strchr(scale, ':'))
		bw *= atof(strchr(scale, ':') + 1);
	return bw;
}

static void exec_copy(struct CUstream_st *s, struct op *o, double share)
{
	const char *kind = copy_kind(o->dst, o->src, s->dev);
	const char *hang = getenv("FAKE_CUDA_HANG");
	const char *corrupt = getenv("FAKE_CUDA_CORRUPT");
	const char *ckind = getenv("FAKE_CUDA_CORRUPT_KIND");
	double lat = fake_env_double("FAKE_CUDA_LAT_US", 2);
	char *dst = (char *)(uintptr_t)o->dst, *src = (char *)(uintptr_t)o->src;

	if (hang && !strcmp(hang, kind)) {
		s->stuck = 1;
		return;
	}
	if (!ckind)
		ckind = "p2p";
	if (corrupt && !strcmp(ckind, kind)) {
		if (!strcmp(corrupt, "zeros"))
			memset(dst, 0, o->bytes);
		else if (!strcmp(corrupt, "ones"))
			memset(dst, 0xff, o->bytes);
		else if (!strcmp(corrupt, "partial"))
			memcpy(dst, src, o->bytes / 2);
		/* "stale": the write never lands */
	} else {
		memmove(dst, src, o->bytes);
	}
	if (!strcmp(kind, "staged"))
		lat *= 5;
	s->clock_us += lat + (double)o->bytes /
				     (kind_bw(kind, o->dst, o->src) * share * 1e3);
}

static void run_ops(struct CUstream_st *s, double share)
{
	while (s->head && !s->stuck) {
		struct op *o = s->head;

		if (o->type == OP_COPY) {
			exec_copy(s, o, share);
			if (s->stuck)
				return;
		} else {
			o->event->done = 1;
			o->event->t_us = s->clock_us;
		}
		s->head = o->next;
		if (!s->head)
			s->tail = NULL;
		free(o);
	}
}

/* A released gate lets every gated stream run; together they share. */
static void observe(void)
{
	int i, n = 0;
	double share;

	if (!gate_flag || !*gate_flag)
		return;
	for (i = 0; i < nr_streams; i++)
		n += streams[i] && streams[i]->gated;
	share = n > 1 ? fake_env_double("FAKE_CUDA_BIDIR", 0.92) : 1;
	for (i = 0; i < nr_streams; i++)
		if (streams[i] && streams[i]->gated) {
			streams[i]->gated = 0;
			run_ops(streams[i], share);
		}
	gate_flag = NULL;
}

static void enqueue(struct CUstream_st *s, struct op *o)
{
	if (!s->gated && !s->stuck && !s->head) {
		if (o->type == OP_COPY) {
			exec_copy(s, o, 1);
		} else {
			o->event->done = 1;
			o->event->t_us = s->clock_us;
		}
		free(o);
		return;
	}
	o->next = NULL;
	if (s->tail)
		s->tail->next = o;
	else
		s->head = o;
	s->tail = o;
}

EXPORT CUresult cuInit(unsigned int flags)
{
	const char *v = getenv("FAKE_CUDA_INIT");
	int i;

	(void)flags;
	if (hook("cuInit"))
		return FAKE_CUDA_FAILURE;
	if (v && !strcmp(v, "fail"))
		return CUDA_ERROR_UNKNOWN;
	if (v && !strcmp(v, "nodevice"))
		return CUDA_ERROR_NO_DEVICE;
	for (i = 0; i < FAKE_MAX_GPUS; i++)
		ctxs[i].dev = i;
	initialised = 1;
	return CUDA_SUCCESS;
}

EXPORT CUresult cuDriverGetVersion(int *v)
{
	if (hook("cuDriverGetVersion"))
		return FAKE_CUDA_FAILURE;
	*v = fake_env_int("FAKE_CUDA_DRIVER_VERSION", 13000);
	return CUDA_SUCCESS;
}

/*
 * Whether peer access a -> b is refused: listed outright, or a topology
 * the driver's own IOMMU and ACS check (CUDA 13.5 on) rejects, which the
 * documented variable switches off.
 */
static int peer_refused(int a, int b)
{
	const char *off = getenv("CUDA_DISABLE_IOMMU_ACS_P2P_CAPABILITY_CHECK");

	if (fake_pair_listed("FAKE_CUDA_NO_PEER", a, b))
		return 1;
	return fake_env_int("FAKE_CUDA_DRIVER_VERSION", 13000) >= 13050 &&
	       !(off && !strcmp(off, "1")) &&
	       fake_pair_listed("FAKE_CUDA_ACS_REFUSES", a, b);
}

EXPORT CUresult cuDeviceGetCount(int *n)
{
	if (hook("cuDeviceGetCount"))
		return FAKE_CUDA_FAILURE;
	if (!initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	*n = fake_gpu_count();
	return CUDA_SUCCESS;
}

EXPORT CUresult cuDeviceGet(CUdevice *d, int ordinal)
{
	if (hook("cuDeviceGet"))
		return FAKE_CUDA_FAILURE;
	if (ordinal < 0 || ordinal >= fake_gpu_count())
		return CUDA_ERROR_INVALID_DEVICE;
	*d = ordinal;
	return CUDA_SUCCESS;
}

EXPORT CUresult cuDeviceGetName(char *name, int len, CUdevice d)
{
	if (hook("cuDeviceGetName"))
		return FAKE_CUDA_FAILURE;
	(void)d;	/* one model: the GPUs are siblings */
	snprintf(name, (size_t)len, "Fake GPU");
	return CUDA_SUCCESS;
}

EXPORT CUresult cuDeviceGetPCIBusId(char *bus, int len, CUdevice d)
{
	if (hook("cuDeviceGetPCIBusId"))
		return FAKE_CUDA_FAILURE;
	fake_gpu_busid(d, bus, (size_t)len);
	return CUDA_SUCCESS;
}

EXPORT CUresult cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice d)
{
	(void)d;
	if (hook("cuDeviceGetAttribute"))
		return FAKE_CUDA_FAILURE;
	*v = a == CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT ? 4 :
	     a == CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE ?
		     fake_env_int("FAKE_CUDA_L2", 1 << 20) : 0;
	return CUDA_SUCCESS;
}

EXPORT CUresult cuDeviceCanAccessPeer(int *can, CUdevice a, CUdevice b)
{
	if (hook("cuDeviceCanAccessPeer"))
		return FAKE_CUDA_FAILURE;
	*can = !peer_refused(a, b);
	return CUDA_SUCCESS;
}

/* Attributes 3 and 5 by FAKE_CUDA_P2P_ATOMICS and _ATTR5 (above). */
EXPORT CUresult cuDeviceGetP2PAttribute(int *v, CUdevice_P2PAttribute attr,
					CUdevice a, CUdevice b)
{
	int can = !peer_refused(a, b);
	const char *atomics = getenv("FAKE_CUDA_P2P_ATOMICS");
	const char *attr5 = getenv("FAKE_CUDA_P2P_ATTR5");

	if (hook("cuDeviceGetP2PAttribute"))
		return FAKE_CUDA_FAILURE;
	if (!atomics)
		atomics = "all";
	switch ((int)attr) {
	case CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK:
		*v = 0;
		break;
	case CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED:
		*v = can && !strcmp(atomics, "all");
		break;
	case 0x05:	/* ONLY_PARTIAL_NATIVE_ATOMIC_SUPPORTED, CUDA 13 */
		if (attr5 && !strcmp(attr5, "refused"))
			return CUDA_ERROR_INVALID_VALUE;
		*v = can && !strcmp(atomics, "partial");
		break;
	default:
		*v = can;
	}
	return CUDA_SUCCESS;
}

/*
 * What a link with every atomic native reports for @op: signed and
 * unsigned integers, reductions, 32 and 64 bits; CAS and exchange also at
 * 128; the float operations without the integer forms.
 */
static unsigned int atomic_caps_all(int op)
{
	const char *name = gpu_atomic_op_name((unsigned int)op);

	if (!strncmp(name, "float-", 6))
		return GPU_ATOMIC_REDUCTION | GPU_ATOMIC_SCALAR_32 |
		       GPU_ATOMIC_SCALAR_64;
	if (!strcmp(name, "exchange") || !strcmp(name, "cas"))
		return GPU_ATOMIC_SIGNED | GPU_ATOMIC_UNSIGNED |
		       GPU_ATOMIC_SCALAR_32 | GPU_ATOMIC_SCALAR_64 |
		       GPU_ATOMIC_SCALAR_128;
	return GPU_ATOMIC_SIGNED | GPU_ATOMIC_UNSIGNED | GPU_ATOMIC_REDUCTION |
	       GPU_ATOMIC_SCALAR_32 | GPU_ATOMIC_SCALAR_64;
}

/*
 * cuda.h from 13.0 declares it with CUatomicOperation; before that the
 * double still builds (the headers check), with the enum's int-sized
 * values.
 */
#if CUDA_VERSION >= 13000
typedef CUatomicOperation fake_atomic_op;
#else
typedef unsigned int fake_atomic_op;
#endif

EXPORT CUresult cuDeviceGetP2PAtomicCapabilities(unsigned int *caps,
						 const fake_atomic_op *ops,
						 unsigned int count,
						 CUdevice a, CUdevice b)
{
	const char *atomics = getenv("FAKE_CUDA_P2P_ATOMICS");
	const char *missing = getenv("FAKE_CUDA_P2P_ATOMICS_MISSING");
	unsigned int i;

	if (hook("cuDeviceGetP2PAtomicCapabilities"))
		return FAKE_CUDA_FAILURE;
	if (!caps || !ops || !count)
		return CUDA_ERROR_INVALID_VALUE;
	if (a < 0 || b < 0 || a >= fake_gpu_count() || b >= fake_gpu_count() ||
	    a == b)
		return CUDA_ERROR_INVALID_DEVICE;
	if (!atomics)
		atomics = "all";
	if (!missing)
		missing = "float-add,float-min,float-max";
	for (i = 0; i < count; i++) {
		int op = (int)ops[i];

		if (op < 0 || op >= GPU_ATOMIC_OPS)
			return CUDA_ERROR_INVALID_VALUE;
		caps[i] = atomic_caps_all(op);
		if (peer_refused(a, b) || !strcmp(atomics, "none") ||
		    (!strcmp(atomics, "partial") &&
		     fake_listed_in(missing, gpu_atomic_op_name((unsigned int)op))))
			caps[i] = 0;
	}
	return CUDA_SUCCESS;
}

EXPORT CUresult cuGetErrorName(CUresult r, const char **s)
{
	if (hook("cuGetErrorName"))
		return CUDA_ERROR_INVALID_VALUE;
	switch (r) {
	case CUDA_ERROR_ILLEGAL_ADDRESS: *s = "CUDA_ERROR_ILLEGAL_ADDRESS"; break;
	case CUDA_SUCCESS: *s = "CUDA_SUCCESS"; break;
	case CUDA_ERROR_NO_DEVICE: *s = "CUDA_ERROR_NO_DEVICE"; break;
	case CUDA_ERROR_NOT_READY: *s = "CUDA_ERROR_NOT_READY"; break;
	case CUDA_ERROR_NOT_FOUND: *s = "CUDA_ERROR_NOT_FOUND"; break;
	case CUDA_ERROR_INVALID_VALUE: *s = "CUDA_ERROR_INVALID_VALUE"; break;
	case CUDA_ERROR_OUT_OF_MEMORY: *s = "CUDA_ERROR_OUT_OF_MEMORY"; break;
	default: *s = "CUDA_ERROR_UNKNOWN"; break;
	}
	return CUDA_SUCCESS;
}

EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d)
{
	if (hook("cuDevicePrimaryCtxRetain"))
		return FAKE_CUDA_FAILURE;
	*c = &ctxs[d];
	return CUDA_SUCCESS;
}

EXPORT CUresult cuDevicePrimaryCtxRelease(CUdevice d)
{
	(void)d;
	if (hook("cuDevicePrimaryCtxRelease"))
		return FAKE_CUDA_FAILURE;
	return CUDA_SUCCESS;
}

EXPORT CUresult cuCtxSetCurrent(CUcontext c)
{
	if (hook("cuCtxSetCurrent"))
		return FAKE_CUDA_FAILURE;
	current = c;
	return CUDA_SUCCESS;
}

EXPORT CUresult cuCtxEnablePeerAccess(CUcontext peer, unsigned int flags)
{
	(void)flags;
	if (hook("cuCtxEnablePeerAccess"))
		return FAKE_CUDA_FAILURE;
	if (!current)
		return CUDA_ERROR_INVALID_CONTEXT;
	if (peer_refused(current->dev, peer->dev))
		return CUDA_ERROR_PEER_ACCESS_UNSUPPORTED;
	if (peer_on[current->dev][peer->dev])
		return CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED;
	peer_on[current->dev][peer->dev] = 1;
	return CUDA_SUCCESS;
}

EXPORT CUresult cuCtxDisablePeerAccess(CUcontext peer)
{
	if (hook("cuCtxDisablePeerAccess"))
		return FAKE_CUDA_FAILURE;
	if (!current)
		return CUDA_ERROR_INVALID_CONTEXT;
	if (!peer_on[current->dev][peer->dev])
		return CUDA_ERROR_PEER_ACCESS_NOT_ENABLED;
	peer_on[current->dev][peer->dev] = 0;
	return CUDA_SUCCESS;
}

static CUresult fake_alloc(void **p, size_t bytes, int dev)
{
	if (nr_allocs >= (int)(sizeof(allocs) / sizeof(allocs[0])))
		return CUDA_ERROR_OUT_OF_MEMORY;
	*p = aligned_alloc(256, (bytes + 255) & ~(size_t)255);
	if (!*p)
		return CUDA_ERROR_OUT_OF_MEMORY;
	allocs[nr_allocs].p = *p;
	allocs[nr_allocs].bytes = bytes;
	allocs[nr_allocs].dev = dev;
	nr_allocs++;
	return CUDA_SUCCESS;
}

static CUresult fake_free(void *p)
{
	int i;

	for (i = 0; i < nr_allocs; i++)
		if (allocs[i].p == p) {
			free(p);
			allocs[i].p = NULL;
			return CUDA_SUCCESS;
		}
	return CUDA_ERROR_INVALID_VALUE;
}

EXPORT CUresult cuMemAlloc(CUdeviceptr *p, size_t bytes)
{
	void *v;
	CUresult r;

	if (hook("cuMemAlloc"))
		return FAKE_CUDA_FAILURE;
	if (!current)
		return CUDA_ERROR_INVALID_CONTEXT;
	r = fake_alloc(&v, bytes, current->dev);
	*p = (CUdeviceptr)(uintptr_t)v;
	return r;
}

EXPORT CUresult cuMemFree(CUdeviceptr p)
{
	if (hook("cuMemFree"))
		return FAKE_CUDA_FAILURE;
	return fake_free((void *)(uintptr_t)p);
}

EXPORT CUresult cuMemHostAlloc(void **p, size_t bytes, unsigned int flags)
{
	(void)flags;
	if (hook("cuMemHostAlloc"))
		return FAKE_CUDA_FAILURE;
	return fake_alloc(p, bytes, -1);
}

EXPORT CUresult cuMemFreeHost(void *p)
{
	if (hook("cuMemFreeHost"))
		return FAKE_CUDA_FAILURE;
	return fake_free(p);
}

EXPORT CUresult cuStreamCreate(CUstream *s, unsigned int flags)
{
	(void)flags;
	if (hook("cuStreamCreate"))
		return FAKE_CUDA_FAILURE;
	if (!current || nr_streams >= (int)(sizeof(streams) / sizeof(streams[0])))
		return CUDA_ERROR_INVALID_CONTEXT;
	*s = calloc(1, sizeof(**s));
	if (!*s)
		return CUDA_ERROR_OUT_OF_MEMORY;
	(*s)->dev = current->dev;
	streams[nr_streams++] = *s;
	return CUDA_SUCCESS;
}

EXPORT CUresult cuStreamDestroy(CUstream s)
{
	int i;

	if (hook("cuStreamDestroy"))
		return FAKE_CUDA_FAILURE;
	for (i = 0; i < nr_streams; i++)
		if (streams[i] == s)
			streams[i] = NULL;
	free(s);
	return CUDA_SUCCESS;
}

EXPORT CUresult cuStreamQuery(CUstream s)
{
	if (hook("cuStreamQuery"))
		return FAKE_CUDA_FAILURE;
	observe();
	return s->stuck || s->head || s->gated ? CUDA_ERROR_NOT_READY :
						 CUDA_SUCCESS;
}

EXPORT CUresult cuEventCreate(CUevent *e, unsigned int flags)
{
	(void)flags;
	if (hook("cuEventCreate"))
		return FAKE_CUDA_FAILURE;
	*e = calloc(1, sizeof(**e));
	return *e ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

EXPORT CUresult cuEventDestroy(CUevent e)
{
	if (hook("cuEventDestroy"))
		return FAKE_CUDA_FAILURE;
	free(e);
	return CUDA_SUCCESS;
}

EXPORT CUresult cuEventRecord(CUevent e, CUstream s)
{
	struct op *o;

	if (hook("cuEventRecord"))
		return FAKE_CUDA_FAILURE;
	o = calloc(1, sizeof(*o));
	if (!o)
		return CUDA_ERROR_OUT_OF_MEMORY;
	e->done = 0;
	o->type = OP_EVENT;
	o->event = e;
	enqueue(s, o);
	return CUDA_SUCCESS;
}

EXPORT CUresult cuEventQuery(CUevent e)
{
	if (hook("cuEventQuery"))
		return FAKE_CUDA_FAILURE;
	observe();
	return e->done ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
}

EXPORT CUresult cuEventElapsedTime(float *ms, CUevent a, CUevent b)
{
	if (hook("cuEventElapsedTime"))
		return FAKE_CUDA_FAILURE;
	if (!a->done || !b->done)
		return CUDA_ERROR_NOT_READY;
	*ms = (float)((b->t_us - a->t_us) / 1e3);
	return CUDA_SUCCESS;
}

static CUresult copy_async(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
			   CUstream s)
{
	struct op *o = calloc(1, sizeof(*o));

	if (!o)
		return CUDA_ERROR_OUT_OF_MEMORY;
	o->type = OP_COPY;
	o->dst = dst;
	o->src = src;
	o->bytes = bytes;
	enqueue(s, o);
	return CUDA_SUCCESS;
}

EXPORT CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
			      CUstream s)
{
	if (hook("cuMemcpyAsync"))
		return FAKE_CUDA_FAILURE;
	return copy_async(dst, src, bytes, s);
}

EXPORT CUresult cuMemcpyPeerAsync(CUdeviceptr dst, CUcontext dctx,
				  CUdeviceptr src, CUcontext sctx, size_t bytes,
				  CUstream s)
{
	(void)dctx;
	(void)sctx;
	if (hook("cuMemcpyPeerAsync"))
		return FAKE_CUDA_FAILURE;
	return copy_async(dst, src, bytes, s);
}

EXPORT CUresult cuMemsetD32Async(CUdeviceptr p, unsigned int v, size_t n,
				 CUstream s)
{
	uint32_t *w = (uint32_t *)(uintptr_t)p;
	size_t i;

	(void)s;
	if (hook("cuMemsetD32Async"))
		return FAKE_CUDA_FAILURE;
	for (i = 0; i < n; i++)
		w[i] = v;
	return CUDA_SUCCESS;
}

EXPORT CUresult cuModuleLoadData(CUmodule *m, const void *image)
{
	static struct CUmod_st mod;

	if (hook("cuModuleLoadData"))
		return FAKE_CUDA_FAILURE;
	if (!strstr(image, ".entry p2pd_gate"))
		return CUDA_ERROR_INVALID_IMAGE;
	mod.loaded = 1;
	*m = &mod;
	return CUDA_SUCCESS;
}

EXPORT CUresult cuModuleUnload(CUmodule m)
{
	(void)m;
	if (hook("cuModuleUnload"))
		return FAKE_CUDA_FAILURE;
	return CUDA_SUCCESS;
}

EXPORT CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name)
{
	size_t i;

	(void)m;
	if (hook("cuModuleGetFunction"))
		return FAKE_CUDA_FAILURE;
	for (i = 0; i < sizeof(funcs) / sizeof(funcs[0]); i++)
		if (!strcmp(funcs[i].name, name)) {
			*f = &funcs[i];
			return CUDA_SUCCESS;
		}
	return CUDA_ERROR_NOT_FOUND;
}

static void kernel_check(uint32_t *buf, uint64_t n, uint32_t seed,
			 uint32_t *out)
{
	uint64_t i;

	for (i = 0; i < n; i++) {
		uint32_t w = buf[i];

		if (w == gpu_pattern_word(seed, i))
			continue;
		if (w == 0)
			out[GPU_CHECK_ZEROS]++;
		else if (w == 0xffffffffu)
			out[GPU_CHECK_ONES]++;
		else if (w == (gpu_pattern_word(seed, i) ^ GPU_PATTERN_STALE_XOR))
			out[GPU_CHECK_STALE]++;
		else
			out[GPU_CHECK_OTHER]++;
	}
}

EXPORT CUresult cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy,
			       unsigned int gz, unsigned int bx, unsigned int by,
			       unsigned int bz, unsigned int shmem, CUstream s,
			       void **params, void **extra)
{
	(void)gx; (void)gy; (void)gz; (void)bx; (void)by; (void)bz;
	(void)shmem; (void)extra;
	if (hook("cuLaunchKernel"))
		return FAKE_CUDA_FAILURE;
	if (!strcmp(f->name, "p2pd_gate")) {
		gate_flag = (volatile uint32_t *)(uintptr_t)
			*(CUdeviceptr *)params[0];
		s->gated = 1;
	} else if (!strcmp(f->name, "p2pd_fill")) {
		uint32_t *buf = (uint32_t *)(uintptr_t)*(CUdeviceptr *)params[0];
		uint64_t n = *(uint64_t *)params[1], i;
		uint32_t seed = *(uint32_t *)params[2];
		uint32_t xor = *(uint32_t *)params[3];

		for (i = 0; i < n; i++)
			buf[i] = gpu_pattern_word(seed, i) ^ xor;
	} else if (!strcmp(f->name, "p2pd_check")) {
		kernel_check((uint32_t *)(uintptr_t)*(CUdeviceptr *)params[0],
			     *(uint64_t *)params[1], *(uint32_t *)params[2],
			     (uint32_t *)(uintptr_t)*(CUdeviceptr *)params[3]);
	} else {
		uint64_t p = *(CUdeviceptr *)params[0];
		unsigned int steps = *(unsigned int *)params[1], i;

		for (i = 0; i < steps; i++)
			p = *(uint64_t *)(uintptr_t)p;
		*(uint64_t *)(uintptr_t)*(CUdeviceptr *)params[2] = p;
		s->clock_us += steps * fake_env_double("FAKE_CUDA_CHASE_NS",
						       1200) / 1e3;
	}
	return CUDA_SUCCESS;
}

static const struct {
	const char *name;
	void *fn;
} table[] = {
#define ENTRY(n) { #n, (void *)n },
	ENTRY(cuInit) ENTRY(cuDriverGetVersion) ENTRY(cuDeviceGetCount)
	ENTRY(cuDeviceGet) ENTRY(cuDeviceGetName) ENTRY(cuDeviceGetPCIBusId)
	ENTRY(cuDeviceGetAttribute) ENTRY(cuDeviceCanAccessPeer)
	ENTRY(cuDeviceGetP2PAttribute) ENTRY(cuGetErrorName)
	ENTRY(cuDevicePrimaryCtxRetain) ENTRY(cuDevicePrimaryCtxRelease)
	ENTRY(cuCtxSetCurrent) ENTRY(cuCtxEnablePeerAccess)
	ENTRY(cuCtxDisablePeerAccess) ENTRY(cuMemAlloc) ENTRY(cuMemFree)
	ENTRY(cuMemHostAlloc) ENTRY(cuMemFreeHost) ENTRY(cuMemcpyAsync)
	ENTRY(cuMemcpyPeerAsync) ENTRY(cuMemsetD32Async) ENTRY(cuStreamCreate)
	ENTRY(cuStreamDestroy) ENTRY(cuStreamQuery) ENTRY(cuEventCreate)
	ENTRY(cuEventRecord) ENTRY(cuEventQuery) ENTRY(cuEventElapsedTime)
	ENTRY(cuEventDestroy) ENTRY(cuModuleLoadData) ENTRY(cuModuleGetFunction)
	ENTRY(cuModuleUnload) ENTRY(cuLaunchKernel)
	ENTRY(cuDeviceGetP2PAtomicCapabilities)
#undef ENTRY
};

/* The entry point called symbol, or NULL: what both versions look up. */
static void *proc_address(const char *symbol)
{
	size_t i;

	if (fake_listed("FAKE_CUDA_MISSING", symbol))
		return NULL;
	/* what a driver before CUDA 13.0 does not have */
	if (!strcmp(symbol, "cuDeviceGetP2PAtomicCapabilities") &&
	    fake_env_int("FAKE_CUDA_DRIVER_VERSION", 13000) < 13000)
		return NULL;
	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (!strcmp(table[i].name, symbol))
			return table[i].fn;
	return NULL;
}

/*
 * A driver exports both versions of cuGetProcAddress; the second came
 * with CUDA 12.0, and cuda.h from then on names it for the first.
 */
#if CUDA_VERSION >= 12000
EXPORT CUresult cuGetProcAddress_v2(const char *symbol, void **pfn,
				    int version, cuuint64_t flags,
				    CUdriverProcAddressQueryResult *status)
{
	(void)version;
	(void)flags;
	*pfn = proc_address(symbol);
	if (status)
		*status = *pfn ? CU_GET_PROC_ADDRESS_SUCCESS :
				 CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
	return *pfn ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}
#undef cuGetProcAddress
#endif

EXPORT CUresult cuGetProcAddress(const char *symbol, void **pfn, int version,
				 cuuint64_t flags)
{
	(void)version;
	(void)flags;
	*pfn = proc_address(symbol);
	return *pfn ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}
