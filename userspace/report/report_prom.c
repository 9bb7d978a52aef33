// SPDX-License-Identifier: GPL-2.0
/*
 * node_exporter textfile-collector output.  The collector reads every
 * *.prom file in its directory whenever it is scraped, so the file is
 * written beside its final name (a dot file, which it ignores), flushed
 * to disk and renamed over FILE: a scrape sees the old run or the new one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "findings/finding_registry.h"
#include "judge/results.h"
#include "platform/atomic_file.h"
#include "topology/pciaddr.h"
#include "report/report.h"
#include "report/system_output.h"

/*
 * The measurements are kept in GB/s (1e9 bytes) and microseconds; the
 * textfile has Prometheus' base units, bytes per second and seconds.
 */
#define BYTES_PER_GB 1e9
#define US_PER_SECOND 1e6

/* A label value: backslash, double quote and newline escaped. */
static void label(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

/* Findings that would print as the same series (same labels). */
static int same_series(const struct finding *x, const struct finding *y)
{
	return x->severity == y->severity && x->a == y->a && x->b == y->b &&
	       x->has_pair == y->has_pair && !strcmp(x->code, y->code);
}

static void help(FILE *f, const char *name, const char *type, const char *text)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, text, name, type);
}

/* A GPU's UUID as dcgm-exporter labels it, where NVML gave one. */
static void gpu_uuid_label(FILE *f, const struct gpu_device *d)
{
	if (!d->uuid[0])
		return;
	fputs("UUID=\"", f);
	label(f, d->uuid);
	fputs("\",", f);
}

/* The GPUs' link generation or width: idle, under load, maximum. */
static void link_metric(FILE *f, const struct gpu_state *st, const char *name,
			const char *text, int width)
{
	char a[PCIADDR_NVML_STRLEN];
	unsigned int i;

	help(f, name, "gauge", text);
	for (i = 0; i < st->nr_dev; i++) {
		const struct gpu_link_reading *l = &st->dev[i].link;
		const unsigned int v[3] = {
			width ? l->width : l->gen,
			width ? l->width_load : l->gen_load,
			width ? l->max_width : l->max_gen,
		};
		static const char *const state[3] = { "idle", "load", "max" };
		unsigned int k;

		if (!l->valid)
			continue;
		pciaddr_format_nvml(a, st->dev[i].pci_addr);
		for (k = 0; k < 3; k++) {
			fprintf(f, "%s{pci_bus_id=\"%s\",", name, a);
			gpu_uuid_label(f, &st->dev[i]);
			fprintf(f, "state=\"%s\"} %u\n", state[k], v[k]);
		}
	}
}

/* One GPU's copy bandwidth of one kind, measured in GB/s. */
static void gpu_bandwidth(FILE *f, const struct gpu_device *d, const char *kind,
			  double gbs)
{
	char a[PCIADDR_NVML_STRLEN];

	fprintf(f, "p2pdiag_gpu_bandwidth_bytes_per_second{pci_bus_id=\"%s\",",
		pciaddr_format_nvml(a, d->pci_addr));
	gpu_uuid_label(f, d);
	fprintf(f, "kind=\"%s\"} %.0f\n", kind, gbs * BYTES_PER_GB);
}

static void pair_labels(FILE *f, const struct check_run *r, const struct p2pd_pair *p)
{
	char a[P2PD_ADDR_STRLEN], b[P2PD_ADDR_STRLEN];

	pciaddr_format(a, r->in.model->fn[p->a].addr);
	pciaddr_format(b, r->in.model->fn[p->b].addr);
	fprintf(f, "a=\"%s\",b=\"%s\"", a, b);
}

/* The run itself: version, source, generation, when, how it ended. */
static void run_metrics(FILE *f, const struct check_run *r, int exit_status)
{
	help(f, "p2pdiag_info", "gauge", "p2pdiag-check run: version and topology source");
	fprintf(f, "p2pdiag_info{version=\"");
	label(f, report_version());
	fprintf(f, "\",source=\"");
	label(f, r->in.source);
	fprintf(f, "\"} 1\n");
	help(f, "p2pdiag_generation", "gauge", "generation of the topology snapshot judged");
	fprintf(f, "p2pdiag_generation %lu\n", r->in.model ? r->in.model->generation : 0UL);
	help(f, "p2pdiag_last_run_timestamp_seconds", "gauge", "when this run ended");
	fprintf(f, "p2pdiag_last_run_timestamp_seconds %lld\n", (long long)time(NULL));
	help(f, "p2pdiag_exit_status", "gauge",
	     "0 all good, 1 warnings, 2 P2P broken, 3 usage or environment error");
	fprintf(f, "p2pdiag_exit_status %d\n", exit_status);
}

/*
 * Whether pair @i gets series of its own: every pair, or those whose
 * verdict says something is wrong (redirected, blocked, unknown).
 */
static bool pair_kept(const struct check_run *r, unsigned int i,
		      enum prom_pairs pairs)
{
	return pairs == PROM_PAIRS_ALL ||
	       (r->judged.pair[i].verdict != P2PD_VERDICT_OK &&
		r->judged.pair[i].verdict != P2PD_VERDICT_HOST);
}

/*
 * The judged pairs: how many of each verdict, and per pair (every pair
 * with --prometheus-pairs=all, else those whose verdict says something is
 * wrong: on a healthy 8-GPU, 8-NIC node that is nothing, where every pair
 * was 480 constant series) its verdict, how many pairs it stands for and
 * its blockers.
 */
static void pair_metrics(FILE *f, const struct check_run *r,
			 enum prom_pairs pairs)
{
	unsigned long count[P2PD_VERDICT_COUNT] = { 0 };
	unsigned int i, v;

	for (i = 0; i < r->judged.nr_pairs; i++)
		if ((unsigned int)r->judged.pair[i].verdict < P2PD_VERDICT_COUNT)
			count[r->judged.pair[i].verdict] += run_pair_count(r, i);
	help(f, "p2pdiag_pairs", "gauge",
	     "pairs of P2P endpoints judged, by verdict (every pair, whatever --prometheus-pairs says)");
	for (v = 0; v < P2PD_VERDICT_COUNT; v++)
		fprintf(f, "p2pdiag_pairs{verdict=\"%s\"} %lu\n",
			p2pd_verdict_name((enum p2pd_verdict)v), count[v]);
	help(f, "p2pdiag_pair_info", "gauge",
	     "1 for each judged pair of P2P endpoints, its class and verdict in labels (only pairs redirected, blocked or unknown, unless --prometheus-pairs=all)");
	for (i = 0; i < r->judged.nr_pairs; i++) {
		const struct p2pd_pair *p = &r->judged.pair[i];

		if (!pair_kept(r, i, pairs))
			continue;
		fprintf(f, "p2pdiag_pair_info{");
		pair_labels(f, r, p);
		fprintf(f, ",class=\"%s\",verdict=\"%s\"} 1\n",
			p2pd_class_name(p->cls), p2pd_verdict_name(p->verdict));
	}
	help(f, "p2pdiag_pair_endpoint_pairs", "gauge",
	     "pairs of P2P endpoints the pair's series stand for: 1, or grouped, every pair of a member of a's group with a member of b's");
	for (i = 0; i < r->judged.nr_pairs; i++) {
		if (!pair_kept(r, i, pairs))
			continue;
		fprintf(f, "p2pdiag_pair_endpoint_pairs{");
		pair_labels(f, r, &r->judged.pair[i]);
		fprintf(f, "} %lu\n", run_pair_count(r, i));
	}
	help(f, "p2pdiag_pair_blockers", "gauge",
	     "ports whose ACS redirects the pair's traffic");
	for (i = 0; i < r->judged.nr_pairs; i++) {
		if (!pair_kept(r, i, pairs))
			continue;
		fprintf(f, "p2pdiag_pair_blockers{");
		pair_labels(f, r, &r->judged.pair[i]);
		fprintf(f, "} %u\n", r->judged.pair[i].nr_blockers);
	}
}

/* The measured GPU pairs: bandwidth of each kind, its expectation, latency. */
static void gpu_pair_metrics(FILE *f, const struct check_run *r)
{
	static const char *const kinds[] = { "p2p", "staged", "bidir" };
	const struct gpu_state *st = r->in.gpu;
	char a[PCIADDR_NVML_STRLEN], b[PCIADDR_NVML_STRLEN];
	unsigned int i, k;

	help(f, "p2pdiag_gpu_pair_bandwidth_bytes_per_second", "gauge",
	     "GPU to GPU copy bandwidth measured (median), by kind");
	for (i = 0; i < st->nr_pairs; i++) {
		const struct gpu_pair *gp = &st->pair[i];
		const struct gpu_figure *figs[] = { &gp->p2p, &gp->staged, &gp->p2p_bidir };

		if (!r->judged.results->gpu_pair[i].selected)
			continue;
		pciaddr_format_nvml(a, st->dev[gp->src].pci_addr);
		pciaddr_format_nvml(b, st->dev[gp->dst].pci_addr);
		for (k = 0; k < 3; k++)
			if (figs[k]->valid)
				fprintf(f, "p2pdiag_gpu_pair_bandwidth_bytes_per_second{src=\"%s\",dst=\"%s\",kind=\"%s\"} %.0f\n",
					a, b, kinds[k], figs[k]->median * BYTES_PER_GB);
	}
	help(f, "p2pdiag_gpu_pair_expected_bandwidth_bytes_per_second", "gauge",
	     "GPU to GPU P2P bandwidth the pair's links allow, by the tool's model");
	for (i = 0; i < st->nr_pairs; i++) {
		const struct gpu_pair *gp = &st->pair[i];
		const struct judged_gpu_pair *jp = &r->judged.results->gpu_pair[i];

		if (!jp->selected || jp->expected_gbs <= 0)
			continue;
		fprintf(f, "p2pdiag_gpu_pair_expected_bandwidth_bytes_per_second{src=\"%s\",dst=\"%s\"} %.0f\n",
			pciaddr_format_nvml(a, st->dev[gp->src].pci_addr),
			pciaddr_format_nvml(b, st->dev[gp->dst].pci_addr),
			jp->expected_gbs * BYTES_PER_GB);
	}
	help(f, "p2pdiag_gpu_pair_latency_seconds", "gauge",
	     "per-copy latency of small copies (median), by kind");
	for (i = 0; i < st->nr_pairs; i++) {
		const struct gpu_pair *gp = &st->pair[i];

		pciaddr_format_nvml(a, st->dev[gp->src].pci_addr);
		pciaddr_format_nvml(b, st->dev[gp->dst].pci_addr);
		if (gp->latency_p2p.valid)
			fprintf(f, "p2pdiag_gpu_pair_latency_seconds{src=\"%s\",dst=\"%s\",kind=\"p2p\"} %.9g\n",
				a, b, gp->latency_p2p.median / US_PER_SECOND);
		if (gp->latency_staged.valid)
			fprintf(f, "p2pdiag_gpu_pair_latency_seconds{src=\"%s\",dst=\"%s\",kind=\"staged\"} %.9g\n",
				a, b, gp->latency_staged.median / US_PER_SECOND);
	}
}

/* Each GPU: its host and on-GPU bandwidth, its expectation, its link. */
static void gpu_metrics(FILE *f, const struct check_run *r)
{
	const struct gpu_state *st = r->in.gpu;
	char a[PCIADDR_NVML_STRLEN];
	unsigned int i;

	help(f, "p2pdiag_gpu_bandwidth_bytes_per_second", "gauge",
	     "host to GPU, GPU to host and on-GPU copy bandwidth measured (median), by kind");
	for (i = 0; i < st->nr_dev; i++) {
		const struct gpu_device *d = &st->dev[i];

		if (d->h2d.valid)
			gpu_bandwidth(f, d, "h2d", d->h2d.median);
		if (d->d2h.valid)
			gpu_bandwidth(f, d, "d2h", d->d2h.median);
		if (d->local.valid)
			gpu_bandwidth(f, d, "local", d->local.median);
	}
	help(f, "p2pdiag_gpu_expected_bandwidth_bytes_per_second", "gauge",
	     "host to GPU bandwidth the GPU's link allows, by the tool's model");
	for (i = 0; i < st->nr_dev; i++) {
		double exp = r->judged.results->gpu[i].expected_host_gbs;

		if (exp <= 0)
			continue;
		fprintf(f, "p2pdiag_gpu_expected_bandwidth_bytes_per_second{pci_bus_id=\"%s\",",
			pciaddr_format_nvml(a, st->dev[i].pci_addr));
		gpu_uuid_label(f, &st->dev[i]);
		fprintf(f, "} %.0f\n", exp * BYTES_PER_GB);
	}
	link_metric(f, st, "p2pdiag_gpu_link_gen",
		    "PCIe generation of the GPU's link: idle, load, max", 0);
	link_metric(f, st, "p2pdiag_gpu_link_width",
		    "lanes of the GPU's link: idle, load, max", 1);
}

/* The findings: how many of each severity, and one series per finding. */
static void finding_metrics(FILE *f, const struct check_run *r)
{
	char a[P2PD_ADDR_STRLEN], b[P2PD_ADDR_STRLEN];
	size_t n[3] = { 0 };
	unsigned int i;

	for (i = 0; i < r->judged.findings.nr; i++)
		n[r->judged.findings.item[i].severity]++;
	help(f, "p2pdiag_findings", "gauge", "number of findings by severity");
	fprintf(f, "p2pdiag_findings{severity=\"error\"} %zu\n", n[SEV_ERROR]);
	fprintf(f, "p2pdiag_findings{severity=\"warning\"} %zu\n", n[SEV_WARNING]);
	fprintf(f, "p2pdiag_findings{severity=\"info\"} %zu\n", n[SEV_INFO]);
	help(f, "p2pdiag_finding_info", "gauge",
	     "1 for each finding: its code, severity, family (the class of cause), and the pair or device it is about");
	for (i = 0; i < r->judged.findings.nr; i++) {
		const struct finding *it = &r->judged.findings.item[i];
		const struct finding_kind *kind = finding_kind_find(it->code);
		unsigned int j;

		for (j = 0; j < i && !same_series(it, &r->judged.findings.item[j]); j++)
			;
		if (j < i)
			continue;	/* the same series as an earlier one */
		fprintf(f, "p2pdiag_finding_info{code=\"");
		label(f, it->code);
		fprintf(f, "\",severity=\"%s\",family=\"", finding_severity_name(it->severity));
		label(f, kind ? kind->family : "unknown");
		/* what an alert's text names: the pair, the device or the machine */
		if (it->has_pair)
			fprintf(f, "\",subject=\"%s - %s\",a=\"%s\",b=\"%s\"} 1\n",
				pciaddr_format(a, it->a), pciaddr_format(b, it->b), a, b);
		else if (it->a != FINDING_NO_ADDR)
			fprintf(f, "\",subject=\"%s\",a=\"%s\"} 1\n",
				pciaddr_format(a, it->a), a);
		else
			fprintf(f, "\",subject=\"the node\"} 1\n");
	}
}

/* The whole textfile, in the order dashboards have always read it. */
static void write_metrics(FILE *f, const struct check_run *r, int exit_status,
			  enum prom_pairs pairs)
{
	run_metrics(f, r, exit_status);
	pair_metrics(f, r, pairs);
	if (r->in.gpu && r->in.gpu->pair)
		gpu_pair_metrics(f, r);
	if (r->in.gpu && r->in.gpu->nr_dev)
		gpu_metrics(f, r);
	system_output_prom(f, r);
	finding_metrics(f, r);
}

struct metrics_job {
	const struct check_run *r;
	int exit_status;
	enum prom_pairs pairs;
};

static int write_job(FILE *f, const void *ctx)
{
	const struct metrics_job *job = ctx;

	write_metrics(f, job->r, job->exit_status, job->pairs);
	return 0;
}

int report_prom_write(const char *path, const struct check_run *r,
		      int exit_status, enum prom_pairs pairs, char *err,
		      size_t errlen)
{
	const struct metrics_job job = { r, exit_status, pairs };

	return atomic_file_write(path, write_job, &job, err, errlen);
}
