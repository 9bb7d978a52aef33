// SPDX-License-Identifier: GPL-2.0
/*
 * The long loops of the engine's texts give the CPU away: with
 * p2pd_buf.resched set, every text calls it once for each line it has,
 * whether the line is written, only counted (the module's sizing pass,
 * also one cut at a cap) or skipped before a window.  The module sets it
 * to cond_resched(); a rebuild of thousands of functions formats for
 * seconds and would otherwise hold its CPU all that time.
 * Usage: test_yield
 */
#include <stdio.h>
#include <stdlib.h>

#include "p2pdiag/endpoint_groups.h"
#include "p2pdiag/format.h"
#include "ktap.h"
#include "sriov_model.h"

static unsigned long yields;

static void count_yield(void)
{
	yields++;
}

/* Count only (@cap 0: no cap), or a window at @skip; the yields it made. */
static unsigned long yields_of(void (*fmt)(struct p2pd_buf *, const struct p2pd_model *,
					    const struct p2pd_groups *, int),
			       const struct p2pd_model *m, const struct p2pd_groups *g,
			       int x, unsigned long cap, unsigned long skip)
{
	static char window[4096];
	struct p2pd_buf b;

	if (skip)
		p2pd_buf_init_window(&b, window, sizeof(window), skip);
	else if (cap)
		p2pd_buf_init_cap(&b, cap);
	else
		p2pd_buf_init(&b, NULL, 0);
	b.resched = count_yield;
	yields = 0;
	fmt(&b, m, g, x);
	return yields;
}

static void topology(struct p2pd_buf *b, const struct p2pd_model *m,
		     const struct p2pd_groups *g, int x)
{
	(void)g;
	(void)x;
	p2pd_format_topology_file(b, m);
}

static void pairs(struct p2pd_buf *b, const struct p2pd_model *m,
		  const struct p2pd_groups *g, int x)
{
	(void)g;
	(void)x;
	p2pd_format_pairs_file(b, m);
}

static void grouped(struct p2pd_buf *b, const struct p2pd_model *m,
		    const struct p2pd_groups *g, int x)
{
	(void)x;
	p2pd_format_pairs_grouped_file(b, m, g);
}

static void endpoint(struct p2pd_buf *b, const struct p2pd_model *m,
		     const struct p2pd_groups *g, int x)
{
	p2pd_format_endpoint_pairs_file(b, m, g, x);
}

/* The length of @x's whole endpoint pairs file. */
static unsigned long endpoint_len(const struct p2pd_model *m,
				  const struct p2pd_groups *g, int x)
{
	struct p2pd_buf b;

	p2pd_buf_init(&b, NULL, 0);
	p2pd_format_endpoint_pairs_file(&b, m, g, x);
	return b.len;
}

int main(void)
{
	/* GPUs stay alone in their groups: many group pairs to judge */
	const struct sriov_spec spec = { .switches = 8, .nics = 4, .vfs = 7,
					 .gpus = 4 };
	struct ktap k = { 0 };
	struct p2pd_groups g;
	struct p2pd_model m;
	unsigned long n, want, endpoints = 0;
	int *storage, x = -1;
	unsigned int i;

	ktap_start("engine-yield");
	if (sriov_model(&spec, &m) || p2pd_model_check(&m)) {
		ktap_result(&k, 0, "the builder failed", "model built");
		return ktap_finish(&k);
	}
	storage = calloc((size_t)P2PD_GROUP_INTS_PER_FN * (m.nr_fn + 1), sizeof(int));
	if (!storage) {
		ktap_result(&k, 0, "out of memory", "groups");
		return ktap_finish(&k);
	}
	p2pd_groups_attach(&g, storage, m.nr_fn);
	ktap_result(&k, !p2pd_group_endpoints(&m, &g), "", "%u functions grouped", m.nr_fn);
	for (i = 0; i < m.nr_fn; i++) {
		if (!m.fn[i].p2p_endpoint)
			continue;
		endpoints++;
		if (x < 0)
			x = (int)i;
	}

	n = yields_of(topology, &m, &g, 0, 0, 0);
	ktap_result(&k, n == m.nr_fn, "", "topology: %lu yields, one per function (%u)",
		    n, m.nr_fn);
	want = p2pd_count_pairs(&m);
	n = yields_of(pairs, &m, &g, 0, 0, 0);
	ktap_result(&k, n == want, "", "pairs file: %lu yields, one per pair (%lu)", n, want);
	want = g.nr + p2pd_count_group_pairs(&g);
	n = yields_of(grouped, &m, &g, 0, 0, 0);
	ktap_result(&k, n == want, "",
		    "grouped pairs, counting pass: %lu yields, one per group and group pair (%lu)",
		    n, want);
	/* the sizing pass stops at its cap: still a yield per line up to there */
	n = yields_of(grouped, &m, &g, 0, 64 * 1024, 0);
	ktap_result(&k, n > 0 && n < want, "",
		    "grouped pairs, counting pass cut at 64 KiB: %lu yields (of %lu lines)",
		    n, want);
	n = yields_of(endpoint, &m, &g, x, 0, 0);
	ktap_result(&k, n == endpoints - 1, "",
		    "an endpoint's pairs: %lu yields, one per peer (%lu)", n, endpoints - 1);
	/* a window at the end skips nearly every line: each still yields */
	n = yields_of(endpoint, &m, &g, x, 0, endpoint_len(&m, &g, x) - 100);
	ktap_result(&k, n == endpoints - 1, "",
		    "an endpoint's pairs, a window at the end: %lu yields, one per peer (%lu)",
		    n, endpoints - 1);
	free(storage);
	free(m.fn);
	return ktap_finish(&k);
}
