// SPDX-License-Identifier: GPL-2.0
/*
 * Saved reports read back.  The whole file is read first (bounded), then
 * parsed as one document: whatever follows it is an error, since a file
 * holding two reports, or a report and garbage, is not the one the user
 * meant to compare with.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

#include <json-c/json.h>

#include "report/report.h"
#include "platform/bounded_file.h"
#include "report/report_file.h"
#include "run/saved_report.h"

/* Whether @text is the JSON value null alone, as a failed save may leave. */
static bool only_null(const char *text, size_t len)
{
	size_t at = 0;

	while (at < len && strchr(" \t\r\n", text[at]) && text[at])
		at++;
	if (len - at < 4 || memcmp(text + at, "null", 4))
		return false;
	for (at += 4; at < len && strchr(" \t\r\n", text[at]) && text[at]; at++)
		;
	return at == len;
}

/* The line of byte @end of @text, 1 for the first. */
static size_t line_of(const char *text, size_t len, size_t end)
{
	size_t at, line = 1;

	for (at = 0; at < end && at < len; at++)
		line += text[at] == '\n';
	return line;
}

static struct json_object *parse_one_document(const char *path, const char *what,
					      const char *text, size_t len,
					      char *err, size_t errlen)
{
	struct json_object *root = NULL;
	struct json_tokener *tok;
	size_t end;

	if (only_null(text, len)) {
		snprintf(err, errlen, "%s %s line 1: the document is JSON null, not a report (an object): not saved by p2pdiag-check, or emptied",
			 what, path);
		return NULL;
	}
	tok = json_tokener_new();
	if (tok)
		root = json_tokener_parse_ex(tok, text, (int)len);
	end = tok ? json_tokener_get_parse_end(tok) : 0;
	while (root && end < len && strchr(" \t\r\n", text[end]) && text[end])
		end++;
	if (!root || end != len) {
		snprintf(err, errlen, "%s %s is not valid JSON: %s (line %zu)", what, path,
			 !tok ? "out of memory" :
			 !len ? "the file is empty" :
			 root ? "more after the document" :
			 json_tokener_get_error(tok) == json_tokener_continue ?
			 "it ends inside the document" :
			 json_tokener_error_desc(json_tokener_get_error(tok)),
			 line_of(text, len, end));
		json_object_put(root);
		root = NULL;
	}
	if (tok)
		json_tokener_free(tok);
	return root;
}

int report_file_load(const char *path, const char *what, char **text,
		     size_t *len, char *err, size_t errlen)
{
	if (!bounded_file_read(path, REPORT_FILE_MAX, text, len))
		return 0;
	snprintf(err, errlen, "cannot read %s %s: %s", what, path,
		 errno == EFBIG ? "larger than 64 MiB, which no report is" :
		 strerror(errno));
	return -1;
}

void report_file_not_report(char *err, size_t errlen, const char *path,
			    const char *what, const char *hint)
{
	snprintf(err, errlen, "%s is not a p2pdiag-check %s of schema %d%s",
		 path, what, REPORT_SCHEMA, hint);
}

struct json_object *report_file_read(const char *path, const char *what,
				     const char *hint, char *err, size_t errlen)
{
	struct json_object *root, *v;
	const char *tool;
	size_t len;
	char *text;

	if (report_file_load(path, what, &text, &len, err, errlen))
		return NULL;
	root = parse_one_document(path, what, text, len, err, errlen);
	free(text);
	if (!root)
		return NULL;
	tool = report_get_str(root, "tool");
	if (!json_object_is_type(root, json_type_object) || !tool ||
	    strcmp(tool, "p2pdiag-check") ||
	    !json_object_object_get_ex(root, "schema", &v) ||
	    !json_object_is_type(v, json_type_int) ||
	    json_object_get_int(v) != REPORT_SCHEMA ||
	    !report_get_array(root, "devices") || !report_get_array(root, "pairs") ||
	    !report_get_array(root, "gpus")) {
		report_file_not_report(err, errlen, path, what, hint);
		json_object_put(root);
		return NULL;
	}
	return root;
}
