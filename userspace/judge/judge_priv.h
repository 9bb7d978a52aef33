/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the judgement files share and nobody else needs: the text builder
 * the findings' sentences are made with, PCI addresses as text, the words
 * for a pair's ACS blockers and the pair's fix as the results hold it;
 * and what the GPU findings of devices and of pairs both say.
 */
#ifndef P2PDIAG_JUDGE_PRIV_H
#define P2PDIAG_JUDGE_PRIV_H

#include <stddef.h>

#include "judge/judgement.h"
#include "judge/judge.h"
#include "judge/judge_expect.h"

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
const char *judge_addr_str(unsigned long long addr);
/* "root port 0000:00:01.0 (ACSCtl 0x...: ...)" for each of @p's blockers. */
void judge_describe_blockers(const struct p2pd_model *m,
			     const struct p2pd_pair *p, struct text *t);
/* Pair @pi's fix as judge_pairs() wrote it into the results; "" for none. */
const char *judge_pair_fix_of(const struct check_run *r, int pi);
/* A paravirtual end's family ("virtio", ...) when @p has one, else NULL. */
const char *judge_paravirtual_pair(const struct p2pd_model *m,
				   const struct p2pd_pair *p);

struct judged_figure;

/*
 * gpu_finding_text.c, for gpu_device_findings.c and gpu_pair_findings.c:
 * the PCI address of GPU @g (FINDING_NO_ADDR when out of range); whether
 * @f's data failed verification; the data-corrupt finding for figure
 * @what; the finding of a figure low against its expectation @jf (with
 * @why and @why_fix when something else explains it, else @fix); what to
 * check for a device figure nothing explains; and, for a copy that hung,
 * a sentence on what the topology says about model functions @fa, @fb.
 */
unsigned long long judge_gpu_addr(const struct check_run *r, int g);
int judge_verify_failed(const struct gpu_figure *f);
void judge_corrupt(struct check_run *r, const char *what,
		   unsigned long long a, unsigned long long b,
		   const struct gpu_figure *f);
void judge_figure(struct check_run *r, const char *what, unsigned long long a,
		  unsigned long long b, const struct gpu_figure *fig,
		  const struct judged_figure *jf,
		  const char *why, const char *why_fix, const char *fix);
const char *judge_figure_fix(enum judge_dev_fig f);
void judge_topology_hint(const struct check_run *r, int fa, int fb,
			 char *buf, size_t len);
/* The findings of measured GPU pair @k (gpu_pair_findings.c). */
void judge_gpu_pair(struct check_run *r, unsigned int k);

#endif /* P2PDIAG_JUDGE_PRIV_H */
