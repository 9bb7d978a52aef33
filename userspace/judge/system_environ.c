// SPDX-License-Identifier: GPL-2.0
/*
 * The environment variables that silently change P2P for the programs
 * started from this environment, said as information; an NCCL level is
 * compared with the pairs only where system/environ.c's reading of it is
 * one of the engine's classes.
 */
#include <stdio.h>
#include <string.h>

#include "judge/judgement.h"
#include "gpu/gpu.h"
#include "judge/judge.h"
#include "judge/system_checks.h"
#include "topology/pciaddr.h"
#include "system/environ.h"
#include "p2pdiag/decode.h"
#include "p2pdiag/verdict.h"

static bool gpu_pair(const struct check_run *r, const struct p2pd_pair *p)
{
	return p2pd_device_kind(r->in.model->fn[p->a].class_code) == P2PD_KIND_GPU &&
	       p2pd_device_kind(r->in.model->fn[p->b].class_code) == P2PD_KIND_GPU;
}

static void p2p_level(struct check_run *r, const char *value)
{
	int level = environ_nccl_level(value);
	unsigned int i, more = 0, fewer = 0;

	for (i = 0; level >= 0 && r->in.model && i < r->judged.nr_pairs; i++) {
		const struct p2pd_pair *p = &r->judged.pair[i];
		int now = (int)p->cls <= level;

		if (!gpu_pair(r, p))
			continue;
		more += now && !p->nccl_p2p;
		fewer += !now && p->nccl_p2p;
	}
	if (level < 0)
		findings_add(&r->judged.findings, SEV_INFO, FC_ENV_NCCL_P2P_LEVEL,
			     FINDING_NO_ADDR, FINDING_NO_ADDR, NULL,
			     "NCCL_P2P_LEVEL=%s: NCCL uses P2P only up to that path type instead of its default (PXB; SYS on AMD with at most two GPUs)",
			     value);
	else
		findings_add(&r->judged.findings, SEV_INFO, FC_ENV_NCCL_P2P_LEVEL,
			     FINDING_NO_ADDR, FINDING_NO_ADDR, NULL,
			     "NCCL_P2P_LEVEL=%s: NCCL uses P2P up to %s instead of its default; against the default, %u GPU pair(s) gain P2P and %u lose it",
			     value, p2pd_class_name((enum p2pd_class)level), more, fewer);
}

/* CUDA's default order is fastest first; nvidia-smi and NCCL's logs use PCI order. */
static void device_order(struct check_run *r, const char *order)
{
	const struct gpu_state *g = r->in.gpu;
	char map[512] = "";
	size_t used = 0;
	unsigned int i;
	bool out_of_order = false;

	if (order && strcmp(order, "FASTEST_FIRST"))
		return;
	if (!g || g->nr_dev < 2)
		return;
	for (i = 0; i < g->nr_dev; i++) {
		char a[P2PD_ADDR_STRLEN];

		if (i && g->dev[i].pci_addr < g->dev[i - 1].pci_addr)
			out_of_order = true;
		if (used < sizeof(map))
			used += (size_t)snprintf(map + used, sizeof(map) - used, "%s%d=%s",
						 i ? ", " : "", g->dev[i].ordinal,
						 pciaddr_format(a, g->dev[i].pci_addr));
	}
	if (out_of_order)
		findings_add(&r->judged.findings, SEV_INFO, FC_ENV_CUDA_DEVICE_ORDER,
			     FINDING_NO_ADDR, FINDING_NO_ADDR,
			     "export CUDA_DEVICE_ORDER=PCI_BUS_ID so CUDA's numbers match nvidia-smi's",
			     "CUDA_DEVICE_ORDER is %s: CUDA numbers these GPUs fastest first (%s), not in PCI order as nvidia-smi does",
			     order ? order : "unset", map);
}

/*
 * The override of the driver's own IOMMU and ACS check: on a driver that
 * has the check it turns every refusal the topology explains into a yes;
 * on an older one it does nothing, and on one this run did not read the
 * tool cannot say which.
 */
static void acs_check_override(struct check_run *r, const char *value)
{
	const struct gpu_state *g = r->in.gpu;
	bool known = g && g->driver_version > 0;

	if (!gpu_acs_override_on(value))
		return;
	findings_add(&r->judged.findings,
		     known && !gpu_driver_checks_acs(g) ? SEV_INFO : SEV_WARNING,
		     FC_ENV_CUDA_ACS_CHECK_DISABLED, FINDING_NO_ADDR, FINDING_NO_ADDR,
		     "unset " GPU_CUDA_ACS_CHECK_OVERRIDE,
		     "%s=%s: %s",
		     GPU_CUDA_ACS_CHECK_OVERRIDE, value,
		     !known ? "CUDA 13.5 and later drivers then grant peer access without checking the IOMMU and ACS topology (this run did not read the driver's version): a yes to peer access is no evidence" :
		     gpu_driver_checks_acs(g) ? "this driver then grants peer access without checking the IOMMU and ACS topology: its yes to peer access is forced, no evidence" :
		     "no effect on this driver, older than CUDA 13.5 (which checks nothing of the topology anyway)");
}

void environ_judge(struct check_run *r, const struct environ_facts *e)
{
	const char *v;

	v = e->nccl_p2p_disable;
	if (v && *v && strcmp(v, "0"))
		findings_add(&r->judged.findings, SEV_INFO, FC_ENV_NCCL_P2P_DISABLE,
			     FINDING_NO_ADDR, FINDING_NO_ADDR, "unset NCCL_P2P_DISABLE",
			     "NCCL_P2P_DISABLE=%s: NCCL programs started from this environment use no P2P at all, whatever the paths allow",
			     v);
	v = e->nccl_p2p_level;
	if (v && *v)
		p2p_level(r, v);
	v = e->nccl_ignore_disabled_p2p;
	if (v && *v && strcmp(v, "0"))
		findings_add(&r->judged.findings, SEV_INFO, FC_ENV_NCCL_IGNORE_DISABLED_P2P,
			     FINDING_NO_ADDR, FINDING_NO_ADDR, NULL,
			     "NCCL_IGNORE_DISABLED_P2P=%s: NCCL %s",
			     v, !strcmp(v, "2") ? "skips NVML's P2P status check entirely: pairs NVML reports as not P2P-capable are still used" :
			     "stays quiet where NVML reports P2P disabled between connected GPUs (an NVLink pair with P2P disabled no longer stops it)");
	v = e->nccl_net_gdr_level;
	if (v && *v)
		findings_add(&r->judged.findings, SEV_INFO, FC_ENV_NCCL_NET_GDR_LEVEL,
			     FINDING_NO_ADDR, FINDING_NO_ADDR, NULL,
			     "NCCL_NET_GDR_LEVEL=%s: NCCL's GPUDirect RDMA distance rule uses it instead of PXB (the readiness above shows the default)",
			     v);
	v = e->cuda_visible_devices;
	if (v)
		findings_add(&r->judged.findings, SEV_INFO, FC_ENV_CUDA_VISIBLE_DEVICES,
			     FINDING_NO_ADDR, FINDING_NO_ADDR, NULL,
			     "CUDA_VISIBLE_DEVICES=%s: programs started from this environment (this run's CUDA side too) see only those GPUs, renumbered from 0",
			     v);
	device_order(r, e->cuda_device_order);
	acs_check_override(r, e->cuda_acs_check_override);
}
