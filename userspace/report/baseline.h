/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Baselines for fleets: save a known-good server's run (the JSON report of
 * schema 1) and check others of the same model against it.
 */
#ifndef P2PDIAG_BASELINE_H
#define P2PDIAG_BASELINE_H

#include <stddef.h>

#include "judge/judgement.h"

/* Write the run to @path (atomically).  Return: 0, or -1 with @err. */
int baseline_save(const char *path, const struct check_run *r,
		  char *err, size_t errlen);

/*
 * baseline_check() - read the baseline at @path and have the judge
 * compare the run with it (judge_baseline(), judge/baseline_compare.h:
 * a finding for every difference, bandwidth by @tolerance).
 * Return: 0, or -1 with @err when the file is unreadable or not a
 * p2pdiag baseline (a usage or environment error).
 */
int baseline_check(const char *path, struct check_run *r, double tolerance,
		   char *err, size_t errlen);

#endif /* P2PDIAG_BASELINE_H */
