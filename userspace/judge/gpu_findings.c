// SPDX-License-Identifier: GPL-2.0
/*
 * Findings from the GPU side: what CUDA and NVML said about themselves,
 * copies that hung, each GPU's figures against their expectation and
 * against identical GPUs, and each pair's copies against the topology's
 * verdict (fake P2P, hairpins, contradictions).
 */
#include <stdio.h>
#include <string.h>

#include "judge/judge_priv.h"
#include "judge/judge_expect.h"
#include "judge/judge_settings.h"
#include "judge/judge_validity.h"
#include "judge/results.h"
#include "p2pdiag/abi.h"
#include "p2pdiag/decode.h"

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

static int verify_failed(const struct gpu_figure *f)
{
	return f->verify != VERIFY_NOT_RUN && f->verify != VERIFY_OK;
}

static void status_finding(struct check_run *r, const char *lib,
			   enum gpu_status s)
{
	const char *err = r->gpu->error[0] ? r->gpu->error : "no detail";
	char code[FINDING_CODE_LEN];

	switch (s) {
	case GPU_OK:
	case GPU_SKIPPED:
	case GPU_BUSY:		/* reported as gpu-busy, naming the work */
	case GPU_TIMEOUT:	/* reported with the copy that hung */
		return;
	case GPU_NOT_BUILT:
		if (!strcmp(lib, "cuda"))
			findings_add(&r->findings, SEV_INFO, "cuda-not-built",
				     FINDING_NO_ADDR, FINDING_NO_ADDR,
				     "install the CUDA Toolkit (cuda.h) and rebuild for CUDA and NVML checks",
				     "built without CUDA support: topology only");
		return;
	case GPU_NO_LIBRARY:
		snprintf(code, sizeof(code), "%s-absent", lib);
		findings_add(&r->findings, SEV_INFO, code, FINDING_NO_ADDR,
			     FINDING_NO_ADDR, NULL,
			     "%s not found (no NVIDIA driver here): %s checks skipped",
			     !strcmp(lib, "cuda") ? "libcuda.so.1" : "libnvidia-ml.so.1",
			     !strcmp(lib, "cuda") ? "CUDA" : "NVML");
		return;
	case GPU_NO_SYMBOL:
		snprintf(code, sizeof(code), "%s-symbol-missing", lib);
		findings_add(&r->findings, SEV_WARNING, code, FINDING_NO_ADDR,
			     FINDING_NO_ADDR,
			     "update the NVIDIA driver: it is older than this tool expects",
			     "%s lacks an entry point: %s", lib, err);
		return;
	case GPU_INIT_FAILED:
		snprintf(code, sizeof(code), "%s-init-failed", lib);
		findings_add(&r->findings, SEV_WARNING, code, FINDING_NO_ADDR,
			     FINDING_NO_ADDR,
			     "check dmesg for NVRM/Xid messages and that the driver version matches the kernel module (nvidia-smi)",
			     "%s failed to initialise: %s", lib, err);
		return;
	case GPU_NO_DEVICE:
		if (!strcmp(lib, "cuda"))
			findings_add(&r->findings, SEV_INFO, "no-gpu",
				     FINDING_NO_ADDR, FINDING_NO_ADDR, NULL,
				     "CUDA sees no GPU: measurements skipped");
		return;
	case GPU_FAILED:
		snprintf(code, sizeof(code), "%s-failed", lib);
		findings_add(&r->findings, SEV_WARNING, code, FINDING_NO_ADDR,
			     FINDING_NO_ADDR, NULL, "%s call failed: %s", lib, err);
		return;
	}
}

static void corrupt_finding(struct check_run *r, const char *what,
			    unsigned int a, unsigned int b,
			    const struct gpu_figure *f)
{
	findings_add(&r->findings, SEV_ERROR, "data-corrupt", a, b,
		     "do not use P2P on this path until it verifies: see the topology findings for the pair (ACS redirect, IOMMU), and dmesg for IOMMU faults and Xids",
		     "%s: the copied data did not verify: %s", what,
		     verify_words(f->verify));
}

/* A sentence on what the topology says about a pair, for timeouts. */
static void topology_hint(const struct check_run *r, int fa, int fb,
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
	p = &r->pair[pi];
	text_add(&t, "the topology says %s", p2pd_verdict_name(p->verdict));
	if (p->nr_blockers) {
		text_add(&t, "; likely cause: ACS redirect on ");
		judge_describe_blockers(r->model, p, &t);
	}
	if (p->notes & (P2PD_NOTE_IOMMU_A | P2PD_NOTE_IOMMU_B))
		text_add(&t, "%s IOMMU translation", p->nr_blockers ? " with" : "; likely cause:");
	if (p->host_blocks)
		text_add(&t, "; the host bridge does not route P2P");
}

static unsigned int gpu_addr(const struct check_run *r, int g)
{
	return g >= 0 && (unsigned int)g < r->gpu->nr_dev ?
	       r->gpu->dev[g].pci_addr : FINDING_NO_ADDR;
}

static void judge_timeouts(struct check_run *r)
{
	const struct gpu_state *st = r->gpu;
	char hint[TEXT_LEN];

	if (st->measure == GPU_TIMEOUT) {
		unsigned int a = FINDING_NO_ADDR, b = FINDING_NO_ADDR;

		hint[0] = '\0';
		if (st->stuck_pair >= 0 && (unsigned int)st->stuck_pair < st->nr_pairs) {
			const struct gpu_pair *gp = &st->pair[st->stuck_pair];

			a = gpu_addr(r, gp->src);
			b = gpu_addr(r, gp->dst);
			topology_hint(r, run_gpu_function(r, (unsigned int)gp->src),
				      run_gpu_function(r, (unsigned int)gp->dst),
				      hint, sizeof(hint));
		} else if (st->stuck_dev >= 0) {
			a = gpu_addr(r, st->stuck_dev);
		}
		findings_add(&r->findings, SEV_ERROR, "copy-timeout", a, b,
			     "check dmesg for IOMMU faults and Xids; remove the ACS redirect or the IOMMU translation on the pair's path; the GPU may need a reset (nvidia-smi -r) or a reboot",
			     "the copy '%s' did not finish within %.0f s and the watchdog ended the run%s%s",
			     st->stuck_step[0] ? st->stuck_step : "?",
			     r->params.timeout_s,
			     hint[0] ? ": " : "", hint);
	} else if (st->measure == GPU_FAILED) {
		findings_add(&r->findings, SEV_WARNING, "measure-failed",
			     FINDING_NO_ADDR, FINDING_NO_ADDR, NULL,
			     "the measurements stopped early: %s%s%s",
			     st->error[0] ? st->error : "no detail",
			     st->stuck_step[0] ? " during " : "", st->stuck_step);
	}
}

/* GPUs of one model (same name) should move data equally fast. */
static void judge_siblings(struct check_run *r, int d2h)
{
	const struct gpu_state *st = r->gpu;
	double vals[GPU_MAX];
	unsigned int i, j, n;
	char why[TEXT_LEN], fix[FIX_LEN];

	for (i = 0; i < st->nr_dev; i++) {
		const struct gpu_figure *fi = d2h ? &st->dev[i].d2h : &st->dev[i].h2d;
		double median;

		if (!fi->valid || judge_gpu_explained(r, i, true, why,
						      sizeof(why), fix,
						      sizeof(fix)))
			continue;
		n = 0;
		for (j = 0; j < st->nr_dev; j++) {
			const struct gpu_figure *fj = d2h ? &st->dev[j].d2h :
							    &st->dev[j].h2d;

			if (!fj->valid || strcmp(st->dev[i].name, st->dev[j].name))
				continue;
			vals[n++] = fj->median;
		}
		if (n < 2)
			continue;
		median = gpu_median(vals, n);
		if (median > 0 && fi->median < JUDGE_SIBLING_MARGIN * median)
			findings_add(&r->findings, SEV_WARNING, "sibling-outlier",
				     st->dev[i].pci_addr, FINDING_NO_ADDR,
				     "compare its link (gen, width under load), NUMA placement and slot with the others; reseat or swap it",
				     "GPU %s (%s) %s %.1f GB/s is %.0f%% below the median %.1f GB/s of its %u identical GPUs",
				     judge_addr_str(st->dev[i].pci_addr), st->dev[i].name,
				     d2h ? "device to host" : "host to device",
				     fi->median, 100.0 * (1 - fi->median / median),
				     median, n);
	}
}

/* What to check for a figure nothing else explains. */
static const char *figure_fix(enum judge_dev_fig f)
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
static void judge_figure(struct check_run *r, const char *what, unsigned int a,
			 unsigned int b, const struct gpu_figure *fig,
			 const struct judged_figure *jf,
			 const char *why, const char *why_fix, const char *fix)
{
	const struct judge_expect *e = &jf->expect;
	const double ratio = jf->ratio;
	const bool explained = jf->explained;
	char code[FINDING_CODE_LEN];

	if (!jf->low)
		return;
	snprintf(code, sizeof(code), "%s%s", e->ceiling ? "latency-high" : "bw-low",
		 explained ? "-explained" : "");
	if (explained && e->ceiling)
		findings_add(&r->findings, SEV_INFO, code, a, b, why_fix,
			     "%s: %.1f us is above the %.1f us expected, explained by %s",
			     what, fig->median, e->value, why);
	else if (explained)
		findings_add(&r->findings, SEV_INFO, code, a, b, why_fix,
			     "%s: %.1f GB/s is %.2f of the %.1f GB/s expected, explained by %s",
			     what, fig->median, ratio, e->value, why);
	else if (e->ceiling)
		findings_add(&r->findings, SEV_WARNING, code, a, b, fix,
			     "%s: %.1f us is above the %.1f us expected (%s)",
			     what, fig->median, e->value, e->basis);
	else
		findings_add(&r->findings, SEV_WARNING, code, a, b, fix,
			     "%s: %.1f GB/s is %.2f of the %.1f GB/s expected (%s; below %.2f)",
			     what, fig->median, ratio, e->value, e->basis,
			     r->params.min_ratio);
}

static void judge_device(struct check_run *r, unsigned int g)
{
	const struct gpu_device *d = &r->gpu->dev[g];
	const struct judged_gpu *jg = &r->results->gpu[g];
	const unsigned int a = d->pci_addr;
	char why[TEXT_LEN], why_fix[FIX_LEN], lwhy[TEXT_LEN], lfix[FIX_LEN];
	unsigned int i;

	if (!jg->selected)
		return;
	/* the words for the figures that something else explains */
	judge_gpu_explained(r, g, true, why, sizeof(why), why_fix, sizeof(why_fix));
	/* no host memory in a device-local copy */
	judge_gpu_explained(r, g, false, lwhy, sizeof(lwhy), lfix, sizeof(lfix));
	if (run_gpu_function(r, g) == P2PD_NO_INDEX && r->model)
		findings_add(&r->findings, SEV_WARNING, "gpu-not-in-topology",
			     a, FINDING_NO_ADDR, NULL,
			     "CUDA GPU %d at %s is not in the PCI snapshot: its paths cannot be judged",
			     d->ordinal, judge_addr_str(a));
	for (i = 0; i < JF_DEV_FIGS; i++) {
		const struct gpu_figure *fig = judge_dev_figure(d, i);
		char what[128];

		snprintf(what, sizeof(what), "GPU %s %s", judge_addr_str(a),
			 judge_dev_fig_name(i));
		if (verify_failed(fig) && i < JF_LATENCY_COPY)
			corrupt_finding(r, what, a, FINDING_NO_ADDR, fig);
		judge_figure(r, what, a, FINDING_NO_ADDR, fig, &jg->fig[i],
			     i == JF_LOCAL ? lwhy : why,
			     i == JF_LOCAL ? lfix : why_fix, figure_fix(i));
	}
	if (d->link.valid && d->link.gen_load && d->link.width_load &&
	    ((d->link.max_gen && d->link.gen_load < d->link.max_gen) ||
	     (d->link.max_width && d->link.width_load < d->link.max_width)))
		findings_add(&r->findings, SEV_WARNING, "link-degraded", a,
			     FINDING_NO_ADDR,
			     "reseat the GPU; check the slot, riser and retimers, and the BIOS PCIe speed setting",
			     "GPU %s link under load: Gen%u x%u, capable of Gen%u x%u",
			     judge_addr_str(a), d->link.gen_load, d->link.width_load,
			     d->link.max_gen, d->link.max_width);
	if (d->before.valid && d->after.valid) {
		if (d->after.replay > d->before.replay)
			findings_add(&r->findings, SEV_WARNING, "pcie-replay", a,
				     FINDING_NO_ADDR,
				     "replays mean link errors: reseat, check the riser or retimer, look at AER messages in dmesg",
				     "GPU %s PCIe replay counter rose by %llu during the run",
				     judge_addr_str(a), d->after.replay - d->before.replay);
		if (d->after.ecc_uncorrected > d->before.ecc_uncorrected)
			findings_add(&r->findings, SEV_WARNING, "ecc-uncorrected",
				     a, FINDING_NO_ADDR,
				     "see nvidia-smi -q -d ECC,PAGE_RETIREMENT; the GPU may need a reset or service",
				     "GPU %s uncorrected ECC errors rose by %llu during the run",
				     judge_addr_str(a),
				     d->after.ecc_uncorrected - d->before.ecc_uncorrected);
		if (d->after.xid > d->before.xid)
			findings_add(&r->findings, SEV_WARNING, "xid", a,
				     FINDING_NO_ADDR,
				     "look up the Xid in dmesg (NVRM: Xid) and NVIDIA's Xid catalogue",
				     "GPU %s reported %llu Xid event(s) during the run",
				     judge_addr_str(a), d->after.xid - d->before.xid);
	}
}

static int says_peer_ok(const struct gpu_pair *gp)
{
	return (gp->cuda_valid && gp->can_access == 1) ||
	       (gp->nvml_valid && gp->p2p_read == P2P_STATUS_OK &&
		gp->p2p_write == P2P_STATUS_OK);
}

static void judge_contradiction(struct check_run *r, const struct gpu_pair *gp,
				const struct gpu_pair *rev, unsigned int a,
				unsigned int b)
{
	int pi = run_pair_index(r, run_gpu_function(r, (unsigned int)gp->src),
				  run_gpu_function(r, (unsigned int)gp->dst));
	const struct p2pd_pair *p;
	int can = (gp->cuda_valid && gp->can_access == 1) ||
		  (rev && rev->cuda_valid && rev->can_access == 1);
	int refuses = (gp->cuda_valid && gp->can_access == 0) ||
		      (rev && rev->cuda_valid && rev->can_access == 0);
	const char *fix;

	if (pi < 0 || gp->nvlinks)	/* NVLink pairs are judged on NVLink */
		return;
	p = &r->pair[pi];
	fix = judge_pair_fix_of(r, pi);
	if (can && p->verdict == P2PD_VERDICT_BLOCKED) {
		findings_add(&r->findings, SEV_ERROR,
			     "contradiction-blocked-but-cuda-ok", a, b, fix,
			     "GPUs %s and %s: the topology says blocked (%s), yet CUDA allows peer access: P2P copies risk hangs and corrupt data",
			     judge_addr_str(a), judge_addr_str(b),
			     p->host_blocks ? "host bridge does not route P2P" : "ACS redirect");
	} else if (can && p->verdict == P2PD_VERDICT_REDIRECTED) {
		int iommu = !!(p->notes & (P2PD_NOTE_IOMMU_A | P2PD_NOTE_IOMMU_B));

		findings_add(&r->findings, iommu ? SEV_ERROR : SEV_WARNING,
			     "contradiction-redirected-but-cuda-ok", a, b, fix,
			     "GPUs %s and %s: ACS redirects their traffic to the root complex%s, yet CUDA allows peer access as if it went direct: expect low bandwidth%s",
			     judge_addr_str(a), judge_addr_str(b),
			     iommu ? " and through IOMMU translation" : "",
			     iommu ? ", hangs or corrupt data" : "");
	} else if (refuses && p->verdict == P2PD_VERDICT_OK) {
		findings_add(&r->findings, SEV_WARNING,
			     "contradiction-ok-but-cuda-refuses", a, b,
			     "check nvidia-smi topo -p2p r, the driver's P2P settings (GeForce cards and some VMs disable P2P) and NCCL_P2P_LEVEL",
			     "GPUs %s and %s: the topology allows direct P2P (%s), yet CUDA refuses peer access",
			     judge_addr_str(a), judge_addr_str(b), p2pd_class_name(p->cls));
	}
}

static void judge_gpu_pair_one(struct check_run *r, unsigned int k)
{
	const struct gpu_state *st = r->gpu;
	const struct gpu_pair *gp = &st->pair[k];
	const struct judged_gpu_pair *jp = &r->results->gpu_pair[k];
	const struct gpu_pair *rev = run_gpu_pair(st, gp->dst, gp->src);
	unsigned int a = gpu_addr(r, gp->src), b = gpu_addr(r, gp->dst);
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
		topology_hint(r, run_gpu_function(r, (unsigned int)gp->src),
			      run_gpu_function(r, (unsigned int)gp->dst),
			      hint, sizeof(hint));
		findings_add(&r->findings, SEV_ERROR, "copy-timeout", a, b,
			     "check dmesg for IOMMU faults and Xids; remove the ACS redirect or the IOMMU translation on the pair's path",
			     "P2P copy %s -> %s did not finish before the deadline: %s",
			     judge_addr_str(a), judge_addr_str(b), hint);
	}
	for (i = 0; i < sizeof(figs) / sizeof(figs[0]); i++) {
		if (!verify_failed(figs[i].f))
			continue;
		snprintf(what, sizeof(what), "%s %s -> %s", figs[i].name,
			 judge_addr_str(a), judge_addr_str(b));
		corrupt_finding(r, what, a, b, figs[i].f);
		if (i != 2)
			corrupt = 1;
	}
	if (says_peer_ok(gp) && corrupt)
		findings_add(&r->findings, SEV_ERROR, "fake-p2p", a, b,
			     "treat P2P on this pair as broken: set NCCL_P2P_DISABLE=1 or fix the path (see the topology findings)",
			     "GPUs %s -> %s: CUDA/NVML report peer access, but P2P data does not arrive intact",
			     judge_addr_str(a), judge_addr_str(b));
	else if (says_peer_ok(gp) && gp->p2p.valid && gp->staged.valid &&
		 gp->p2p.median < JUDGE_FAKE_P2P_MARGIN * gp->staged.median)
		findings_add(&r->findings, SEV_ERROR, "fake-p2p", a, b,
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
			     i == JP_LATENCY_P2P ? figure_fix(JF_LATENCY_COPY) :
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
			findings_add(&r->findings, SEV_WARNING, "hairpin", a, b,
				     "remove the ACS redirect on the pair's path (see the topology findings)",
				     "GPUs %s <-> %s: both directions at once move %.1f GB/s in all, no more than one direction alone (%.1f GB/s): the traffic crosses one link twice, the signature of redirection through the root complex",
				     judge_addr_str(a), judge_addr_str(b), total, gp->p2p.median);
	}
	if (gp->src < gp->dst || !rev)
		judge_contradiction(r, gp, rev, a, b);
}

void judge_gpus(struct check_run *r)
{
	const struct gpu_state *st = r->gpu;
	unsigned int i;

	judge_figures(r);
	if (!st || !r->results || r->results->nr_gpu_pairs != (st->pair ? st->nr_pairs : 0))
		return;
	status_finding(r, "cuda", st->cuda);
	judge_validity(r);
	judge_settings(r);
	if (st->cuda != GPU_NOT_BUILT && st->cuda != GPU_SKIPPED)
		status_finding(r, "nvml", st->nvml);
	judge_timeouts(r);
	for (i = 0; i < st->nr_dev; i++)
		judge_device(r, i);
	judge_siblings(r, 0);
	judge_siblings(r, 1);
	for (i = 0; st->pair && i < st->nr_pairs; i++)
		judge_gpu_pair_one(r, i);
}
