// SPDX-License-Identifier: GPL-2.0
/*
 * The settings that change what copies and P2P achieve, read once at probe
 * time: ECC (current and pending), persistence mode, compute mode, MIG
 * mode (current and pending), application clocks against their defaults,
 * the maximum clocks and memory bus width (the HBM figure's basis), and
 * the NVLink version of each active link (its per-link rate).  What each
 * does and how it is changed is the judgement's business (judge_settings.c).
 */
#include <string.h>

#include "gpu/gpu_priv.h"

static int enable_state(nvmlReturn_t r, nvmlEnableState_t s)
{
	return r != NVML_SUCCESS ? -1 : s == NVML_FEATURE_ENABLED;
}

static unsigned int clock_of(struct gpu_state *st, struct nvml_api *nv,
			     int dev, nvmlClockType_t type, nvmlClockId_t id)
{
	unsigned int mhz = 0;

	if (!nv->nvmlDeviceGetClock ||
	    !NVML_OK(st, nv, dev, "app_clocks", nvmlDeviceGetClock, nv->dev[dev],
		     type, id, &mhz))
		return 0;
	return mhz;
}

static unsigned int max_clock_of(struct gpu_state *st, struct nvml_api *nv,
				 int dev, nvmlClockType_t type)
{
	unsigned int mhz = 0;

	if (!NVML_OK(st, nv, dev, "max_clocks", nvmlDeviceGetMaxClockInfo,
		     nv->dev[dev], type, &mhz))
		return 0;
	return mhz;
}

void gpu_settings_read(struct gpu_state *st, struct nvml_api *nv, int dev)
{
	struct gpu_settings *s = &st->dev[dev].settings;
	nvmlDevice_t h = nv->dev[dev];
	nvmlEnableState_t cur, pend;
	nvmlComputeMode_t mode;
	unsigned int link, mc, mp;

	memset(s, 0, sizeof(*s));
	s->ecc = s->ecc_pending = s->persistence = s->compute_mode = -1;
	s->mig = s->mig_pending = -1;
	st->dev[dev].activity.pstate_load = -1;
	if (!h)
		return;
	s->valid = true;
	if (nv->nvmlDeviceGetEccMode) {
		nvmlReturn_t r = nv->nvmlDeviceGetEccMode(h, &cur, &pend);

		gpu_nvml_ok(st, nv, dev, "ecc_mode", "nvmlDeviceGetEccMode", r);
		s->ecc = enable_state(r, cur);
		s->ecc_pending = enable_state(r, pend);
	}
	if (nv->nvmlDeviceGetPersistenceMode) {
		nvmlReturn_t r = nv->nvmlDeviceGetPersistenceMode(h, &cur);

		gpu_nvml_ok(st, nv, dev, "persistence",
			    "nvmlDeviceGetPersistenceMode", r);
		s->persistence = enable_state(r, cur);
	}
	if (nv->nvmlDeviceGetComputeMode &&
	    NVML_OK(st, nv, dev, "compute_mode", nvmlDeviceGetComputeMode, h,
		    &mode))
		s->compute_mode = (int)mode;
	if (nv->nvmlDeviceGetMigMode &&
	    NVML_OK(st, nv, dev, "mig", nvmlDeviceGetMigMode, h, &mc, &mp)) {
		s->mig = mc == NVML_DEVICE_MIG_ENABLE;
		s->mig_pending = mp == NVML_DEVICE_MIG_ENABLE;
	}
	s->app_sm = clock_of(st, nv, dev, NVML_CLOCK_SM,
			     NVML_CLOCK_ID_APP_CLOCK_TARGET);
	s->app_sm_default = clock_of(st, nv, dev, NVML_CLOCK_SM,
				     NVML_CLOCK_ID_APP_CLOCK_DEFAULT);
	s->app_mem = clock_of(st, nv, dev, NVML_CLOCK_MEM,
			      NVML_CLOCK_ID_APP_CLOCK_TARGET);
	s->app_mem_default = clock_of(st, nv, dev, NVML_CLOCK_MEM,
				      NVML_CLOCK_ID_APP_CLOCK_DEFAULT);
	if (nv->nvmlDeviceGetMaxClockInfo) {
		s->max_sm = max_clock_of(st, nv, dev, NVML_CLOCK_SM);
		s->max_mem = max_clock_of(st, nv, dev, NVML_CLOCK_MEM);
	}
	if (nv->nvmlDeviceGetMemoryBusWidth &&
	    !NVML_OK(st, nv, dev, "mem_bus_width", nvmlDeviceGetMemoryBusWidth,
		     h, &s->mem_bus_width))
		s->mem_bus_width = 0;
	if (!nv->nvmlDeviceGetNvLinkVersion)
		return;
	for (link = 0; link < GPU_NVLINK_LINKS; link++) {
		unsigned int v = 0;

		if (!gpu_nvml_link_active(st, nv, dev, link))
			continue;
		if (NVML_OK(st, nv, dev, "nvlink_version",
			    nvmlDeviceGetNvLinkVersion, h, link, &v))
			s->nvlink_version[link] = v;
	}
}
