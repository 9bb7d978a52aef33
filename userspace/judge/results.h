/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the judgement decided about a run, written once before any report
 * and only read by them: which endpoints the selection keeps; per judged
 * pair its fix and the GPU pairs it carries; per GPU and per measured GPU
 * pair each figure against its expectation (with the basis), whether it
 * is low and whether something other than the path explains it, the
 * settings and the curve fits.
 *
 * The per-pair part is kept small (a pointer and two indices beside each
 * of r->judged.pair): the fix text is allocated only for pairs that have one.
 */
#ifndef P2PDIAG_JUDGE_RESULTS_H
#define P2PDIAG_JUDGE_RESULTS_H

#include <stdbool.h>

#include "judge/judgement.h"
#include "p2pdiag/endpoint_groups.h"
#include "judge/curve_fit.h"
#include "judge/judge_expect.h"
#include "judge/judge_settings.h"

/* One measured figure against its expectation. */
struct judged_figure {
	struct judge_expect expect;
	double ratio;		/* measured / expected; 0 without both */
	bool low;		/* misses the rate, or exceeds the ceiling */
	bool explained;		/* something other than the path would explain it */
};

/*
 * Beside r->judged.pair[i].  Grouped (endpoint_groups.h), r->judged.pair[i] is the
 * representative of a group pair and stands for count pairs judged alike.
 */
struct judged_pair {
	char *fix;		/* judge_pair_fix()'s text; NULL: nothing to fix */
	int gpu_ab, gpu_ba;	/* indices into r->in.gpu->pair: a -> b, b -> a; -1 */
	unsigned long count;	/* pairs it stands for: 1 unless grouped */
	int group_a, group_b;	/* its groups, group_a <= group_b; -1 unless grouped */
};

struct judged_gpu {
	bool selected;		/* the selection keeps it */
	double expected_host_gbs;	/* host <-> GPU per direction; 0 unknown */
	struct judged_figure fig[JF_DEV_FIGS];
	struct judge_setting setting[JUDGE_SETTINGS_MAX];
	unsigned int nr_settings;
	struct curve_fit curve[CURVE_KINDS];
	bool clocks_held;	/* a clock reason that slows copies was seen */
	char throttle_words[256];	/* every clock reason NVML gave */
	char process_words[600];	/* the other processes on the GPU */
};

/* Beside r->in.gpu->pair[i]. */
struct judged_gpu_pair {
	bool selected;		/* the selection keeps both GPUs */
	double expected_gbs;	/* src -> dst per direction; 0 unknown */
	struct judged_figure fig[JP_PAIR_FIGS];
	struct curve_fit curve;
};

/*
 * Per model function, the judged pairs it is an end of or on the path of:
 * how many, and the ends of the first RUN_PAIRS_NAMED in judgement order
 * (which a finding about the function names), counted in the one pair
 * loop, so that no later check walks every pair for every function.
 */
#define RUN_PAIRS_NAMED	3

struct pairs_through {
	unsigned long nr;
	int a[RUN_PAIRS_NAMED], b[RUN_PAIRS_NAMED];
};

struct run_results {
	unsigned char *fn_selected;	/* per model function; NULL: all */
	bool grouped;			/* r->judged.pair holds group pairs */
	struct p2pd_groups groups;	/* when grouped */
	int *group_storage;
	unsigned long nr_member_pairs;	/* the pairs judged, listed or not */
	/* of them, by verdict (enum p2pd_verdict) */
	unsigned long verdict_pairs[P2PD_VERDICT_COUNT];
	/*
	 * Judged pairs that are not in r->judged.pair: past PAIRS_LISTED_MAX judged
	 * pairs, only those that matter (judge_pair_matters()) are kept.
	 */
	unsigned long pairs_not_listed;
	struct pairs_through *through;	/* per model function */
	struct judged_pair *pair;	/* r->judged.nr_pairs of them */
	struct judged_gpu gpu[GPU_MAX];	/* r->in.gpu->nr_dev of them */
	struct judged_gpu_pair *gpu_pair;	/* r->in.gpu->nr_pairs of them */
	unsigned int nr_gpu_pairs;
	struct judge_setting host_aspm;
};

/* Whether the selection keeps model function @fn (every one before judgement). */
static inline bool run_fn_selected(const struct check_run *r, int fn)
{
	return fn >= 0 && (!r->judged.results || !r->judged.results->fn_selected ||
			   r->judged.results->fn_selected[fn]);
}

/* Model function @fn's judged pairs (zero before judgement). */
static inline const struct pairs_through *run_pairs_through(const struct check_run *r,
							    int fn)
{
	static const struct pairs_through none;

	return fn >= 0 && r->judged.results && r->judged.results->through ?
	       &r->judged.results->through[fn] : &none;
}

/* How many pairs r->judged.pair[@i] stands for. */
static inline unsigned long run_pair_count(const struct check_run *r,
					   unsigned int i)
{
	return r->judged.results && r->judged.results->pair ? r->judged.results->pair[i].count : 1;
}

/*
 * The most pairs the judgement keeps one by one (about 600 bytes each, and
 * more in a report), --expand-pairs or not: past it the tool says so and
 * stops.
 */
#define EXPAND_PAIRS_MAX	1000000ul

/*
 * Up to this many judged pairs (group pairs when grouped) every one is
 * kept and listed; past it, only those that matter, and the others are
 * counted by verdict: a fabric whose thousands of endpoints share no
 * group has millions of pairs that are fine, and listing each helps
 * nobody.
 */
#define PAIRS_LISTED_MAX	65536ul

/*
 * judge_pairs() - apply the selection and judge every pair it keeps into
 * r->judged.pair (the one pair loop of the tool), each with its fix into
 * r->judged.results.  Without a selection and without r->in.expand_pairs the pairs
 * are grouped: one judgement per group pair, which stands for its count.
 * Return: 0, or -1 with the reason in @err (an address of the selection
 * that is no endpoint, no memory).
 */
int judge_pairs(struct check_run *r, char *err, size_t errlen);

/*
 * judge_figures() - the GPU half of r->judged.results: each GPU's and GPU pair's
 * expectations, settings and curve fits.  judge_gpus() calls it first.
 */
void judge_figures(struct check_run *r);

/*
 * judge_release() - free r->judged.pair and r->judged.results; r->in.model
 * is the source's again.
 */
void judge_release(struct check_run *r);

#endif /* P2PDIAG_JUDGE_RESULTS_H */
