/* SPDX-License-Identifier: GPL-2.0 */
/* Checks every judged pair must pass, fixture or random. */
#ifndef P2PD_TEST_PAIR_CHECKS_H
#define P2PD_TEST_PAIR_CHECKS_H

#include <stddef.h>

#include "p2pdiag/model.h"
#include "p2pdiag/verdict.h"

/*
 * check_pair() - judge (a, b) and (b, a) and compare with the kernel
 * oracle and with the engine's own invariants.  0 when all hold, else -1
 * with the first problem in @why.  The (a, b) judgement lands in @out.
 */
int check_pair(const struct p2pd_model *m, int a, int b,
	       struct p2pd_pair *out, char *why, size_t whylen);

#endif /* P2PD_TEST_PAIR_CHECKS_H */
