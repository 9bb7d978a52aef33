/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A JSON document written as it is produced: the containers that grow
 * with the machine (a report's pairs, findings, devices) are opened,
 * filled one small json-c object at a time and closed, so memory holds
 * one member, not the document.  The flags are json-c's JSON_C_TO_STRING_*
 * and mean what they mean there, but the layout is this file's own, the
 * same whatever json-c the tool is built with: PRETTY puts each member on
 * a line of its own, indented two spaces (a tab with PRETTY_TAB) a level,
 * and an empty container is "[]" or "{}"; SPACED puts a space after a
 * key's colon, and without PRETTY also inside brackets and after commas
 * ("{ }" when empty).  A member given as a json-c tree is printed in the
 * same layout, so a streamed document equals the one built as a tree.
 *
 * The first failed write is kept: every later call writes nothing (and
 * frees what it was given), and json_stream_end() reports it, so a caller
 * can stop producing early and never mistakes half a document for one.
 */
#ifndef P2PDIAG_JSON_STREAM_H
#define P2PDIAG_JSON_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct json_object;

/* Deeper than any report nests its containers, streamed or in a member. */
#define JSON_STREAM_DEPTH	32

struct json_stream {
	FILE *out;
	int flags;			/* JSON_C_TO_STRING_* */
	unsigned int depth;		/* containers open */
	char closer[JSON_STREAM_DEPTH];	/* '}' or ']' of each */
	bool members[JSON_STREAM_DEPTH];	/* whether it has one yet */
	int error;			/* errno of the first failure, or 0 */
};

/* Start a document on @out, laid out as above for @flags. */
void json_stream_begin(struct json_stream *s, FILE *out, int flags);

/*
 * Open an object or array as the next member: under @key in an object,
 * @key NULL in an array or as the document itself.
 */
void json_stream_open_object(struct json_stream *s, const char *key);
void json_stream_open_array(struct json_stream *s, const char *key);
/* Close the innermost open container. */
void json_stream_close(struct json_stream *s);

/*
 * json_stream_put() - print @v (NULL: null) as the next member, under
 * @key as above, and release it: the stream takes the caller's reference.
 */
void json_stream_put(struct json_stream *s, const char *key,
		     struct json_object *v);

/* Whether everything so far was written. */
bool json_stream_ok(const struct json_stream *s);

/*
 * json_stream_end() - finish the document (every container closed) and
 * free what the stream holds; call it once for every json_stream_begin().
 * Return: 0, or -1 with errno set: a write failed (its errno), memory ran
 * out (ENOMEM) or the containers were not balanced (EINVAL).
 */
int json_stream_end(struct json_stream *s);

#endif /* P2PDIAG_JSON_STREAM_H */
