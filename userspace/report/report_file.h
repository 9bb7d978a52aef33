/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Saved JSON reports read back: a baseline, or the many reports of a
 * fleet comparison.  One reader, so that both refuse the same files in
 * the same words; the lookups of its keys by type are run/saved_report.h's.
 */
#ifndef P2PDIAG_REPORT_FILE_H
#define P2PDIAG_REPORT_FILE_H

#include <stddef.h>

struct json_object;

/*
 * Read with a bound: a report of thousands of functions is a few MiB, so
 * /dev/zero or a runaway file is refused, not read until memory runs out.
 */
#define REPORT_FILE_MAX	(64UL << 20)

/*
 * report_file_read() - the report at @path, parsed: at most
 * REPORT_FILE_MAX bytes, one JSON document and nothing after it, an object
 * of tool "p2pdiag-check" and schema REPORT_SCHEMA with its devices, pairs
 * and gpus arrays.  @what names the file in the errors ("baseline",
 * "report"); @hint ends the sentence that refuses a document that is no
 * report (" (make one with --baseline save)", or "").
 * Return: the document (json_object_put() it), or NULL with @err.
 */
struct json_object *report_file_read(const char *path, const char *what,
				     const char *hint, char *err, size_t errlen);

/*
 * report_file_load() - the text of the report at @path (NUL-terminated,
 * malloc'd into *@text, *@len bytes), at most REPORT_FILE_MAX bytes.
 * Return: 0, or -1 with @err ("cannot read @what @path: ...").
 */
int report_file_load(const char *path, const char *what, char **text,
		     size_t *len, char *err, size_t errlen);

/* The refusal of a document that is JSON but no report, in @err. */
void report_file_not_report(char *err, size_t errlen, const char *path,
			    const char *what, const char *hint);

#endif /* P2PDIAG_REPORT_FILE_H */
