// SPDX-License-Identifier: GPL-2.0
/* The system checks' series in the node_exporter textfile. */
#include <stdio.h>

#include "judge/judgement.h"
#include "topology/pciaddr.h"
#include "report/system_output.h"
#include "system/system.h"

void system_output_prom(FILE *f, const struct check_run *r)
{
	const struct system_report *s = r->in.system;
	char ga[P2PD_ADDR_STRLEN], pa[P2PD_ADDR_STRLEN], gn[PCIADDR_NVML_STRLEN];
	const struct gpudirect *g;
	unsigned int i;

	if (!s || !s->read)
		return;
	for (i = 0; i < s->aer.nr && !s->aer.port[i].after.have; i++)
		;
	if (i < s->aer.nr)
		fprintf(f, "# HELP p2pdiag_aer_errors_total AER errors a function on a judged path has logged since boot\n"
			"# TYPE p2pdiag_aer_errors_total counter\n");
	for (i = 0; i < s->aer.nr; i++) {
		const struct aer_port *p = &s->aer.port[i];

		if (!p->after.have)
			continue;
		pciaddr_format(ga, p->addr);
		fprintf(f, "p2pdiag_aer_errors_total{dev=\"%s\",kind=\"correctable\"} %llu\n"
			"p2pdiag_aer_errors_total{dev=\"%s\",kind=\"nonfatal\"} %llu\n"
			"p2pdiag_aer_errors_total{dev=\"%s\",kind=\"fatal\"} %llu\n",
			ga, p->after.cor, ga, p->after.nonfatal, ga, p->after.fatal);
	}
	g = &s->gd;
	if (g->nr_pair)
		fprintf(f, "# HELP p2pdiag_gpudirect_ready 1 when the pair's GPUDirect route exists and every precondition holds\n"
			"# TYPE p2pdiag_gpudirect_ready gauge\n");
	for (i = 0; i < g->nr_pair; i++)
		fprintf(f, "p2pdiag_gpudirect_ready{pci_bus_id=\"%s\",peer=\"%s\",kind=\"%s\",route=\"%s\"} %d\n",
			pciaddr_format_nvml(gn, g->pair[i].gpu), pciaddr_format(pa, g->pair[i].peer),
			g->pair[i].storage ? "storage" : "rdma", g->pair[i].route,
			g->pair[i].ready);
	for (i = 0; i < g->nr_pair && g->pair[i].storage; i++)
		;
	if (i < g->nr_pair)
		fprintf(f, "# HELP p2pdiag_nccl_gdr 1 when NCCL would use GPUDirect RDMA for the GPU-NIC pair by its default rules\n"
			"# TYPE p2pdiag_nccl_gdr gauge\n");
	for (i = 0; i < g->nr_pair; i++)
		if (!g->pair[i].storage)
			fprintf(f, "p2pdiag_nccl_gdr{pci_bus_id=\"%s\",nic=\"%s\"} %d\n",
				pciaddr_format_nvml(gn, g->pair[i].gpu),
				pciaddr_format(pa, g->pair[i].peer), g->pair[i].nccl_gdr);
}
