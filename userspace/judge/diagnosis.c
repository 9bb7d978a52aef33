// SPDX-License-Identifier: GPL-2.0
/*
 * The run's root cause and its suspects (diagnosis.h).  Causes come worst
 * first, so the first of severity error or warning is the one to fix
 * first; its root cause is the run's.  A run with no such cause is
 * healthy only where a rule saw health: finding nothing is not enough.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/judgement.h"
#include "judge/diagnosis.h"
#include "judge/run_state.h"

const char *likelihood_name(enum likelihood l)
{
	switch (l) {
	case LIKELY:
		return "likely";
	case POSSIBLE:
		return "possible";
	default:
		return "unlikely";
	}
}

struct suspect *diagnosis_suspect(struct diagnosis *d, enum root_cause rc,
				  enum likelihood likelihood, const char *confirm)
{
	struct suspect *s;
	unsigned int i;

	for (i = 0; i < d->nr_suspects; i++)
		if (d->suspect[i].root_cause == rc) {
			if (likelihood < d->suspect[i].likelihood)
				d->suspect[i].likelihood = likelihood;
			return &d->suspect[i];
		}
	if (d->nr_suspects >= DIAG_SUSPECTS)
		return NULL;
	s = &d->suspect[d->nr_suspects++];
	memset(s, 0, sizeof(*s));
	s->root_cause = rc;
	s->likelihood = likelihood;
	snprintf(s->confirm, sizeof(s->confirm), "%s", confirm);
	return s;
}

static void add_fact(char facts[DIAG_FACTS][DIAG_FACT_LEN], unsigned int *nr,
		     const char *fmt, va_list ap)
{
	char one[DIAG_FACT_LEN];
	unsigned int i;

	vsnprintf(one, sizeof(one), fmt, ap);
	for (i = 0; i < *nr; i++)
		if (!strcmp(facts[i], one))
			return;
	if (*nr < DIAG_FACTS)
		memcpy(facts[(*nr)++], one, sizeof(one));
}

void suspect_for(struct suspect *s, const char *fmt, ...)
{
	va_list ap;

	if (!s)
		return;
	va_start(ap, fmt);
	add_fact(s->fact_for, &s->nr_for, fmt, ap);
	va_end(ap);
}

void suspect_against(struct suspect *s, const char *fmt, ...)
{
	va_list ap;

	if (!s)
		return;
	va_start(ap, fmt);
	add_fact(s->fact_against, &s->nr_against, fmt, ap);
	va_end(ap);
}

/*
 * A live run saw health where the copies ran to the end and a pair with
 * peer access granted measured a P2P figure: the judge said what fell
 * short of its expectation as a warning, which decides first.
 */
static bool live_health_shown(const struct check_run *r)
{
	const struct gpu_state *st = r->in.gpu;
	unsigned int i;

	if (r->in.evidence || !st || !r->in.gpu_measured || st->measure != GPU_OK)
		return false;
	for (i = 0; st->pair && i < st->nr_pairs; i++)
		if (st->pair[i].cuda_valid && st->pair[i].can_access == 1 &&
		    st->pair[i].p2p.valid && st->pair[i].status == GPU_OK)
			return true;
	return false;
}

/*
 * A live run that judged the paths but measured nothing: health is the
 * likely answer, and a measuring run is what decides it.
 */
static void live_unmeasured_suspect(struct check_run *r)
{
	unsigned int n = run_pairs_to_judge(r);
	struct suspect *s;

	if (r->in.evidence || !n || r->in.gpu_measured)
		return;
	s = diagnosis_suspect(&r->judged.diagnosis, RC_HEALTHY, LIKELY,
			      "p2pdiag-check without --quick or --no-cuda on this machine (measures and verifies every GPU pair)");
	suspect_for(s, "the topology allows P2P on every path judged (%u pair%s)",
		    n, n == 1 ? "" : "s");
	suspect_against(s, "no copy was measured, so nothing shows P2P working");
}

/* Likelier first; a stable insertion sort keeps the rules' order. */
static void rank_suspects(struct diagnosis *d)
{
	unsigned int i, j;

	for (i = 1; i < d->nr_suspects; i++) {
		struct suspect v = d->suspect[i];

		for (j = i; j > 0 && d->suspect[j - 1].likelihood > v.likelihood; j--)
			d->suspect[j] = d->suspect[j - 1];
		d->suspect[j] = v;
	}
}

void diagnose(struct check_run *r)
{
	struct diagnosis *d = &r->judged.diagnosis;
	size_t i;

	d->root_cause = RC_UNDECIDED;
	for (i = 0; i < r->judged.causes.nr; i++)
		if (r->judged.causes.cause[i].severity >= SEV_WARNING) {
			d->root_cause = r->judged.causes.cause[i].root_cause;
			break;
		}
	if (i == r->judged.causes.nr && (d->health_shown || live_health_shown(r)))
		d->root_cause = RC_HEALTHY;
	if (d->root_cause == RC_UNDECIDED && i == r->judged.causes.nr)
		live_unmeasured_suspect(r);
	if (d->root_cause != RC_UNDECIDED)
		d->nr_suspects = 0;
	rank_suspects(d);
}
