/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run's outcome as the process says it: the exit statuses documented
 * in --help and README.md, and the one the findings give.  Apart from
 * findings.h, which records what the run learned and knows nothing of
 * processes.
 */
#ifndef P2PDIAG_OUTCOME_H
#define P2PDIAG_OUTCOME_H

struct findings;

#define EXIT_ALL_GOOD		0
#define EXIT_WARNINGS		1
#define EXIT_P2P_BROKEN		2
#define EXIT_USAGE		3

/*
 * outcome_exit_status() - 0, 1 or 2 from the worst finding (info counts
 * as good); 1 at least when a finding was lost or refused.
 */
int outcome_exit_status(const struct findings *f);

#endif /* P2PDIAG_OUTCOME_H */
