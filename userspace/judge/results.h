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
 * of r->pair): the fix text is allocated only for pairs that have one.
 */
#ifndef P2PDIAG_JUDGE_RESULTS_H
#define P2PDIAG_JUDGE_RESULTS_H

#include <stdbool.h>

#include "check.h"
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
 * Beside r->pair[i].  Grouped (endpoint_groups.h), r->pair[i] is the
 * representative of a group pair and stands for count pairs judged alike.
 */
struct judged_pair {
	char *fix;		/* judge_pair_fix()'s text; NULL: nothing to fix */
	int gpu_ab, gpu_ba;	/* indices into r->gpu->pair: a -> b, b -> a; -1 */
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

/* Beside r->gpu->pair[i]. */
struct judged_gpu_pair {
	bool selected;		/* the selection keeps both GPUs */
	double expected_gbs;	/* src -> dst per direction; 0 unknown */
	struct judged_figure fig[JP_PAIR_FIGS];
	struct curve_fit curve;
};

struct run_results {
	unsigned char *fn_selected;	/* per model function; NULL: all */
	bool grouped;			/* r->pair holds group pairs */
	struct p2pd_groups groups;	/* when grouped */
	int *group_storage;
	unsigned long nr_member_pairs;	/* the pairs r->pair stands for */
	struct judged_pair *pair;	/* r->nr_pairs of them */
	struct judged_gpu gpu[GPU_MAX];	/* r->gpu->nr_dev of them */
	struct judged_gpu_pair *gpu_pair;	/* r->gpu->nr_pairs of them */
	unsigned int nr_gpu_pairs;
	struct judge_setting host_aspm;
};

/* Whether the selection keeps model function @fn (every one before judgement). */
static inline bool run_fn_selected(const struct check_run *r, int fn)
{
	return fn >= 0 && (!r->results || !r->results->fn_selected ||
			   r->results->fn_selected[fn]);
}

/* How many pairs r->pair[@i] stands for. */
static inline unsigned long run_pair_count(const struct check_run *r,
					   unsigned int i)
{
	return r->results && r->results->pair ? r->results->pair[i].count : 1;
}

/*
 * The most pairs --expand-pairs judges one by one (about 600 bytes each,
 * and more in a report): past it the tool says so and stops.
 */
#define EXPAND_PAIRS_MAX	1000000ul

/*
 * judge_pairs() - apply the selection and judge every pair it keeps into
 * r->pair (the one pair loop of the tool), each with its fix into
 * r->results.  Without a selection and without r->expand_pairs the pairs
 * are grouped: one judgement per group pair, which stands for its count.
 * Return: 0, or -1 with the reason in @err (an address of the selection
 * that is no endpoint, no memory).
 */
int judge_pairs(struct check_run *r, char *err, size_t errlen);

/*
 * judge_figures() - the GPU half of r->results: each GPU's and GPU pair's
 * expectations, settings and curve fits.  judge_gpus() calls it first.
 */
void judge_figures(struct check_run *r);

/* judge_release() - free r->pair and r->results. */
void judge_release(struct check_run *r);

#endif /* P2PDIAG_JUDGE_RESULTS_H */
