// SPDX-License-Identifier: GPL-2.0
/*
 * The parts of the human report that follow the topology, in
 * troubleshooting order (report_text.c says why): (2) what software allows, (3) the conditions
 * the figures were measured under, each figure against its expectation
 * and the small-message curve, (4) the settings that change performance.
 * Without measurements, the NVML readings that failed stand in for (3).
 * They only print what the run holds and what the judgement wrote into it.
 */
#include <stdio.h>
#include <string.h>

#include "judge/results.h"
#include "topology/pciaddr.h"
#include "report/report_text_steps.h"

static const char *p2p_word(enum gpu_p2p_status s)
{
	switch (s) {
	case P2P_STATUS_OK: return "ok";
	case P2P_STATUS_CHIPSET_NS: return "chipset-no";
	case P2P_STATUS_GPU_NS: return "gpu-no";
	case P2P_STATUS_IOH_TOPOLOGY_NS: return "topology-no";
	case P2P_STATUS_DISABLED_BY_REG: return "regkey-off";
	case P2P_STATUS_NOT_SUPPORTED: return "no";
	default: return "?";
	}
}

static bool shown(const struct check_run *r, unsigned int g)
{
	return r->judged.results->gpu[g].selected;
}

/*
 * --verbose: "    atomic ops native: integer-add 32/64, ...; not: ..."
 * from cuDeviceGetP2PAtomicCapabilities, or why it is not known.
 */
static void atomic_ops_line(FILE *out, const struct gpu_pair *gp)
{
	const char *sep = " ";
	unsigned int op, bit, missing = 0;

	if (gp->atomic_caps_state == GPU_ATOMIC_CAPS_ABSENT)
		return;
	if (gp->atomic_caps_state == GPU_ATOMIC_CAPS_FAILED) {
		fprintf(out, "    atomic ops: unknown (cuDeviceGetP2PAtomicCapabilities failed: %s)\n",
			gp->atomic_caps_error);
		return;
	}
	fprintf(out, "    atomic ops native:");
	for (op = 0; op < GPU_ATOMIC_OPS; op++) {
		const char *size = " ";

		if (!(gp->atomic_caps[op] & GPU_ATOMIC_SIZES)) {
			missing++;
			continue;
		}
		fprintf(out, "%s%s", sep, gpu_atomic_op_name(op));
		for (bit = 0; gpu_atomic_cap_name(bit); bit++)
			if ((1u << bit) & GPU_ATOMIC_SIZES & gp->atomic_caps[op]) {
				fprintf(out, "%s%s", size, gpu_atomic_cap_name(bit));
				size = "/";
			}
		sep = ", ";
	}
	if (missing == GPU_ATOMIC_OPS)
		fprintf(out, " none");
	if (missing && missing < GPU_ATOMIC_OPS) {
		fprintf(out, "; not:");
		for (op = 0, sep = " "; op < GPU_ATOMIC_OPS; op++)
			if (!(gp->atomic_caps[op] & GPU_ATOMIC_SIZES)) {
				fprintf(out, "%s%s", sep, gpu_atomic_op_name(op));
				sep = ", ";
			}
	}
	fputc('\n', out);
}

void report_text_software(FILE *out, const struct check_run *r,
			  const struct report_style *c)
{
	const struct gpu_state *st = r->in.gpu;
	unsigned int i, any = 0;

	fprintf(out, "\n%s(2) What software allows%s (CUDA canAccessPeer and P2P attributes, NVML P2P status)\n",
		c->bold, c->off);
	if (!st || st->cuda != GPU_OK) {
		fprintf(out, "  CUDA not available: nothing to ask\n");
		return;
	}
	if (st->nr_dev < 2) {
		fprintf(out, "  %u GPU: no peer to ask about\n", st->nr_dev);
		return;
	}
	fprintf(out, "  %-27s %-6s %-5s %-7s %-6s | %-5s %-11s %-11s %-11s %-11s\n",
		"src -> dst", "access", "rank", "atomics", "arrays", "NVML:",
		"read", "write", "nvlink", "atomics");
	for (i = 0; st->pair && i < st->nr_pairs; i++) {
		const struct gpu_pair *gp = &st->pair[i];
		char a[P2PD_ADDR_STRLEN], b[P2PD_ADDR_STRLEN], ab[40];

		if (!r->judged.results->gpu_pair[i].selected)
			continue;
		any = 1;
		pciaddr_format(a, st->dev[gp->src].pci_addr);
		pciaddr_format(b, st->dev[gp->dst].pci_addr);
		snprintf(ab, sizeof(ab), "%s -> %s", a, b);
		if (gp->cuda_valid)
			fprintf(out, "  %-27s %-6s %-5d %-7s %-6s |", ab,
				gp->can_access ? "yes" : "NO", gp->perf_rank,
				gp->native_atomics ? "yes" : "no",
				gp->array_access ? "yes" : "no");
		else
			fprintf(out, "  %-27s %-6s %-5s %-7s %-6s |", ab, "?", "?", "?", "?");
		if (gp->nvml_valid)
			fprintf(out, " %-5s %-11s %-11s %-11s %-11s", "",
				p2p_word(gp->p2p_read), p2p_word(gp->p2p_write),
				p2p_word(gp->p2p_nvlink), p2p_word(gp->p2p_atomics));
		if (gp->nvlinks)
			fprintf(out, " %u NVLinks", gp->nvlinks);
		fputc('\n', out);
		if (c->verbose && gp->cuda_valid)
			atomic_ops_line(out, gp);
	}
	if (!any)
		fprintf(out, "  no pair selected\n");
}

/* "    @what: unknown (CALL failed: ERROR)" when @field's reading failed. */
static bool nvml_failure_line(FILE *out, const struct gpu_device *d,
			      const char *field, const char *what)
{
	unsigned int i;

	for (i = 0; i < d->nr_nvml_failures && i < GPU_NVML_FAILURES; i++)
		if (!strcmp(d->nvml_failure[i].field, field)) {
			fprintf(out, "    %s: unknown (%s failed: %s)\n", what,
				d->nvml_failure[i].call, d->nvml_failure[i].error);
			return true;
		}
	return false;
}

/* Every NVML reading of the GPU that failed, and the call that did. */
static void nvml_failures(FILE *out, const struct gpu_device *d)
{
	unsigned int i, n = d->nr_nvml_failures;

	for (i = 0; i < n && i < GPU_NVML_FAILURES; i++)
		fprintf(out, "    NVML reading %s unknown: %s failed: %s\n",
			d->nvml_failure[i].field, d->nvml_failure[i].call,
			d->nvml_failure[i].error);
	if (n > GPU_NVML_FAILURES)
		fprintf(out, "    NVML: %u more readings failed\n",
			n - GPU_NVML_FAILURES);
}

/*
 * Unmeasured (--quick): the conditions are not shown, but an NVML reading
 * that failed still is, in the full report's words, under its GPU.
 */
void report_text_nvml_failures(FILE *out, const struct check_run *r,
			       const struct report_style *c)
{
	const struct gpu_state *st = r->in.gpu;
	unsigned int g, any = 0;

	for (g = 0; g < st->nr_dev; g++)
		any |= shown(r, g) && st->dev[g].nr_nvml_failures;
	if (!any)
		return;
	fprintf(out, "\n%sNVML readings that failed%s (each reading left unknown, the call and NVML's error)\n",
		c->bold, c->off);
	for (g = 0; g < st->nr_dev; g++) {
		char a[P2PD_ADDR_STRLEN];

		if (!shown(r, g) || !st->dev[g].nr_nvml_failures)
			continue;
		pciaddr_format(a, st->dev[g].pci_addr);
		fprintf(out, "  GPU %s (%s)\n", a, st->dev[g].name);
		nvml_failures(out, &st->dev[g]);
	}
}

static void conditions(FILE *out, const struct check_run *r, unsigned int g)
{
	const struct gpu_device *d = &r->in.gpu->dev[g];
	const struct gpu_activity *a = &d->activity;
	const struct judged_gpu *jg = &r->judged.results->gpu[g];

	if (a->procs_valid || a->util_valid) {
		fprintf(out, "    other work: %s",
			a->nr_procs ? jg->process_words : "no other process");
		if (a->util_valid)
			fprintf(out, "; utilisation %u%% (memory %u%%) before the copies",
				a->util_gpu, a->util_mem);
		if (a->waited_s > 0)
			fprintf(out, "; waited %.1f s for idle", a->waited_s);
		fputc('\n', out);
	} else if (!nvml_failure_line(out, d, "processes", "other work") &&
		   !nvml_failure_line(out, d, "handle", "other work")) {
		fprintf(out, "    other work: unknown (no NVML)\n");
	}
	nvml_failures(out, d);
	if (a->throttle_valid) {
		fprintf(out, "    clocks during the copies: %s; SM %u MHz, P%d (%u samples)\n",
			jg->clocks_held ? jg->throttle_words :
			jg->throttle_words[0] ? "not held back (only: idle SMs, copies use the copy engines)" :
				   "not held back",
			a->sm_clock_load, a->pstate_load, a->throttle_samples);
	}
	if (d->link.valid && d->link.gen_load)
		fprintf(out, "    link under load: Gen%u x%u (maximum Gen%u x%u)\n",
			d->link.gen_load, d->link.width_load, d->link.max_gen,
			d->link.max_width);
	if (d->placement.valid)
		fprintf(out, "    worker on CPU %d (node %d), pinned buffers on node %d, GPU on node %d\n",
			d->placement.cpu, d->placement.cpu_node,
			d->placement.buf_node, d->numa_node);
}

static void expectation_line(FILE *out, const char *what,
			     const struct gpu_figure *f,
			     const struct judged_figure *jf)
{
	const struct judge_expect *e = &jf->expect;
	const double ratio = jf->ratio;
	const bool low = jf->low;

	if (!f->valid)
		return;
	fprintf(out, "    %-40s %9.2f %-5s", what, f->median,
		e->ceiling ? "us" : "GB/s");
	if (e->value > 0)
		fprintf(out, " %s %8.2f %5.2f %-4s %s\n", e->ceiling ? "max" : "exp",
			e->value, ratio, low ? (e->ceiling ? "HIGH" : "LOW") : "ok",
			e->basis);
	else
		fprintf(out, " %12s %5s %-4s %s\n", "-", "-", "-", e->basis);
}

static void curve_text(FILE *out, const char *what, const struct gpu_curve *c,
		       const struct curve_fit *fit)
{
	const struct curve_fit f = *fit;
	unsigned int i;

	if (!f.valid)
		return;
	fprintf(out, "    %s: fixed cost %.2f us per copy; half the peak (%.1f GB/s at %zu B) from %.0f B; link-bound (>= %.0f%% of peak) from %zu B%s\n",
		what, f.fixed_us, f.peak_gbs, f.peak_bytes, f.half_peak_bytes,
		CURVE_BOUND_SHARE * 100, f.bound_bytes,
		c->verified ? "" : "; SOME COPIES DID NOT VERIFY");
	fprintf(out, "      bytes:us");
	for (i = 0; i < c->n; i++)
		fprintf(out, "%s%zu:%.2f", i % 8 ? " " : "\n        ", c->bytes[i], c->us[i]);
	fputc('\n', out);
}

void report_text_measured(FILE *out, const struct check_run *r,
			  const struct report_style *c)
{
	const struct gpu_state *st = r->in.gpu;
	unsigned int g, i;

	fprintf(out, "\n%sConditions and expectations%s (each figure against what its path allows, and why)\n",
		c->bold, c->off);
	if (st->measure == GPU_BUSY)
		fprintf(out, "  not measured: %s\n", st->error);
	for (g = 0; g < st->nr_dev; g++) {
		char a[P2PD_ADDR_STRLEN];

		if (!shown(r, g))
			continue;
		pciaddr_format(a, st->dev[g].pci_addr);
		fprintf(out, "  GPU %s (%s)\n", a, st->dev[g].name);
		conditions(out, r, g);
		for (i = 0; i < JF_DEV_FIGS; i++)
			expectation_line(out, judge_dev_fig_name(i),
					 judge_dev_figure(&st->dev[g], i),
					 &r->judged.results->gpu[g].fig[i]);
	}
	for (i = 0; st->pair && i < st->nr_pairs; i++) {
		const struct gpu_pair *gp = &st->pair[i];
		char a[P2PD_ADDR_STRLEN], b[P2PD_ADDR_STRLEN];
		unsigned int k;

		if (!gp->p2p.valid || !r->judged.results->gpu_pair[i].selected)
			continue;
		pciaddr_format(a, st->dev[gp->src].pci_addr);
		pciaddr_format(b, st->dev[gp->dst].pci_addr);
		fprintf(out, "  %s -> %s\n", a, b);
		for (k = 0; k < JP_PAIR_FIGS; k++)
			expectation_line(out, judge_pair_fig_name(k),
					 judge_pair_figure(gp, k),
					 &r->judged.results->gpu_pair[i].fig[k]);
	}
}

void report_text_curves(FILE *out, const struct check_run *r,
			const struct report_style *c)
{
	static const char *const names[CURVE_KINDS] = {
		"host to device", "device to host", "device-local",
	};
	const struct gpu_state *st = r->in.gpu;
	unsigned int g, k, any = 0;

	for (g = 0; g < st->nr_dev; g++)
		for (k = 0; k < CURVE_KINDS; k++)
			any |= st->dev[g].curve[k].n;
	if (!any)
		return;
	fprintf(out, "\n%sSmall-message curve%s (time per copy against size, median of the samples)\n",
		c->bold, c->off);
	for (g = 0; g < st->nr_dev; g++) {
		char a[P2PD_ADDR_STRLEN];

		if (!shown(r, g))
			continue;
		pciaddr_format(a, st->dev[g].pci_addr);
		fprintf(out, "  GPU %s\n", a);
		for (k = 0; k < CURVE_KINDS; k++)
			curve_text(out, names[k], &st->dev[g].curve[k],
				   &r->judged.results->gpu[g].curve[k]);
	}
	for (k = 0; st->pair && k < st->nr_pairs; k++) {
		const struct gpu_pair *gp = &st->pair[k];
		char a[P2PD_ADDR_STRLEN], b[P2PD_ADDR_STRLEN], what[64];

		if (!gp->curve.n)
			continue;
		pciaddr_format(a, st->dev[gp->src].pci_addr);
		pciaddr_format(b, st->dev[gp->dst].pci_addr);
		snprintf(what, sizeof(what), "P2P %s -> %s", a, b);
		curve_text(out, what, &gp->curve, &r->judged.results->gpu_pair[k].curve);
	}
}

static void setting_line(FILE *out, const struct judge_setting *s)
{
	fprintf(out, "    %-30s %-40s [%s]\n      %s\n      change: %s\n", s->name,
		s->value, judge_setting_state_name(s->state), s->effect, s->change);
}

void report_text_settings(FILE *out, const struct check_run *r,
			  const struct report_style *c)
{
	unsigned int g, i;

	fprintf(out, "\n%s(4) Settings that change performance%s\n", c->bold, c->off);
	for (g = 0; r->in.gpu && g < r->in.gpu->nr_dev; g++) {
		char a[P2PD_ADDR_STRLEN];

		if (!shown(r, g))
			continue;
		pciaddr_format(a, r->in.gpu->dev[g].pci_addr);
		fprintf(out, "  GPU %s\n", a);
		for (i = 0; i < r->judged.results->gpu[g].nr_settings; i++)
			setting_line(out, &r->judged.results->gpu[g].setting[i]);
	}
	fprintf(out, "  host\n");
	setting_line(out, &r->judged.results->host_aspm);
}
