/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A saved run, the JSON report (SCHEMA.md) that --baseline save and
 * --json write, as the comparisons with it read it: the lookups of its
 * keys by type.  Below the judge, which compares a run with a saved one
 * (judge/baseline_compare.c); report/report_file.c reads the file.
 */
#ifndef P2PDIAG_RUN_SAVED_REPORT_H
#define P2PDIAG_RUN_SAVED_REPORT_H

struct json_object;

/* @key of object @o as a string, or NULL (absent, null or another type). */
const char *report_get_str(struct json_object *o, const char *key);
/* @key of @o as a number into *@out.  Return: 0, or -1 when it is none. */
int report_get_num(struct json_object *o, const char *key, double *out);
/* @key of @o when it is an array, or NULL. */
struct json_object *report_get_array(struct json_object *o, const char *key);

#endif /* P2PDIAG_RUN_SAVED_REPORT_H */
