// SPDX-License-Identifier: GPL-2.0
/*
 * A test double of libnvidia-ml.so.1 for CI machines without a GPU: the
 * calls p2pdiag-check makes, answering for the GPUs fake_common.h lists.
 *
 * Environment (all optional):
 *   FAKE_NVML_INIT=fail              nvmlInit_v2 fails
 *   FAKE_NVML_FAIL_CALL=name[,name]  those calls return NVML_ERROR_GPU_IS_LOST
 *   FAKE_NVML_FAIL_GPU=i             ... only for GPU i, where the call names
 *                                    one (a handle, or the bus id looked up)
 *   FAKE_NVML_ERROR_STRING=null      nvmlErrorString answers NULL
 *   FAKE_NVML_GEN, FAKE_NVML_WIDTH   current link (5, 16)
 *   FAKE_NVML_MAX_GEN, _MAX_WIDTH    maximum link (5, 16)
 *   FAKE_NVML_BAR1=total:used        BAR1 in MiB (131072:2, an H100's)
 *   FAKE_NVML_MEMORY=MiB             the GPU's memory (81559, an H100's)
 *   FAKE_NVML_LOAD_GEN, _LOAD_WIDTH  what the second and later reads of the
 *                                    current link return (a link that drops
 *                                    under load)
 *   FAKE_NVML_TOPO=level             common ancestor (nvmlGpuTopologyLevel_t,
 *                                    default 30, host bridge)
 *   FAKE_NVML_P2P=status             nvmlGpuP2PStatus_t for read/write
 *                                    (default 0, OK)
 *   FAKE_NVML_NVLINKS=a-b:n          GPU a has n active links to GPU b
 *   FAKE_NVML_REPLAY_DELTA=n         the replay counter grows by n per read
 *   FAKE_NVML_PROCS=pid:name:MiB,... compute processes on every GPU (none)
 *   FAKE_NVML_PROCS_READS=n          ... listed for the first n reads of a
 *                                    GPU's list only (work that ends)
 *   FAKE_NVML_UTIL=pct               GPU utilisation (0)
 *   FAKE_NVML_THROTTLE=mask          clock event reasons (0x1, idle)
 *   FAKE_NVML_SM_CLOCK=MHz           current SM clock (1980)
 *   FAKE_NVML_PSTATE=n               performance state (0)
 *   FAKE_NVML_ECC=cur:pending        ECC mode, 1 on (1:1)
 *   FAKE_NVML_PERSISTENCE=0|1        persistence mode (1)
 *   FAKE_NVML_COMPUTE_MODE=n         nvmlComputeMode_t (0, default)
 *   FAKE_NVML_MIG=cur:pending        MIG mode (0:0)
 *   FAKE_NVML_APP_SM=target:default  application SM clocks (1980:1980)
 *   FAKE_NVML_APP_MEM=target:default application memory clocks (3201:3201)
 *   FAKE_NVML_MAX_MEM=MHz            maximum memory clock (3201)
 *   FAKE_NVML_BUS_WIDTH=bits         memory bus width (not reported)
 *   FAKE_NVML_NVLINK_VERSION=v       every link's version (4)
 *
 * Xid events: an event set can be created and GPUs registered with it;
 * no event ever arrives (waiting on it times out at once).
 *
 * Built with FAKE_NVML_NO_ERROR_STRING it has no nvmlErrorString at all
 * (an NVML older than the call, or a stripped one).
 */
#define NVML_NO_UNVERSIONED_FUNC_DEFS
#include <nvml.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_common.h"

#define EXPORT __attribute__((visibility("default")))

/* Every call returning nvmlReturn_t starts here: FAKE_NVML_FAIL_CALL. */
#define FAKE_NVML_FAILURE NVML_ERROR_GPU_IS_LOST
#define FAKE_NVML_ENTRY() \
	do { \
		if (fake_listed("FAKE_NVML_FAIL_CALL", __func__)) \
			return FAKE_NVML_FAILURE; \
	} while (0)
/* The same for a call about GPU @index: FAKE_NVML_FAIL_GPU narrows it. */
#define FAKE_NVML_GPU_ENTRY(index) \
	do { \
		if (fake_listed("FAKE_NVML_FAIL_CALL", __func__) && \
		    fake_env_int("FAKE_NVML_FAIL_GPU", (index)) == (index)) \
			return FAKE_NVML_FAILURE; \
	} while (0)

struct nvmlDevice_st {
	int index;
	int link_reads;
	unsigned int replay;
	int proc_reads;
};

static struct nvmlDevice_st devs[FAKE_MAX_GPUS];

static int dev_index(nvmlDevice_t d)
{
	return d ? d->index : -1;
}

EXPORT nvmlReturn_t nvmlInit_v2(void)
{
	FAKE_NVML_ENTRY();
	const char *v = getenv("FAKE_NVML_INIT");
	int i;

	if (v && !strcmp(v, "fail"))
		return NVML_ERROR_DRIVER_NOT_LOADED;
	for (i = 0; i < FAKE_MAX_GPUS; i++)
		devs[i].index = i;
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlShutdown(void)
{
	FAKE_NVML_ENTRY();
	return NVML_SUCCESS;
}

#ifndef FAKE_NVML_NO_ERROR_STRING
EXPORT const char *nvmlErrorString(nvmlReturn_t r)
{
	const char *v = getenv("FAKE_NVML_ERROR_STRING");

	if (v && !strcmp(v, "null"))
		return NULL;
	return r == NVML_SUCCESS ? "Success" :
	       r == NVML_ERROR_GPU_IS_LOST ? "GPU is lost" : "Fake NVML error";
}
#endif

EXPORT nvmlReturn_t nvmlSystemGetDriverVersion(char *v, unsigned int len)
{
	FAKE_NVML_ENTRY();
	snprintf(v, len, "999.99-fake");
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetHandleByPciBusId_v2(const char *bus,
						     nvmlDevice_t *d)
{
	char mine[32];
	int i;

	for (i = 0; i < fake_gpu_count(); i++) {
		fake_gpu_busid(i, mine, sizeof(mine));
		if (!strcasecmp(mine, bus)) {
			FAKE_NVML_GPU_ENTRY(i);
			*d = &devs[i];
			return NVML_SUCCESS;
		}
	}
	return NVML_ERROR_NOT_FOUND;
}

/* A UUID of NVML's form, GPU-8-4-4-4-12 hex digits, from the GPU's index. */
EXPORT nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t d, char *uuid,
				      unsigned int len)
{
	FAKE_NVML_GPU_ENTRY(dev_index(d));
	snprintf(uuid, len, "GPU-00000000-0000-4000-8000-%012d", dev_index(d));
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetCurrPcieLinkGeneration(nvmlDevice_t d,
							unsigned int *v)
{
	FAKE_NVML_GPU_ENTRY(dev_index(d));
	int loaded = d->link_reads++ > 0;

	*v = (unsigned int)fake_env_int(loaded ? "FAKE_NVML_LOAD_GEN" :
					       "FAKE_NVML_GEN",
				     fake_env_int("FAKE_NVML_GEN", 5));
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetCurrPcieLinkWidth(nvmlDevice_t d,
						   unsigned int *v)
{
	FAKE_NVML_GPU_ENTRY(dev_index(d));
	/* link_reads was counted by the generation read just before. */
	int loaded = d->link_reads > 1;

	*v = (unsigned int)fake_env_int(loaded ? "FAKE_NVML_LOAD_WIDTH" :
					       "FAKE_NVML_WIDTH",
				     fake_env_int("FAKE_NVML_WIDTH", 16));
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetMaxPcieLinkGeneration(nvmlDevice_t d,
						       unsigned int *v)
{
	FAKE_NVML_GPU_ENTRY(dev_index(d));
	(void)d;
	*v = (unsigned int)fake_env_int("FAKE_NVML_MAX_GEN", 5);
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetMaxPcieLinkWidth(nvmlDevice_t d,
						  unsigned int *v)
{
	FAKE_NVML_GPU_ENTRY(dev_index(d));
	(void)d;
	*v = (unsigned int)fake_env_int("FAKE_NVML_MAX_WIDTH", 16);
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetTopologyCommonAncestor(
	nvmlDevice_t a, nvmlDevice_t b, nvmlGpuTopologyLevel_t *level)
{
	FAKE_NVML_ENTRY();
	(void)a;
	(void)b;
	*level = (nvmlGpuTopologyLevel_t)fake_env_int("FAKE_NVML_TOPO", 30);
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetP2PStatus(nvmlDevice_t a, nvmlDevice_t b,
					   nvmlGpuP2PCapsIndex_t i,
					   nvmlGpuP2PStatus_t *s)
{
	FAKE_NVML_ENTRY();
	int links = 0;
	char want[16];
	const char *v = getenv("FAKE_NVML_NVLINKS");

	snprintf(want, sizeof(want), "%d-%d:", dev_index(a), dev_index(b));
	if (v && strstr(v, want))
		links = 1;
	if (i == NVML_P2P_CAPS_INDEX_NVLINK)
		*s = links ? NVML_P2P_STATUS_OK : NVML_P2P_STATUS_NOT_SUPPORTED;
	else
		*s = (nvmlGpuP2PStatus_t)fake_env_int("FAKE_NVML_P2P", 0);
	return NVML_SUCCESS;
}

/* Links of GPU d: FAKE_NVML_NVLINKS="a-b:n,..." counted in order. */
static int link_peer(int d, unsigned int link)
{
	const char *v = getenv("FAKE_NVML_NVLINKS");
	unsigned int base = 0;
	int a, b, n;

	while (v && *v) {
		if (sscanf(v, "%d-%d:%d", &a, &b, &n) == 3 && a == d) {
			if (link < base + (unsigned int)n)
				return b;
			base += (unsigned int)n;
		}
		v = strchr(v, ',');
		if (v)
			v++;
	}
	return -1;
}

EXPORT nvmlReturn_t nvmlDeviceGetNvLinkState(nvmlDevice_t d, unsigned int link,
					     nvmlEnableState_t *active)
{
	FAKE_NVML_GPU_ENTRY(dev_index(d));
	if (!getenv("FAKE_NVML_NVLINKS"))
		return NVML_ERROR_NOT_SUPPORTED;
	*active = link_peer(dev_index(d), link) >= 0 ? NVML_FEATURE_ENABLED :
						       NVML_FEATURE_DISABLED;
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetNvLinkRemotePciInfo_v2(nvmlDevice_t d,
							unsigned int link,
							nvmlPciInfo_t *pci)
{
	FAKE_NVML_GPU_ENTRY(dev_index(d));
	int peer = link_peer(dev_index(d), link);

	if (peer < 0)
		return NVML_ERROR_INVALID_ARGUMENT;
	memset(pci, 0, sizeof(*pci));
	fake_gpu_busid(peer, pci->busId, sizeof(pci->busId));
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetPcieReplayCounter(nvmlDevice_t d,
						   unsigned int *v)
{
	FAKE_NVML_GPU_ENTRY(dev_index(d));
	*v = d->replay;
	d->replay += (unsigned int)fake_env_int("FAKE_NVML_REPLAY_DELTA", 0);
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetTotalEccErrors(nvmlDevice_t d,
						nvmlMemoryErrorType_t t,
						nvmlEccCounterType_t c,
						unsigned long long *v)
{
	FAKE_NVML_GPU_ENTRY(dev_index(d));
	(void)d;
	(void)t;
	(void)c;
	*v = 0;
	return NVML_SUCCESS;
}

/* FAKE_NVML_PROCS entry i: pid, name, MiB; 0 when there is none. */
static int proc_entry(int i, unsigned int *pid, char *name, size_t len,
		      unsigned long long *mib)
{
	const char *v = getenv("FAKE_NVML_PROCS");
	int k = 0;

	while (v && *v) {
		const char *end = strchr(v, ',');
		size_t n = end ? (size_t)(end - v) : strlen(v);
		char item[128], *c1, *c2;

		snprintf(item, sizeof(item), "%.*s", (int)n, v);
		if (k++ == i) {
			c1 = strchr(item, ':');
			c2 = c1 ? strchr(c1 + 1, ':') : NULL;
			*pid = (unsigned int)atoi(item);
			snprintf(name, len, "%.*s", c1 ? (int)((c2 ? c2 : c1 + strlen(c1)) - c1 - 1) : 0,
				 c1 ? c1 + 1 : "");
			*mib = c2 ? strtoull(c2 + 1, NULL, 10) : 0;
			return 1;
		}
		v += n + (end ? 1 : 0);
	}
	return 0;
}

EXPORT nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(
	nvmlDevice_t d, unsigned int *count, nvmlProcessInfo_t *info)
{
	FAKE_NVML_GPU_ENTRY(dev_index(d));
	int limit = fake_env_int("FAKE_NVML_PROCS_READS", -1);
	unsigned int n = 0, pid;
	unsigned long long mib;
	char name[64];

	if (limit < 0 || d->proc_reads++ < limit)
		while (proc_entry((int)n, &pid, name, sizeof(name), &mib)) {
			if (n < *count) {
				memset(&info[n], 0, sizeof(info[n]));
				info[n].pid = pid;
				info[n].usedGpuMemory = mib << 20;
				info[n].gpuInstanceId = info[n].computeInstanceId =
					0xffffffffu;
			}
			n++;
		}
	if (n > *count) {
		*count = n;
		return NVML_ERROR_INSUFFICIENT_SIZE;
	}
	*count = n;
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetGraphicsRunningProcesses_v3(
	nvmlDevice_t d, unsigned int *count, nvmlProcessInfo_t *info)
{
	FAKE_NVML_GPU_ENTRY(dev_index(d));
	(void)d;
	(void)info;
	*count = 0;
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlSystemGetProcessName(unsigned int pid, char *name,
					     unsigned int len)
{
	FAKE_NVML_ENTRY();
	unsigned int p;
	unsigned long long mib;
	int i;

	for (i = 0; proc_entry(i, &p, name, len, &mib); i++)
		if (p == pid)
			return name[0] ? NVML_SUCCESS : NVML_ERROR_NOT_FOUND;
	return NVML_ERROR_NOT_FOUND;
}

EXPORT nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t d,
						  nvmlUtilization_t *u)
{
	FAKE_NVML_GPU_ENTRY(dev_index(d));
	(void)d;
	u->gpu = (unsigned int)fake_env_int("FAKE_NVML_UTIL", 0);
	u->memory = u->gpu / 2;
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetCurrentClocksThrottleReasons(
	nvmlDevice_t d, unsigned long long *reasons)
{
	FAKE_NVML_GPU_ENTRY(dev_index(d));
	const char *v = getenv("FAKE_NVML_THROTTLE");

	(void)d;
	*reasons = v && *v ? strtoull(v, NULL, 0) : 0x1;
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t d, nvmlClockType_t t,
					   unsigned int *mhz)
{
	FAKE_NVML_GPU_ENTRY(dev_index(d));
	(void)d;
	*mhz = (unsigned int)(t == NVML_CLOCK_MEM ?
			      fake_env_int("FAKE_NVML_MAX_MEM", 3201) :
			      fake_env_int("FAKE_NVML_SM_CLOCK", 1980));
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetMaxClockInfo(nvmlDevice_t d,
					      nvmlClockType_t t,
					      unsigned int *mhz)
{
	FAKE_NVML_GPU_ENTRY(dev_index(d));
	(void)d;
	*mhz = (unsigned int)(t == NVML_CLOCK_MEM ?
			      fake_env_int("FAKE_NVML_MAX_MEM", 3201) : 1980);
	return NVML_SUCCESS;
}

/* "a:b" from the environment, or the defaults. */
static void env_pair(const char *name, int da, int db, int *a, int *b)
{
	const char *v = getenv(name);

	*a = da;
	*b = db;
	if (v && *v && sscanf(v, "%d:%d", a, b) == 1)
		*b = *a;
}

EXPORT nvmlReturn_t nvmlDeviceGetBAR1MemoryInfo(nvmlDevice_t d,
					       nvmlBAR1Memory_t *bar1)
{
	int total, used;

	FAKE_NVML_GPU_ENTRY(dev_index(d));
	env_pair("FAKE_NVML_BAR1", 131072, 2, &total, &used);
	bar1->bar1Total = (unsigned long long)total << 20;
	bar1->bar1Used = (unsigned long long)used << 20;
	bar1->bar1Free = bar1->bar1Total - bar1->bar1Used;
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t d, nvmlMemory_t *mem)
{
	FAKE_NVML_GPU_ENTRY(dev_index(d));
	mem->total = (unsigned long long)fake_env_int("FAKE_NVML_MEMORY", 81559) << 20;
	mem->used = 0;
	mem->free = mem->total;
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetClock(nvmlDevice_t d, nvmlClockType_t t,
				       nvmlClockId_t id, unsigned int *mhz)
{
	FAKE_NVML_GPU_ENTRY(dev_index(d));
	int target, dflt;

	(void)d;
	if (t == NVML_CLOCK_MEM)
		env_pair("FAKE_NVML_APP_MEM", 3201, 3201, &target, &dflt);
	else
		env_pair("FAKE_NVML_APP_SM", 1980, 1980, &target, &dflt);
	if (id == NVML_CLOCK_ID_APP_CLOCK_TARGET)
		*mhz = (unsigned int)target;
	else if (id == NVML_CLOCK_ID_APP_CLOCK_DEFAULT)
		*mhz = (unsigned int)dflt;
	else
		return NVML_ERROR_NOT_SUPPORTED;
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetPerformanceState(nvmlDevice_t d,
						  nvmlPstates_t *p)
{
	FAKE_NVML_GPU_ENTRY(dev_index(d));
	(void)d;
	*p = (nvmlPstates_t)fake_env_int("FAKE_NVML_PSTATE", 0);
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetEccMode(nvmlDevice_t d,
					 nvmlEnableState_t *cur,
					 nvmlEnableState_t *pend)
{
	FAKE_NVML_GPU_ENTRY(dev_index(d));
	int c, p;

	(void)d;
	env_pair("FAKE_NVML_ECC", 1, 1, &c, &p);
	*cur = c ? NVML_FEATURE_ENABLED : NVML_FEATURE_DISABLED;
	*pend = p ? NVML_FEATURE_ENABLED : NVML_FEATURE_DISABLED;
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetPersistenceMode(nvmlDevice_t d,
						 nvmlEnableState_t *mode)
{
	FAKE_NVML_GPU_ENTRY(dev_index(d));
	(void)d;
	*mode = fake_env_int("FAKE_NVML_PERSISTENCE", 1) ?
			NVML_FEATURE_ENABLED : NVML_FEATURE_DISABLED;
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetComputeMode(nvmlDevice_t d,
					     nvmlComputeMode_t *mode)
{
	FAKE_NVML_GPU_ENTRY(dev_index(d));
	(void)d;
	*mode = (nvmlComputeMode_t)fake_env_int("FAKE_NVML_COMPUTE_MODE", 0);
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetMigMode(nvmlDevice_t d, unsigned int *cur,
					 unsigned int *pend)
{
	FAKE_NVML_GPU_ENTRY(dev_index(d));
	int c, p;

	(void)d;
	env_pair("FAKE_NVML_MIG", 0, 0, &c, &p);
	*cur = (unsigned int)c;
	*pend = (unsigned int)p;
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetMemoryBusWidth(nvmlDevice_t d,
						unsigned int *bits)
{
	FAKE_NVML_GPU_ENTRY(dev_index(d));
	(void)d;
	if (!getenv("FAKE_NVML_BUS_WIDTH"))
		return NVML_ERROR_NOT_SUPPORTED;
	*bits = (unsigned int)fake_env_int("FAKE_NVML_BUS_WIDTH", 0);
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetNvLinkVersion(nvmlDevice_t d,
					       unsigned int link,
					       unsigned int *version)
{
	FAKE_NVML_GPU_ENTRY(dev_index(d));
	if (link_peer(dev_index(d), link) < 0)
		return NVML_ERROR_INVALID_ARGUMENT;
	*version = (unsigned int)fake_env_int("FAKE_NVML_NVLINK_VERSION", 4);
	return NVML_SUCCESS;
}

struct nvmlEventSet_st {
	int registered;
};

static struct nvmlEventSet_st event_set;

EXPORT nvmlReturn_t nvmlEventSetCreate(nvmlEventSet_t *set)
{
	FAKE_NVML_ENTRY();
	*set = &event_set;
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceRegisterEvents(nvmlDevice_t d,
					     unsigned long long types,
					     nvmlEventSet_t set)
{
	FAKE_NVML_GPU_ENTRY(dev_index(d));
	(void)types;
	set->registered++;
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlEventSetWait_v2(nvmlEventSet_t set,
					nvmlEventData_t *data,
					unsigned int timeout_ms)
{
	FAKE_NVML_ENTRY();
	(void)set;
	(void)data;
	(void)timeout_ms;
	return NVML_ERROR_TIMEOUT;
}

EXPORT nvmlReturn_t nvmlEventSetFree(nvmlEventSet_t set)
{
	FAKE_NVML_ENTRY();
	set->registered = 0;
	return NVML_SUCCESS;
}
