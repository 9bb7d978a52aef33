/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One run of p2pdiag-check as the judgement and the reports see it: what
 * it was given (run/inputs.h) and what the judge decided of it, apart.
 * The judgement is written by the judge (judge_pairs(), judge_topology(),
 * judge_gpus(), causes_build(), diagnose()), by the system checks that
 * join the machine's facts to the judged pairs, and by the baseline
 * check, which compares this run with a saved one; the output writers
 * only read it.
 */
#ifndef P2PDIAG_JUDGE_JUDGEMENT_H
#define P2PDIAG_JUDGE_JUDGEMENT_H

#include <stdbool.h>

#include "findings/findings.h"
#include "judge/causes.h"
#include "judge/diagnosis.h"
#include "run/inputs.h"

struct run_results;

struct judgement {
	/* judged pairs (the selection applied), in p2pd_next_pair() order */
	struct p2pd_pair *pair;
	unsigned int nr_pairs;
	struct run_results *results;	/* judge/results.h; NULL until judge_pairs() */
	struct findings findings;
	struct causes causes;		/* the findings by cause, once judged */
	struct diagnosis diagnosis;	/* the root cause, once the causes are built */
};

struct check_run {
	struct run_inputs in;
	struct judgement judged;
};

/*
 * Lookups in the run, no policy: the index into r->judged.pair of the pair of
 * model functions @fa, @fb (either order; grouped, of their group pair),
 * or -1; the model index of GPU
 * @g, or P2PD_NO_INDEX; the measured GPU pair src -> dst, or NULL.
 */
int run_pair_index(const struct check_run *r, int fa, int fb);
int run_gpu_function(const struct check_run *r, unsigned int g);
const struct gpu_pair *run_gpu_pair(const struct gpu_state *st, int src, int dst);

/* Whether run_select() keeps index @i; @arg is the caller's. */
typedef bool (*run_keep_fn)(const struct check_run *r, unsigned int i,
			    const void *arg);

/*
 * run_select() - the indices below @n (into the model's functions, the
 * run's pairs, or any list the caller holds) for which @keep holds, in
 * increasing order.  They are counted first, so the caller can size its
 * own array to the count; @keep is asked twice per index and must answer
 * the same both times.
 * Return: how many, with *@out malloc'd (NULL when none is kept); -1, with
 * *@out NULL, when memory ran out.
 */
int run_select(const struct check_run *r, unsigned int n, run_keep_fn keep,
	       const void *arg, unsigned int **out);

#endif /* P2PDIAG_JUDGE_JUDGEMENT_H */
