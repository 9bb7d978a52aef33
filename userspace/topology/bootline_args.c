// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel command line split as the kernel splits it (double quotes
 * group), and what its arguments set of the IOMMU: one rule for
 * /proc/cmdline (judge/system_bootline.c) and for a pasted kernel log's
 * command line (evidence/read_kernel_log.c).
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "topology/bootline_args.h"

const char *bootline_next_arg(const char *s, char *arg, size_t len)
{
	bool quoted = false;
	size_t n = 0;

	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	if (!*s)
		return NULL;
	for (; *s && (quoted || !isspace((unsigned char)*s)); s++) {
		if (*s == '"') {
			quoted = !quoted;
			continue;
		}
		if (n + 1 < len)
			arg[n++] = *s;
	}
	arg[n] = '\0';
	return s;
}

enum bootline_iommu bootline_iommu_arg(const char *arg)
{
	if (!strcmp(arg, "iommu=off") || !strcmp(arg, "amd_iommu=off") ||
	    !strcmp(arg, "intel_iommu=off"))
		return BOOTLINE_IOMMU_OFF;
	if (!strcmp(arg, "iommu=pt") || !strcmp(arg, "amd_iommu=pt"))
		return BOOTLINE_IOMMU_PASSTHROUGH;
	return BOOTLINE_IOMMU_UNSAID;
}

enum bootline_iommu bootline_iommu(const char *cmdline, char *out, size_t len)
{
	enum bootline_iommu mode = BOOTLINE_IOMMU_UNSAID, m;
	char arg[BOOTLINE_ARG_MAX];
	const char *s = cmdline;

	if (len)
		out[0] = '\0';
	while ((s = bootline_next_arg(s, arg, sizeof(arg)))) {
		m = bootline_iommu_arg(arg);
		if (m == BOOTLINE_IOMMU_UNSAID || mode == BOOTLINE_IOMMU_OFF)
			continue;
		mode = m;
		if (len)
			snprintf(out, len, "%s", arg);
	}
	return mode;
}
