// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>

#include "uapi/p2pdiag/abi.h"
#include "kernel_oracle.h"
#include "model_util.h"
#include "pair_checks.h"

#define FAIL(...)						\
	do {							\
		snprintf(why, whylen, __VA_ARGS__);		\
		return -1;					\
	} while (0)

static int in_list(const int *list, unsigned int n, int x)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (list[i] == x)
			return 1;
	return 0;
}

/* Same blockers in any order: the kernel's walk is symmetric as a set. */
static int same_set(const int *x, unsigned int nx, const int *y,
		    unsigned int ny)
{
	unsigned int i;

	if (nx != ny)
		return 0;
	for (i = 0; i < nx; i++)
		if (!in_list(y, ny, x[i]))
			return 0;
	return 1;
}

int check_pair(const struct p2pd_model *m, int a, int b,
	       struct p2pd_pair *p, char *why, size_t whylen)
{
	struct p2pd_pair q;
	enum p2pd_map k_ab, k_ba;
	int d_ab, d_ba, u_ab, u_ba, r_ab, r_ba;
	unsigned int i;

	if (p2pd_judge(m, a, b, p) || p2pd_judge(m, b, a, &q))
		FAIL("p2pd_judge refused a valid pair");
	if (p->a != a || p->b != b)
		FAIL("pair indices not echoed");

	/* the kernel, both ways round (provider a / provider b) */
	k_ab = oracle_map(m, a, b, &d_ab, &u_ab, &r_ab);
	k_ba = oracle_map(m, b, a, &d_ba, &u_ba, &r_ba);
	/*
	 * The kernel's walk has no depth limit: past the engine's, as cut.
	 * A list entry neither knows (MISSING_LIST) leaves the walk complete
	 * and the map the oracle's list gives.
	 */
	if (u_ab && u_ba && !(p->missing & P2PD_MISSING_DEPTH)) {
		if (p->missing & ~(unsigned int)(P2PD_MISSING_ACS |
						 P2PD_MISSING_BRIDGE |
						 P2PD_MISSING_LIST))
			FAIL("engine says missing=0x%x, kernel walk is complete",
			     p->missing);
		if ((r_ab || r_ba) && !(p->missing & P2PD_MISSING_ACS))
			FAIL("an unreadable ACS control on the path, engine missing=0x%x",
			     p->missing);
		if (p->map != k_ab)
			FAIL("map %s, kernel %s", p2pd_map_name(p->map),
			     p2pd_map_name(k_ab));
		if (p->distance != d_ab)
			FAIL("distance %d, kernel %d", p->distance, d_ab);
		if (q.map != k_ba || q.distance != d_ba)
			FAIL("reversed pair: map %s distance %d, kernel %s %d",
			     p2pd_map_name(q.map), q.distance,
			     p2pd_map_name(k_ba), d_ba);
	} else if (!(u_ab && u_ba) && !(p->missing & P2PD_MISSING_PARENT)) {
		FAIL("a parent is missing, engine missing=0x%x", p->missing);
	} else if (p->common_kind == P2PD_COMMON_BRIDGE) {
		/* met below the cut: the kernel's walk gives the same answer */
		if (p->map != k_ab || p->distance != d_ab)
			FAIL("met below the cut: map %s distance %d, kernel %s %d",
			     p2pd_map_name(p->map), p->distance,
			     p2pd_map_name(k_ab), d_ab);
	} else if (p->common_kind != P2PD_COMMON_UNKNOWN ||
		   p->cls != P2PD_CLASS_UNKNOWN || p->map != P2PD_MAP_UNKNOWN ||
		   p->distance != P2PD_DISTANCE_UNKNOWN || p->nr_blockers ||
		   p->host_blocks || p->nccl_p2p) {
		FAIL("no common bridge below the cut, yet common %d class %s map %s distance %d, %u blockers",
		     p->common_kind, p2pd_class_name(p->cls),
		     p2pd_map_name(p->map), p->distance, p->nr_blockers);
	}

	/* symmetric answers */
	if (p->cls != q.cls || p->map != q.map || p->verdict != q.verdict ||
	    p->distance != q.distance || p->common_kind != q.common_kind ||
	    p->common != q.common || p->nccl_p2p != q.nccl_p2p ||
	    p->missing != q.missing || p->host_blocks != q.host_blocks ||
	    p->degraded != q.degraded || p->path_len != q.path_len ||
	    !same_set(p->blocker, p->nr_blockers, q.blocker, q.nr_blockers))
		FAIL("(a,b) and (b,a) judged differently");

	/* the verdict follows from map, blockers and missing */
	if (p->missing && p->verdict != P2PD_VERDICT_UNKNOWN)
		FAIL("missing=0x%x but verdict %s", p->missing,
		     p2pd_verdict_name(p->verdict));
	if (!p->missing) {
		enum p2pd_verdict want =
			p->map == P2PD_MAP_NOT_SUPPORTED ? P2PD_VERDICT_BLOCKED :
			p->nr_blockers ? P2PD_VERDICT_REDIRECTED :
			p->map == P2PD_MAP_THRU_HOST_BRIDGE ? P2PD_VERDICT_HOST :
			P2PD_VERDICT_OK;

		if (p->verdict != want)
			FAIL("verdict %s, expected %s from map/blockers",
			     p2pd_verdict_name(p->verdict),
			     p2pd_verdict_name(want));
		if (p->host_blocks != (p->map == P2PD_MAP_NOT_SUPPORTED))
			FAIL("host_blocks %d with map %s", p->host_blocks,
			     p2pd_map_name(p->map));
		/* each side's host bridge, as the findings name them */
		if (p->map == P2PD_MAP_THRU_HOST_BRIDGE ||
		    p->map == P2PD_MAP_NOT_SUPPORTED) {
			int side;

			for (side = 0; side < 2; side++)
				if (p2pd_host_bridge_blocks(m, p, side) !=
				    oracle_host_bridge_blocks(m, p->a, p->b, side))
					FAIL("host bridge of side %d: engine blocks %d, kernel %d",
					     side, p2pd_host_bridge_blocks(m, p, side),
					     oracle_host_bridge_blocks(m, p->a, p->b, side));
		}
		/* distance counts the hops of the path */
		if (p->distance != (int)p->path_len +
		    (p->common_kind == P2PD_COMMON_BRIDGE ? 1 : 2))
			FAIL("distance %d, path of %u bridges", p->distance,
			     p->path_len);
	}

	/* blockers are a, b or on the path, and really redirect */
	for (i = 0; i < p->nr_blockers; i++) {
		const struct p2pd_function *f = &m->fn[p->blocker[i]];

		if (p->blocker[i] != a && p->blocker[i] != b &&
		    !in_list(p->path, p->path_len, p->blocker[i]))
			FAIL("blocker off the path");
		if (f->acs != P2PD_PRESENT ||
		    !(f->acs_ctrl & P2PD_ACS_REDIRECT_MASK))
			FAIL("blocker without redirect bits");
	}
	/* the common point */
	if (p->common_kind == P2PD_COMMON_BRIDGE) {
		if (p->common < 0 ||
		    !in_list(p->path, p->path_len, p->common))
			if (p->common != a && p->common != b)
				FAIL("common bridge not on the path");
	} else if (p->common != P2PD_NO_INDEX) {
		FAIL("common index set without a common bridge");
	} else if (!p->missing &&
		   (p->common_kind == P2PD_COMMON_HOST) !=
		   (m->fn[a].host_bridge == m->fn[b].host_bridge)) {
		FAIL("common host/none does not match the host bridges");
	}
	/* class: PIX/PXB only under a bridge, NODE/SYS only across hosts */
	if ((p->cls <= P2PD_CLASS_PXB) !=
	    (p->common_kind == P2PD_COMMON_BRIDGE))
		FAIL("class %s with common kind %d", p2pd_class_name(p->cls),
		     p->common_kind);
	if (!p->missing && (p->cls >= P2PD_CLASS_NODE) !=
	    (p->common_kind == P2PD_COMMON_NONE))
		FAIL("class %s with common kind %d", p2pd_class_name(p->cls),
		     p->common_kind);
	return 0;
}
