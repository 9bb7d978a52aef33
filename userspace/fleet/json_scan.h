/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A JSON document read in place, without building it: the reader walks
 * objects and arrays, takes the strings and numbers it wants and skips
 * the rest, still checking that everything is well-formed JSON.  A fleet
 * comparison needs a tenth of each report; building the whole of ten
 * thousand documents as json-c trees cost fifteen times the time.
 *
 * Every call returns -1 on malformed input (or input ending early), and
 * the first error stays in the scanner: later calls return -1 at once.
 */
#ifndef P2PDIAG_FLEET_JSON_SCAN_H
#define P2PDIAG_FLEET_JSON_SCAN_H

#include <stdbool.h>
#include <stddef.h>

/* Deeper than any report nests; a deeper document is refused, not recursed into. */
#define JSON_SCAN_DEPTH	64

struct json_scan {
	const char *p, *end;
	const char *start;
	unsigned int depth;
	bool has_item[JSON_SCAN_DEPTH];	/* per open container: a member read */
	const char *error;		/* NULL, or what went wrong */
	size_t error_at;		/* byte offset of the error */
};

void json_scan_begin(struct json_scan *s, const char *text, size_t len);

/* Skip one value, whatever it is.  Return: 0, or -1. */
int json_scan_skip(struct json_scan *s);

/*
 * json_scan_string() - the next value into @buf (NUL-terminated, escapes
 * decoded) when it is a string of fewer than @len bytes.
 * Return: 1 a string; 0 another value (skipped, @buf empty); -1 malformed,
 * or a string of @len bytes or more ("a string longer than ...").
 */
int json_scan_string(struct json_scan *s, char *buf, size_t len);

/* The next value into *@v when it is a number.  Return: 1, 0 (another, skipped), -1. */
int json_scan_number(struct json_scan *s, double *v);

/*
 * The members of an object, one call each: json_scan_object() at its '{'
 * (0 when the value is no object: then it is skipped), then
 * json_scan_member() until it returns 0 (after the closing '}'); each 1
 * leaves the scanner at the member's value, which the caller must read
 * or skip.  A key of @len bytes or more comes back empty: a key no
 * reader asks for, whose value the caller skips as it skips any it does
 * not know.
 */
int json_scan_object(struct json_scan *s);
int json_scan_member(struct json_scan *s, char *key, size_t len);

/* The same for an array's elements: json_scan_array(), json_scan_element(). */
int json_scan_array(struct json_scan *s);
int json_scan_element(struct json_scan *s);

/* Whether the error is a string or number longer than its caller's buffer. */
bool json_scan_too_long(const struct json_scan *s);

/* After the document: only white space may follow.  Return: 0, or -1. */
int json_scan_end(struct json_scan *s);

#endif /* P2PDIAG_FLEET_JSON_SCAN_H */
