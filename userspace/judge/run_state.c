// SPDX-License-Identifier: GPL-2.0
#include "judge/run_state.h"

#include "judge/judgement.h"
#include "findings/findings.h"
#include "judge/judge_priv.h"

unsigned int run_pairs_to_judge(const struct check_run *r)
{
	unsigned int i, n = 0;

	for (i = 0; i < r->judged.nr_pairs; i++)
		n += !r->in.model || !judge_paravirtual_pair(r->in.model, &r->judged.pair[i]);
	return n;
}

enum run_state run_state(const struct check_run *r, enum run_grounds *grounds)
{
	enum run_grounds g = GROUNDS_FINDINGS;
	enum run_state s;

	switch (r->judged.findings.nr ? findings_worst(&r->judged.findings) : SEV_INFO) {
	case SEV_ERROR:
		s = RUN_BROKEN;
		break;
	case SEV_WARNING:
		s = RUN_DEGRADED;
		break;
	default:
		if (r->judged.diagnosis.root_cause == RC_HEALTHY) {
			s = RUN_HEALTHY;
			g = GROUNDS_SHOWN;
		} else if (r->in.evidence) {
			s = RUN_UNDECIDED;
			g = GROUNDS_NOT_SHOWN;
		} else if (!run_pairs_to_judge(r)) {
			s = RUN_UNDECIDED;
			g = GROUNDS_NO_PAIR;
		} else {
			s = RUN_HEALTHY;
			g = GROUNDS_TOPOLOGY;
		}
	}
	if (grounds)
		*grounds = g;
	return s;
}

const char *run_state_name(enum run_state s)
{
	static const char *const name[] = {
		[RUN_HEALTHY]	= "healthy",
		[RUN_UNDECIDED]	= "undecided",
		[RUN_DEGRADED]	= "degraded",
		[RUN_BROKEN]	= "broken",
	};

	return name[s];
}

const char *run_grounds_name(enum run_grounds g)
{
	static const char *const name[] = {
		[GROUNDS_FINDINGS]	= "findings",
		[GROUNDS_SHOWN]		= "shown",
		[GROUNDS_TOPOLOGY]	= "topology",
		[GROUNDS_NO_PAIR]	= "no-pair",
		[GROUNDS_NOT_SHOWN]	= "not-shown",
	};

	return name[g];
}
