// SPDX-License-Identifier: GPL-2.0
/*
 * The run in one word and one line, for the engines that run a fleet: a
 * node label (healthy, degraded, broken) and a line that a scheduler can
 * keep as the reason it took a node out of service, naming the worst
 * cause and what to do about it.  The line is what --summary prints and
 * what the Slurm health check puts in its drain reason.
 */
#include <stdio.h>
#include <string.h>

#include "judge/judge.h"
#include "judge/run_state.h"
#include "report/report.h"
#include "topology/pciaddr.h"

const char *report_state_word(const struct check_run *r)
{
	return run_state_name(run_state(r, NULL));
}

/* @s on one line: each run of newlines and tabs becomes one space. */
static void put_one_line(FILE *out, const char *s)
{
	while (*s) {
		size_t n = strcspn(s, "\n\t");

		fprintf(out, "%.*s", (int)n, s);
		s += n;
		if (*s) {
			s += strspn(s, "\n\t");
			if (*s)
				fputc(' ', out);
		}
	}
}

/* Names given per cause before "+N more", and other causes named. */
#define SUMMARY_NAMES	2
#define SUMMARY_CAUSES	3

/*
 * What @k is about, in parentheses: its pairs ("2 pairs: A-B, C-D, +3
 * more") or its devices ("0000:1b:00.0, +1 more"); nothing when its
 * findings name neither.
 */
static void put_subjects(FILE *out, const struct check_run *r,
			 const struct cause *k)
{
	const struct findings *f = &r->judged.findings;
	unsigned long long dev[SUMMARY_NAMES];
	char x[P2PD_ADDR_STRLEN], y[P2PD_ADDR_STRLEN];
	unsigned long shown = 0, devices = 0, more;
	size_t i, j;

	if (k->nr_member_pairs) {
		fprintf(out, " (%lu pair%s", k->nr_member_pairs,
			k->nr_member_pairs == 1 ? "" : "s");
		for (i = 0; i < k->nr && shown < SUMMARY_NAMES; i++) {
			const struct finding *it = &f->item[k->item[i]];

			if (!it->has_pair)
				continue;
			fprintf(out, "%s%s-%s", shown ? ", " : ": ",
				pciaddr_format(x, it->a), pciaddr_format(y, it->b));
			shown++;
		}
		more = k->nr_member_pairs > shown ? k->nr_member_pairs - shown : 0;
		if (more && shown)
			fprintf(out, ", +%lu more", more);
		fputc(')', out);
		return;
	}
	/* the devices, each once, in the order of the findings */
	for (i = 0; i < k->nr; i++) {
		const struct finding *it = &f->item[k->item[i]];

		if (it->a == FINDING_NO_ADDR)
			continue;
		for (j = 0; j < shown && dev[j] != it->a; j++)
			;
		if (j < shown)
			continue;
		devices++;
		if (shown < SUMMARY_NAMES) {
			fprintf(out, "%s%s", shown ? ", " : " (",
				pciaddr_format(x, it->a));
			dev[shown++] = it->a;
		}
	}
	if (!shown)
		return;
	if (devices > shown)
		fprintf(out, ", +%lu more", devices - shown);
	fputc(')', out);
}

int report_summary(FILE *out, const struct check_run *r)
{
	const struct causes *k = &r->judged.causes;
	const struct cause *first = k->nr ? &k->cause[0] : NULL;
	enum run_grounds grounds;
	enum run_state state = run_state(r, &grounds);
	size_t i, others = 0;

	fputs(run_state_name(state), out);
	if (grounds == GROUNDS_NO_PAIR)
		fputs(": no pair of P2P endpoints to judge", out);
	else if (grounds == GROUNDS_NOT_SHOWN)
		fputs(": the files do not show health", out);
	if (first && first->severity >= SEV_WARNING) {
		fprintf(out, ": %s", first->code);
		put_subjects(out, r, first);
		/* the other causes that count, worst first, before the fix */
		for (i = 1; i < k->nr; i++)
			if (k->cause[i].severity >= SEV_WARNING)
				others++;
		if (others) {
			size_t named = 0;

			fprintf(out, ", +%zu more (", others);
			for (i = 1; i < k->nr && named < SUMMARY_CAUSES; i++) {
				if (k->cause[i].severity < SEV_WARNING)
					continue;
				fprintf(out, "%s%s", named ? ", " : "",
					k->cause[i].code);
				named++;
			}
			fprintf(out, "%s)", others > named ? ", ..." : "");
		}
		fputs(": ", out);
		if (first->machine_fix && k->ports.nr && r->in.model) {
			char param[JUDGE_TEXT_MAX];
			struct p2pd_buf b;

			p2pd_buf_init(&b, param, sizeof(param));
			p2pd_format_fix_set(&b, r->in.model, &k->ports);
			p2pd_buf_terminate(&b);
			fprintf(out, "boot with %s", param);
		} else {
			const char *fix = cause_fix(r, first);

			put_one_line(out, fix ? fix : "no single change fixes it: see p2pdiag-check's report");
		}
	}
	fputc('\n', out);
	return fflush(out) || ferror(out) ? -1 : 0;
}
