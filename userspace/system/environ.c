// SPDX-License-Identifier: GPL-2.0
/*
 * NCCL reads its levels as names or as its internal path-type numbers,
 * which changed between releases: only the names that are also the
 * engine's classes are compared with the pairs; anything else is
 * reported as given.
 */
#include <string.h>
#include <strings.h>

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
