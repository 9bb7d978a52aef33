// SPDX-License-Identifier: GPL-2.0
/*
 * Lookups in a run (check.h): where a pair or a GPU is.  They find; they
 * do not judge.
 */
#include "check.h"

/* r->pair is in p2pd_next_pair() order: by a, then b; so a binary search. */
int run_pair_index(const struct check_run *r, int fa, int fb)
{
	int a = fa < fb ? fa : fb, b = fa < fb ? fb : fa;
	unsigned int lo = 0, hi = r->nr_pairs;

	if (fa == P2PD_NO_INDEX || fb == P2PD_NO_INDEX)
		return -1;
	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;
		const struct p2pd_pair *p = &r->pair[mid];

		if (p->a == a && p->b == b)
			return (int)mid;
		if (p->a < a || (p->a == a && p->b < b))
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

int run_gpu_function(const struct check_run *r, unsigned int g)
{
	if (!r->gpu || !r->model || g >= r->gpu->nr_dev)
		return P2PD_NO_INDEX;
	return p2pd_model_find(r->model, r->gpu->dev[g].pci_addr);
}

const struct gpu_pair *run_gpu_pair(const struct gpu_state *st, int src, int dst)
{
	unsigned int i;

	if (!st || !st->pair)
		return NULL;
	for (i = 0; i < st->nr_pairs; i++)
		if (st->pair[i].src == src && st->pair[i].dst == dst)
			return &st->pair[i];
	return NULL;
}
