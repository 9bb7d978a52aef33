// SPDX-License-Identifier: GPL-2.0
/*
 * --evidence end to end: each file read and handed to every reader (a
 * paste often holds several outputs), an lspci -xxxx dump judged by the
 * engine as --pci-dump is, then the evidence's own findings, and the
 * findings put in the order of their causes so that the first finding is
 * the first cause's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "evidence/evidence.h"
#include "judge/causes.h"
#include "judge/cpu_inference.h"
#include "judge/judge.h"
#include "judge/results.h"

/* The findings in the order of their causes, each cause's worst first. */
static void order_by_cause(struct check_run *r)
{
	struct findings *f = &r->findings;
	struct causes c = { 0 };
	struct finding *sorted;
	size_t i, k, n = 0;

	if (f->nr < 2 || causes_build(r, &c) || c.nr == 0) {
		causes_free(&c);
		return;
	}
	sorted = malloc(f->nr * sizeof(*sorted));
	if (!sorted) {
		causes_free(&c);
		return;
	}
	for (i = 0; i < c.nr; i++)
		for (k = 0; k < c.cause[i].nr; k++)
			sorted[n++] = f->item[c.cause[i].item[k]];
	if (n == f->nr) {
		memcpy(f->item, sorted, n * sizeof(*sorted));
	}
	free(sorted);
	causes_free(&c);
}

static void describe_sources(struct check_run *r, const struct evidence *ev)
{
	size_t used = 0;
	unsigned int i;

	used += (size_t)snprintf(r->source_detail, sizeof(r->source_detail),
				 "%u pasted file%s:", ev->nr_files, ev->nr_files == 1 ? "" : "s");
	for (i = 0; i < ev->nr_files && used < sizeof(r->source_detail); i++) {
		const struct ev_file *f = &ev->file[i];
		unsigned int b;
		bool first = true;

		used += (size_t)snprintf(r->source_detail + used, sizeof(r->source_detail) - used,
					 "%s %s (", i ? "," : "", ev_file_name(ev, i));
		for (b = 0; b < EV_FMT_COUNT && used < sizeof(r->source_detail); b++)
			if (f->formats & (1u << b)) {
				used += (size_t)snprintf(r->source_detail + used,
							 sizeof(r->source_detail) - used, "%s%s",
							 first ? "" : " ", ev_format_name(1u << b));
				first = false;
			}
		if (used < sizeof(r->source_detail))
			used += (size_t)snprintf(r->source_detail + used,
						 sizeof(r->source_detail) - used, "%s)",
						 first ? "not read" : "");
	}
}

bool evidence_none_read(const struct evidence *ev)
{
	unsigned int i;

	for (i = 0; i < ev->nr_files; i++)
		if (ev->file[i].formats)
			return false;
	return true;
}

int evidence_check(struct check_run *r, struct evidence *ev,
		   char *const *paths, unsigned int nr, char *err, size_t errlen)
{
	unsigned int i, recognised = 0;

	if (!nr) {
		snprintf(err, errlen, "--evidence needs at least one FILE (- for stdin)");
		return -1;
	}
	for (i = 0; i < nr; i++) {
		struct ev_file *f;

		if (evidence_load(ev, paths[i], err, errlen))
			return -1;
		f = &ev->file[ev->nr_files - 1];
		if (f->binary || f->unreadable)
			continue;
		read_topo(ev, i);
		read_p2pbw(ev, i);
		read_nvbandwidth(ev, i);
		read_lspci(ev, i);
		read_nccl(ev, i);
		read_kernel_log(ev, i);
		/* a dump libpci refused is that file's reason, not the run's end */
		if (read_lspci_dump(ev, i, f->why, sizeof(f->why)) && f->formats)
			f->why[0] = '\0';
	}
	ev_match_gpus(ev);
	ev_lspci_model(ev);
	for (i = 0; i < ev->nr_files; i++) {
		const struct ev_file *f = &ev->file[i];

		if (f->formats) {
			recognised++;
			continue;
		}
		fprintf(stderr, "p2pdiag-check: --evidence: %s: %s: not read\n",
			ev_file_name(ev, i), ev_file_why(f));
	}
	r->source = "evidence";
	r->evidence = ev;
	describe_sources(r, ev);
	if (!recognised) {
		/* the report still says which files and why: exit 3 (main.c) */
		findings_add(&r->findings, SEV_INFO, "evidence-undecided", FINDING_NO_ADDR,
			     FINDING_NO_ADDR,
			     "pass the outputs named under --evidence in --help, as printed (nvidia-smi topo -m or -p2p r, p2pBandwidthLatencyTest, nvbandwidth, lspci -vvv, NCCL_DEBUG=INFO, nccl-tests, dmesg)",
			     "none of the %u file%s could be read as an output p2pdiag knows: nothing was judged",
			     ev->nr_files, ev->nr_files == 1 ? "" : "s");
		return 0;
	}
	if (ev->have_dump) {
		r->model = &ev->dump;
		if (ev->cpu_known)
			ev->dump.cpu_flags = ev->cpu_flags;
		else
			cpu_from_host_bridges(r, &ev->dump);
		if (judge_pairs(r, err, errlen))
			return -1;
		judge_topology(r);
	}
	evidence_judge(r, ev);
	order_by_cause(r);
	return 0;
}
