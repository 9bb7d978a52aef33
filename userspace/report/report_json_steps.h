/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The JSON report's parts for measurement validity, judged figures, the
 * settings that change performance and the small-message curve (see
 * SCHEMA.md); report_json.c places them.
 */
#ifndef P2PDIAG_REPORT_JSON_STEPS_H
#define P2PDIAG_REPORT_JSON_STEPS_H

#include "check.h"

struct json_object;

/* gpus[].conditions: other work, clocks during the copies, placement. */
struct json_object *report_json_conditions(const struct check_run *r,
					   unsigned int g);
/* gpus[].judged: every figure with its expectation and basis. */
struct json_object *report_json_dev_judged(const struct check_run *r,
					   unsigned int g);
/* pairs[].judged, pairs[].reverse.judged */
struct json_object *report_json_pair_judged(const struct check_run *r,
					    const struct gpu_pair *gp);
/* gpus[].settings; host_settings (@g < 0) */
struct json_object *report_json_settings(const struct check_run *r, int g);
/* gpus[].curves, pairs[].curve: points and their reading */
struct json_object *report_json_dev_curves(const struct gpu_device *d);
struct json_object *report_json_curve(const struct gpu_curve *c);

#endif /* P2PDIAG_REPORT_JSON_STEPS_H */
