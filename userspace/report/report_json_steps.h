/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The JSON report's parts for measurement validity, judged figures, the
 * settings that change performance and the small-message curve (see
 * SCHEMA.md); report_json.c places them.
 */
#ifndef P2PDIAG_REPORT_JSON_STEPS_H
#define P2PDIAG_REPORT_JSON_STEPS_H

#include "judge/judgement.h"

struct json_object;

/*
 * Each reads GPU @g (or GPU pair @k, an index into r->in.gpu->pair) with
 * what the judgement wrote for it into r->judged.results.
 */
/* gpus[].conditions: other work, clocks during the copies, placement. */
struct json_object *report_json_conditions(const struct check_run *r,
					   unsigned int g);
/* gpus[].nvml_failures: each failed NVML reading, its call and error. */
struct json_object *report_json_nvml_failures(const struct check_run *r,
					      unsigned int g);
/* gpus[].judged: every figure with its expectation and basis. */
struct json_object *report_json_dev_judged(const struct check_run *r,
					   unsigned int g);
/* pairs[].judged, pairs[].reverse.judged; null for @k < 0 */
struct json_object *report_json_pair_judged(const struct check_run *r, int k);
/* gpus[].settings; host_settings (@g < 0) */
struct json_object *report_json_settings(const struct check_run *r, int g);
/* gpus[].curves, pairs[].curve (@k): points and their reading */
struct json_object *report_json_dev_curves(const struct check_run *r,
					   unsigned int g);
struct json_object *report_json_pair_curve(const struct check_run *r, int k);

#endif /* P2PDIAG_REPORT_JSON_STEPS_H */
