/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The topology parser's reader: the input cut into lines, a line cut into
 * key=value tokens, and errors that name the line.  Private to the parser
 * (topology_parse.c and the parse_*.c files).
 */
#ifndef P2PDIAG_PARSE_READER_H
#define P2PDIAG_PARSE_READER_H

#include <stddef.h>

#include "p2pdiag/model.h"

/* A function and the line it came from, for messages after sorting. */
struct parsed_fn {
	struct p2pd_function f;
	unsigned int line;
};

struct parser {
	const char *text;
	size_t len;
	size_t pos;
	unsigned int line;	/* number of the line being read, from 1 */
	char *err;
	size_t errlen;
	struct parsed_fn *fns;
	unsigned int nr, cap;
};

/* Room for parse_shown()'s copy: 40 bytes, "..", NUL. */
#define SHOWN_LEN 44

/*
 * parse_fail() - write "line N: <message>" (no prefix when @line is 0)
 * into the parser's error buffer.  Return: -1, always.
 */
int parse_fail(struct parser *p, unsigned int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * parse_shown() - up to 40 bytes of @s for an error message, with anything but
 * printable ASCII shown as '?' (the input may be any bytes at all).
 */
const char *parse_shown(const char *s, size_t n, char out[SHOWN_LEN]);

/* parse_bad_value() - "line N: key=value is not a valid value"; returns -1. */
int parse_bad_value(struct parser *p, const char *key, const char *value);

/*
 * parse_next_line() - the next line into @buf (TOPO_MAX_LINE + 1 bytes), without
 * its newline or a trailing CR; its length in *n.
 * Return: 1 with a line, 0 at the end, -1 on error.
 */
int parse_next_line(struct parser *p, char *buf, size_t *n);

/* Called for each token with the key and the unescaped value. */
typedef int (*token_fn)(struct parser *p, void *ctx, const char *key,
			const char *value);

/*
 * parse_tokens() - split @line into "key=value" tokens separated by
 * spaces or tabs and call @fn for each; stop at the first error.
 * Return: 0, or -1 with the error written.
 */
int parse_tokens(struct parser *p, char *line, token_fn fn, void *ctx);

#endif /* P2PDIAG_PARSE_READER_H */
