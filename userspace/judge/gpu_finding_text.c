// SPDX-License-Identifier: GPL-2.0
/*
 * How the GPU findings say what both the devices' (gpu_device_findings.c)
 * and the pairs' (gpu_pair_findings.c) say: a low figure against its
 * expectation, data that did not verify, a GPU's address, and what the
 * topology says about a pair whose copy hung.  It calls neither of them.
 */
#include <stdio.h>

#include "judge/judge_priv.h"
#include "judge/judge_expect.h"
#include "judge/results.h"
#include "p2pdiag/verdict.h"

static const char *verify_words(enum gpu_verify v)
{
	switch (v) {
	case VERIFY_ZEROS:
		return "zeros arrived: the writes were dropped";
	case VERIFY_ONES:
		return "all ones arrived: the requests ended as unsupported requests";
	case VERIFY_STALE:
		return "an older pattern arrived: stale data";
	case VERIFY_PARTIAL:
		return "part of the data is wrong";
	default:
		return "";
	}
}

int judge_verify_failed(const struct gpu_figure *f)
{
	return f->verify != VERIFY_NOT_RUN && f->verify != VERIFY_OK;
}

void judge_corrupt(struct check_run *r, const char *what,
		   unsigned long long a, unsigned long long b,
		   const struct gpu_figure *f)
{
	findings_add(&r->judged.findings, SEV_ERROR, FC_DATA_CORRUPT, a, b,
		     "do not use P2P on this path until it verifies: see the topology findings for the pair (ACS redirect, IOMMU), and dmesg for IOMMU faults and Xids",
		     "%s: the copied data did not verify: %s", what,
		     verify_words(f->verify));
}

unsigned long long judge_gpu_addr(const struct check_run *r, int g)
{
	return g >= 0 && (unsigned int)g < r->in.gpu->nr_dev ?
	       r->in.gpu->dev[g].pci_addr : FINDING_NO_ADDR;
}

/* What to check for a figure nothing else explains. */
const char *judge_figure_fix(enum judge_dev_fig f)
{
	switch (f) {
	case JF_LOCAL:
		return "check the clocks and why they were held (nvidia-smi -q -d CLOCK,PERFORMANCE) and the memory's state (nvidia-smi -q -d ECC,ROW_REMAPPER)";
	case JF_LATENCY_COPY:
	case JF_LATENCY_CHASE:
		return "look for other work on the GPU and for host power states that delay wake-up (CPU C-states, the ASPM policy under the settings)";
	default:
		return "check the link under load (gen, width), the GPU's NUMA node and that host buffers are pinned there";
	}
}

/*
 * One figure against its expectation: low and explained by something else
 * is said as such, with that fix; low and unexplained blames the path.
 */
void judge_figure(struct check_run *r, const char *what, unsigned long long a,
		  unsigned long long b, const struct gpu_figure *fig,
		  const struct judged_figure *jf,
		  const char *why, const char *why_fix, const char *fix)
{
	const struct judge_expect *e = &jf->expect;
	const double ratio = jf->ratio;
	const bool explained = jf->explained;

	if (!jf->low)
		return;
	if (explained && e->ceiling)
		findings_add(&r->judged.findings, SEV_INFO, FC_LATENCY_HIGH_EXPLAINED, a, b,
			     why_fix,
			     "%s: %.1f us is above the %.1f us expected, explained by %s",
			     what, fig->median, e->value, why);
	else if (explained)
		findings_add(&r->judged.findings, SEV_INFO, FC_BW_LOW_EXPLAINED, a, b, why_fix,
			     "%s: %.1f GB/s is %.2f of the %.1f GB/s expected, explained by %s",
			     what, fig->median, ratio, e->value, why);
	else if (e->ceiling)
		findings_add(&r->judged.findings, SEV_WARNING, FC_LATENCY_HIGH, a, b, fix,
			     "%s: %.1f us is above the %.1f us expected (%s)",
			     what, fig->median, e->value, e->basis);
	else
		findings_add(&r->judged.findings, SEV_WARNING, FC_BW_LOW, a, b, fix,
			     "%s: %.1f GB/s is %.2f of the %.1f GB/s expected (%s; below %.2f)",
			     what, fig->median, ratio, e->value, e->basis,
			     r->in.params.min_ratio);
}

/* A sentence on what the topology says about a pair, for timeouts. */
void judge_topology_hint(const struct check_run *r, int fa, int fb,
			 char *buf, size_t len)
{
	int pi = run_pair_index(r, fa, fb);
	const struct p2pd_pair *p;
	struct text t = { buf, len, 0 };

	buf[0] = '\0';
	if (pi < 0) {
		text_add(&t, "likely cause: ACS redirect or the IOMMU (no topology verdict for the pair)");
		return;
	}
	p = &r->judged.pair[pi];
	text_add(&t, "the topology says %s", p2pd_verdict_name(p->verdict));
	if (p->nr_blockers) {
		text_add(&t, "; likely cause: ACS redirect on ");
		judge_describe_blockers(r->in.model, p, &t);
	}
	if (p->notes & (P2PD_NOTE_IOMMU_A | P2PD_NOTE_IOMMU_B))
		text_add(&t, "%s IOMMU translation", p->nr_blockers ? " with" : "; likely cause:");
	if (p->host_blocks)
		text_add(&t, "; the host bridge does not route P2P");
}
