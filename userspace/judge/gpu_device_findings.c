// SPDX-License-Identifier: GPL-2.0
/*
 * Findings about each GPU and the run that measured them: what CUDA and
 * NVML said about themselves, copies that hung, each GPU's figures against
 * their expectation and against identical GPUs, its link under load and
 * its error counters during the run.  judge_gpus() runs these and the
 * pairs' (gpu_pair_findings.c), which say a low figure or corrupt data the
 * same way (gpu_finding_text.c).
 */
#include <stdio.h>
#include <string.h>

#include "judge/bar1_window.h"
#include "findings/finding_registry.h"
#include "judge/judge_priv.h"
#include "judge/judge_expect.h"
#include "judge/judge_settings.h"
#include "judge/judge_validity.h"
#include "judge/nccl_link.h"
#include "judge/results.h"

/*
 * A CUDA or NVML call that never returned: the driver is wedged, and what
 * the run would have said about the GPUs was never seen.  The finding
 * names the call, the GPU or pair it was about when known, and the
 * kernel log's last Xid, which says what wedged it.
 */
static void driver_hung(struct check_run *r, const char *lib)
{
	const struct gpu_state *st = r->in.gpu;
	unsigned long long a = FINDING_NO_ADDR, b = FINDING_NO_ADDR;
	char log[sizeof(st->kernel_xid) + sizeof(st->kernel_log_error) + 48];
	char about[2 * P2PD_ADDR_STRLEN + 32] = "";

	if (st->stuck_pair >= 0 && st->pair &&
	    (unsigned int)st->stuck_pair < st->nr_pairs) {
		a = judge_gpu_addr(r, st->pair[st->stuck_pair].src);
		b = judge_gpu_addr(r, st->pair[st->stuck_pair].dst);
	} else if (st->stuck_dev >= 0) {
		a = judge_gpu_addr(r, st->stuck_dev);
	}
	if (a != FINDING_NO_ADDR && b != FINDING_NO_ADDR)
		snprintf(about, sizeof(about), " (GPU %s -> %s)",
			 judge_addr_str(a), judge_addr_str(b));
	else if (a != FINDING_NO_ADDR)
		snprintf(about, sizeof(about), " (GPU %s)", judge_addr_str(a));
	if (st->kernel_xid[0])
		snprintf(log, sizeof(log), "; the kernel log's last Xid: %s",
			 st->kernel_xid);
	else if (st->kernel_log_error[0])
		snprintf(log, sizeof(log), "; no Xid known (%s)",
			 st->kernel_log_error);
	else
		snprintf(log, sizeof(log), "; the kernel log has no NVIDIA Xid");
	if (st->deadline_hit) {
		char fix[FIX_LEN];

		/* a deadline cut it short: slow and hung look the same */
		snprintf(fix, sizeof(fix),
			 "%s did not return before the run's deadline: rerun with a longer --deadline to tell a slow driver from a hung one; if it never returns, reset the GPUs (nvidia-smi -r) or reboot",
			 st->stuck_step[0] ? st->stuck_step : "a driver call");
		findings_add(&r->judged.findings, SEV_ERROR, FC_CHECK_TIMED_OUT, a, b,
			     fix, "%s did not answer in time, so nothing about the GPUs is known: %s%s%s",
			     !strcmp(lib, "cuda") ? "the CUDA driver (libcuda.so.1)" :
						    "NVML (libnvidia-ml.so.1)",
			     st->error[0] ? st->error : "a call did not return",
			     about, log);
		return;
	}
	findings_add(&r->judged.findings, SEV_ERROR, FC_GPU_DRIVER_HUNG, a, b,
		     "the driver is wedged: no GPU job can run here until the GPUs are reset (nvidia-smi -r) or the node reboots; the Xid in dmesg (NVRM: Xid) says why, and lspci shows a GPU fallen off the bus",
		     "%s did not answer, so nothing about the GPUs is known: %s%s%s",
		     !strcmp(lib, "cuda") ? "the CUDA driver (libcuda.so.1)" :
					    "NVML (libnvidia-ml.so.1)",
		     st->error[0] ? st->error : "a call did not return", about,
		     log);
}

static void status_finding(struct check_run *r, const char *lib,
			   enum gpu_status s)
{
	const char *err = r->in.gpu->error[0] ? r->in.gpu->error : "no detail";
	bool cuda = !strcmp(lib, "cuda");

	switch (s) {
	case GPU_OK:
	case GPU_SKIPPED:
	case GPU_BUSY:		/* reported as gpu-busy, naming the work */
		return;
	case GPU_TIMEOUT:
		driver_hung(r, lib);
		return;
	case GPU_NOT_BUILT:
		if (cuda)
			findings_add(&r->judged.findings, SEV_INFO, FC_CUDA_NOT_BUILT,
				     FINDING_NO_ADDR, FINDING_NO_ADDR,
				     "install the CUDA Toolkit (cuda.h) and rebuild for CUDA and NVML checks",
				     "built without CUDA support: topology only");
		return;
	case GPU_NO_LIBRARY:
		findings_add(&r->judged.findings, SEV_INFO,
			     cuda ? FC_CUDA_ABSENT : FC_NVML_ABSENT,
			     FINDING_NO_ADDR, FINDING_NO_ADDR, NULL,
			     "%s not found (no NVIDIA driver here): %s checks skipped",
			     cuda ? "libcuda.so.1" : "libnvidia-ml.so.1",
			     cuda ? "CUDA" : "NVML");
		return;
	case GPU_NO_SYMBOL:
		findings_add(&r->judged.findings, SEV_WARNING,
			     cuda ? FC_CUDA_SYMBOL_MISSING : FC_NVML_SYMBOL_MISSING,
			     FINDING_NO_ADDR, FINDING_NO_ADDR,
			     "update the NVIDIA driver: it is older than this tool expects",
			     "%s lacks an entry point: %s", lib, err);
		return;
	case GPU_INIT_FAILED:
		findings_add(&r->judged.findings, SEV_WARNING,
			     cuda ? FC_CUDA_INIT_FAILED : FC_NVML_INIT_FAILED,
			     FINDING_NO_ADDR, FINDING_NO_ADDR,
			     "check dmesg for NVRM/Xid messages and that the driver version matches the kernel module (nvidia-smi)",
			     "%s failed to initialise: %s", lib, err);
		return;
	case GPU_NO_DEVICE:
		if (cuda)
			findings_add(&r->judged.findings, SEV_INFO, FC_NO_GPU,
				     FINDING_NO_ADDR, FINDING_NO_ADDR, NULL,
				     "CUDA sees no GPU: measurements skipped");
		return;
	case GPU_FAILED:
		findings_add(&r->judged.findings, SEV_WARNING,
			     cuda ? FC_CUDA_FAILED : FC_NVML_FAILED,
			     FINDING_NO_ADDR, FINDING_NO_ADDR, NULL, "%s call failed: %s", lib, err);
		return;
	}
}

static void judge_timeouts(struct check_run *r)
{
	const struct gpu_state *st = r->in.gpu;
	char hint[TEXT_LEN];

	if (st->measure == GPU_TIMEOUT) {
		unsigned long long a = FINDING_NO_ADDR, b = FINDING_NO_ADDR;

		hint[0] = '\0';
		if (st->stuck_pair >= 0 && (unsigned int)st->stuck_pair < st->nr_pairs) {
			const struct gpu_pair *gp = &st->pair[st->stuck_pair];

			a = judge_gpu_addr(r, gp->src);
			b = judge_gpu_addr(r, gp->dst);
			judge_topology_hint(r, run_gpu_function(r, (unsigned int)gp->src),
					    run_gpu_function(r, (unsigned int)gp->dst),
					    hint, sizeof(hint));
		} else if (st->stuck_dev >= 0) {
			a = judge_gpu_addr(r, st->stuck_dev);
		}
		if (st->deadline_hit)
			findings_add(&r->judged.findings, SEV_ERROR, FC_CHECK_TIMED_OUT, a, b,
				     "check dmesg for IOMMU faults and Xids; give the run more time (--deadline) to tell a slow copy from a hung one",
				     "check timed out: the run's deadline came before the copy '%s' finished%s%s%s%s",
				     st->stuck_step[0] ? st->stuck_step : "(none started)",
				     st->kernel_xid[0] ? "; the kernel log's last Xid: " : "",
				     st->kernel_xid, hint[0] ? ": " : "", hint);
		else
			findings_add(&r->judged.findings, SEV_ERROR, FC_COPY_TIMEOUT, a, b,
				     "check dmesg for IOMMU faults and Xids; remove the ACS redirect or the IOMMU translation on the pair's path; the GPU may need a reset (nvidia-smi -r) or a reboot",
				     "the copy '%s' did not finish within %.0f s and the watchdog ended the run%s%s%s%s",
				     st->stuck_step[0] ? st->stuck_step : "?",
				     r->in.params.timeout_s,
				     st->kernel_xid[0] ? "; the kernel log's last Xid: " : "",
				     st->kernel_xid, hint[0] ? ": " : "", hint);
	} else if (st->measure == GPU_FAILED) {
		findings_add(&r->judged.findings, SEV_WARNING, FC_MEASURE_FAILED,
			     FINDING_NO_ADDR, FINDING_NO_ADDR, FINDING_NO_FIX,
			     "the measurements stopped early: %s%s%s",
			     st->error[0] ? st->error : "no detail",
			     st->stuck_step[0] ? " during " : "", st->stuck_step);
	}
	/* after the last figure: the figures stand, the driver misbehaved */
	if (st->teardown_error[0])
		findings_add(&r->judged.findings, SEV_WARNING, FC_TEARDOWN_FAILED,
			     FINDING_NO_ADDR, FINDING_NO_ADDR,
			     "check dmesg for Xid errors around the run; if it repeats, reset the GPUs (nvidia-smi -r) or update the driver",
			     "the measurements finished, but tearing them down failed: %s (every figure was measured; they stand)",
			     st->teardown_error);
}

/* GPUs of one model (same name) should move data equally fast. */
static void judge_siblings(struct check_run *r, int d2h)
{
	const struct gpu_state *st = r->in.gpu;
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
			findings_add(&r->judged.findings, SEV_WARNING, FC_SIBLING_OUTLIER,
				     st->dev[i].pci_addr, FINDING_NO_ADDR,
				     "compare its link (gen, width under load), NUMA placement and slot with the others; reseat or swap it",
				     "GPU %s (%s) %s %.1f GB/s is %.0f%% below the median %.1f GB/s of its %u identical GPUs",
				     judge_addr_str(st->dev[i].pci_addr), st->dev[i].name,
				     d2h ? "device to host" : "host to device",
				     fi->median, 100.0 * (1 - fi->median / median),
				     median, n);
	}
}

static void judge_device(struct check_run *r, unsigned int g)
{
	const struct gpu_device *d = &r->in.gpu->dev[g];
	const struct judged_gpu *jg = &r->judged.results->gpu[g];
	const unsigned long long a = d->pci_addr;
	char why[TEXT_LEN], why_fix[FIX_LEN], lwhy[TEXT_LEN], lfix[FIX_LEN];
	unsigned int i;

	if (!jg->selected)
		return;
	/* the words for the figures that something else explains */
	judge_gpu_explained(r, g, true, why, sizeof(why), why_fix, sizeof(why_fix));
	/* no host memory in a device-local copy */
	judge_gpu_explained(r, g, false, lwhy, sizeof(lwhy), lfix, sizeof(lfix));
	if (run_gpu_function(r, g) == P2PD_NO_INDEX && r->in.model)
		findings_add(&r->judged.findings, SEV_WARNING, FC_GPU_NOT_IN_TOPOLOGY,
			     a, FINDING_NO_ADDR, FINDING_NO_FIX,
			     "CUDA GPU %d at %s is not in the PCI snapshot: its paths cannot be judged",
			     d->ordinal, judge_addr_str(a));
	for (i = 0; i < JF_DEV_FIGS; i++) {
		const struct gpu_figure *fig = judge_dev_figure(d, i);
		char what[128];

		snprintf(what, sizeof(what), "GPU %s %s", judge_addr_str(a),
			 judge_dev_fig_name(i));
		if (judge_verify_failed(fig) && i < JF_LATENCY_COPY)
			judge_corrupt(r, what, a, FINDING_NO_ADDR, fig);
		judge_figure(r, what, a, FINDING_NO_ADDR, fig, &jg->fig[i],
			     i == JF_LOCAL ? lwhy : why,
			     i == JF_LOCAL ? lfix : why_fix, judge_figure_fix(i));
	}
	if (d->link.valid && d->link.gen_load && d->link.width_load &&
	    ((d->link.max_gen && d->link.gen_load < d->link.max_gen) ||
	     (d->link.max_width && d->link.width_load < d->link.max_width)))
		findings_add(&r->judged.findings, SEV_WARNING, FC_LINK_DEGRADED, a,
			     FINDING_NO_ADDR, NULL,
			     "GPU %s link under load: Gen%u x%u, capable of Gen%u x%u",
			     judge_addr_str(a), d->link.gen_load, d->link.width_load,
			     d->link.max_gen, d->link.max_width);
	if (d->before.valid && d->after.valid) {
		if (d->after.replay > d->before.replay)
			findings_add(&r->judged.findings, SEV_WARNING, FC_PCIE_REPLAY, a,
				     FINDING_NO_ADDR,
				     "replays mean link errors: reseat, check the riser or retimer, look at AER messages in dmesg",
				     "GPU %s PCIe replay counter rose by %llu during the run",
				     judge_addr_str(a), d->after.replay - d->before.replay);
		if (d->after.ecc_uncorrected > d->before.ecc_uncorrected)
			findings_add(&r->judged.findings, SEV_WARNING, FC_ECC_UNCORRECTED,
				     a, FINDING_NO_ADDR,
				     "see nvidia-smi -q -d ECC,PAGE_RETIREMENT; the GPU may need a reset or service",
				     "GPU %s uncorrected ECC errors rose by %llu during the run",
				     judge_addr_str(a),
				     d->after.ecc_uncorrected - d->before.ecc_uncorrected);
		if (d->after.xid > d->before.xid)
			findings_add(&r->judged.findings, SEV_WARNING, FC_XID, a,
				     FINDING_NO_ADDR,
				     "look up the Xid in dmesg (NVRM: Xid) and NVIDIA's Xid catalogue",
				     "GPU %s reported %llu Xid event(s) during the run",
				     judge_addr_str(a), d->after.xid - d->before.xid);
	}
}

void judge_gpus(struct check_run *r)
{
	const struct gpu_state *st = r->in.gpu;
	unsigned int i;

	judge_figures(r);
	if (!st || !r->judged.results ||
	    r->judged.results->nr_gpu_pairs != (st->pair ? st->nr_pairs : 0))
		return;
	status_finding(r, "cuda", st->cuda);
	judge_validity(r);
	judge_settings(r);
	if (st->cuda != GPU_NOT_BUILT && st->cuda != GPU_SKIPPED)
		status_finding(r, "nvml", st->nvml);
	judge_timeouts(r);
	for (i = 0; i < st->nr_dev; i++)
		judge_device(r, i);
	judge_nccl_links(r);
	judge_bar1_windows(r);
	judge_siblings(r, 0);
	judge_siblings(r, 1);
	for (i = 0; st->pair && i < st->nr_pairs; i++)
		judge_gpu_pair(r, i);
}
