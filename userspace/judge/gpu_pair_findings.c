// SPDX-License-Identifier: GPL-2.0
/*
 * Findings about each measured GPU pair: copies that hung or did not
 * verify, each figure against its expectation, and the copies against the
 * topology's verdict (fake P2P, hairpins, CUDA contradicting the topology).
 */
#include <stdio.h>

#include "gpu/gpu.h"

#include "judge/judge_priv.h"
#include "judge/judge_expect.h"
#include "judge/judge_validity.h"
#include "judge/results.h"
#include "p2pdiag/verdict.h"

static int says_peer_ok(const struct gpu_pair *gp)
{
	return (gp->cuda_valid && gp->can_access == 1) ||
	       (gp->nvml_valid && gp->p2p_read == P2P_STATUS_OK &&
		gp->p2p_write == P2P_STATUS_OK);
}

/* What the topology names as the reason a pair is not direct. */
static const char *topology_cause(const struct p2pd_pair *p)
{
	if (p->verdict == P2PD_VERDICT_BLOCKED && p->host_blocks)
		return "the host bridge does not route P2P";
	if (p->notes & (P2PD_NOTE_IOMMU_A | P2PD_NOTE_IOMMU_B))
		return "ACS redirects the traffic to the root complex, where the IOMMU translates it";
	return "ACS redirects the traffic to the root complex";
}

/*
 * A "yes" that GPU_CUDA_ACS_CHECK_OVERRIDE forced: no evidence for or
 * against the path, whatever the verdict.
 */
static void judge_forced(struct check_run *r, const struct p2pd_pair *p,
			 unsigned long long a, unsigned long long b, const char *fix)
{
	char fixes[FIX_LEN];
	bool direct = p->verdict == P2PD_VERDICT_OK ||
		      p->verdict == P2PD_VERDICT_HOST;

	snprintf(fixes, sizeof(fixes), "unset %s to let the driver judge the path%s%s",
		 GPU_CUDA_ACS_CHECK_OVERRIDE, direct || !fix ? "" : "; ",
		 direct || !fix ? "" : fix);
	bool iommu = !!(p->notes & (P2PD_NOTE_IOMMU_A | P2PD_NOTE_IOMMU_B));

	findings_add(&r->judged.findings,
		     p->verdict == P2PD_VERDICT_BLOCKED ? SEV_ERROR :
		     p->verdict != P2PD_VERDICT_REDIRECTED ? SEV_INFO :
		     iommu ? SEV_ERROR : SEV_WARNING,
		     FC_CUDA_PEER_FORCED, a, b, fixes,
		     "GPUs %s and %s: CUDA allows peer access only because %s=1 switches off its driver's IOMMU and ACS check: a forced yes, no evidence that P2P works; the topology says %s%s%s",
		     judge_addr_str(a), judge_addr_str(b), GPU_CUDA_ACS_CHECK_OVERRIDE,
		     p2pd_verdict_name(p->verdict), direct ? "" : ": ",
		     direct ? "" : topology_cause(p));
}

/* CUDA grants peer access in one direction of the pair only. */
static bool one_way(const struct gpu_pair *gp, const struct gpu_pair *rev)
{
	return rev && gp->cuda_valid && rev->cuda_valid &&
	       (gp->can_access == 1) != (rev->can_access == 1) &&
	       gp->can_access >= 0 && rev->can_access >= 0;
}

/*
 * cuDeviceCanAccessPeer(dev, peer) says whether dev may map peer's
 * memory: a "no" one way only is no path rule (PCIe routes both ways
 * alike) but where the firmware placed the refused peer's BARs, which
 * the other GPU's DMA cannot reach or the driver will not map.
 */
static void judge_one_way(struct check_run *r, const struct gpu_pair *gp,
			  const struct gpu_pair *rev)
{
	const struct gpu_pair *no = gp->can_access == 1 ? rev : gp;
	unsigned long long from = judge_gpu_addr(r, no->src);
	unsigned long long to = judge_gpu_addr(r, no->dst);
	char fix[FIX_LEN];

	snprintf(fix, sizeof(fix),
		 "compare where the firmware placed both GPUs' BARs (lspci -vv -s %s and -s %s: Region 1 and 3, BAR1 above 4 GiB or not) and the bridge windows above them; in the BIOS turn on Above 4G Decoding (and Re-Size BAR Support), or move the GPU to a slot whose MMIO window is placed like its peer's; update the BIOS",
		 judge_addr_str(from), judge_addr_str(to));
	findings_add(&r->judged.findings, SEV_WARNING, FC_PEER_ACCESS_ONE_WAY,
		     from, to, fix,
		     "GPUs %s -> %s: CUDA refuses GPU %s access to GPU %s's memory, yet grants the other direction: not the PCIe path (it routes both ways alike) but the placement of %s's memory windows (MMIO/BAR assignment by the firmware) or the driver's mapping of them",
		     judge_addr_str(from), judge_addr_str(to), judge_addr_str(from),
		     judge_addr_str(to), judge_addr_str(to));
}

/*
 * CUDA against the topology.  Drivers before GPU_CUDA_ACS_CHECK_VERSION
 * grant peer access without looking at ACS or the IOMMU, so a refusal
 * there has other causes; later ones check both, so a refusal on a path
 * the topology also rejects is agreement, and one on a direct path is the
 * driver's check judging differently from the kernel's rules.
 */
static void judge_contradiction(struct check_run *r, const struct gpu_pair *gp,
				const struct gpu_pair *rev, unsigned long long a,
				unsigned long long b)
{
	int pi = run_pair_index(r, run_gpu_function(r, (unsigned int)gp->src),
				  run_gpu_function(r, (unsigned int)gp->dst));
	const struct p2pd_pair *p;
	int can = (gp->cuda_valid && gp->can_access == 1) ||
		  (rev && rev->cuda_valid && rev->can_access == 1);
	int refuses = (gp->cuda_valid && gp->can_access == 0) ||
		      (rev && rev->cuda_valid && rev->can_access == 0);
	bool gate = gpu_driver_checks_acs(r->in.gpu);
	bool iommu;
	const char *fix;
	char fixes[FIX_LEN];

	if (pi < 0 || gp->nvlinks)	/* NVLink pairs are judged on NVLink */
		return;
	p = &r->judged.pair[pi];
	fix = judge_pair_fix_of(r, pi);
	iommu = !!(p->notes & (P2PD_NOTE_IOMMU_A | P2PD_NOTE_IOMMU_B));
	if (one_way(gp, rev) && p->verdict == P2PD_VERDICT_OK)
		return;		/* judge_one_way() names it */
	if (can && gpu_peer_access_forced(r->in.gpu)) {
		judge_forced(r, p, a, b, fix);
	} else if (can && p->verdict == P2PD_VERDICT_BLOCKED) {
		findings_add(&r->judged.findings, SEV_ERROR,
			     FC_CONTRADICTION_BLOCKED_BUT_CUDA_OK, a, b, fix,
			     "GPUs %s and %s: the topology says blocked (%s), yet CUDA allows peer access%s: P2P copies risk hangs and corrupt data",
			     judge_addr_str(a), judge_addr_str(b),
			     p->host_blocks ? "host bridge does not route P2P" : "ACS redirect",
			     gate ? ", its driver's own IOMMU and ACS check judging this path differently from the kernel's rules" : "");
	} else if (can && p->verdict == P2PD_VERDICT_REDIRECTED) {
		findings_add(&r->judged.findings, iommu ? SEV_ERROR : SEV_WARNING,
			     FC_CONTRADICTION_REDIRECTED_BUT_CUDA_OK, a, b, fix,
			     "GPUs %s and %s: ACS redirects their traffic to the root complex%s, yet CUDA allows peer access as if it went direct%s: expect low bandwidth%s",
			     judge_addr_str(a), judge_addr_str(b),
			     iommu ? " and through IOMMU translation" : "",
			     gate ? " (its driver checks IOMMU and ACS itself, and passed this path)" : "",
			     iommu ? ", hangs or corrupt data" : "");
	} else if (refuses && gate && (p->verdict == P2PD_VERDICT_REDIRECTED ||
					p->verdict == P2PD_VERDICT_BLOCKED)) {
		findings_add(&r->judged.findings, SEV_INFO, FC_CUDA_REFUSES_AS_TOPOLOGY,
			     a, b, fix,
			     "GPUs %s and %s: CUDA refuses peer access, agreeing with the topology: its driver (API %d) checks IOMMU and ACS itself, and the path is %s because %s",
			     judge_addr_str(a), judge_addr_str(b),
			     r->in.gpu->driver_version, p2pd_verdict_name(p->verdict),
			     topology_cause(p));
	} else if (refuses && gate && p->verdict == P2PD_VERDICT_OK) {
		snprintf(fixes, sizeof(fixes),
			 "to confirm that the driver's check refuses, run once with %s=1 (then CUDA allows the pair); compare the pair's IOMMU groups' mode%s and ACS on its path with what the driver accepts, and update the driver",
			 GPU_CUDA_ACS_CHECK_OVERRIDE,
			 iommu ? " (translated here: identity mode, iommu=pt, lets both agree)" : "");
		findings_add(&r->judged.findings, SEV_WARNING,
			     FC_CONTRADICTION_OK_BUT_CUDA_REFUSES, a, b, fixes,
			     "GPUs %s and %s: the topology allows direct P2P (%s), yet CUDA refuses peer access: its driver (API %d) checks IOMMU and ACS itself and rejects a path the kernel's rules find direct%s",
			     judge_addr_str(a), judge_addr_str(b), p2pd_class_name(p->cls),
			     r->in.gpu->driver_version,
			     iommu ? " (no ACS redirect on the path, but the IOMMU translates the pair's DMA: the kernel's rules do not count that against a direct path, and it is the likeliest reason for the refusal)" : " (no ACS redirect on the path and no IOMMU translation seen: the driver's rule for this platform is the suspect)");
	} else if (refuses && p->verdict == P2PD_VERDICT_OK) {
		findings_add(&r->judged.findings, SEV_WARNING,
			     FC_CONTRADICTION_OK_BUT_CUDA_REFUSES, a, b,
			     "check nvidia-smi topo -p2p r, the driver's P2P settings (GeForce cards and some VMs disable P2P) and NCCL_P2P_LEVEL",
			     "GPUs %s and %s: the topology allows direct P2P (%s), yet CUDA refuses peer access",
			     judge_addr_str(a), judge_addr_str(b), p2pd_class_name(p->cls));
	}
}

void judge_gpu_pair(struct check_run *r, unsigned int k)
{
	const struct gpu_state *st = r->in.gpu;
	const struct gpu_pair *gp = &st->pair[k];
	const struct judged_gpu_pair *jp = &r->judged.results->gpu_pair[k];
	const struct gpu_pair *rev = run_gpu_pair(st, gp->dst, gp->src);
	unsigned long long a = judge_gpu_addr(r, gp->src), b = judge_gpu_addr(r, gp->dst);
	char what[128], hint[TEXT_LEN], why[TEXT_LEN], why_fix[FIX_LEN];
	bool explained;
	const struct { const char *name; const struct gpu_figure *f; } figs[] = {
		{ "P2P copy", &gp->p2p },
		{ "P2P copy both ways", &gp->p2p_bidir },
		{ "host-staged copy", &gp->staged },
		{ "P2P latency copy", &gp->latency_p2p },
	};
	unsigned int i;
	int corrupt = 0;

	if (!jp->selected)
		return;
	if (gp->status == GPU_TIMEOUT &&
	    !(st->measure == GPU_TIMEOUT && st->stuck_pair >= 0 &&
	      &st->pair[st->stuck_pair] == gp)) {
		judge_topology_hint(r, run_gpu_function(r, (unsigned int)gp->src),
				    run_gpu_function(r, (unsigned int)gp->dst),
				    hint, sizeof(hint));
		findings_add(&r->judged.findings, SEV_ERROR, FC_COPY_TIMEOUT, a, b,
			     "check dmesg for IOMMU faults and Xids; remove the ACS redirect or the IOMMU translation on the pair's path",
			     "P2P copy %s -> %s did not finish before the deadline: %s",
			     judge_addr_str(a), judge_addr_str(b), hint);
	}
	for (i = 0; i < sizeof(figs) / sizeof(figs[0]); i++) {
		if (!judge_verify_failed(figs[i].f))
			continue;
		snprintf(what, sizeof(what), "%s %s -> %s", figs[i].name,
			 judge_addr_str(a), judge_addr_str(b));
		judge_corrupt(r, what, a, b, figs[i].f);
		if (i != 2)
			corrupt = 1;
	}
	if (says_peer_ok(gp) && corrupt)
		findings_add(&r->judged.findings, SEV_ERROR, FC_FAKE_P2P, a, b,
			     "treat P2P on this pair as broken: set NCCL_P2P_DISABLE=1 or fix the path (see the topology findings)",
			     "GPUs %s -> %s: CUDA/NVML report peer access, but P2P data does not arrive intact",
			     judge_addr_str(a), judge_addr_str(b));
	else if (says_peer_ok(gp) && gp->p2p.valid && gp->staged.valid &&
		 gp->p2p.median < JUDGE_FAKE_P2P_MARGIN * gp->staged.median)
		findings_add(&r->judged.findings, SEV_ERROR, FC_FAKE_P2P, a, b,
			     "the copies are staged through host memory or hairpinned through the root complex: remove the ACS redirect on the path (see the topology findings), check the IOMMU mode and the driver's P2P support",
			     "GPUs %s -> %s: CUDA/NVML report peer access, yet P2P %.1f GB/s is no faster than copying through host memory (%.1f GB/s)",
			     judge_addr_str(a), judge_addr_str(b), gp->p2p.median,
			     gp->staged.median);
	explained = judge_gpu_explained(r, (unsigned int)gp->src, false, why,
					sizeof(why), why_fix, sizeof(why_fix)) ||
		    judge_gpu_explained(r, (unsigned int)gp->dst, false, why,
					sizeof(why), why_fix, sizeof(why_fix));
	for (i = 0; i < JP_PAIR_FIGS; i++) {
		snprintf(what, sizeof(what), "%s %s -> %s", judge_pair_fig_name(i),
			 judge_addr_str(a), judge_addr_str(b));
		judge_figure(r, what, a, b, judge_pair_figure(gp, i), &jp->fig[i],
			     why, why_fix,
			     i == JP_LATENCY_P2P ? judge_figure_fix(JF_LATENCY_COPY) :
			     gp->nvlinks ? "check nvidia-smi nvlink -s and -e (link state and errors)" :
					   "check the links on the path under load and any ACS redirect on it");
	}
	if (gp->src < gp->dst && gp->p2p.valid && gp->p2p_bidir.valid &&
	    !gp->nvlinks && gp->p2p.median > 0 && !explained) {
		/* p2p_bidir is this direction's share while both ran */
		double total = gp->p2p_bidir.median +
			       (rev && rev->p2p_bidir.valid ?
				rev->p2p_bidir.median : gp->p2p_bidir.median);

		if (total <= JUDGE_HAIRPIN_MARGIN * gp->p2p.median)
			findings_add(&r->judged.findings, SEV_WARNING, FC_HAIRPIN, a, b,
				     "remove the ACS redirect on the pair's path (see the topology findings)",
				     "GPUs %s <-> %s: both directions at once move %.1f GB/s in all, no more than one direction alone (%.1f GB/s): the traffic crosses one link twice, the signature of redirection through the root complex",
				     judge_addr_str(a), judge_addr_str(b), total, gp->p2p.median);
	}
	if (gp->src < gp->dst && one_way(gp, rev))
		judge_one_way(r, gp, rev);
	if (gp->src < gp->dst || !rev)
		judge_contradiction(r, gp, rev, a, b);
}
