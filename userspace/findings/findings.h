/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A finding: one thing the run learned that a person should act on or
 * know, with a stable code (scripts and tests match on it), the numbers
 * behind it in the message, and the fix.  Severity decides the exit status
 * (outcome.h).
 */
#ifndef P2PDIAG_FINDINGS_H
#define P2PDIAG_FINDINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "findings/finding_registry.h"
#include "findings/finding_severity.h"
#include "findings/root_cause.h"

/* Longer than any code of finding_codes.h (the unit tests check). */
#define FINDING_CODE_LEN 48

struct finding {
	enum finding_severity severity;
	enum finding_code id;
	const char *code;	/* id's text in the registry: "acs-redirect" */
	char *message;
	char *fix;		/* NULL when there is nothing to change */
	bool has_pair;
	unsigned long long a, b;	/* P2PD_ADDR() of the pair, when has_pair */
	/* --evidence: "file:line[; file:line...]" it rests on, or NULL */
	char *evidence;
	/* what it is about: its code's default (root_cause.c), or its rule's */
	enum root_cause root_cause;
};

struct findings {
	struct finding *item;
	size_t nr, cap;
	bool oom;		/* an allocation failed: some were lost */
	bool unregistered;	/* a code out of the registry's range was refused */
};

/*
 * findings_add() - record a finding.  @code: an FC_ constant of
 * finding_codes.h.  @a, @b: the pair's addresses, or both FINDING_NO_ADDR.
 * @fix: the fix; NULL for @code's default fix in finding_codes.h (none
 * where it has none); FINDING_NO_FIX, or an empty text, for no fix.  The
 * message is printf-style.  Returns 0, or -1 when memory ran out
 * (remembered in f->oom) or @code is out of the registry's range (refused,
 * remembered in f->unregistered).
 */
#define FINDING_NO_ADDR (~0ULL)
#define FINDING_NO_FIX ""
int findings_add(struct findings *f, enum finding_severity sev,
		 enum finding_code code, unsigned long long a, unsigned long long b,
		 const char *fix, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));

/*
 * findings_set_evidence() - the files and lines (@refs: "file:line",
 * separated by "; ") the last finding rests on.  Return: 0, or -1 when
 * memory ran out (f->oom).
 */
int findings_set_evidence(struct findings *f, const char *refs);

/*
 * findings_set_root_cause() - the last finding's root cause, where the
 * rule that made it knows more than its code's default.
 */
void findings_set_root_cause(struct findings *f, enum root_cause rc);

void findings_free(struct findings *f);
/* How many findings carry @code (tests and the baseline use it). */
size_t findings_count_code(const struct findings *f, const char *code);
enum finding_severity findings_worst(const struct findings *f);

#endif /* P2PDIAG_FINDINGS_H */
