// SPDX-License-Identifier: GPL-2.0
/*
 * Baseline save and check.  The baseline is the JSON report itself, so one
 * schema (SCHEMA.md) describes both and a saved report can serve as a
 * baseline.  The check reads the file and hands it to the judge
 * (judge/baseline_compare.h), with this run's context as the report
 * writes it, so that both runs are read the same way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "report/baseline.h"
#include "platform/atomic_file.h"
#include "judge/baseline_compare.h"
#include "report/report_file.h"
#include "report/report.h"
#include "report/system_output.h"
#include "system/system.h"

/* The report, pretty but not spaced, as baselines always were. */
static int write_report(FILE *f, const void *ctx)
{
	return report_json_write(f, ctx, JSON_C_TO_STRING_PRETTY |
					 JSON_C_TO_STRING_NOSLASHESCAPE);
}

int baseline_save(const char *path, const struct check_run *r,
		  char *err, size_t errlen)
{
	return atomic_file_write(path, write_report, r, err, errlen);
}

int baseline_check(const char *path, struct check_run *r, double tolerance,
		   char *err, size_t errlen)
{
	const struct system_report *s = r->in.system;
	struct json_object *root, *now = NULL;
	struct saved_context now_context;
	struct saved_report base;

	root = report_file_read(path, "baseline", " (make one with --baseline save)",
				err, errlen);
	if (!root)
		return -1;
	if (saved_report_read(root, &base)) {
		r->judged.findings.oom = true;
		json_object_put(root);
		return 0;
	}
	if (s && s->read) {
		now = json_object_new_object();
		json_object_object_add(now, "system", system_output_json(r));
	}
	saved_context_read(now, &now_context);
	/* this run's context is there wherever it read system files */
	now_context.have = now != NULL;
	judge_baseline(r, &base, &now_context, tolerance);
	saved_report_free(&base);
	json_object_put(now);
	json_object_put(root);
	return 0;
}
