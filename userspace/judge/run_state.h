/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run in one word, and what that word rests on.  Errors make it
 * broken and warnings degraded whatever else is known; "healthy" needs
 * grounds: health shown (P2P measured as expected, or pasted files that
 * show it), or at least one pair of P2P endpoints whose path the topology
 * judged fine.  A run with no pair to judge, or pasted files that show no
 * health, is "undecided": finding nothing wrong is not health.
 */
#ifndef P2PDIAG_RUN_STATE_H
#define P2PDIAG_RUN_STATE_H

struct check_run;

enum run_state {
	RUN_HEALTHY,
	RUN_UNDECIDED,
	RUN_DEGRADED,		/* warnings */
	RUN_BROKEN,		/* errors */
};

enum run_grounds {
	GROUNDS_FINDINGS,	/* broken or degraded: the findings say why */
	GROUNDS_SHOWN,		/* a rule saw health */
	GROUNDS_TOPOLOGY,	/* every judged path allows P2P; not measured */
	GROUNDS_NO_PAIR,	/* no pair of P2P endpoints to judge */
	GROUNDS_NOT_SHOWN,	/* pasted files that do not show health */
};

/*
 * run_pairs_to_judge() - @r's judged pairs that can carry P2P at all: a
 * pair with a paravirtual end has no P2P data path (a VM's virtio NIC
 * beside its one GPU), so it is no ground for health either way.
 */
unsigned int run_pairs_to_judge(const struct check_run *r);

/* run_state() - @r's state, once diagnose() has run; @grounds may be NULL. */
enum run_state run_state(const struct check_run *r, enum run_grounds *grounds);

/* "healthy", "undecided", "degraded", "broken". */
const char *run_state_name(enum run_state s);

/* "findings", "shown", "topology", "no-pair", "not-shown". */
const char *run_grounds_name(enum run_grounds g);

#endif /* P2PDIAG_RUN_STATE_H */
