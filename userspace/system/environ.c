// SPDX-License-Identifier: GPL-2.0
/*
 * NCCL reads its levels as names or as its internal path-type numbers,
 * which changed between releases: only the names that are also the
 * engine's classes are compared with the pairs; anything else is
 * reported as given.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpu/gpu.h"
#include "system/environ.h"
#include "p2pdiag/verdict.h"

int environ_nccl_level(const char *value)
{
	static const struct { const char *name; int cls; } levels[] = {
		{ "PIX", P2PD_CLASS_PIX }, { "PXB", P2PD_CLASS_PXB },
		{ "PHB", P2PD_CLASS_PHB }, { "NODE", P2PD_CLASS_NODE },
		{ "SYS", P2PD_CLASS_SYS },
	};
	unsigned int i;

	for (i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
		if (!strcasecmp(value, levels[i].name))
			return levels[i].cls;
	return -1;
}

void environ_read(struct environ_facts *e)
{
	e->nccl_p2p_disable = getenv("NCCL_P2P_DISABLE");
	e->nccl_p2p_level = getenv("NCCL_P2P_LEVEL");
	e->nccl_ignore_disabled_p2p = getenv("NCCL_IGNORE_DISABLED_P2P");
	e->nccl_net_gdr_level = getenv("NCCL_NET_GDR_LEVEL");
	e->cuda_visible_devices = getenv("CUDA_VISIBLE_DEVICES");
	e->cuda_device_order = getenv("CUDA_DEVICE_ORDER");
	e->cuda_acs_check_override = getenv(GPU_CUDA_ACS_CHECK_OVERRIDE);
}
