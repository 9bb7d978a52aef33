// SPDX-License-Identifier: GPL-2.0
/*
 * ROCm Validation Suite's peer query, as its log prints it:
 * "[RESULT] [ 94.478397] [action_4] p2p 7707 51576 peers:false distance:-1",
 * one line a pair of GPUs named by RVS's gpu ids.  The ids are numbered
 * in the order they first appear, as RVS lists the GPUs; "peers:false"
 * between two of them is ROCm refusing peer access, as CUDA's CANNOT
 * Access Peer is.
 */
#include <stdio.h>
#include <string.h>

#include "evidence/evidence.h"

/* The index of RVS's gpu id @id, numbered in order of appearance; -1: full. */
static int gpu_index(struct ev_rocm *r, unsigned long id)
{
	unsigned int i;

	for (i = 0; i < r->nr_gpus; i++)
		if (r->gpu_id[i] == id)
			return (int)i;
	if (r->nr_gpus >= EV_GPU_MAX)
		return -1;
	r->gpu_id[r->nr_gpus] = id;
	return (int)r->nr_gpus++;
}

void read_rocm(struct evidence *ev, unsigned int fi)
{
	struct ev_file *f = &ev->file[fi];
	struct ev_rocm *r = &ev->rocm;
	unsigned int i;

	for (i = 0; i < f->nr_lines; i++) {
		const char *s = f->line[i], *p = strstr(s, "] p2p ");
		unsigned long ida, idb;
		char peers[8];
		int a, b;

		if (!p || !strstr(s, "[RESULT]") ||
		    sscanf(p + 6, "%lu %lu peers:%7[a-z]", &ida, &idb, peers) != 3)
			continue;
		a = gpu_index(r, ida);
		b = gpu_index(r, idb);
		f->formats |= EV_FMT_ROCM;
		if (a < 0 || b < 0 || a == b)
			continue;
		if (!strcmp(peers, "false")) {
			ev->can_access[a][b] = 0;
			r->nr_refused++;
			ev_note(&r->refused_ref, fi, i + 1);
		} else if (!strcmp(peers, "true")) {
			ev->can_access[a][b] = 1;
		} else {
			continue;
		}
		ev_note(&ev->can_ref[a][b], fi, i + 1);
	}
	if (r->nr_gpus > ev->nr_gpus)
		ev->nr_gpus = r->nr_gpus;
}
