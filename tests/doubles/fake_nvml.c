// SPDX-License-Identifier: GPL-2.0
/*
 * A test double of libnvidia-ml.so.1 for CI machines without a GPU: the
 * calls p2pdiag-check makes, answering for the GPUs fake_common.h lists.
 *
 * Environment (all optional):
 *   FAKE_NVML_INIT=fail              nvmlInit_v2 fails
 *   FAKE_NVML_GEN, FAKE_NVML_WIDTH   current link (5, 16)
 *   FAKE_NVML_MAX_GEN, _MAX_WIDTH    maximum link (5, 16)
 *   FAKE_NVML_LOAD_GEN, _LOAD_WIDTH  what the second and later reads of the
 *                                    current link return (a link that drops
 *                                    under load)
 *   FAKE_NVML_TOPO=level             common ancestor (nvmlGpuTopologyLevel_t,
 *                                    default 30, host bridge)
 *   FAKE_NVML_P2P=status             nvmlGpuP2PStatus_t for read/write
 *                                    (default 0, OK)
 *   FAKE_NVML_NVLINKS=a-b:n          GPU a has n active links to GPU b
 *   FAKE_NVML_REPLAY_DELTA=n         the replay counter grows by n per read
 */
#define NVML_NO_UNVERSIONED_FUNC_DEFS
#include <nvml.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_common.h"

#define EXPORT __attribute__((visibility("default")))

struct nvmlDevice_st {
	int index;
	int link_reads;
	unsigned int replay;
};

static struct nvmlDevice_st devs[FAKE_MAX_GPUS];

static int dev_index(nvmlDevice_t d)
{
	return d ? d->index : -1;
}

EXPORT nvmlReturn_t nvmlInit_v2(void)
{
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
	return NVML_SUCCESS;
}

EXPORT const char *nvmlErrorString(nvmlReturn_t r)
{
	return r == NVML_SUCCESS ? "Success" : "Fake NVML error";
}

EXPORT nvmlReturn_t nvmlSystemGetDriverVersion(char *v, unsigned int len)
{
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
			*d = &devs[i];
			return NVML_SUCCESS;
		}
	}
	return NVML_ERROR_NOT_FOUND;
}

EXPORT nvmlReturn_t nvmlDeviceGetCurrPcieLinkGeneration(nvmlDevice_t d,
							unsigned int *v)
{
	int loaded = d->link_reads++ > 0;

	*v = (unsigned int)fake_env_int(loaded ? "FAKE_NVML_LOAD_GEN" :
					       "FAKE_NVML_GEN",
				     fake_env_int("FAKE_NVML_GEN", 5));
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetCurrPcieLinkWidth(nvmlDevice_t d,
						   unsigned int *v)
{
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
	(void)d;
	*v = (unsigned int)fake_env_int("FAKE_NVML_MAX_GEN", 5);
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetMaxPcieLinkWidth(nvmlDevice_t d,
						  unsigned int *v)
{
	(void)d;
	*v = (unsigned int)fake_env_int("FAKE_NVML_MAX_WIDTH", 16);
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetTopologyCommonAncestor(
	nvmlDevice_t a, nvmlDevice_t b, nvmlGpuTopologyLevel_t *level)
{
	(void)a;
	(void)b;
	*level = (nvmlGpuTopologyLevel_t)fake_env_int("FAKE_NVML_TOPO", 30);
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetP2PStatus(nvmlDevice_t a, nvmlDevice_t b,
					   nvmlGpuP2PCapsIndex_t i,
					   nvmlGpuP2PStatus_t *s)
{
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
	*v = d->replay;
	d->replay += (unsigned int)fake_env_int("FAKE_NVML_REPLAY_DELTA", 0);
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetTotalEccErrors(nvmlDevice_t d,
						nvmlMemoryErrorType_t t,
						nvmlEccCounterType_t c,
						unsigned long long *v)
{
	(void)d;
	(void)t;
	(void)c;
	*v = 0;
	return NVML_SUCCESS;
}
