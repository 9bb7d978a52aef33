// SPDX-License-Identifier: GPL-2.0
/*
 * The human report, in the seed's troubleshooting order: (1) the topology
 * (the class matrix has nvidia-smi topo -m's layout, so the two can be laid
 * side by side) and the verdicts, (2) what software allows, (3) the
 * measured, verified figures with their conditions and expectations,
 * (4) the settings that change performance; then the findings with their
 * fixes.  Colour only on a terminal (and never with
 * NO_COLOR set), so a redirected report is plain text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "endpoint_labels.h"
#include "judge.h"
#include "pciaddr.h"
#include "report.h"
#include "system/system.h"
#include "report_text_steps.h"
#include "p2pdiag/format.h"

#ifndef P2PDIAG_VERSION
#define P2PDIAG_VERSION "0.0.0"
#endif

#define CELL 7

const char *report_version(void)
{
	return P2PDIAG_VERSION;
}

struct palette {
	const char *red, *yellow, *green, *bold, *dim, *off;
};

static const struct palette plain = { "", "", "", "", "", "" };
static const struct palette ansi = {
	"\033[31m", "\033[33m", "\033[32m", "\033[1m", "\033[2m", "\033[0m"
};

static unsigned int nvlinks_between(const struct check_run *r,
				    const struct endpoint_label *x,
				    const struct endpoint_label *y)
{
	const struct gpu_pair *gp;

	if (x->gpu < 0 || y->gpu < 0)
		return 0;
	gp = judge_gpu_pair(r->gpu, x->gpu, y->gpu);
	return gp ? gp->nvlinks : 0;
}

static void matrix_head(FILE *out, const struct endpoint_label *ep, unsigned int n,
			const char *extra, const struct palette *c)
{
	unsigned int j;

	fprintf(out, "%s%-*s", c->bold, CELL + 1, "");
	for (j = 0; j < n; j++)
		fprintf(out, "%-*s", CELL, ep[j].label);
	fprintf(out, "%s%s\n", extra ? extra : "", c->off);
}

static void class_matrix(FILE *out, const struct check_run *r,
			 const struct endpoint_label *ep, unsigned int n,
			 const struct palette *c)
{
	unsigned int i, j;

	fprintf(out, "\n%s(1) Topology%s (the layout of nvidia-smi topo -m)\n", c->bold, c->off);
	matrix_head(out, ep, n, "NUMA Affinity", c);
	for (i = 0; i < n; i++) {
		const struct p2pd_function *f = &r->model->fn[ep[i].fn];

		fprintf(out, "%s%-*s%s", c->bold, CELL + 1, ep[i].label, c->off);
		for (j = 0; j < n; j++) {
			char cell[16];
			unsigned int nv = nvlinks_between(r, &ep[i], &ep[j]);
			int pi = judge_pair_index(r, ep[i].fn, ep[j].fn);

			if (i == j)
				snprintf(cell, sizeof(cell), " X");
			else if (nv)
				snprintf(cell, sizeof(cell), "NV%u", nv);
			else if (pi >= 0)
				snprintf(cell, sizeof(cell), "%s",
					 p2pd_class_name(r->pair[pi].cls));
			else
				snprintf(cell, sizeof(cell), "-");
			fprintf(out, "%-*s", CELL, cell);
		}
		if (f->numa_node >= 0)
			fprintf(out, "%d\n", f->numa_node);
		else
			fprintf(out, "N/A\n");
	}
	fprintf(out, "\n  X = self  PIX = at most one PCIe switch  PXB = several switches\n"
		     "  PHB = through a host bridge  NODE = between host bridges of one NUMA node\n"
		     "  SYS = across NUMA nodes  NV# = number of NVLinks\n\n");
	for (i = 0; i < n; i++) {
		const struct p2pd_function *f = &r->model->fn[ep[i].fn];
		char a[P2PD_ADDR_STRLEN];

		pciaddr_format(a, f->addr);
		fprintf(out, "  %-7s %s  [%04x:%04x] class %06x", ep[i].label, a,
			f->vendor, f->device, f->class_code);
		if (ep[i].gpu >= 0)
			fprintf(out, "  %s (CUDA %d)", r->gpu->dev[ep[i].gpu].name,
				r->gpu->dev[ep[i].gpu].ordinal);
		fputc('\n', out);
	}
}

static void verdict_matrix(FILE *out, const struct check_run *r,
			   const struct endpoint_label *ep, unsigned int n,
			   const struct palette *c)
{
	static const char *const word[P2PD_VERDICT_COUNT] = {
		"ok", "host", "redir", "BLOCK", "?",
	};
	unsigned int i, j;

	fprintf(out, "\n%sP2P verdicts%s\n", c->bold, c->off);
	matrix_head(out, ep, n, NULL, c);
	for (i = 0; i < n; i++) {
		fprintf(out, "%s%-*s%s", c->bold, CELL + 1, ep[i].label, c->off);
		for (j = 0; j < n; j++) {
			int pi = judge_pair_index(r, ep[i].fn, ep[j].fn);
			const char *w, *col = "";

			if (i == j) {
				w = " X";
			} else if (pi < 0) {
				w = "-";
			} else {
				enum p2pd_verdict v = r->pair[pi].verdict;

				w = word[v];
				col = v == P2PD_VERDICT_OK ? c->green :
				      v == P2PD_VERDICT_BLOCKED ? c->red :
				      v == P2PD_VERDICT_HOST ? "" : c->yellow;
			}
			fprintf(out, "%s%-*s%s", col, CELL, w, *col ? c->off : "");
		}
		fputc('\n', out);
	}
	fprintf(out, "\n  ok = direct through PCIe switches  host = through a host bridge that routes P2P\n"
		     "  redir = ACS sends it through the root complex (works, slower)\n"
		     "  BLOCK = nothing on the way routes it: expect failure  ? = unknown\n");
}

static void pair_lines(FILE *out, const struct check_run *r,
		       const struct endpoint_label *ep, unsigned int n,
		       const struct palette *c)
{
	unsigned int i, j;

	fprintf(out, "\n%sPairs%s\n", c->bold, c->off);
	for (i = 0; i < n; i++) {
		for (j = i + 1; j < n; j++) {
			int pi = judge_pair_index(r, ep[i].fn, ep[j].fn);
			char line[JUDGE_TEXT_MAX];
			struct p2pd_buf b;

			if (pi < 0)
				continue;
			p2pd_buf_init(&b, line, sizeof(line));
			p2pd_format_pair(&b, r->model, &r->pair[pi]);
			p2pd_buf_terminate(&b);
			/* labels in the line's own order: a is the lower address */
			int swap = r->pair[pi].a != ep[i].fn;

			fprintf(out, "  %-6s %-6s %s", ep[swap ? j : i].label,
				ep[swap ? i : j].label, line);
			if (line[0] && line[strlen(line) - 1] != '\n')
				fputc('\n', out);
		}
	}
}

static void fig(FILE *out, const struct gpu_figure *f, int width)
{
	if (f->valid)
		fprintf(out, "%*.1f", width, f->median);
	else
		fprintf(out, "%*s", width, "-");
}

static const char *gpu_label(const struct endpoint_label *ep, unsigned int n, int g,
			     char *buf, size_t len)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (ep[i].gpu == g)
			return ep[i].label;
	snprintf(buf, len, "cuda%d", g);
	return buf;
}

static void gpu_table(FILE *out, const struct check_run *r,
		      const struct endpoint_label *ep, unsigned int n,
		      const struct palette *c)
{
	const struct gpu_state *st = r->gpu;
	unsigned int g;

	fprintf(out, "\n%s(3) Measured and verified%s: GPUs (GB/s, median; link as Gen x width: idle / under load / max)\n",
		c->bold, c->off);
	fprintf(out, "  %-7s %-12s %-22s %7s %7s %7s %7s %7s %8s %7s\n", "", "address",
		"link", "h2d", "d2h", "bi-h2d", "bi-d2h", "local", "expected", "lat us");
	for (g = 0; g < st->nr_dev; g++) {
		const struct gpu_device *d = &st->dev[g];
		char a[P2PD_ADDR_STRLEN], link[64], lb[ENDPOINT_LABEL_MAX];

		if (!judge_selected(r->opt, d->pci_addr))
			continue;
		pciaddr_format(a, d->pci_addr);
		if (d->link.valid && d->link.gen_load)
			snprintf(link, sizeof(link), "%ux%u/%ux%u/%ux%u", d->link.gen,
				 d->link.width, d->link.gen_load, d->link.width_load,
				 d->link.max_gen, d->link.max_width);
		else if (d->link.valid)		/* not read under load (--quick) */
			snprintf(link, sizeof(link), "%ux%u/-/%ux%u", d->link.gen,
				 d->link.width, d->link.max_gen, d->link.max_width);
		else
			snprintf(link, sizeof(link), "-");
		fprintf(out, "  %-7s %-12s %-22s", gpu_label(ep, n, (int)g, lb, sizeof(lb)),
			a, link);
		fig(out, &d->h2d, 8);
		fig(out, &d->d2h, 8);
		fig(out, &d->bidir_h2d, 8);
		fig(out, &d->bidir_d2h, 8);
		fig(out, &d->local, 8);
		fprintf(out, "%9.1f", judge_expected_host_gbs(r, g));
		fig(out, &d->latency_h2d, 8);
		fprintf(out, "   %s\n", d->name);
	}
}

enum pair_figure { PF_P2P, PF_STAGED, PF_BIDIR, PF_LAT_P2P, PF_LAT_STAGED };

static const struct gpu_figure *pick(const struct gpu_pair *gp, enum pair_figure w)
{
	switch (w) {
	case PF_P2P: return &gp->p2p;
	case PF_STAGED: return &gp->staged;
	case PF_BIDIR: return &gp->p2p_bidir;
	case PF_LAT_P2P: return &gp->latency_p2p;
	default: return &gp->latency_staged;
	}
}

static void gpu_matrix(FILE *out, const struct check_run *r,
		       const struct endpoint_label *ep, unsigned int n,
		       enum pair_figure w, const char *title,
		       const struct palette *c)
{
	const struct gpu_state *st = r->gpu;
	unsigned int s, d, any = 0;
	char lb[ENDPOINT_LABEL_MAX];

	for (s = 0; st->pair && s < st->nr_pairs; s++)
		any |= pick(&st->pair[s], w)->valid;
	if (!any)
		return;
	fprintf(out, "\n%s%s%s\n", c->bold, title, c->off);
	fprintf(out, "%-*s", CELL + 1, "");
	for (d = 0; d < st->nr_dev; d++)
		fprintf(out, "%*s", CELL + 1, gpu_label(ep, n, (int)d, lb, sizeof(lb)));
	fputc('\n', out);
	for (s = 0; s < st->nr_dev; s++) {
		fprintf(out, "%-*s", CELL + 1, gpu_label(ep, n, (int)s, lb, sizeof(lb)));
		for (d = 0; d < st->nr_dev; d++) {
			const struct gpu_pair *gp = judge_gpu_pair(st, (int)s, (int)d);

			if (s == d || !gp)
				fprintf(out, "%*s", CELL + 1, s == d ? "X" : "-");
			else
				fig(out, pick(gp, w), CELL + 1);
		}
		fputc('\n', out);
	}
}

static void exchange_table(FILE *out, const struct gpu_exchange *x,
			   const struct palette *c)
{
	unsigned int i;

	if (!x->valid)
		return;
	fprintf(out, "\n%sGradient exchange%s (all GPUs send a shard to all others at once)\n",
		c->bold, c->off);
	fprintf(out, "  %10s %12s %12s %10s\n", "bytes", "P2P us", "staged us", "reduction");
	for (i = 0; i < GPU_EXCHANGE_SIZES; i++) {
		if (!x->size[i])
			continue;
		fprintf(out, "  %10zu %12.1f %12.1f", x->size[i], x->p2p_us[i],
			x->staged_us[i]);
		if (x->staged_us[i] > 0)
			fprintf(out, " %9.0f%%\n",
				100.0 * (1 - x->p2p_us[i] / x->staged_us[i]));
		else
			fprintf(out, " %10s\n", "-");
	}
}

static void findings_text(FILE *out, const struct check_run *r,
			  const struct palette *c)
{
	const struct findings *f = &r->findings;
	size_t i, counts[3] = { 0 };
	int sev;

	fprintf(out, "\n%sFindings%s\n", c->bold, c->off);
	if (!f->nr)
		fprintf(out, "  %snone: every judged path is as direct and as fast as expected%s\n",
			c->green, c->off);
	/* worst first, in the order found within a severity */
	for (sev = SEV_ERROR; sev >= SEV_INFO; sev--) {
		for (i = 0; i < f->nr; i++) {
			const struct finding *it = &f->item[i];
			const char *col = sev == SEV_ERROR ? c->red :
					  sev == SEV_WARNING ? c->yellow : c->dim;

			if ((int)it->severity != sev)
				continue;
			counts[sev]++;
			fprintf(out, "  %s%-7s%s %s%s%s\n    %s\n", col,
				finding_severity_name(it->severity), c->off, c->bold,
				it->code, c->off, it->message);
			if (it->fix)
				fprintf(out, "    fix: %s\n", it->fix);
		}
	}
	if (f->oom)
		fprintf(out, "  %serror%s   memory ran out: some findings were lost\n",
			c->red, c->off);
	fprintf(out, "\n%zu error(s), %zu warning(s), %zu note(s): exit status %d\n",
		counts[SEV_ERROR], counts[SEV_WARNING], counts[SEV_INFO],
		findings_exit_status(f));
}

static void header(FILE *out, const struct check_run *r, const struct palette *c)
{
	const struct p2pd_model *m = r->model;

	fprintf(out, "%sp2pdiag-check %s%s\n", c->bold, report_version(), c->off);
	fprintf(out, "source: %s (%s)", r->source, r->source_detail);
	if (m)
		fprintf(out, ", generation %lu, %u functions, %u pairs judged",
			m->generation, m->nr_fn, r->nr_pairs);
	fputc('\n', out);
	if (m)
		fprintf(out, "host CPU: %s\n",
			m->cpu_flags & P2PD_CPU_ROUTES_P2P ?
			"AMD Zen or newer: the kernel lets every host bridge route P2P" :
			m->cpu_flags & P2PD_CPU_AMD ?
			"AMD before Zen / Hygon: host bridges must be on the kernel's P2PDMA list" :
			"not AMD: host bridges must be on the kernel's P2PDMA list");
	if (r->gpu) {
		fprintf(out, "CUDA: %s", gpu_status_name(r->gpu->cuda));
		if (r->gpu->driver_version)
			fprintf(out, " (driver API %d.%d)", r->gpu->driver_version / 1000,
				(r->gpu->driver_version % 1000) / 10);
		fprintf(out, ", NVML: %s", gpu_status_name(r->gpu->nvml));
		if (r->gpu->nvml_driver[0])
			fprintf(out, " (driver %s)", r->gpu->nvml_driver);
		fprintf(out, ", %u GPU(s)%s\n", r->gpu->nr_dev,
			r->gpu_measured ? "" : ", not measured");
	} else {
		fprintf(out, "CUDA: not used (--no-cuda)\n");
	}
}

void report_text(FILE *out, const struct check_run *r, bool colour)
{
	const struct palette *c = colour ? &ansi : &plain;
	const struct report_style style = { c->bold, c->off };
	struct endpoint_label *ep = NULL;
	unsigned int n = endpoint_labels(r, &ep);

	header(out, r, c);
	if (n) {
		class_matrix(out, r, ep, n, c);
		verdict_matrix(out, r, ep, n, c);
		pair_lines(out, r, ep, n, c);
	} else if (r->model) {
		fprintf(out, "\n%s(1) Topology%s: no GPU, NIC, NVMe or accelerator functions in the snapshot: no pairs to judge\n",
			c->bold, c->off);
	}
	if (r->gpu && r->gpu->nr_dev)
		report_text_software(out, r, &style);
	if (r->gpu && r->gpu->nr_dev) {
		gpu_table(out, r, ep, n, c);
		gpu_matrix(out, r, ep, n, PF_P2P, "P2P bandwidth, one way (GB/s)", c);
		gpu_matrix(out, r, ep, n, PF_STAGED, "Host-staged bandwidth, peer access off (GB/s)", c);
		gpu_matrix(out, r, ep, n, PF_BIDIR, "P2P bandwidth, both ways at once, this direction's share (GB/s)", c);
		gpu_matrix(out, r, ep, n, PF_LAT_P2P, "P2P latency (us per small copy)", c);
		gpu_matrix(out, r, ep, n, PF_LAT_STAGED, "Host-staged latency (us per small copy)", c);
		exchange_table(out, &r->gpu->exchange, c);
		if (r->gpu_measured)
			report_text_measured(out, r, &style);
		report_text_curves(out, r, &style);
	}
	if (r->gpu && r->gpu->nr_dev)
		report_text_settings(out, r, &style);
	system_output_text(out, r);
	findings_text(out, r, c);
	free(ep);
}
