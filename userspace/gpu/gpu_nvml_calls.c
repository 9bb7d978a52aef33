// SPDX-License-Identifier: GPL-2.0
/*
 * How every NVML call's answer is taken (gpu_priv.h): a failure is kept
 * with the reading it was for, in NVML's words.  Used by the NVML probe
 * (gpu_nvml.c), the settings (gpu_settings.c) and the activity readings
 * (gpu_activity.c), and calling none of them.
 */
#include <stdio.h>
#include <string.h>

#include "gpu/gpu_priv.h"

void gpu_nvml_error_text(struct nvml_api *nv, nvmlReturn_t r, char *buf,
			 size_t len)
{
	const char *e = nv->nvmlErrorString ? nv->nvmlErrorString(r) : NULL;

	if (e)
		snprintf(buf, len, "%s", e);
	else
		snprintf(buf, len, "NVML error %d", (int)r);
}

bool gpu_nvml_ok(struct gpu_state *st, struct nvml_api *nv, int dev,
		 const char *field, const char *call, nvmlReturn_t r)
{
	struct gpu_device *d = &st->dev[dev];
	struct gpu_nvml_failure *f;
	unsigned int i;

	if (r == NVML_SUCCESS)
		return true;
	if (r == NVML_ERROR_NOT_SUPPORTED)
		return false;
	for (i = 0; i < d->nr_nvml_failures && i < GPU_NVML_FAILURES; i++)
		if (!strcmp(d->nvml_failure[i].field, field))
			return false;	/* the first failure of a reading says it */
	if (d->nr_nvml_failures++ >= GPU_NVML_FAILURES)
		return false;
	f = &d->nvml_failure[d->nr_nvml_failures - 1];
	snprintf(f->field, sizeof(f->field), "%s", field);
	snprintf(f->call, sizeof(f->call), "%s", call);
	gpu_nvml_error_text(nv, r, f->error, sizeof(f->error));
	return false;
}

bool gpu_nvml_link_active(struct gpu_state *st, struct nvml_api *nv, int dev,
			  unsigned int link)
{
	nvmlEnableState_t active = NVML_FEATURE_DISABLED;
	nvmlReturn_t r;

	if (!nv->nvmlDeviceGetNvLinkState)
		return false;
	r = nv->nvmlDeviceGetNvLinkState(nv->dev[dev], link, &active);
	/* a link number past the GPU's last link: no such link, no failure */
	if (r == NVML_ERROR_INVALID_ARGUMENT)
		return false;
	return gpu_nvml_ok(st, nv, dev, "nvlink_state", "nvmlDeviceGetNvLinkState",
			   r) &&
	       active == NVML_FEATURE_ENABLED;
}
