// SPDX-License-Identifier: GPL-2.0
/*
 * Lookups in a run (judge/judgement.h): where a pair or a GPU is, and which of the
 * run's functions or pairs pass a caller's test.  They find; they do not
 * judge.
 */
#include <limits.h>
#include <stdlib.h>

#include "judge/judgement.h"
#include "judge/results.h"

/*
 * The sort key of r->judged.pair[@i]: its ends, or, grouped, its groups; r->judged.pair
 * is in p2pd_next_pair() or p2pd_next_group_pair() order, by that key.
 */
static void pair_key(const struct check_run *r, bool grouped, unsigned int i,
		     int *x, int *y)
{
	if (grouped) {
		*x = r->judged.results->pair[i].group_a;
		*y = r->judged.results->pair[i].group_b;
	} else {
		*x = r->judged.pair[i].a;
		*y = r->judged.pair[i].b;
	}
}

int run_pair_index(const struct check_run *r, int fa, int fb)
{
	bool grouped = r->judged.results && r->judged.results->grouped;
	unsigned int lo = 0, hi = r->judged.nr_pairs;
	int a, b;

	if (fa == P2PD_NO_INDEX || fb == P2PD_NO_INDEX || fa == fb)
		return -1;
	if (grouped) {
		fa = r->judged.results->groups.group_of[fa];
		fb = r->judged.results->groups.group_of[fb];
		if (fa < 0 || fb < 0)
			return -1;
	}
	a = fa < fb ? fa : fb;
	b = fa < fb ? fb : fa;
	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;
		int x, y;

		pair_key(r, grouped, mid, &x, &y);
		if (x == a && y == b)
			return (int)mid;
		if (x < a || (x == a && y < b))
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

int run_gpu_function(const struct check_run *r, unsigned int g)
{
	if (!r->in.gpu || !r->in.model || g >= r->in.gpu->nr_dev)
		return P2PD_NO_INDEX;
	return p2pd_model_find(r->in.model, r->in.gpu->dev[g].pci_addr);
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

int run_select(const struct check_run *r, unsigned int n, run_keep_fn keep,
	       const void *arg, unsigned int **out)
{
	unsigned int i, k = 0, count = 0;

	*out = NULL;
	for (i = 0; i < n; i++)
		count += keep(r, i, arg);
	if (!count)
		return 0;
	if (count > (unsigned int)INT_MAX)
		return -1;
	*out = calloc(count, sizeof(**out));
	if (!*out)
		return -1;
	for (i = 0; i < n && k < count; i++)
		if (keep(r, i, arg))
			(*out)[k++] = i;
	return (int)k;
}
