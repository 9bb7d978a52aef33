// SPDX-License-Identifier: GPL-2.0
/*
 * CUDA driver API through dlopen: load libcuda.so.1, resolve every entry
 * point through cuGetProcAddress (so each call gets the version this build's
 * cuda.h describes), list the GPUs with their PCI addresses, and read
 * cuDeviceCanAccessPeer and the P2P attributes of every ordered pair.
 *
 * The tool must run where no driver is installed, so nothing here links
 * against libcuda: a missing library or entry point is a status, not a
 * failure to start.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/gpu_priv.h"
#include "../include/p2pdiag/model.h"

/*
 * cuGetProcAddress as the driver exports it, newest first.  The second
 * version, which also says whether the name was found at that version,
 * came with CUDA 12.0: a build against an 11.x cuda.h (Debian 12's
 * nvidia-cuda-dev is 11.8) has no type for its answer and asks the first
 * version only, which every driver since 11.3 still exports.
 */
#define GPU_HAVE_PROC_ADDRESS_V2 (CUDA_VERSION >= 12000)

typedef CUresult (*get_proc_v1_fn)(const char *, void **, int, cuuint64_t);
#if GPU_HAVE_PROC_ADDRESS_V2
typedef CUresult (*get_proc_v2_fn)(const char *, void **, int, cuuint64_t,
				   CUdriverProcAddressQueryResult *);
#endif

struct proc_lookup {
#if GPU_HAVE_PROC_ADDRESS_V2
	get_proc_v2_fn v2;
#endif
	get_proc_v1_fn v1;
};

/* The newest cuGetProcAddress the library exports; false if none. */
static bool proc_lookup_open(struct proc_lookup *pl, void *lib)
{
#if GPU_HAVE_PROC_ADDRESS_V2
	*(void **)&pl->v2 = dlsym(lib, "cuGetProcAddress_v2");
	if (pl->v2)
		return true;
#endif
	*(void **)&pl->v1 = dlsym(lib, "cuGetProcAddress");
	return pl->v1 != NULL;
}

/* @name as the driver has it at CUDA @version, or NULL. */
static void *resolve_at(const struct proc_lookup *pl, const char *name,
			int version)
{
	void *fn = NULL;

#if GPU_HAVE_PROC_ADDRESS_V2
	if (pl->v2) {
		CUdriverProcAddressQueryResult found;

		if (pl->v2(name, &fn, version, CU_GET_PROC_ADDRESS_DEFAULT,
			   &found) != CUDA_SUCCESS ||
		    found != CU_GET_PROC_ADDRESS_SUCCESS)
			return NULL;
		return fn;
	}
#endif
	if (pl->v1(name, &fn, version, CU_GET_PROC_ADDRESS_DEFAULT) !=
	    CUDA_SUCCESS)
		return NULL;
	return fn;
}

static void *resolve(const struct proc_lookup *pl, const char *name)
{
	return resolve_at(pl, name, CUDA_VERSION);
}

/*
 * The atomic-capabilities call came with CUDA 13.0: asked for at that
 * version whatever cuda.h this is built against (the field's type is
 * 13.0's), so a build against an older header still finds it on a driver
 * that has it.  The numbers gpu.h copies must be cuda.h's.
 */
#define GPU_ATOMIC_CAPS_VERSION 13000
#if CUDA_VERSION >= GPU_ATOMIC_CAPS_VERSION
_Static_assert(CU_ATOMIC_OPERATION_MAX == GPU_ATOMIC_OPS &&
	       CU_ATOMIC_CAPABILITY_SIGNED == GPU_ATOMIC_SIGNED &&
	       CU_ATOMIC_CAPABILITY_UNSIGNED == GPU_ATOMIC_UNSIGNED &&
	       CU_ATOMIC_CAPABILITY_REDUCTION == GPU_ATOMIC_REDUCTION &&
	       CU_ATOMIC_CAPABILITY_SCALAR_32 == GPU_ATOMIC_SCALAR_32 &&
	       CU_ATOMIC_CAPABILITY_SCALAR_64 == GPU_ATOMIC_SCALAR_64 &&
	       CU_ATOMIC_CAPABILITY_SCALAR_128 == GPU_ATOMIC_SCALAR_128 &&
	       CU_ATOMIC_CAPABILITY_VECTOR_32x4 == GPU_ATOMIC_VECTOR_32X4 &&
	       sizeof(CUatomicOperation) == sizeof(unsigned int),
	       "gpu.h's atomic operations and capabilities are cuda.h's");
#endif

const char *gpu_cuda_error(const struct cuda_api *cu, CUresult r)
{
	const char *name = NULL;

	if (cu->cuGetErrorName && cu->cuGetErrorName(r, &name) == CUDA_SUCCESS &&
	    name)
		return name;
	return "CUDA_ERROR_UNKNOWN";
}

/*
 * Load the library and resolve the entry points.  The probing calls are
 * required; the measuring calls only for gpu_measure(), which says which
 * one was missing if it is asked to run without them.
 */
static enum gpu_status cuda_load(struct gpu_state *st, struct cuda_api *cu)
{
	const char *libname = "libcuda.so.1";
	struct proc_lookup pl = { 0 };

	cu->lib = dlopen(libname, RTLD_NOW | RTLD_LOCAL);
	if (!cu->lib) {
		snprintf(st->error, sizeof(st->error), "dlopen %s: %s",
			 libname, dlerror());
		return GPU_NO_LIBRARY;
	}
	if (!proc_lookup_open(&pl, cu->lib)) {
		snprintf(st->error, sizeof(st->error),
			 "%s has no cuGetProcAddress (driver older than CUDA 11.3)",
			 libname);
		return GPU_NO_SYMBOL;
	}

#define RESOLVE_REQUIRED(name) \
	*(void **)&cu->name = resolve(&pl, #name); \
	if (!cu->name) { \
		snprintf(st->error, sizeof(st->error), \
			 "%s: entry point %s not found", libname, #name); \
		return GPU_NO_SYMBOL; \
	}
	CUDA_PROBE_CALLS(RESOLVE_REQUIRED)
#undef RESOLVE_REQUIRED

	cu->measure_ok = true;
#define RESOLVE_MEASURE(name) \
	*(void **)&cu->name = resolve(&pl, #name); \
	if (!cu->name && cu->measure_ok) { \
		cu->measure_ok = false; \
		snprintf(cu->missing, sizeof(cu->missing), "%s", #name); \
	}
	CUDA_MEASURE_CALLS(RESOLVE_MEASURE)
#undef RESOLVE_MEASURE
	*(void **)&cu->p2p_atomic_caps =
		resolve_at(&pl, "cuDeviceGetP2PAtomicCapabilities",
			   GPU_ATOMIC_CAPS_VERSION);
	return GPU_OK;
}

/*
 * "0000:17:00.0" (or NVML's 8-digit domain) -> P2PD_ADDR; false if not.
 * The domain is whole, up to ffffffff: at most eight digits, so sscanf()
 * never converts one that does not fit.
 */
bool gpu_parse_bus_id(const char *s, unsigned long long *addr)
{
	unsigned int dom, bus, dev, fn;
	char tail;

	if (strcspn(s, ":") > 8 ||
	    sscanf(s, "%x:%x:%x.%x%c", &dom, &bus, &dev, &fn, &tail) != 4 ||
	    bus > 0xff || dev > 0x1f || fn > 7)
		return false;
	*addr = P2PD_ADDR(dom, bus, dev, fn);
	return true;
}

unsigned int gpu_pair_index(unsigned int nr_dev, int src, int dst)
{
	return (unsigned int)src * (nr_dev - 1) +
	       (unsigned int)(dst < src ? dst : dst - 1);
}

/* --pairs: a GPU is measured when the list is empty or names it. */
bool gpu_selected(const struct gpu_state *st, const struct gpu_options *opt,
		  int dev)
{
	unsigned int i;

	if (!opt->only_pairs || !opt->nr_only_pairs)
		return true;
	for (i = 0; i < opt->nr_only_pairs; i++)
		if (opt->only_pairs[i] == st->dev[dev].pci_addr)
			return true;
	return false;
}

static bool cuda_call(struct gpu_state *st, struct cuda_api *cu, CUresult r,
		      const char *what)
{
	if (r == CUDA_SUCCESS)
		return true;
	snprintf(st->error, sizeof(st->error), "%s: %s", what,
		 gpu_cuda_error(cu, r));
	st->cuda = GPU_FAILED;
	return false;
}

/*
 * CUDA 13's attribute 5, by number: older cuda.h headers lack the name,
 * and older drivers refuse the value (CUDA_ERROR_INVALID_VALUE), which
 * leaves it unknown rather than failing the pair.
 */
#define P2P_ATTRIBUTE_ONLY_PARTIAL_ATOMICS	((CUdevice_P2PAttribute)0x05)

/*
 * Every operation CUDA defines, in one call: which of them, in which
 * forms and sizes, the link from @a to @b carries natively.  A driver
 * without the call leaves the pair ABSENT (nothing said); an error leaves
 * it FAILED with the error's name, an unknown, and the pair's other
 * readings stand.
 */
static void probe_atomic_caps(struct cuda_api *cu, struct gpu_pair *p,
			      CUdevice a, CUdevice b)
{
	unsigned int ops[GPU_ATOMIC_OPS], i;
	CUresult r;

	if (!cu->p2p_atomic_caps)
		return;
	for (i = 0; i < GPU_ATOMIC_OPS; i++)
		ops[i] = i;
	memset(p->atomic_caps, 0, sizeof(p->atomic_caps));
	r = cu->p2p_atomic_caps(p->atomic_caps, ops, GPU_ATOMIC_OPS, a, b);
	if (r == CUDA_SUCCESS) {
		p->atomic_caps_state = GPU_ATOMIC_CAPS_READ;
		return;
	}
	memset(p->atomic_caps, 0, sizeof(p->atomic_caps));
	p->atomic_caps_state = GPU_ATOMIC_CAPS_FAILED;
	snprintf(p->atomic_caps_error, sizeof(p->atomic_caps_error), "%s",
		 gpu_cuda_error(cu, r));
}

static void probe_pair(struct gpu_state *st, struct cuda_api *cu,
		       struct gpu_pair *p, CUdevice a, CUdevice b)
{
	static const struct {
		CUdevice_P2PAttribute attr;
		size_t offset;
	} attrs[] = {
		{ CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK,
		  offsetof(struct gpu_pair, perf_rank) },
		{ CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED,
		  offsetof(struct gpu_pair, access_supported) },
		{ CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED,
		  offsetof(struct gpu_pair, native_atomics) },
		{ CU_DEVICE_P2P_ATTRIBUTE_CUDA_ARRAY_ACCESS_SUPPORTED,
		  offsetof(struct gpu_pair, array_access) },
	};
	size_t i;

	if (!cuda_call(st, cu, cu->cuDeviceCanAccessPeer(&p->can_access, a, b),
		       "cuDeviceCanAccessPeer"))
		return;
	for (i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		int *field = (int *)((char *)p + attrs[i].offset);

		if (!cuda_call(st, cu,
			       cu->cuDeviceGetP2PAttribute(field, attrs[i].attr,
							   a, b),
			       "cuDeviceGetP2PAttribute"))
			return;
	}
	if (cu->cuDeviceGetP2PAttribute(&p->partial_atomics,
					P2P_ATTRIBUTE_ONLY_PARTIAL_ATOMICS,
					a, b) != CUDA_SUCCESS)
		p->partial_atomics = -1;
	if (cu->p2p_atomic_caps)
		gpu_record_step(st, "cuDeviceGetP2PAtomicCapabilities",
				(int)gpu_pair_index(st->nr_dev, p->src, p->dst),
				-1);
	probe_atomic_caps(cu, p, a, b);
	p->cuda_valid = true;
}

/*
 * Enumerate the GPUs and read what CUDA says about each pair.  st->pair
 * must hold room for GPU_MAX * (GPU_MAX - 1) pairs (the worker's shared
 * area does).
 */
void gpu_cuda_probe(struct gpu_state *st, struct cuda_api *cu)
{
	CUdevice handle[GPU_MAX];
	int count = 0, a, b;
	CUresult r;

	st->cuda = cuda_load(st, cu);
	if (st->cuda != GPU_OK)
		return;
	/* each step named, for the watchdog's finding if it never returns */
	gpu_record_step(st, "cuInit", -1, -1);
	r = cu->cuInit(0);
	if (r != CUDA_SUCCESS) {
		snprintf(st->error, sizeof(st->error), "cuInit: %s",
			 gpu_cuda_error(cu, r));
		st->cuda = r == CUDA_ERROR_NO_DEVICE ? GPU_NO_DEVICE :
						       GPU_INIT_FAILED;
		return;
	}
	gpu_record_step(st, "cuDriverGetVersion, cuDeviceGetCount", -1, -1);
	if (!cuda_call(st, cu, cu->cuDriverGetVersion(&st->driver_version),
		       "cuDriverGetVersion") ||
	    !cuda_call(st, cu, cu->cuDeviceGetCount(&count), "cuDeviceGetCount"))
		return;
	/* the driver in this process reads the same environment */
	st->acs_check_overridden =
		gpu_acs_override_on(getenv(GPU_CUDA_ACS_CHECK_OVERRIDE));
	if (count <= 0) {
		snprintf(st->error, sizeof(st->error),
			 "cuDeviceGetCount: no CUDA devices");
		st->cuda = GPU_NO_DEVICE;
		return;
	}
	if (count > GPU_MAX)
		count = GPU_MAX;	/* the report says how many it saw */

	for (a = 0; a < count; a++) {
		struct gpu_device *d = &st->dev[a];
		char bus[32];

		d->ordinal = a;
		gpu_record_step(st,
				"cuDeviceGet, cuDeviceGetName, cuDeviceGetPCIBusId",
				-1, a);
		if (!cuda_call(st, cu, cu->cuDeviceGet(&handle[a], a),
			       "cuDeviceGet") ||
		    !cuda_call(st, cu,
			       cu->cuDeviceGetName(d->name, sizeof(d->name),
						   handle[a]),
			       "cuDeviceGetName") ||
		    !cuda_call(st, cu,
			       cu->cuDeviceGetPCIBusId(bus, sizeof(bus), handle[a]),
			       "cuDeviceGetPCIBusId"))
			return;
		if (!gpu_parse_bus_id(bus, &d->pci_addr)) {
			snprintf(st->error, sizeof(st->error),
				 "cuDeviceGetPCIBusId: cannot parse \"%.32s\"", bus);
			st->cuda = GPU_FAILED;
			return;
		}
	}
	st->nr_dev = (unsigned int)count;
	st->nr_pairs = st->nr_dev * (st->nr_dev - 1);

	for (a = 0; a < count; a++)
		for (b = 0; b < count; b++) {
			struct gpu_pair *p;

			if (a == b)
				continue;
			p = &st->pair[gpu_pair_index(st->nr_dev, a, b)];
			p->src = a;
			p->dst = b;
			gpu_record_step(st,
					"cuDeviceCanAccessPeer, cuDeviceGetP2PAttribute",
					(int)gpu_pair_index(st->nr_dev, a, b),
					-1);
			probe_pair(st, cu, p, handle[a], handle[b]);
			if (st->cuda != GPU_OK)
				return;
		}
}
