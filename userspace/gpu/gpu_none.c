// SPDX-License-Identifier: GPL-2.0
/*
 * The GPU side when the tool was built without cuda.h: every step says so
 * (GPU_NOT_BUILT), and --no-cuda still reads as skipped, so the report can
 * tell "not asked" from "cannot".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/gpu.h"
#include "gpu/gpu_names.h"

void gpu_probe(struct gpu_state *st, const struct gpu_options *opt,
	       const struct fsroot *root, struct fsroot_refusal *refused)
{
	(void)root;		/* no GPU is enumerated: no NUMA node to read */
	(void)refused;
	memset(st, 0, sizeof(*st));
	st->stuck_pair = st->stuck_dev = -1;
	st->cuda = st->nvml = st->measure =
		opt->no_cuda ? GPU_SKIPPED : GPU_NOT_BUILT;
	if (!opt->no_cuda)
		snprintf(st->error, sizeof(st->error),
			 "p2pdiag-check was built without CUDA support (no cuda.h at build time)");
}

void gpu_measure(struct gpu_state *st, const struct gpu_options *opt)
{
	st->measure = opt->no_cuda ? GPU_SKIPPED : GPU_NOT_BUILT;
}

void gpu_release(struct gpu_state *st)
{
	free(st->pair);
	st->pair = NULL;
	st->nr_pairs = 0;
}
