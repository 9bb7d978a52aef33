/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the judgement files share and nobody else needs: the text builder
 * the findings' sentences are made with, PCI addresses as text, the words
 * for a pair's ACS blockers and the pair's fix as the results hold it.
 */
#ifndef P2PDIAG_JUDGE_PRIV_H
#define P2PDIAG_JUDGE_PRIV_H

#include <stddef.h>

#include "check.h"
#include "judge/judge.h"

/* Room for a finding's sentence; a fix may take the most a pair's text does. */
#define FIX_LEN		JUDGE_TEXT_MAX
#define TEXT_LEN	4096

/* A bounded string builder over a caller's buffer. */
struct text {
	char *p;
	size_t len, used;
};

/* Append to @t; what does not fit is cut, @t stays terminated. */
void text_add(struct text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A PCI address as text; a small ring so one printf can take several. */
const char *judge_addr_str(unsigned int addr);
/* "root port 0000:00:01.0 (ACSCtl 0x...: ...)" for each of @p's blockers. */
void judge_describe_blockers(const struct p2pd_model *m,
			     const struct p2pd_pair *p, struct text *t);
/* Pair @pi's fix as judge_pairs() wrote it into the results; "" for none. */
const char *judge_pair_fix_of(const struct check_run *r, int pi);

#endif /* P2PDIAG_JUDGE_PRIV_H */
