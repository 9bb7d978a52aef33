// SPDX-License-Identifier: GPL-2.0
/*
 * The root-cause vocabulary (root_cause.h says what it is for).  Each
 * finding code's default root cause is in its entry of
 * findings/finding_codes.h.
 */
#include <string.h>

#include "findings/root_cause.h"

static const char *const names[RC_COUNT] = {
	[RC_UNDECIDED]		= "undecided",
	[RC_ACS_REDIRECT]	= "acs-redirect",
	[RC_IOMMU_TRANSLATION]	= "iommu-translation",
	[RC_HOST_BRIDGE]	= "host-bridge",
	[RC_CONSUMER_GPU]	= "consumer-gpu",
	[RC_CROSS_SOCKET]	= "cross-socket",
	[RC_LINK_DEGRADED]	= "link-degraded",
	[RC_NVLINK]		= "nvlink",
	[RC_BAR_SIZE]		= "bar-size",
	[RC_DRIVER]		= "driver",
	[RC_BIOS_SETTING]	= "bios-setting",
	[RC_VIRTUALIZATION]	= "virtualization",
	[RC_HEALTHY]		= "healthy",
};

const char *root_cause_name(enum root_cause rc)
{
	if ((unsigned int)rc >= RC_COUNT)
		return names[RC_UNDECIDED];
	return names[rc];
}
