/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every finding code the tool can report, in one table made from
 * finding_codes.h: its severity range, its family, what it means, its
 * default root cause and the fix it usually carries.  `p2pdiag-check
 * --list-findings` prints the table, and the unit tests compare it with
 * the documentation's lists, so a code cannot be added, renamed or dropped
 * in one place only.
 *
 * Adding a finding: one FINDING() entry in finding_codes.h, its producer
 * (the findings_add() call, naming the FC_ constant) and a test that makes
 * the producer report it.
 */
#ifndef P2PDIAG_FINDING_REGISTRY_H
#define P2PDIAG_FINDING_REGISTRY_H

#include <stddef.h>
#include <stdio.h>

#include "findings/finding_severity.h"
#include "findings/root_cause.h"

/* FC_ACS_REDIRECT, ...: one per entry of finding_codes.h, in its order. */
enum finding_code {
#define FINDING(id, code, family, least, worst, root_cause, meaning, fix) id,
#include "findings/finding_codes.h"
#undef FINDING
	FC_COUNT
};

struct finding_kind {
	const char *code;
	const char *family;	/* what it is about: "path", "gpudirect", ... */
	/* the severities its producer gives it: least and worst */
	enum finding_severity least, worst;
	/* what a finding of this code is about when its producer says no more */
	enum root_cause root_cause;
	const char *meaning;	/* one line: what it says */
	const char *fix;	/* the usual fix in one line, or NULL */
};

/* The entry of @code, or NULL when @code is out of range. */
const struct finding_kind *finding_kind(enum finding_code code);

/* The entry whose code is @code, or NULL when no finding has that code. */
const struct finding_kind *finding_kind_find(const char *code);

/*
 * The fix @code's producers give when nothing more specific is known:
 * the table's, so that it is written once; NULL when none.
 */
const char *finding_default_fix(enum finding_code code);

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
 * How many findings_add() calls named a code out of range or gave a
 * severity outside the code's range, since the program started.  The unit
 * tests assert it stays as they expect; a run says each on stderr.
 */
unsigned long finding_registry_violations(void);

#endif /* P2PDIAG_FINDING_REGISTRY_H */
