/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One run of p2pdiag-check as the judgement and the reports see it: the
 * snapshot model and where it came from, the engine's pairs, what the GPU
 * side found, and the findings.  Filled by main.c, read by everyone else.
 */
#ifndef P2PDIAG_CHECK_H
#define P2PDIAG_CHECK_H

#include <stdbool.h>

#include "judge/causes.h"
#include "judge/findings.h"
#include "gpu/gpu.h"
#include "options.h"
#include "p2pdiag/model.h"
#include "p2pdiag/verdict.h"

struct system_report;

struct check_run {
	const char *source;		/* "module", "pci", "file" */
	char source_detail[256];	/* path, or why this source */
	const struct p2pd_model *model;
	/* judged pairs (--pairs applied), in p2pd_next_pair() order */
	struct p2pd_pair *pair;
	unsigned int nr_pairs;
	const struct gpu_state *gpu;	/* NULL: the GPU side did not run */
	bool gpu_measured;
	struct findings findings;
	struct causes causes;		/* the findings by cause, once judged */
	const struct options *opt;
	struct system_report *system;	/* facts under the root, or NULL */
};

#endif /* P2PDIAG_CHECK_H */
