// SPDX-License-Identifier: GPL-2.0
/*
 * The root-cause vocabulary and each finding code's default root cause
 * (root_cause.h says what they are for).  A code whose findings can have
 * several root causes (a refusal, a slow pair, a timeout) defaults to
 * undecided: the rules that weigh the other facts set the finding's own.
 */
#include <string.h>

#include "judge/root_cause.h"

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

struct code_root {
	const char *code;
	enum root_cause rc;
};

/* Every code of judge/finding_registry.c, in its order. */
static const struct code_root table[] = {
	{ "acs-redirect",			RC_ACS_REDIRECT },
	{ "host-bridge-no-p2p",			RC_HOST_BRIDGE },
	{ "paravirtual-pair",			RC_VIRTUALIZATION },
	{ "verdict-unknown",			RC_UNDECIDED },
	{ "iommu-translated",			RC_IOMMU_TRANSLATION },
	{ "ats-direct-translated",		RC_IOMMU_TRANSLATION },
	{ "link-degraded",			RC_LINK_DEGRADED },
	{ "link-capped-thermal",		RC_LINK_DEGRADED },
	{ "link-capped-target",			RC_BIOS_SETTING },
	{ "bar-resizable-small",		RC_BAR_SIZE },
	{ "bar1-below-memory",			RC_BAR_SIZE },
	{ "bar-below-4g",			RC_BIOS_SETTING },
	{ "bar-bridge-window",			RC_BAR_SIZE },
	{ "bar-above-dma-mask",			RC_UNDECIDED },
	{ "p2p-atomics",			RC_UNDECIDED },
	{ "nccl-link-current",			RC_UNDECIDED },
	{ "link-slow-idle",			RC_UNDECIDED },
	{ "bw-low",				RC_UNDECIDED },
	{ "bw-low-explained",			RC_UNDECIDED },
	{ "latency-high",			RC_UNDECIDED },
	{ "latency-high-explained",		RC_UNDECIDED },
	{ "gpu-busy",				RC_UNDECIDED },
	{ "gpu-throttled",			RC_UNDECIDED },
	{ "numa-remote",			RC_CROSS_SOCKET },
	{ "fake-p2p",				RC_UNDECIDED },
	{ "data-corrupt",			RC_UNDECIDED },
	{ "copy-timeout",			RC_UNDECIDED },
	{ "measure-failed",			RC_DRIVER },
	{ "gpu-driver-hung",			RC_DRIVER },
	{ "check-timed-out",			RC_UNDECIDED },
	{ "teardown-failed",			RC_DRIVER },
	{ "contradiction-blocked-but-cuda-ok",	RC_UNDECIDED },
	{ "contradiction-redirected-but-cuda-ok", RC_UNDECIDED },
	{ "contradiction-ok-but-cuda-refuses",	RC_UNDECIDED },
	{ "peer-access-one-way",		RC_BIOS_SETTING },
	{ "cuda-refuses-as-topology",		RC_UNDECIDED },
	{ "cuda-peer-forced",			RC_DRIVER },
	{ "hairpin",				RC_ACS_REDIRECT },
	{ "sibling-outlier",			RC_LINK_DEGRADED },
	{ "setting-ecc",			RC_DRIVER },
	{ "setting-persistence",		RC_DRIVER },
	{ "setting-compute_mode",		RC_DRIVER },
	{ "setting-mig",			RC_DRIVER },
	{ "setting-clocks",			RC_DRIVER },
	{ "setting-aspm_policy",		RC_BIOS_SETTING },
	{ "pcie-replay",			RC_LINK_DEGRADED },
	{ "ecc-uncorrected",			RC_UNDECIDED },
	{ "xid",				RC_UNDECIDED },
	{ "gpu-not-in-topology",		RC_UNDECIDED },
	{ "cuda-not-built",			RC_DRIVER },
	{ "cuda-absent",			RC_DRIVER },
	{ "nvml-absent",			RC_DRIVER },
	{ "no-gpu",				RC_DRIVER },
	{ "cuda-symbol-missing",		RC_DRIVER },
	{ "nvml-symbol-missing",		RC_DRIVER },
	{ "cuda-init-failed",			RC_DRIVER },
	{ "nvml-init-failed",			RC_DRIVER },
	{ "cuda-failed",			RC_DRIVER },
	{ "nvml-failed",			RC_DRIVER },
	{ "cross-check-mismatch",		RC_DRIVER },
	{ "cross-check-pairs",			RC_DRIVER },
	{ "engine-mismatch",			RC_DRIVER },
	{ "cpuinfo-unreadable",			RC_UNDECIDED },
	{ "cpu-inferred",			RC_UNDECIDED },
	{ "cpu-unknown",			RC_UNDECIDED },
	{ "baseline-topology",			RC_UNDECIDED },
	{ "baseline-device",			RC_UNDECIDED },
	{ "baseline-class",			RC_UNDECIDED },
	{ "baseline-verdict",			RC_UNDECIDED },
	{ "baseline-bw",			RC_UNDECIDED },
	{ "baseline-context",			RC_UNDECIDED },
	{ "gdr-peermem-unregistered",		RC_DRIVER },
	{ "gdr-no-route",			RC_DRIVER },
	{ "gdr-no-rdma-device",			RC_DRIVER },
	{ "gdr-no-rdma-nic",			RC_UNDECIDED },
	{ "gdr-nccl-distance",			RC_CROSS_SOCKET },
	{ "gds-compat-mode",			RC_UNDECIDED },
	{ "gds-iommu-translated",		RC_IOMMU_TRANSLATION },
	{ "nvme-behind-vmd",			RC_BIOS_SETTING },
	{ "cmdline-acs-comma",			RC_ACS_REDIRECT },
	{ "cmdline-pci-repeated",		RC_ACS_REDIRECT },
	{ "cmdline-noacs",			RC_ACS_REDIRECT },
	{ "cmdline-acs-override",		RC_ACS_REDIRECT },
	{ "cmdline-iommu-pt",			RC_IOMMU_TRANSLATION },
	{ "cmdline-fix-applied",		RC_ACS_REDIRECT },
	{ "cmdline-fix-not-applied",		RC_ACS_REDIRECT },
	{ "cmdline-fix-no-device",		RC_ACS_REDIRECT },
	{ "fix-merges-groups",			RC_ACS_REDIRECT },
	{ "iommu-groups-stale",			RC_ACS_REDIRECT },
	{ "aer-during-run",			RC_LINK_DEGRADED },
	{ "aer-logged",				RC_LINK_DEGRADED },
	{ "link-retrained",			RC_LINK_DEGRADED },
	{ "vm-guest",				RC_VIRTUALIZATION },
	{ "vm-paravirtual",			RC_VIRTUALIZATION },
	{ "vm-no-gpudirect-clique",		RC_VIRTUALIZATION },
	{ "vm-gpudirect-clique",		RC_VIRTUALIZATION },
	{ "vm-gpudirect-clique-split",		RC_VIRTUALIZATION },
	{ "vm-clique-unreadable",		RC_VIRTUALIZATION },
	{ "env-nccl-p2p-disable",		RC_DRIVER },
	{ "env-nccl-p2p-level",			RC_DRIVER },
	{ "env-nccl-ignore-disabled-p2p",	RC_DRIVER },
	{ "env-nccl-net-gdr-level",		RC_DRIVER },
	{ "env-cuda-visible-devices",		RC_DRIVER },
	{ "env-cuda-device-order",		RC_DRIVER },
	{ "env-cuda-acs-check-disabled",	RC_DRIVER },
	{ "kernel-p2pdma-verdict",		RC_UNDECIDED },
	{ "iommu-fault-during-p2p",		RC_IOMMU_TRANSLATION },
	{ "nccl-p2p-disabled",			RC_UNDECIDED },
	{ "p2p-not-supported",			RC_UNDECIDED },
	{ "p2p-slower-than-host",		RC_UNDECIDED },
	{ "p2p-host-staged",			RC_UNDECIDED },
	{ "pair-asymmetric",			RC_UNDECIDED },
	{ "bidir-collapse",			RC_UNDECIDED },
	{ "p2p-latency-detour",			RC_UNDECIDED },
	{ "bar-unassigned",			RC_BAR_SIZE },
	{ "nvlink-down",			RC_NVLINK },
	{ "nvlink-inactive",			RC_NVLINK },
	{ "nvrm-peer-assert",			RC_UNDECIDED },
	{ "cuda-system-not-ready",		RC_UNDECIDED },
	{ "evidence-undecided",			RC_UNDECIDED },
};

const char *root_cause_name(enum root_cause rc)
{
	if ((unsigned int)rc >= RC_COUNT)
		return names[RC_UNDECIDED];
	return names[rc];
}

enum root_cause root_cause_from_name(const char *name)
{
	unsigned int i;

	for (i = 0; i < RC_COUNT; i++)
		if (!strcmp(names[i], name))
			return (enum root_cause)i;
	return RC_COUNT;
}

enum root_cause root_cause_of_code(const char *code, bool *known)
{
	size_t i;

	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (!strcmp(table[i].code, code)) {
			if (known)
				*known = true;
			return table[i].rc;
		}
	if (known)
		*known = false;
	return RC_UNDECIDED;
}
