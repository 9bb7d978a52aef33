// SPDX-License-Identifier: GPL-2.0
/*
 * Lines and tokens of the topology file.  Everything above this file sees
 * a line as NUL-terminated text of bounded length and a token as a key and
 * an unescaped value; the byte-level checks (length, NUL bytes, CRLF,
 * escapes) are made here once.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "topology/parse_reader.h"
#include "topology/parse_values.h"
#include "topology/topology_parse.h"

int parse_fail(struct parser *p, unsigned int line, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	if (!p->err || !p->errlen)
		return -1;
	if (line)
		n = snprintf(p->err, p->errlen, "line %u: ", line);
	if (n < 0 || (size_t)n >= p->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

const char *parse_shown(const char *s, size_t n, char out[SHOWN_LEN])
{
	size_t i;

	for (i = 0; i < n && i < 40 && s[i]; i++)
		out[i] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
	if (i == 40 && i < n && s[i])
		out[i++] = '.', out[i++] = '.';
	out[i] = 0;
	return out;
}

int parse_bad_value(struct parser *p, const char *key, const char *value)
{
	char buf[SHOWN_LEN];

	return parse_fail(p, p->line, "%s=%s is not a valid value", key,
			  parse_shown(value, strlen(value), buf));
}

int parse_next_line(struct parser *p, char *buf, size_t *n)
{
	const char *start, *nl;
	size_t len;

	if (p->pos >= p->len)
		return 0;
	start = p->text + p->pos;
	nl = memchr(start, '\n', p->len - p->pos);
	len = nl ? (size_t)(nl - start) : p->len - p->pos;
	p->pos += len + (nl ? 1 : 0);
	p->line++;
	if (len && start[len - 1] == '\r')
		len--;
	if (len > TOPO_MAX_LINE)
		return parse_fail(p, p->line, "longer than %d bytes",
				  TOPO_MAX_LINE);
	if (memchr(start, 0, len))
		return parse_fail(p, p->line, "contains a NUL byte");
	memcpy(buf, start, len);
	buf[len] = 0;
	*n = len;
	return 1;
}

int parse_tokens(struct parser *p, char *line, token_fn fn, void *ctx)
{
	char value[TOPO_MAX_LINE + 1], buf[SHOWN_LEN];
	char *s = line;

	while (*s) {
		char *end, *eq;

		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		end = s;
		while (*end && *end != ' ' && *end != '\t')
			end++;
		eq = memchr(s, '=', (size_t)(end - s));
		if (!eq || eq == s)
			return parse_fail(p, p->line, "\"%s\" is not key=value",
					  parse_shown(s, (size_t)(end - s), buf));
		*eq = 0;
		if (parse_unescape(eq + 1, (size_t)(end - eq - 1), value))
			return parse_fail(p, p->line, "%s: bad escape in value",
					  parse_shown(s, (size_t)(eq - s), buf));
		if (*end)
			*end++ = 0;
		if (fn(p, ctx, s, value))
			return -1;
		s = end;
	}
	return 0;
}
