// SPDX-License-Identifier: GPL-2.0
/*
 * The snapshot model's own lookups (model.h): finding a function by its
 * address and checking the order that finding relies on.  Below both the
 * link rules (link.c) and the verdict (verdict.c), which each look up
 * parents, so neither needs the other.
 */
#include "p2pdiag/model.h"

int p2pd_model_find(const struct p2pd_model *m, unsigned long long addr)
{
	unsigned int lo = 0, hi = m->nr_fn;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (m->fn[mid].addr == addr)
			return (int)mid;
		if (m->fn[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return P2PD_NO_INDEX;
}

int p2pd_model_check(const struct p2pd_model *m)
{
	unsigned int i;

	if (m->nr_fn && !m->fn)
		return -1;
	for (i = 1; i < m->nr_fn; i++)
		if (m->fn[i - 1].addr >= m->fn[i].addr)
			return -1;
	return 0;
}
