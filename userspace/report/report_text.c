// SPDX-License-Identifier: GPL-2.0
/*
 * The human report, in troubleshooting order, each step mattering only
 * once the ones before it hold (a path the topology blocks needs no
 * bandwidth figure to explain it): (1) the topology
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

#include "judge/causes.h"
#include "report/endpoint_labels.h"
#include "judge/judge.h"
#include "judge/outcome.h"
#include "judge/results.h"
#include "judge/run_state.h"
#include "topology/format_text.h"
#include "topology/pciaddr.h"
#include "report/report.h"
#include "report/system_output.h"
#include "report/report_text_steps.h"
#include "uapi/p2pdiag/abi.h"
#include "p2pdiag/format.h"

#ifndef P2PDIAG_VERSION
#define P2PDIAG_VERSION "0.0.0"
#endif

#define CELL 7

const char *report_version(void)
{
	return P2PDIAG_VERSION;
}

/* How the report is drawn: its colours, and whether every detail is shown. */
struct look {
	const char *red, *yellow, *green, *bold, *dim, *off;
	bool verbose;
};

static const struct look plain = { "", "", "", "", "", "", false };
static const struct look ansi = {
	"\033[31m", "\033[33m", "\033[32m", "\033[1m", "\033[2m", "\033[0m", false
};

static unsigned int nvlinks_between(const struct check_run *r,
				    const struct endpoint_label *x,
				    const struct endpoint_label *y)
{
	const struct gpu_pair *gp;

	if (x->gpu < 0 || y->gpu < 0)
		return 0;
	gp = run_gpu_pair(r->in.gpu, x->gpu, y->gpu);
	return gp ? gp->nvlinks : 0;
}

/* Members of model function @fn's endpoint group; 1 when not grouped. */
static int group_size(const struct check_run *r, int fn)
{
	const struct run_results *res = r->judged.results;

	if (!res || !res->grouped || res->groups.group_of[fn] < 0)
		return 1;
	return res->groups.size[res->groups.group_of[fn]];
}

/*
 * Whether endpoint @i of @arg (the labels) is a matrix row: grouped, the
 * first member of its group stands for the rest, as its group pairs do;
 * else every endpoint is one.
 */
static bool is_matrix_row(const struct check_run *r, unsigned int i,
			  const void *arg)
{
	const struct endpoint_label *ep = arg;
	const struct run_results *res = r->judged.results;
	int fn = ep[i].fn;

	return !res || !res->grouped || res->groups.group_of[fn] < 0 ||
	       res->groups.first[res->groups.group_of[fn]] == fn;
}

/* The matrices' rows.  Return: how many, into *@rows (malloc'd), or 0. */
static unsigned int matrix_rows(const struct check_run *r,
				const struct endpoint_label *ep, unsigned int n,
				struct endpoint_label **rows)
{
	unsigned int *row = NULL, i;
	int k = run_select(r, n, is_matrix_row, ep, &row);

	*rows = k > 0 ? malloc((size_t)k * sizeof(**rows)) : NULL;
	for (i = 0; *rows && i < (unsigned int)k; i++)
		(*rows)[i] = ep[row[i]];
	free(row);
	return *rows ? (unsigned int)k : 0;
}

static void matrix_head(FILE *out, const struct endpoint_label *ep, unsigned int n,
			const char *extra, const struct look *c)
{
	unsigned int j;

	fprintf(out, "%s%-*s", c->bold, CELL + 1, "");
	for (j = 0; j < n; j++)
		fprintf(out, "%-*s", CELL, ep[j].label);
	fprintf(out, "%s%s\n", extra ? extra : "", c->off);
}

static void class_matrix(FILE *out, const struct check_run *r,
			 const struct endpoint_label *ep, unsigned int n,
			 const struct look *c)
{
	unsigned int i, j, unknown = 0;

	fprintf(out, "\n%s(1) Topology%s (the layout of nvidia-smi topo -m)\n", c->bold, c->off);
	matrix_head(out, ep, n, "NUMA Affinity", c);
	for (i = 0; i < n; i++) {
		const struct p2pd_function *f = &r->in.model->fn[ep[i].fn];

		fprintf(out, "%s%-*s%s", c->bold, CELL + 1, ep[i].label, c->off);
		for (j = 0; j < n; j++) {
			char cell[16];
			unsigned int nv = nvlinks_between(r, &ep[i], &ep[j]);
			int pi = run_pair_index(r, ep[i].fn, ep[j].fn);

			if (i == j)
				snprintf(cell, sizeof(cell), " X");
			else if (nv)
				snprintf(cell, sizeof(cell), "NV%u", nv);
			else if (pi >= 0 && r->judged.pair[pi].cls == P2PD_CLASS_UNKNOWN) {
				snprintf(cell, sizeof(cell), "?");
				unknown = 1;
			} else if (pi >= 0)
				snprintf(cell, sizeof(cell), "%s",
					 p2pd_class_name(r->judged.pair[pi].cls));
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
		     "  SYS = across NUMA nodes  NV# = number of NVLinks\n%s\n",
		unknown ? "  ? = not known: a bridge on the path is missing from the snapshot\n" : "");
	for (i = 0; i < n; i++) {
		const struct p2pd_function *f = &r->in.model->fn[ep[i].fn];
		char a[P2PD_ADDR_STRLEN];

		pciaddr_format(a, f->addr);
		fprintf(out, "  %-7s %s  [%04x:%04x] class %06x", ep[i].label, a,
			f->vendor, f->device, f->class_code);
		if (ep[i].gpu >= 0)
			fprintf(out, "  %s (CUDA %d)", r->in.gpu->dev[ep[i].gpu].name,
				r->in.gpu->dev[ep[i].gpu].ordinal);
		if (group_size(r, ep[i].fn) > 1)
			fprintf(out, "  and %d more judged alike (group %d)",
				group_size(r, ep[i].fn) - 1,
				r->judged.results->groups.group_of[ep[i].fn]);
		fputc('\n', out);
	}
}

static void verdict_matrix(FILE *out, const struct check_run *r,
			   const struct endpoint_label *ep, unsigned int n,
			   const struct look *c)
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
			int pi = run_pair_index(r, ep[i].fn, ep[j].fn);
			const char *w, *col = "";

			if (i == j) {
				w = " X";
			} else if (pi < 0) {
				w = "-";
			} else {
				enum p2pd_verdict v = r->judged.pair[pi].verdict;

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

/* One pair's line, labelled in the line's own order (a is the lower address). */
static void pair_line(FILE *out, const struct check_run *r, int pi,
		      const char *la, const char *lb)
{
	char line[JUDGE_TEXT_MAX];
	struct p2pd_buf b;

	p2pd_buf_init(&b, line, sizeof(line));
	p2pd_format_pair(&b, r->in.model, &r->judged.pair[pi]);
	p2pd_buf_terminate(&b);
	fprintf(out, "  %-6s %-6s %s", la, lb, line);
	if (line[0] && line[strlen(line) - 1] != '\n')
		fputc('\n', out);
}

/*
 * The kept pairs of a run that counts the rest (judge/results.h): those
 * that need a look, in judgement order, without a walk over every pair.
 */
static void kept_pair_lines(FILE *out, const struct check_run *r,
			    const struct endpoint_label *ep, unsigned int n,
			    const struct look *c)
{
	int *label_of = malloc((r->in.model->nr_fn ? r->in.model->nr_fn : 1) * sizeof(int));
	unsigned int i;

	fprintf(out, "\n%sPairs that need a look%s (%u; the other %lu are fine and only counted)\n",
		c->bold, c->off, r->judged.nr_pairs, r->judged.results->pairs_not_listed);
	if (!label_of) {
		fprintf(out, "  (out of memory for the list)\n");
		return;
	}
	for (i = 0; i < r->in.model->nr_fn; i++)
		label_of[i] = -1;
	for (i = 0; i < n; i++)
		label_of[ep[i].fn] = (int)i;
	for (i = 0; i < r->judged.nr_pairs; i++) {
		int la = label_of[r->judged.pair[i].a], lb = label_of[r->judged.pair[i].b];

		pair_line(out, r, (int)i, la < 0 ? "?" : ep[la].label,
			  lb < 0 ? "?" : ep[lb].label);
	}
	free(label_of);
}

static void pair_lines(FILE *out, const struct check_run *r,
		       const struct endpoint_label *ep, unsigned int n,
		       const struct look *c)
{
	unsigned int i, j;

	if (r->judged.results && r->judged.results->pairs_not_listed) {
		kept_pair_lines(out, r, ep, n, c);
		return;
	}
	fprintf(out, "\n%sPairs%s\n", c->bold, c->off);
	for (i = 0; i < n; i++) {
		for (j = i + 1; j < n; j++) {
			int pi = run_pair_index(r, ep[i].fn, ep[j].fn);
			int swap;

			if (pi < 0)
				continue;
			swap = r->judged.pair[pi].a != ep[i].fn;
			pair_line(out, r, pi, ep[swap ? j : i].label,
				  ep[swap ? i : j].label);
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
		      const struct look *c)
{
	const struct gpu_state *st = r->in.gpu;
	unsigned int g;

	fprintf(out, "\n%s(3) Measured and verified%s: GPUs (GB/s, median; link as Gen x width: idle / under load / max)\n",
		c->bold, c->off);
	fprintf(out, "  %-7s %-12s %-22s %7s %7s %7s %7s %7s %8s %7s\n", "", "address",
		"link", "h2d", "d2h", "bi-h2d", "bi-d2h", "local", "expected", "lat us");
	for (g = 0; g < st->nr_dev; g++) {
		const struct gpu_device *d = &st->dev[g];
		char a[P2PD_ADDR_STRLEN], link[64], lb[ENDPOINT_LABEL_MAX];

		if (!r->judged.results->gpu[g].selected)
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
		fprintf(out, "%9.1f", r->judged.results->gpu[g].expected_host_gbs);
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
		       const struct look *c)
{
	const struct gpu_state *st = r->in.gpu;
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
			const struct gpu_pair *gp = run_gpu_pair(st, (int)s, (int)d);

			if (s == d || !gp)
				fprintf(out, "%*s", CELL + 1, s == d ? "X" : "-");
			else
				fig(out, pick(gp, w), CELL + 1);
		}
		fputc('\n', out);
	}
}

static void exchange_table(FILE *out, const struct gpu_exchange *x,
			   const struct look *c)
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

/* Every finding with its own fix, worst first: --verbose. */
static void findings_text(FILE *out, const struct check_run *r,
			  const struct look *c)
{
	const struct findings *f = &r->judged.findings;
	size_t i;
	int sev;

	fprintf(out, "\n%sFindings, one by one%s\n", c->bold, c->off);
	if (!f->nr)
		fprintf(out, "  none\n");
	/* worst first, in the order found within a severity */
	for (sev = SEV_ERROR; sev >= SEV_INFO; sev--) {
		for (i = 0; i < f->nr; i++) {
			const struct finding *it = &f->item[i];
			const char *col = sev == SEV_ERROR ? c->red :
					  sev == SEV_WARNING ? c->yellow : c->dim;

			if ((int)it->severity != sev)
				continue;
			fprintf(out, "  %s%-7s%s %s%s%s\n    %s\n", col,
				finding_severity_name(it->severity), c->off, c->bold,
				it->code, c->off, it->message);
			if (it->evidence)
				fprintf(out, "    evidence: %s\n", it->evidence);
			if (it->fix)
				fprintf(out, "    fix: %s\n", it->fix);
		}
	}
}

static const char *severity_colour(enum finding_severity sev,
				   const struct look *c)
{
	return sev == SEV_ERROR ? c->red : sev == SEV_WARNING ? c->yellow : c->dim;
}

/* "GPU0-NIC1", by the labels of the matrix (addresses where none). */
static void put_pair_name(FILE *out, const struct check_run *r,
			  const struct endpoint_label *ep, unsigned int n,
			  const struct finding *it)
{
	unsigned long long addr[2] = { it->a, it->b };
	unsigned int k;

	for (k = 0; k < 2; k++) {
		int fn = r->in.model ? p2pd_model_find(r->in.model, addr[k]) : P2PD_NO_INDEX;
		const char *label = fn == P2PD_NO_INDEX ? NULL :
				    endpoint_label_of(ep, n, fn);
		char a[P2PD_ADDR_STRLEN];

		fprintf(out, "%s%s", k ? "-" : "", label ? label : pciaddr_format(a, addr[k]));
	}
}

/* Pairs a cause line names before "+N more": one line on a wide terminal. */
#define CAUSE_PAIRS_NAMED 8

static void cause_text(FILE *out, const struct check_run *r,
		       const struct endpoint_label *ep, unsigned int n,
		       const struct cause *k, const char *done,
		       const struct look *c)
{
	const struct findings *f = &r->judged.findings;
	const struct finding *worst = &f->item[k->item[0]];
	size_t i, named = 0;

	fprintf(out, "  %s%-7s%s %s%s%s", severity_colour(k->severity, c),
		finding_severity_name(k->severity), c->off, c->bold, k->code, c->off);
	if (k->nr_pairs && k->nr_member_pairs != k->nr_pairs)
		fprintf(out, "  %lu pairs in %zu group pair%s: ", k->nr_member_pairs,
			k->nr_pairs, k->nr_pairs == 1 ? "" : "s");
	else if (k->nr_pairs)
		fprintf(out, "  %zu pair%s: ", k->nr_pairs, k->nr_pairs == 1 ? "" : "s");
	else if (k->nr > 1)
		fprintf(out, "  %zu times", k->nr);
	for (i = 0; i < k->nr && named < CAUSE_PAIRS_NAMED; i++) {
		if (!f->item[k->item[i]].has_pair)
			continue;
		fputs(named++ ? ", " : "", out);
		put_pair_name(out, r, ep, n, &f->item[k->item[i]]);
	}
	if (k->nr_pairs > named)
		fprintf(out, " +%zu more", k->nr_pairs - named);
	if (k->nr_pairs && k->nr > k->nr_pairs)
		fprintf(out, "; and %zu more not about a pair", k->nr - k->nr_pairs);
	fprintf(out, "\n    %s%s\n", k->nr < 2 ? "" :
		f->item[k->item[k->nr - 1]].severity < k->severity ? "worst: " : "e.g. ",
		worst->message);
	fprintf(out, "    root cause: %s\n", root_cause_name(k->root_cause));
	if (worst->evidence)
		fprintf(out, "    evidence: %s\n", worst->evidence);
	if (k->machine_fix)
		fprintf(out, "    fix: the kernel parameter above\n");
	else if (k->fix && k->fix == done)
		fprintf(out, "    fix: the one under \"Do this\" above\n");
	else if (k->fix)
		fprintf(out, "    fix: %s\n", k->fix);
	else if (worst->fix)
		fprintf(out, "    fix: one per finding (--verbose); the worst's: %s\n", worst->fix);
}

static void verdict_counts(FILE *out, const struct check_run *r)
{
	static const char *const words[P2PD_VERDICT_COUNT] = {
		"direct", "through a host bridge that routes P2P",
		"redirected through the root complex", "blocked", "unknown",
	};
	unsigned long count[P2PD_VERDICT_COUNT] = { 0 }, all = 0;
	unsigned int i, shown = 0;
	int v;

	if (r->judged.results) {
		/* every judged pair, kept in r->judged.pair or only counted */
		for (v = P2PD_VERDICT_OK; v < P2PD_VERDICT_COUNT; v++)
			count[v] = r->judged.results->verdict_pairs[v];
		all = r->judged.results->nr_member_pairs;
	}
	for (i = 0; !r->judged.results && i < r->judged.nr_pairs; i++) {
		if ((unsigned int)r->judged.pair[i].verdict < P2PD_VERDICT_COUNT)
			count[r->judged.pair[i].verdict] += run_pair_count(r, i);
		all += run_pair_count(r, i);
	}
	fprintf(out, "%lu pair%s judged", all, all == 1 ? "" : "s");
	/* the worst verdicts first */
	for (v = P2PD_VERDICT_UNKNOWN; v >= P2PD_VERDICT_OK; v--) {
		if (!count[v])
			continue;
		fprintf(out, "%s%lu %s", shown++ ? ", " : ": ", count[v], words[v]);
	}
	if (r->judged.results && r->judged.results->pairs_not_listed)
		fprintf(out, " (past %lu judgements only the %u that need a look are kept one by one, the rest counted; each pair: --pairs)",
			PAIRS_LISTED_MAX, r->judged.nr_pairs);
	else if (r->judged.results && r->judged.results->grouped && r->judged.nr_pairs != all)
		fprintf(out, " (%u group pairs of %u endpoint groups judged alike; each pair alone: --expand-pairs)",
			r->judged.nr_pairs, r->judged.results->groups.nr);
	fputc('\n', out);
}

static void put_port_words(FILE *out, const struct p2pd_function *f)
{
	char a[P2PD_ADDR_STRLEN], bits[32];
	struct p2pd_buf b;

	p2pd_buf_init(&b, bits, sizeof(bits));
	p2pd_put_acs_redirect(&b, f);
	p2pd_buf_terminate(&b);
	fprintf(out, "%s %s %s", p2pd_role_name(f->role), pciaddr_format(a, f->addr), bits);
}

/* "4 root_port, 16 downstream_port": how many ports of each role. */
static void put_port_roles(FILE *out, const struct p2pd_model *m,
			   const struct p2pd_port_set *s)
{
	unsigned int count[P2PD_ROLE_COUNT] = { 0 }, i, shown = 0;

	for (i = 0; i < s->nr; i++)
		if ((unsigned int)m->fn[s->port[i]].role < P2PD_ROLE_COUNT)
			count[m->fn[s->port[i]].role]++;
	for (i = 0; i < P2PD_ROLE_COUNT; i++)
		if (count[i])
			fprintf(out, "%s%u %s", shown++ ? ", " : "", count[i],
				p2pd_role_name((enum p2pd_role)i));
}

/* The machine-wide fix: one parameter, what it clears, how to undo it. */
static void machine_fix_text(FILE *out, const struct check_run *r,
			     const struct look *c)
{
	const struct p2pd_port_set *s = &r->judged.causes.ports;
	bool verbose = c->verbose;
	char param[JUDGE_TEXT_MAX], alt[JUDGE_TEXT_MAX];
	struct p2pd_buf b;
	unsigned int i;

	p2pd_buf_init(&b, param, sizeof(param));
	p2pd_format_fix_set(&b, r->in.model, s);
	p2pd_buf_terminate(&b);
	fprintf(out, "%sDo this:%s boot with this one kernel parameter, then run p2pdiag-check again\n",
		c->bold, c->off);
	fprintf(out, "    %s%s%s\n", c->bold, param, c->off);
	fprintf(out, "  It clears ACS redirect on %u port%s (", s->nr, s->nr == 1 ? "" : "s");
	put_port_roles(out, r->in.model, s);
	fprintf(out, "), all in one list: a second disable_acs_redir= replaces the first.\n"
		     "  It merges IOMMU groups: read \"Applying fixes safely\" in README.md first.\n");
	if (s->overflow)
		fprintf(out, "  %sMore than %d ports redirect: only the first %d are named.%s\n",
			c->red, P2PD_MAX_FIX_PORTS, P2PD_MAX_FIX_PORTS, c->off);
	if (!verbose)
		return;
	fprintf(out, "  The ports:");
	for (i = 0; i < s->nr; i++) {
		fputs(i ? ", " : " ", out);
		put_port_words(out, &r->in.model->fn[s->port[i]]);
	}
	p2pd_buf_init(&b, alt, sizeof(alt));
	p2pd_format_config_acs_set(&b, r->in.model, s);
	p2pd_buf_terminate(&b);
	fprintf(out, "\n  Same effect: %s\n", alt);
	fprintf(out, "  Until reboot instead, before the GPU driver loads (lost at reboot; changes isolation and IOMMU groups):\n");
	for (i = 0; i < s->nr; i++) {
		char line[96];

		p2pd_buf_init(&b, line, sizeof(line));
		p2pd_format_setpci(&b, &r->in.model->fn[s->port[i]]);
		p2pd_buf_terminate(&b);
		fprintf(out, "    %s\n", line);
	}
}

/*
 * The run's root cause; while it is undecided, the suspects, best first,
 * each with its facts and the command that decides.
 */
static void root_cause_text(FILE *out, const struct check_run *r,
			    const struct look *c)
{
	const struct diagnosis *d = &r->judged.diagnosis;
	unsigned int i, k;

	fprintf(out, "%sRoot cause:%s %s\n", c->bold, c->off, root_cause_name(d->root_cause));
	if (!d->nr_suspects)
		return;
	fprintf(out, "Suspects (the facts do not decide; best first):\n");
	for (i = 0; i < d->nr_suspects; i++) {
		const struct suspect *sp = &d->suspect[i];

		fprintf(out, "  %u. %s (%s)\n", i + 1, root_cause_name(sp->root_cause),
			likelihood_name(sp->likelihood));
		for (k = 0; k < sp->nr_for; k++)
			fprintf(out, "     for: %s\n", sp->fact_for[k]);
		for (k = 0; k < sp->nr_against; k++)
			fprintf(out, "     against: %s\n", sp->fact_against[k]);
		fprintf(out, "     decide: %s\n", sp->confirm);
	}
}

/*
 * The first screen: is P2P healthy here, and if not, the one thing to do;
 * then one line per cause, worst first.
 */
static void summary_text(FILE *out, const struct check_run *r,
			 const struct endpoint_label *ep, unsigned int n,
			 const struct look *c)
{
	const struct causes *k = &r->judged.causes;
	enum finding_severity worst = findings_worst(&r->judged.findings);
	enum run_grounds grounds;
	enum run_state state = run_state(r, &grounds);
	const char *done = NULL;
	size_t i, other = 0;
	/* pasted evidence is about the machine it came from */
	const char *where = r->in.evidence ? "there" : "here";

	fputc('\n', out);
	/* healthy only on grounds, and the grounds said */
	if (state == RUN_UNDECIDED && grounds == GROUNDS_NOT_SHOWN)
		fprintf(out, "P2P there: undecided from these files. ");
	else if (state == RUN_UNDECIDED)
		fprintf(out, "P2P %s: undecided: no pair of P2P endpoints to judge. ", where);
	else if (state == RUN_HEALTHY && grounds == GROUNDS_TOPOLOGY)
		fprintf(out, "%sP2P %s: healthy as far as the topology shows (not measured).%s ",
			c->green, where, c->off);
	else if (state == RUN_HEALTHY)
		fprintf(out, "%sP2P %s: healthy.%s ", c->green, where, c->off);
	else if (worst == SEV_WARNING)
		fprintf(out, "%sP2P %s: works, but not as it should.%s ", c->yellow, where, c->off);
	else
		fprintf(out, "%sP2P %s: broken.%s ", c->red, where, c->off);
	if (r->in.evidence && !r->in.model)
		fputc('\n', out);
	else
		verdict_counts(out, r);
	for (i = 0; i < k->nr; i++)
		other += k->cause[i].severity >= SEV_WARNING && !k->cause[i].machine_fix;
	if (k->ports.nr && r->in.model) {
		machine_fix_text(out, r, c);
		if (other)
			fprintf(out, "Then: %zu more cause%s below, which the parameter does not fix.\n",
				other, other == 1 ? "" : "s");
	} else if (k->nr && k->cause[0].severity >= SEV_WARNING) {
		const struct cause *first = &k->cause[0];
		const char *fix = cause_fix(r, first);

		fprintf(out, "%sDo this:%s %s\n", c->bold, c->off,
			fix ? fix : "no single change fixes it: see the causes below");
		done = first->fix;
	} else {
		fprintf(out, "Nothing to change.\n");
	}
	root_cause_text(out, r, c);
	if (!k->nr)
		return;
	fprintf(out, "\n%sCauses%s (one line per kind of finding, worst first; each pair's own: --verbose)\n",
		c->bold, c->off);
	for (i = 0; i < k->nr; i++)
		cause_text(out, r, ep, n, &k->cause[i], done, c);
}

static void closing_line(FILE *out, const struct check_run *r,
			 const struct look *c)
{
	const struct causes *k = &r->judged.causes;

	if (r->judged.findings.oom || k->oom)
		fprintf(out, "\n%serror%s   memory ran out: some findings were lost\n",
			c->red, c->off);
	fprintf(out, "\n%zu error cause(s), %zu warning cause(s), %zu note(s) from %zu finding(s): exit status %d\n",
		causes_count(k, SEV_ERROR), causes_count(k, SEV_WARNING),
		causes_count(k, SEV_INFO), r->judged.findings.nr,
		outcome_exit_status(&r->judged.findings));
	if (!c->verbose)
		fprintf(out, "Every finding with its own fix, and each pair's engine line: --verbose.  All of it for scripts: --json.\n");
}

/*
 * Which release's P2PDMA host-bridge rules judged the host bridges, and
 * why another than the kernel's own when so.
 */
static void host_bridge_list_line(FILE *out, const struct p2pd_model *m)
{
	unsigned int release = p2pd_whitelist_release(m);
	char used[RELEASE_TEXT_MAX], known[RELEASE_TEXT_MAX];

	release_text(used, release);
	if (!m->kernel_release) {
		fprintf(out, "P2PDMA list: kernel release not known: judged by Linux %s's list, the newest p2pdiag knows\n",
			used);
		return;
	}
	release_text(known, m->kernel_release);
	if (m->kernel_release == release)
		fprintf(out, "P2PDMA list: Linux %s's\n", known);
	else if (m->kernel_release < release)
		fprintf(out, "P2PDMA list: Linux %s's, judged by Linux %s's (p2pdiag supports no older kernel)\n",
			known, used);
	else
		fprintf(out, "P2PDMA list: Linux %s's, judged by Linux %s's (the newest list p2pdiag knows)\n",
			known, used);
}

static void header(FILE *out, const struct check_run *r, const struct look *c)
{
	const struct p2pd_model *m = r->in.model;

	fprintf(out, "%sp2pdiag-check %s%s\n", c->bold, report_version(), c->off);
	fprintf(out, "source: %s (%s)", r->in.source, r->in.source_detail);
	if (m)
		fprintf(out, ", generation %lu, %u functions, %lu pairs judged",
			m->generation, m->nr_fn,
			r->judged.results ? r->judged.results->nr_member_pairs :
				     (unsigned long)r->judged.nr_pairs);
	fputc('\n', out);
	if (m)
		fprintf(out, "host CPU: %s\n",
			m->cpu_flags & P2PD_CPU_ROUTES_P2P ?
			"AMD Zen or newer: the kernel lets every host bridge route P2P" :
			m->cpu_flags & P2PD_CPU_AMD ?
			"AMD before Zen / Hygon: host bridges must be on the kernel's P2PDMA list" :
			"not AMD: host bridges must be on the kernel's P2PDMA list");
	if (m && !(m->cpu_flags & P2PD_CPU_ROUTES_P2P))
		host_bridge_list_line(out, m);
	if (r->in.gpu) {
		fprintf(out, "CUDA: %s", gpu_status_name(r->in.gpu->cuda));
		if (r->in.gpu->driver_version)
			fprintf(out, " (driver API %d.%d)", r->in.gpu->driver_version / 1000,
				(r->in.gpu->driver_version % 1000) / 10);
		fprintf(out, ", NVML: %s", gpu_status_name(r->in.gpu->nvml));
		if (r->in.gpu->nvml_driver[0])
			fprintf(out, " (driver %s)", r->in.gpu->nvml_driver);
		else if (r->in.gpu->nvml_driver_error[0])
			fprintf(out, " (driver unknown: %s)",
				r->in.gpu->nvml_driver_error);
		fprintf(out, ", %u GPU(s)%s\n", r->in.gpu->nr_dev,
			r->in.gpu_measured ? "" : ", not measured");
	} else if (r->in.evidence) {
		fprintf(out, "CUDA: not used (pasted evidence of another machine)\n");
	} else {
		fprintf(out, "CUDA: not used (--no-cuda)\n");
	}
}

void report_text(FILE *out, const struct check_run *r, bool colour, bool verbose)
{
	struct look look = colour ? ansi : plain;
	const struct look *c = &look;
	const struct report_style style = { c->bold, c->off, verbose };
	struct endpoint_label *ep = NULL;
	unsigned int n = endpoint_labels(r, &ep);

	look.verbose = verbose;

	header(out, r, c);
	summary_text(out, r, ep, n, c);
	if (n && r->judged.results && r->judged.results->pairs_not_listed) {
		/* n x n cells of which all but a few are fine: no matrix */
		fprintf(out, "\n%s(1) Topology%s: %u endpoints in %u groups, too many pairs for the matrices; the %u pairs that need a look: --verbose; matrices: select endpoints with --pairs\n",
			c->bold, c->off, n, r->judged.results->groups.nr, r->judged.nr_pairs);
		if (verbose)
			pair_lines(out, r, ep, n, c);
	} else if (n) {
		struct endpoint_label *rows;
		unsigned int nrows = matrix_rows(r, ep, n, &rows);

		class_matrix(out, r, rows, nrows, c);
		verdict_matrix(out, r, rows, nrows, c);
		free(rows);
		if (verbose)
			pair_lines(out, r, ep, n, c);
	} else if (r->in.model) {
		fprintf(out, "\n%s(1) Topology%s: no GPU, NIC, NVMe or accelerator functions in the snapshot: no pairs to judge\n",
			c->bold, c->off);
	}
	if (r->in.gpu && r->in.gpu->nr_dev)
		report_text_software(out, r, &style);
	if (r->in.gpu && r->in.gpu->nr_dev) {
		gpu_table(out, r, ep, n, c);
		gpu_matrix(out, r, ep, n, PF_P2P, "P2P bandwidth, one way (GB/s)", c);
		gpu_matrix(out, r, ep, n, PF_STAGED, "Host-staged bandwidth, peer access off (GB/s)", c);
		gpu_matrix(out, r, ep, n, PF_BIDIR, "P2P bandwidth, both ways at once, this direction's share (GB/s)", c);
		gpu_matrix(out, r, ep, n, PF_LAT_P2P, "P2P latency (us per small copy)", c);
		gpu_matrix(out, r, ep, n, PF_LAT_STAGED, "Host-staged latency (us per small copy)", c);
		exchange_table(out, &r->in.gpu->exchange, c);
		if (r->in.gpu_measured)
			report_text_measured(out, r, &style);
		else
			report_text_nvml_failures(out, r, &style);
		report_text_curves(out, r, &style);
	}
	if (r->in.gpu && r->in.gpu->nr_dev)
		report_text_settings(out, r, &style);
	system_output_text(out, r);
	if (verbose)
		findings_text(out, r, c);
	closing_line(out, r, c);
	free(ep);
}
