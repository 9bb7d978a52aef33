/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A JSON document written as it is produced: the containers that grow
 * with the machine (a report's pairs, findings, devices) are opened,
 * filled one small json-c object at a time and closed, so memory holds
 * one member, not the document.  The bytes are those json-c would print
 * for the whole tree with the same flags (the same spacing, indentation
 * and escaping), so a streamed document equals the tree-built one.
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

/* Deeper than any report nests its streamed containers. */
#define JSON_STREAM_DEPTH	16

struct json_stream {
	FILE *out;
	int flags;			/* JSON_C_TO_STRING_* */
	unsigned int depth;		/* containers open */
	char closer[JSON_STREAM_DEPTH];	/* '}' or ']' of each */
	bool members[JSON_STREAM_DEPTH];	/* whether it has one yet */
	int error;			/* errno of the first failure, or 0 */
	char *line;			/* a member re-indented, reused */
	size_t line_size;
};

/* Start a document on @out, printed as json-c prints with @flags. */
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
