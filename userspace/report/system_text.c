// SPDX-License-Identifier: GPL-2.0
/* The system sections of the human report. */
#include <stdio.h>
#include <string.h>

#include "judge/judgement.h"
#include "platform/fsroot.h"
#include "platform/safe_text.h"
#include "topology/pciaddr.h"
#include "report/system_output.h"
#include "system/system.h"
#include "p2pdiag/verdict.h"

static const char *state(enum tri t)
{
	return t == TRI_YES ? "ok" : t == TRI_NO ? "missing" : "unknown";
}

static void gpudirect_text(FILE *out, const struct check_run *r,
			   const struct gpudirect *g)
{
	char ga[P2PD_ADDR_STRLEN], pa[P2PD_ADDR_STRLEN];
	unsigned int i, c;

	if (!g->nr_pair && !g->nr_vmd)
		return;
	fprintf(out, "\nGPUDirect readiness\n");
	for (i = 0; i < g->nr_pair; i++) {
		const struct gd_pair *p = &g->pair[i];
		const struct p2pd_pair *pp = &r->judged.pair[p->pair];

		pciaddr_format(ga, p->gpu);
		pciaddr_format(pa, p->peer);
		if (p->storage)
			fprintf(out, "  GPU %s - NVMe %s (driver %s): storage route %s, %s\n"
				"    IOMMU: %s\n",
				ga, pa, p->driver[0] ? p->driver : "none", p->route,
				p->ready ? "ready" : "not ready", p->iommu);
		else
			fprintf(out, "  GPU %s - NIC %s (driver %s, RDMA device %s): RDMA route %s, %s\n",
				ga, pa, p->driver[0] ? p->driver : "none",
				p->rdma[0] ? p->rdma : "none", p->route,
				p->ready ? "ready" : "not ready");
		fprintf(out, "    ATS: GPU %s, PRI %s, PASID %s; %s %s, PRI %s, PASID %s\n",
			p->gpu_translation.ats, p->gpu_translation.pri,
			p->gpu_translation.pasid, p->storage ? "NVMe" : "NIC",
			p->peer_translation.ats, p->peer_translation.pri,
			p->peer_translation.pasid);
		if (!p->storage)
			fprintf(out, "    NCCL: GPUDirect RDMA %s (%s); P2P level %s\n",
				p->nccl_gdr ? "used" : "not used", p->nccl_why,
				pp->nccl_p2p ? "within" : "beyond");
		/* a route that exists: its own preconditions; none: every one */
		for (c = 0; c < p->nr_check; c++)
			if (!p->check[c].route || !strcmp(p->check[c].route, p->route) ||
			    !strcmp(p->route, "none") || !strcmp(p->route, "compat"))
				fprintf(out, "    %-8s %-20s %s\n", state(p->check[c].ok),
				p->check[c].name, p->check[c].evidence);
	}
	for (i = 0; i < g->nr_vmd; i++)
		fprintf(out, "  NVMe %s (%s) behind VMD %s: not in the PCIe model, no GPUDirect route\n",
			g->vmd[i].name, g->vmd[i].addr, g->vmd[i].vmd);
}

void system_output_text(FILE *out, const struct check_run *r)
{
	const struct system_report *s = r->in.system;

	if (!s)
		return;
	if (!s->read) {
		fprintf(out, "\nsystem: not read (a saved topology of another machine; --root DIR gives its files)\n");
		return;
	}
	/* the release and the hypervisor's name are read from that machine's files */
	fprintf(out, "\nsystem: files under ");
	safe_fputs(fsroot_get(r->in.root), out);
	fprintf(out, "; kernel ");
	safe_fputs(s->kernel.have_release ? s->kernel.release : "unknown", out);
	fprintf(out, "; %s", s->virt.guest ? "virtual machine, hypervisor " : "not a virtual machine");
	safe_fputs(s->virt.guest ? s->virt.hypervisor : "", out);
	fputc('\n', out);
	gpudirect_text(out, r, &s->gd);
}
