// SPDX-License-Identifier: GPL-2.0
/*
 * GPUDirect Storage readiness of a GPU-NVMe pair.
 *
 * The routes: nvidia-fs, or the kernel's P2PDMA (kernel 6.2 or newer,
 * CONFIG_PCI_P2PDMA, p2pdma_pgmap_ops exported, the NVIDIA driver's
 * static BAR1 mapping, nvme_core multipath off); without either GDS runs
 * in compat mode through host memory while reporting success.  NVMe
 * drives behind an Intel VMD domain are named too: neither route reaches
 * them.
 */
#include <stdio.h>
#include <string.h>

#include "judge/judgement.h"
#include "judge/judge.h"
#include "judge/system_gpudirect.h"
#include "system/function_facts.h"
#include "system/gpudirect.h"
#include "system/gpudirect_checks.h"
#include "system/gpudirect_routes.h"
#include "p2pdiag/decode.h"
#include "p2pdiag/format.h"
#include "p2pdiag/verdict.h"

static const char *evidence_of(const struct gd_pair *p, const char *name)
{
	unsigned int c;

	for (c = 0; c < p->nr_check; c++)
		if (!strcmp(p->check[c].name, name))
			return p->check[c].evidence;
	return "";
}

void gds_judge_pair(const struct check_run *r, const struct gpudirect_facts *f,
		    const struct function_facts *facts, struct gd_pair *g,
		    unsigned int pi)
{
	const struct p2pd_pair *p = &r->judged.pair[pi];
	const struct function_facts *fg = &facts[p2pd_model_find(r->in.model, g->gpu)];
	const struct function_facts *fn = &facts[p2pd_model_find(r->in.model, g->peer)];
	const char *ig = fg->iommu_mode, *in = fn->iommu_mode;
	bool p2pdma, tg = fg->iommu_translated, tn = fn->iommu_translated;

	gd_check_add(g, "nvidia-fs", "nvidia-fs", f->nvfs_loaded ? TRI_YES : TRI_NO,
		     f->nvfs_loaded ? "nvidia_fs %s%s%s" : "no /sys/module/nvidia_fs%s%s%s",
		     f->nvfs_version, f->nvfs_driver[0] ? ", stats: " : "", f->nvfs_driver);
	snprintf(g->iommu, sizeof(g->iommu), "GPU %s, NVMe %s", ig, in);
	gd_check_add(g, "nvidia-fs", "iommu", tg || tn ? TRI_NO : TRI_YES, "%s", g->iommu);
	gd_check_add(g, "p2pdma", "kernel-6.2", f->p2pdma_release, "P2PDMA needs 6.2+: %s",
		     tri_name(f->p2pdma_release));
	gd_check_add(g, "p2pdma", "config-pci-p2pdma", f->p2pdma_config, "CONFIG_PCI_P2PDMA: %s",
		     tri_name(f->p2pdma_config));
	gd_check_add(g, "p2pdma", "p2pdma-pgmap-ops", f->p2pdma_ops, "p2pdma_pgmap_ops in /proc/kallsyms: %s",
		     tri_name(f->p2pdma_ops));
	gd_check_add(g, "p2pdma", "static-bar1", f->static_bar1, "NVIDIA RMForceStaticBar1=1: %s",
		     f->flavour == NVIDIA_ABSENT ? "no nvidia module" : tri_name(f->static_bar1));
	gd_check_add(g, "p2pdma", "nvme-multipath-off", f->multipath_off, "nvme_core multipath=N: %s",
		     tri_name(f->multipath_off));
	gd_path_check(g, p);
	p2pdma = f->p2pdma_release == TRI_YES && f->p2pdma_config == TRI_YES &&
		 f->p2pdma_ops == TRI_YES && f->static_bar1 == TRI_YES &&
		 f->multipath_off == TRI_YES && p->verdict != P2PD_VERDICT_BLOCKED;
	g->route = f->nvfs_loaded ? "nvidia-fs" : p2pdma ? "p2pdma" : "compat";
	/* nvidia-fs wants the IOMMU off or in pass-through for both ends */
	g->ready = p2pdma || (f->nvfs_loaded && !tg && !tn &&
			      p->verdict != P2PD_VERDICT_BLOCKED);
	g->nccl_gdr = -1;
}

/* The name (@names) or fix of each failed P2PDMA precondition, joined. */
static void p2pdma_fix(const struct gd_pair *p, bool names, char *buf, size_t len)
{
	static const struct { const char *name, *fix; } fixes[] = {
		{ "kernel-6.2", "a kernel 6.2 or newer" },
		{ "config-pci-p2pdma", "a kernel built with CONFIG_PCI_P2PDMA=y" },
		{ "p2pdma-pgmap-ops", "a kernel that exports p2pdma_pgmap_ops (6.2+ with CONFIG_PCI_P2PDMA)" },
		{ "static-bar1", "`options nvidia NVreg_RegistryDwords=\"RMForceStaticBar1=1\"` in /etc/modprobe.d, then rebuild the initramfs and reboot" },
		{ "nvme-multipath-off", "`nvme_core.multipath=N` on the kernel command line (or `options nvme_core multipath=N`)" },
	};
	size_t used = 0, i, c;

	buf[0] = '\0';
	for (i = 0; i < sizeof(fixes) / sizeof(fixes[0]); i++)
		for (c = 0; c < p->nr_check; c++)
			if (!strcmp(p->check[c].name, fixes[i].name) &&
			    p->check[c].ok != TRI_YES && used < len)
				used += (size_t)snprintf(buf + used, len - used, "%s%s",
							 used ? "; " : "",
							 names ? fixes[i].name : fixes[i].fix);
}

void gds_findings(struct check_run *r, const struct gpudirect *g)
{
	const struct gpudirect_facts *f = &g->facts;
	char ga[P2PD_ADDR_STRLEN], na[P2PD_ADDR_STRLEN], fix[1024], lack[256];
	bool said_compat = false;
	unsigned int i;

	for (i = 0; i < g->nr_pair; i++) {
		const struct gd_pair *p = &g->pair[i];

		if (!p->storage)
			continue;
		if (!strcmp(p->route, "nvidia-fs") && !p->ready)
			findings_add(&r->judged.findings, SEV_WARNING, FC_GDS_IOMMU_TRANSLATED,
				     p->gpu, p->peer,
				     "boot with iommu=pt (or the IOMMU off) so both groups get an identity domain",
				     "GPUDirect Storage through nvidia-fs between GPU %s and NVMe %s needs the IOMMU off or in pass-through, but %s",
				     gd_addr_text(p->gpu, ga), gd_addr_text(p->peer, na),
				     evidence_of(p, "iommu"));
		/* GDS is NVIDIA's: without the nvidia module there is nothing to say */
		if (!strcmp(p->route, "compat") && !said_compat &&
		    f->flavour != NVIDIA_ABSENT) {
			/* tried, if the static BAR1 setting is there */
			bool tried = f->static_bar1 == TRI_YES;

			said_compat = true;
			p2pdma_fix(p, false, fix, sizeof(fix));
			p2pdma_fix(p, true, lack, sizeof(lack));
			findings_add(&r->judged.findings, tried ? SEV_WARNING : SEV_INFO,
				     FC_GDS_COMPAT_MODE, p->gpu, p->peer,
				     fix,
				     "GPUDirect Storage would run in compat mode (through host memory, while gdscheck still reports success): no nvidia-fs module, and the kernel P2PDMA route lacks %s",
				     lack[0] ? lack : "a path the kernel can map");
		}
	}
	for (i = 0; i < g->nr_vmd; i++)
		findings_add(&r->judged.findings, SEV_INFO, FC_NVME_BEHIND_VMD,
			     FINDING_NO_ADDR, FINDING_NO_ADDR,
			     "turn Intel VMD (Volume Management Device) off for these NVMe ports in the firmware setup, or move the drive to a slot outside VMD",
			     "NVMe %s (%s) sits behind the VMD controller %s: VMD remaps it into PCI domain %.*s, a root bus of its own where no GPU sits (its pairs are judged by both host bridges, as the kernel does); neither P2PDMA nor GPUDirect Storage reaches it",
			     g->vmd[i].name, g->vmd[i].addr, g->vmd[i].vmd,
			     (int)strcspn(g->vmd[i].addr, ":"), g->vmd[i].addr);
}
