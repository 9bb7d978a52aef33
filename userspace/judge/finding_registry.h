/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every finding code the tool can report, in one table: its severity
 * range, its family, what it means and the fix it usually carries.
 * findings_add() refuses a code that is not here, `p2pdiag-check
 * --list-findings` prints the table, and the unit tests compare it with
 * the documentation's lists, so a code cannot be added, renamed or dropped
 * in one place only.
 *
 * Adding a finding: one entry in finding_registry.c, its producer (the
 * findings_add() call) and a test that makes the producer report it.
 */
#ifndef P2PDIAG_FINDING_REGISTRY_H
#define P2PDIAG_FINDING_REGISTRY_H

#include <stddef.h>
#include <stdio.h>

#include "judge/finding_severity.h"

struct finding_kind {
	const char *code;
	/* the severities its producer gives it: least and worst */
	enum finding_severity least, worst;
	const char *family;	/* what it is about: "path", "gpudirect", ... */
	const char *meaning;	/* one line: what it says */
	const char *fix;	/* the usual fix in one line, or NULL */
};

/* The entry for @code, or NULL when no finding has that code. */
const struct finding_kind *finding_kind_find(const char *code);

/*
 * The fix @code's producers give when nothing more specific is known:
 * the table's, so that it is written once; NULL when none.
 */
const char *finding_default_fix(const char *code);

/* The table, in documentation order; *@nr gets its length. */
const struct finding_kind *finding_kinds(size_t *nr);

/*
 * finding_kinds_print() - the table for --list-findings: one line per
 * code, tab-separated: code, severity ("warning", or "info-warning" for a
 * range), family, meaning, fix ("-" when none).  Returns 0, or -1 when
 * writing failed.
 */
int finding_kinds_print(FILE *out);

/*
 * How many findings_add() calls named an unregistered code or gave a
 * severity outside the code's range, since the program started.  The unit
 * tests assert it stays as they expect; a run says each on stderr.
 */
unsigned long finding_registry_violations(void);

#endif /* P2PDIAG_FINDING_REGISTRY_H */
