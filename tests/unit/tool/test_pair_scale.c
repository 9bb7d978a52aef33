// SPDX-License-Identifier: GPL-2.0
/*
 * Pairs that nothing groups: a fabric of endpoints that share no group
 * (tests/unit/engine/fabric_model.h) past PAIRS_LISTED_MAX pairs.  The
 * judgement keeps only the pairs that need a look and counts the rest,
 * and what is counted per port is what a finding about the port names.
 * These count what is stored, not how long it takes.
 */
#include <stdlib.h>
#include <string.h>

#include "fabric_model.h"
#include "tool_util.h"
#include "judge/judge.h"

void test_pair_scale(struct ktap *k);

/* 400 endpoints: 79,800 pairs, past PAIRS_LISTED_MAX */
#define ENDPOINTS	400u
#define ALL_PAIRS	(ENDPOINTS * (ENDPOINTS - 1) / 2)
/* the first switch's 32 drives among themselves */
#define FIRST_SWITCH_PAIRS	(32u * 31u / 2u)

static void fabric_run(struct check_run *r, struct p2pd_model *m, int redirect)
{
	struct options o;

	if (fabric_model(m, ENDPOINTS, redirect))
		abort();
	options_defaults(&o);
	judge_run(r, m, &o);
	judge_topology(r);
}

static void fabric_done(struct check_run *r, struct p2pd_model *m)
{
	findings_free(&r->judged.findings);
	judge_release(r);
	free(m->fn);
}

static void all_fine(struct ktap *k)
{
	const struct run_results *res;
	struct check_run r;
	struct p2pd_model m;
	int rp;

	fabric_run(&r, &m, 0);
	res = r.judged.results;
	CHECK(k, ALL_PAIRS > PAIRS_LISTED_MAX && res->nr_member_pairs == ALL_PAIRS &&
	      res->groups.nr == ENDPOINTS,
	      "pair scale: 400 endpoints that share no group are judged, all 79800 pairs");
	CHECK(k, r.judged.nr_pairs == 0 && res->pairs_not_listed == ALL_PAIRS,
	      "pair scale: an all-fine fabric keeps no pair one by one (got %u)", r.judged.nr_pairs);
	CHECK(k, r.judged.findings.nr == 0, "pair scale: and has no finding (got %zu)",
	      r.judged.findings.nr);
	CHECK(k, res->verdict_pairs[P2PD_VERDICT_OK] == 12 * FIRST_SWITCH_PAIRS + 16 * 15 / 2 &&
	      res->verdict_pairs[P2PD_VERDICT_OK] + res->verdict_pairs[P2PD_VERDICT_HOST] ==
	      ALL_PAIRS,
	      "pair scale: every pair is counted by verdict: below one switch direct, the rest through the host");
	/* the first switch's root port: its 32 drives with the other 368 */
	rp = p2pd_model_find(r.in.model, P2PD_ADDR(0, 0, 1, 0));
	CHECK(k, rp != P2PD_NO_INDEX && run_pairs_through(&r, rp)->nr == 32u * 368u,
	      "pair scale: the pairs through a port are counted once in the pair loop (%lu)",
	      rp == P2PD_NO_INDEX ? 0ul : run_pairs_through(&r, rp)->nr);
	fabric_done(&r, &m);
}

static void few_redirected(struct ktap *k)
{
	const struct run_results *res;
	struct check_run r;
	struct p2pd_model m;
	unsigned int i, redirected = 0;

	fabric_run(&r, &m, 1);
	res = r.judged.results;
	for (i = 0; i < r.judged.nr_pairs; i++)
		redirected += r.judged.pair[i].verdict == P2PD_VERDICT_REDIRECTED;
	CHECK(k, r.judged.nr_pairs == FIRST_SWITCH_PAIRS && redirected == FIRST_SWITCH_PAIRS &&
	      res->pairs_not_listed == ALL_PAIRS - FIRST_SWITCH_PAIRS,
	      "pair scale: only the 496 redirected pairs are kept (got %u, %u redirected)",
	      r.judged.nr_pairs, redirected);
	CHECK(k, findings_count_code(&r.judged.findings, "acs-redirect") == FIRST_SWITCH_PAIRS,
	      "pair scale: each redirected pair has its finding, and no other pair one");
	CHECK(k, run_pair_index(&r, r.judged.pair[0].a, r.judged.pair[0].b) == 0 &&
	      run_pair_index(&r, r.judged.pair[r.judged.nr_pairs - 1].a,
			     r.judged.pair[r.judged.nr_pairs - 1].b) ==
	      (int)r.judged.nr_pairs - 1,
	      "pair scale: the kept pairs are found by their ends");
	fabric_done(&r, &m);
}

void test_pair_scale(struct ktap *k)
{
	all_fine(k);
	few_redirected(k);
}
