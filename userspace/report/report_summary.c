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
#include "report/report.h"

const char *report_state_word(const struct check_run *r)
{
	if (!r->findings.nr)
		return "healthy";
	switch (findings_worst(&r->findings)) {
	case SEV_ERROR:
		return "broken";
	case SEV_WARNING:
		return "degraded";
	default:
		return "healthy";
	}
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

int report_summary(FILE *out, const struct check_run *r)
{
	const struct causes *k = &r->causes;
	const struct cause *first = k->nr ? &k->cause[0] : NULL;
	const char *state = report_state_word(r);

	fputs(state, out);
	if (first && first->severity >= SEV_WARNING) {
		fprintf(out, ": %s", first->code);
		if (first->nr_member_pairs)
			fprintf(out, " (%lu pair%s)", first->nr_member_pairs,
				first->nr_member_pairs == 1 ? "" : "s");
		fputs(": ", out);
		if (first->machine_fix && k->ports.nr && r->model) {
			char param[JUDGE_TEXT_MAX];
			struct p2pd_buf b;

			p2pd_buf_init(&b, param, sizeof(param));
			p2pd_format_fix_set(&b, r->model, &k->ports);
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
