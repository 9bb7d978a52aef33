// SPDX-License-Identifier: GPL-2.0
/*
 * Findings for the systemd journal.  A service's stderr goes to the
 * journal line by line, and systemd reads a leading "<N>" (sd-daemon(3),
 * SyslogLevelPrefix= on by default) as that line's syslog priority, so
 * `journalctl -p warning -u p2pdiag-check` shows exactly the warnings and
 * errors.  Every line of a finding, its fix included, carries the
 * finding's priority: a priority filter never shows half a finding.
 */
#include <stdio.h>
#include <string.h>

#include "topology/pciaddr.h"
#include "report/report.h"

/* syslog(3) levels, as sd-daemon.h spells them, without the dependency. */
#define JOURNAL_ERR	3
#define JOURNAL_WARNING	4
#define JOURNAL_INFO	6

static int journal_priority(enum finding_severity s)
{
	switch (s) {
	case SEV_ERROR:
		return JOURNAL_ERR;
	case SEV_WARNING:
		return JOURNAL_WARNING;
	default:
		return JOURNAL_INFO;
	}
}

/* @text, one journal line per line of it, each "<prio>@lead<line>". */
static void journal_lines(FILE *out, int prio, const char *lead,
			  const char *text)
{
	do {
		size_t n = strcspn(text, "\n");

		fprintf(out, "<%d>%s%.*s\n", prio, lead, (int)n, text);
		text += n;
	} while (*text && *++text);
}

void report_journal(FILE *out, const struct check_run *r)
{
	const struct findings *f = &r->judged.findings;
	size_t i, count[SEV_ERROR + 1] = { 0 };

	for (i = 0; i < f->nr; i++) {
		const struct finding *x = &f->item[i];
		int prio = journal_priority(x->severity);
		char a[P2PD_ADDR_STRLEN], b[P2PD_ADDR_STRLEN];
		char lead[FINDING_CODE_LEN + 2 * P2PD_ADDR_STRLEN + 32];

		count[x->severity]++;
		/* Every line names its finding: a grep finds whole ones. */
		if (x->has_pair)
			snprintf(lead, sizeof(lead), "%s %s %s-%s: ",
				 finding_severity_name(x->severity), x->code,
				 pciaddr_format(a, x->a), pciaddr_format(b, x->b));
		else
			snprintf(lead, sizeof(lead), "%s %s: ",
				 finding_severity_name(x->severity), x->code);
		journal_lines(out, prio, lead, x->message);
		if (x->fix) {
			strncat(lead, "fix: ", sizeof(lead) - strlen(lead) - 1);
			journal_lines(out, prio, lead, x->fix);
		}
	}
	fprintf(out, "<%d>summary: %zu errors, %zu warnings, %zu infos%s\n",
		f->nr ? journal_priority(findings_worst(f)) : JOURNAL_INFO,
		count[SEV_ERROR], count[SEV_WARNING], count[SEV_INFO],
		f->oom ? " (out of memory: some findings were lost)" : "");
}
