/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The baseline check's judgement: a run against a saved run of a
 * known-good server of the same model.  The report reads the file
 * (report/baseline.h); the findings are made here.
 */
#ifndef P2PDIAG_JUDGE_BASELINE_COMPARE_H
#define P2PDIAG_JUDGE_BASELINE_COMPARE_H

#include "judge/judgement.h"
#include "run/saved_report.h"

/*
 * judge_baseline() - compare @r with the saved run @base (the JSON report,
 * as run/saved_report.h reads it) and add a finding for every difference:
 * devices, roles, parents, ACS control and maximum links
 * ("baseline-topology", "baseline-device"), classes ("baseline-class"),
 * verdicts ("baseline-verdict"), bandwidth below the baseline by more
 * than @tolerance ("baseline-bw"), and the machine's context
 * ("baseline-context").  @now: this run's context, read from its report
 * (its "system" object, as report/system_json.c writes it, so that both
 * runs are read alike); now->have false where this run read no system
 * files.
 */
void judge_baseline(struct check_run *r, const struct saved_report *base,
		    const struct saved_context *now, double tolerance);

/*
 * baseline_context_check() - the context @base of the saved run against
 * this run's, @now (see judge_baseline()): one baseline-context finding
 * listing every difference (firmware, kernel, command line, driver, slots).
 */
void baseline_context_check(struct check_run *r, const struct saved_context *base,
			    const struct saved_context *now);

#endif /* P2PDIAG_JUDGE_BASELINE_COMPARE_H */
