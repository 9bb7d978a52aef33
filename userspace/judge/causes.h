/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Findings grouped by cause, and the one fix for the whole machine.
 *
 * Judgement writes one finding per pair (and per device), which is what
 * JSON and --verbose show.  A person needs one line per cause: all
 * findings with the same code are one cause, listing the pairs it breaks,
 * worst first.  Any code groups this way, so new kinds of findings need
 * nothing here.
 *
 * The kernel keeps one disable_acs_redir= list (a second replaces the
 * first), so the machine-wide fix is one parameter naming every port whose
 * redirect a pair's fix clears, over every pair with a warning or an error.
 */
#ifndef P2PDIAG_CAUSES_H
#define P2PDIAG_CAUSES_H

#include <stdbool.h>
#include <stddef.h>

#include "findings/findings.h"
#include "p2pdiag/format.h"

struct check_run;

struct cause {
	const char *code;		/* its findings' code: the registry's text */
	enum finding_severity severity;	/* the worst of its findings */
	size_t *item;			/* indices into the findings, worst first */
	size_t nr;
	size_t nr_pairs;		/* of those, findings about a pair */
	unsigned long nr_member_pairs;	/* the pairs those stand for (grouped: more) */
	/* the fix all of them share, or NULL (always NULL with machine_fix) */
	const char *fix;
	/* each one's fix is its pair's ACS fix: the machine-wide one holds it */
	bool machine_fix;
	/* what it is about: its worst finding's root cause */
	enum root_cause root_cause;
};

struct causes {
	struct cause *cause;		/* worst first, then most pairs */
	size_t nr;
	/* the machine-wide fix: every port that matters, in address order */
	struct p2pd_port_set ports;
	bool oom;			/* memory ran out: fewer causes than findings */
};

/*
 * causes_build() - group @r's findings into @c (zeroed or freed before).
 * Return: 0, or -1 when memory ran out (c->oom; what was built is usable).
 */
int causes_build(const struct check_run *r, struct causes *c);

void causes_free(struct causes *c);

/*
 * cause_fix() - what to do about @c when it is not the machine-wide fix:
 * the fix all its findings share, else its worst finding's own, or NULL.
 */
const char *cause_fix(const struct check_run *r, const struct cause *c);

/* How many causes of severity @sev. */
size_t causes_count(const struct causes *c, enum finding_severity sev);

#endif /* P2PDIAG_CAUSES_H */
