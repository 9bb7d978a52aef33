/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The system checks' part of each report: what system/ found about the
 * machine beyond the PCIe tree (r->in.system), written by the report, not by
 * the checks, so that system/ only produces facts and findings.
 */
#ifndef P2PDIAG_REPORT_SYSTEM_OUTPUT_H
#define P2PDIAG_REPORT_SYSTEM_OUTPUT_H

#include <stdio.h>

struct check_run;
struct json_object;

/* The report's sections; nothing when r->in.system is NULL or not read. */
void system_output_text(FILE *out, const struct check_run *r);
/* The "system" object of the JSON report; JSON null when not read. */
struct json_object *system_output_json(const struct check_run *r);
/* The textfile's series of the system checks. */
void system_output_prom(FILE *f, const struct check_run *r);

#endif /* P2PDIAG_REPORT_SYSTEM_OUTPUT_H */
