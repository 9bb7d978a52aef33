// SPDX-License-Identifier: GPL-2.0
/*
 * The figures of each ordered pair of GPUs: staged (peer access off, so
 * the driver bounces the copy through host memory) and, where CUDA allows
 * it, direct peer to peer, each one way and as latency, the direct path
 * also both ways at once and, with --curve, as a small-message curve.
 * Then the gradient exchange (gpu_plan_exchange.c) of all GPUs at once,
 * staged and direct.  Staged runs first: fresh contexts have peer access
 * off, so nothing needs switching in between.
 */
#include "gpu/gpu_measuring.h"

/* Staged (peer access off) or direct: one way, both ways, latency. */
static bool plan_pair(struct meas *m, struct gpu_pair *p, bool direct)
{
	struct gpu_ctx *a = &m->g[p->src], *b = &m->g[p->dst];
	struct lane *l = m->lane;
	struct gpu_figure *one[1], *two[2], spare;
	/* src's second buffer to dst's first; the way back the other two */
	struct lane_spec fwd = {
		.dev = p->src,
		.dst = { b->a, p->dst },
		.src = { a->b, p->src },
		.bytes = m->par.size,
		.count = COPIES_PER_SAMPLE,
		.peer = true,
	};
	struct lane_spec latency = fwd, back;

	l[0].dev = p->src;
	l[1].dev = p->dst;
	if (!lane_events(m, &l[0]) || !lane_events(m, &l[1]))
		return false;

	meas_step(m, direct ? "p2p" : "staged", p->src, p->dst);
	lane_init(m, &l[0], &fwd);
	one[0] = direct ? &p->p2p : &p->staged;
	if (!sample_lanes(m, l, 1, one, false))
		return false;

	meas_step(m, direct ? "p2p latency" : "staged latency", p->src, p->dst);
	latency.bytes = LATENCY_BYTES;
	latency.count = LATENCY_COPIES;
	lane_init(m, &l[0], &latency);
	one[0] = direct ? &p->latency_p2p : &p->latency_staged;
	if (!sample_lanes(m, l, 1, one, true))
		return false;
	if (!direct)
		return true;

	meas_step(m, "p2p both ways", p->src, p->dst);
	back = fwd;
	back.dev = p->dst;
	back.stream = 1;
	back.dst = (struct lane_end){ a->a, p->src };
	back.src = (struct lane_end){ b->b, p->dst };
	back.trail = COPIES_PER_SAMPLE;
	fwd.trail = COPIES_PER_SAMPLE;
	lane_init(m, &l[0], &fwd);
	lane_init(m, &l[1], &back);
	two[0] = &p->p2p_bidir;
	two[1] = &spare;	/* the reverse pair reports its own */
	if (!sample_lanes(m, l, 2, two, false))
		return false;
	if (!m->opt->curve)
		return true;
	meas_step(m, "small-message curve, p2p", p->src, p->dst);
	fwd.trail = 0;
	return plan_curve(m, &p->curve, &fwd);
}

bool plan_pairs(struct meas *m)
{
	unsigned int i;

	for (i = 0; i < m->st->nr_pairs; i++)
		if (ctx_pair_ready(m, &m->st->pair[i]) &&
		    !plan_pair(m, &m->st->pair[i], false))
			return false;
	if (!plan_exchange(m, false))
		return false;
	if (!ctx_peer_access_on(m))
		return false;
	for (i = 0; i < m->st->nr_pairs; i++) {
		struct gpu_pair *p = &m->st->pair[i];

		if (ctx_pair_ready(m, p) && p->can_access &&
		    !plan_pair(m, p, true))
			return false;
	}
	if (!plan_exchange(m, true))
		return false;
	ctx_peer_access_off(m);
	return true;
}
