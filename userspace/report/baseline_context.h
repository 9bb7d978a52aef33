/* SPDX-License-Identifier: GPL-2.0 */
/* The baseline check's comparison of the machine's context.  Private to report/. */
#ifndef P2PDIAG_REPORT_BASELINE_CONTEXT_H
#define P2PDIAG_REPORT_BASELINE_CONTEXT_H

struct check_run;
struct json_object;

/*
 * baseline_context_check() - compare the context of the baseline @base (a
 * whole saved report) with this run's: one baseline-context finding
 * listing every difference (firmware, kernel, command line, driver, slots).
 */
void baseline_context_check(struct check_run *r, struct json_object *base);

#endif /* P2PDIAG_REPORT_BASELINE_CONTEXT_H */
