// SPDX-License-Identifier: GPL-2.0
/*
 * JSON read in place (RFC 8259): white space, the three literals,
 * numbers by the grammar, strings with every escape, objects and arrays
 * nested at most JSON_SCAN_DEPTH deep.  Containers keep a flag per open
 * level so that json_scan_member()/json_scan_element() know whether a
 * comma must come first.
 */
#include <stdlib.h>
#include <string.h>

#include "fleet/json_scan.h"

static const char too_long[] = "a string longer than any value a report holds";

static int fail(struct json_scan *s, const char *why)
{
	if (!s->error) {
		s->error = why;
		s->error_at = (size_t)(s->p - s->start);
	}
	return -1;
}

static int truncated(struct json_scan *s)
{
	return fail(s, "it ends inside the document");
}

static void skip_ws(struct json_scan *s)
{
	while (s->p < s->end && (*s->p == ' ' || *s->p == '\n' || *s->p == '\t' ||
				 *s->p == '\r'))
		s->p++;
}

void json_scan_begin(struct json_scan *s, const char *text, size_t len)
{
	memset(s, 0, sizeof(*s));
	s->start = s->p = text;
	s->end = text + len;
}

/* The next value's first character ('{', '[', '"', 'n', 't', 'f', '-' or a digit), or 0 at the end. */
static char json_scan_peek(struct json_scan *s)
{
	if (s->error)
		return 0;
	skip_ws(s);
	return s->p < s->end ? *s->p : 0;
}

static int hex4(const char *p, unsigned int *out)
{
	unsigned int v = 0, i;

	for (i = 0; i < 4; i++) {
		char c = p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned int)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned int)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned int)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

/* UTF-8 of code point @c into @o (room for 4).  Return: bytes written. */
static size_t utf8(char *o, unsigned int c)
{
	if (c < 0x80) {
		o[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		o[0] = (char)(0xc0 | c >> 6);
		o[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		o[0] = (char)(0xe0 | c >> 12);
		o[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		o[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | c >> 18);
	o[1] = (char)(0x80 | ((c >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((c >> 6) & 0x3f));
	o[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

/* One \u escape (the 'u' at s->p), a surrogate pair whole. */
static int unicode_escape(struct json_scan *s, unsigned int *cp)
{
	unsigned int hi, lo;

	if (s->end - s->p < 5)
		return truncated(s);
	if (hex4(s->p + 1, &hi))
		return fail(s, "a \\u escape without four hex digits");
	s->p += 5;
	if (hi >= 0xd800 && hi < 0xdc00 && s->end - s->p >= 6 &&
	    s->p[0] == '\\' && s->p[1] == 'u' && !hex4(s->p + 2, &lo) &&
	    lo >= 0xdc00 && lo < 0xe000) {
		s->p += 6;
		hi = 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00);
	} else if (hi >= 0xd800 && hi < 0xe000) {
		hi = 0xfffd;	/* a lone surrogate: the replacement character */
	}
	*cp = hi;
	return 0;
}

/*
 * Add @n bytes of a string's value to *@buf (@len bytes, *@used taken).
 * One that does not fit is an error, or, where the caller takes a cut
 * (@cut), an empty value: *@buf becomes NULL and the rest is skipped.
 */
static int append(struct json_scan *s, char **buf, size_t len, size_t *used,
		  const char *from, size_t n, bool *cut)
{
	if (*buf && *used + n >= len) {
		if (!cut)
			return fail(s, too_long);
		*cut = true;
		(*buf)[0] = '\0';
		*buf = NULL;
	}
	if (*buf) {
		memcpy(*buf + *used, from, n);
		*used += n;
	}
	return 0;
}

/*
 * The string at s->p ('"'), into @buf when given (@len bytes with the
 * NUL).  One that does not fit fails, or with @cut is left out: @buf
 * empty, *@cut set, the string still checked to its end.
 */
static int read_string(struct json_scan *s, char *buf, size_t len, bool *cut)
{
	size_t used = 0;

	s->p++;
	for (;;) {
		const char *run = s->p;
		char tmp[4], *out = tmp;
		size_t n;

		while (s->p < s->end && *s->p != '"' && *s->p != '\\' &&
		       (unsigned char)*s->p >= 0x20)
			s->p++;
		n = (size_t)(s->p - run);
		if (append(s, &buf, len, &used, run, n, cut))
			return -1;
		if (s->p >= s->end)
			return truncated(s);
		if (*s->p == '"')
			break;
		if ((unsigned char)*s->p < 0x20)
			return fail(s, "a control character inside a string");
		if (++s->p >= s->end)
			return truncated(s);
		switch (*s->p) {
		case '"': case '\\': case '/':
			tmp[0] = *s->p;
			n = 1;
			break;
		case 'b': tmp[0] = '\b'; n = 1; break;
		case 'f': tmp[0] = '\f'; n = 1; break;
		case 'n': tmp[0] = '\n'; n = 1; break;
		case 'r': tmp[0] = '\r'; n = 1; break;
		case 't': tmp[0] = '\t'; n = 1; break;
		case 'u': {
			unsigned int cp = 0;

			if (unicode_escape(s, &cp))
				return -1;
			n = utf8(tmp, cp);
			s->p--;		/* the loop's step below */
			break;
		}
		default:
			return fail(s, "an unknown escape in a string");
		}
		s->p++;
		if (append(s, &buf, len, &used, out, n, cut))
			return -1;
	}
	s->p++;
	if (buf)
		buf[used] = '\0';
	return 0;
}

static bool digit(const struct json_scan *s)
{
	return s->p < s->end && *s->p >= '0' && *s->p <= '9';
}

static int read_number(struct json_scan *s, double *v)
{
	const char *begin = s->p;
	char num[64];

	if (*s->p == '-')
		s->p++;
	if (!digit(s))
		return s->p >= s->end ? truncated(s) : fail(s, "a malformed number");
	if (*s->p == '0')
		s->p++;
	else
		while (digit(s))
			s->p++;
	if (s->p < s->end && *s->p == '.') {
		s->p++;
		if (!digit(s))
			return s->p >= s->end ? truncated(s) : fail(s, "a malformed number");
		while (digit(s))
			s->p++;
	}
	if (s->p < s->end && (*s->p == 'e' || *s->p == 'E')) {
		s->p++;
		if (s->p < s->end && (*s->p == '+' || *s->p == '-'))
			s->p++;
		if (!digit(s))
			return s->p >= s->end ? truncated(s) : fail(s, "a malformed number");
		while (digit(s))
			s->p++;
	}
	/* the document may end right after a number: a top-level one is not NUL-ended */
	if (s->p >= s->end && s->depth)
		return truncated(s);
	if (v) {
		size_t n = (size_t)(s->p - begin);

		if (n >= sizeof(num))
			return fail(s, "a number longer than any value a report holds");
		memcpy(num, begin, n);
		num[n] = '\0';
		*v = strtod(num, NULL);
	}
	return 0;
}

static int literal(struct json_scan *s, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(s->end - s->p) < n)
		return strncmp(s->p, word, (size_t)(s->end - s->p)) ?
		       fail(s, "an unexpected character") : truncated(s);
	if (memcmp(s->p, word, n))
		return fail(s, "an unexpected character");
	s->p += n;
	return 0;
}

static int skip_value(struct json_scan *s);

static int skip_container(struct json_scan *s, char open)
{
	int r;

	if (open == '{') {
		if (json_scan_object(s) < 0)
			return -1;
		while ((r = json_scan_member(s, NULL, 0)) > 0)
			if (skip_value(s))
				return -1;
	} else {
		if (json_scan_array(s) < 0)
			return -1;
		while ((r = json_scan_element(s)) > 0)
			if (skip_value(s))
				return -1;
	}
	return r;
}

static int skip_value(struct json_scan *s)
{
	char c = json_scan_peek(s);

	if (s->error)
		return -1;
	switch (c) {
	case 0:
		return truncated(s);
	case '{': case '[':
		return skip_container(s, c);
	case '"':
		return read_string(s, NULL, 0, NULL);
	case 't':
		return literal(s, "true");
	case 'f':
		return literal(s, "false");
	case 'n':
		return literal(s, "null");
	default:
		if (c == '-' || (c >= '0' && c <= '9'))
			return read_number(s, NULL);
		return fail(s, "an unexpected character");
	}
}

int json_scan_skip(struct json_scan *s)
{
	return skip_value(s);
}

int json_scan_string(struct json_scan *s, char *buf, size_t len)
{
	buf[0] = '\0';
	if (json_scan_peek(s) != '"')
		return skip_value(s) ? -1 : 0;
	return read_string(s, buf, len, NULL) ? -1 : 1;
}

int json_scan_number(struct json_scan *s, double *v)
{
	char c = json_scan_peek(s);

	if (c != '-' && !(c >= '0' && c <= '9'))
		return skip_value(s) ? -1 : 0;
	return read_number(s, v) ? -1 : 1;
}

/* A container opened: none of its members read yet. */
static int open_container(struct json_scan *s, char open)
{
	char c = json_scan_peek(s);

	if (s->error)
		return -1;
	if (c != open)
		return skip_value(s) ? -1 : 0;
	if (s->depth >= JSON_SCAN_DEPTH)
		return fail(s, "nested deeper than any report");
	s->has_item[s->depth++] = false;
	s->p++;
	return 1;
}

int json_scan_object(struct json_scan *s)
{
	return open_container(s, '{');
}

int json_scan_array(struct json_scan *s)
{
	return open_container(s, '[');
}

/* Before the next member or element: ',' or the closer.  1 more, 0 closed. */
static int next_item(struct json_scan *s, char close)
{
	char c = json_scan_peek(s);
	bool *has;

	if (s->error)
		return -1;
	if (!s->depth)
		return fail(s, "no container is open");
	has = &s->has_item[s->depth - 1];
	if (!c)
		return truncated(s);
	if (c == close) {
		s->p++;
		s->depth--;
		return 0;
	}
	if (*has) {
		if (c != ',')
			return fail(s, "a missing comma");
		s->p++;
		c = json_scan_peek(s);
		if (!c)
			return truncated(s);
		/* "[1,]" is not JSON */
		if (c == close)
			return fail(s, "a comma before the closing bracket");
	}
	*has = true;
	return 1;
}

int json_scan_member(struct json_scan *s, char *key, size_t len)
{
	int r = next_item(s, '}');
	bool cut = false;

	if (r <= 0)
		return r;
	if (json_scan_peek(s) != '"')
		return s->p >= s->end ? truncated(s) : fail(s, "an object key that is no string");
	if (key ? read_string(s, key, len, &cut) : read_string(s, NULL, 0, NULL))
		return -1;
	if (json_scan_peek(s) != ':')
		return s->p >= s->end ? truncated(s) : fail(s, "a missing colon");
	s->p++;
	return 1;
}

int json_scan_element(struct json_scan *s)
{
	return next_item(s, ']');
}

bool json_scan_too_long(const struct json_scan *s)
{
	return s->error == too_long;
}

int json_scan_end(struct json_scan *s)
{
	if (s->error)
		return -1;
	skip_ws(s);
	return s->p < s->end ? fail(s, "more after the document") : 0;
}
