/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The human report's sections after the topology, in troubleshooting
 * order (report_text.c says why):
 * (2) what software allows, (3) the measured figures' conditions,
 * expectations and small-message curve, (4) the settings that change
 * performance.  report_text.c calls them in that order.
 */
#ifndef P2PDIAG_REPORT_TEXT_STEPS_H
#define P2PDIAG_REPORT_TEXT_STEPS_H

#include <stdio.h>

#include "judge/judgement.h"

struct report_style {
	const char *bold, *off;
	bool verbose;
};

void report_text_software(FILE *out, const struct check_run *r,
			  const struct report_style *c);
void report_text_measured(FILE *out, const struct check_run *r,
			  const struct report_style *c);
/* Not measured (--quick): each GPU's NVML readings that failed, if any. */
void report_text_nvml_failures(FILE *out, const struct check_run *r,
			       const struct report_style *c);
void report_text_curves(FILE *out, const struct check_run *r,
			const struct report_style *c);
void report_text_settings(FILE *out, const struct check_run *r,
			  const struct report_style *c);

#endif /* P2PDIAG_REPORT_TEXT_STEPS_H */
