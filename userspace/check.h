/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One run of p2pdiag-check as the judgement and the reports see it: the
 * snapshot model and where it came from, the engine's pairs, what the GPU
 * side found, what the judgement decided (results) and the findings.
 * main.c fills the inputs, translating the command line into the
 * selection and the judgement's parameters; judgement and the system
 * checks write the results and findings, and so does the baseline check
 * (report/baseline.c), which compares this run with a saved one; the
 * output writers only read.
 */
#ifndef P2PDIAG_CHECK_H
#define P2PDIAG_CHECK_H

#include <stdbool.h>

#include "judge/causes.h"
#include "judge/diagnosis.h"
#include "findings/findings.h"
#include "gpu/gpu.h"
#include "p2pdiag/model.h"
#include "p2pdiag/verdict.h"

struct system_report;
struct run_results;
struct evidence;
struct fsroot;

/* The endpoints a run is limited to (--pairs), by P2PD_ADDR(). */
#define SELECTION_MAX 64

struct selection {
	unsigned long long addr[SELECTION_MAX];
	unsigned int nr;		/* 0: every endpoint */
};

/* What the judgement compares with, as main.c was told it. */
struct judge_params {
	double min_ratio;		/* a figure below this share of its expectation is low */
	double timeout_s;		/* the copies' deadline, for the timeout's sentence */
};

struct check_run {
	struct fsroot *root;		/* where system files are read (platform/fsroot.h) */
	const char *source;		/* "module", "pci", "file", "evidence" */
	char source_detail[256];	/* path, or why this source */
	const struct p2pd_model *model;
	struct selection selection;
	bool expand_pairs;		/* every pair alone, not grouped */
	unsigned int nfd_expiry_s;	/* --nfd-features' labels hold this long */
	struct judge_params params;
	/* judged pairs (the selection applied), in p2pd_next_pair() order */
	struct p2pd_pair *pair;
	unsigned int nr_pairs;
	const struct gpu_state *gpu;	/* NULL: the GPU side did not run */
	bool gpu_measured;
	struct run_results *results;	/* judge/results.h; NULL until judge_pairs() */
	struct findings findings;
	struct causes causes;		/* the findings by cause, once judged */
	struct diagnosis diagnosis;	/* the root cause, once the causes are built */
	struct system_report *system;	/* facts under the root, or NULL */
	/*
	 * The host's PCIe ASPM policy as its module parameter's file gives
	 * it, under the root; "" where not read, or where the topology is
	 * another machine's (a saved file or a dump without --root at that
	 * machine's files): this machine's policy is not that machine's.
	 */
	char host_aspm_policy[128];
	const struct evidence *evidence; /* --evidence: the files read, or NULL */
};

/*
 * Lookups in the run, no policy: the index into r->pair of the pair of
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

#endif /* P2PDIAG_CHECK_H */
