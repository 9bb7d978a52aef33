// SPDX-License-Identifier: GPL-2.0
/*
 * GPUDirect readiness: the pairs GPUDirect serves (an NVIDIA GPU with a
 * NIC or an NVMe drive), each handed to the RDMA or the Storage judge
 * (system_gpudirect_rdma.c, system_gpudirect_storage.c), which record
 * their preconditions as system/gpudirect_checks.h's checks, from the
 * facts system/gpudirect.c read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/judgement.h"
#include "judge/judge.h"
#include "judge/system_checks.h"
#include "judge/system_gpudirect.h"
#include "topology/pciaddr.h"
#include "system/function_facts.h"
#include "system/gpudirect.h"
#include "system/gpudirect_routes.h"
#include "p2pdiag/decode.h"
#include "p2pdiag/format.h"
#include "p2pdiag/verdict.h"

/* ats, pri and pasid of @f, exactly as their sysfs files read. */
static void read_translation(const struct p2pd_function *f,
			     struct gd_translation *t)
{
	p2pd_field_text(t->ats, sizeof(t->ats), f, P2PD_F_ATS);
	p2pd_field_text(t->pri, sizeof(t->pri), f, P2PD_F_PRI);
	p2pd_field_text(t->pasid, sizeof(t->pasid), f, P2PD_F_PASID);
}

/*
 * Pair @i's NVIDIA GPU and its peer, when the peer is a NIC or an NVMe
 * drive (the pairs GPUDirect RDMA and Storage serve); else false.
 */
static bool gpudirect_ends(const struct check_run *r, unsigned int i,
			   const struct p2pd_function **gpu,
			   const struct p2pd_function **peer)
{
	const struct p2pd_model *m = r->in.model;
	const struct p2pd_pair *p = &r->judged.pair[i];
	const struct p2pd_function *fa = &m->fn[p->a], *fb = &m->fn[p->b];
	enum p2pd_kind kind;

	*gpu = p2pd_is_nvidia_gpu(fa) ? fa : p2pd_is_nvidia_gpu(fb) ? fb : NULL;
	*peer = *gpu == fa ? fb : fa;
	kind = p2pd_device_kind((*peer)->class_code);
	return *gpu && (kind == P2PD_KIND_NIC || kind == P2PD_KIND_NVME);
}

static bool is_gpudirect_pair(const struct check_run *r, unsigned int i,
			      const void *unused)
{
	const struct p2pd_function *gpu, *peer;

	(void)unused;
	return gpudirect_ends(r, i, &gpu, &peer);
}

void gpudirect_judge(struct check_run *r, struct gpudirect *g,
		     const struct function_facts *facts)
{
	unsigned int *served = NULL, j;
	int nr_served = 0;

	g->pair = NULL;
	g->nr_pair = 0;
	if (r->in.model && facts && r->judged.nr_pairs)
		nr_served = run_select(r, r->judged.nr_pairs, is_gpudirect_pair, NULL,
				       &served);
	if (nr_served > 0)
		g->pair = calloc((size_t)nr_served, sizeof(*g->pair));
	for (j = 0; g->pair && j < (unsigned int)nr_served; j++) {
		const unsigned int i = served[j];
		const struct p2pd_function *gpu, *peer;
		const struct function_facts *pf;
		struct gd_pair *gp;

		gpudirect_ends(r, i, &gpu, &peer);
		pf = &facts[peer - r->in.model->fn];
		gp = &g->pair[g->nr_pair++];
		gp->gpu = gpu->addr;
		gp->peer = peer->addr;
		gp->pair = (int)i;
		gp->storage = p2pd_device_kind(peer->class_code) == P2PD_KIND_NVME;
		read_translation(gpu, &gp->gpu_translation);
		read_translation(peer, &gp->peer_translation);
		snprintf(gp->driver, sizeof(gp->driver), "%s", pf->driver);
		if (gp->storage) {
			gds_judge_pair(r, &g->facts, facts, gp, i);
		} else {
			snprintf(gp->rdma, sizeof(gp->rdma), "%s", pf->rdma);
			gdr_judge_pair(r, &g->facts, gp, i);
		}
	}
	free(served);
	if (nr_served < 0 || (nr_served > 0 && !g->pair))
		r->judged.findings.oom = true;
	gdr_findings(r, g, facts);
	gds_findings(r, g);
}
