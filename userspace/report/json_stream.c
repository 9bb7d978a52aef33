// SPDX-License-Identifier: GPL-2.0
/*
 * The streamed JSON document: see json_stream.h.  The layout (commas,
 * line breaks, indentation, the space after a key) is defined here and
 * nowhere else: a member given as a json-c tree is walked through the
 * same open/put/close as a streamed container, and only a scalar's text
 * (string escaping, number formats) is json-c's.  json-c's own pretty
 * printer is not used because it changed between releases (0.16 breaks
 * the line inside an empty container, 0.17 on prints "[]"), and reports
 * are diffed across machines whatever json-c each has.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "platform/safe_text.h"
#include "report/json_stream.h"

static bool pretty(const struct json_stream *s)
{
	return s->flags & JSON_C_TO_STRING_PRETTY;
}

/* Spaced without line breaks: a space inside brackets and after commas. */
static bool spaced_inline(const struct json_stream *s)
{
	return (s->flags & JSON_C_TO_STRING_SPACED) && !pretty(s);
}

static void emit(struct json_stream *s, const char *text, size_t len)
{
	if (s->error || !len)
		return;
	errno = 0;
	if (fwrite(text, 1, len, s->out) != len || ferror(s->out))
		s->error = errno ? errno : EIO;
}

static void emit_str(struct json_stream *s, const char *text)
{
	emit(s, text, strlen(text));
}

/* What one level of indentation is: two spaces, or a tab. */
static const char *indent_unit(const struct json_stream *s)
{
	return s->flags & JSON_C_TO_STRING_PRETTY_TAB ? "\t" : "  ";
}

static void indent(struct json_stream *s, unsigned int level)
{
	unsigned int i;

	if (!pretty(s))
		return;
	for (i = 0; i < level; i++)
		emit_str(s, indent_unit(s));
}

static void emit_value(struct json_stream *s, struct json_object *v);
static void open_bracket(struct json_stream *s, const char *opener,
			 char closer);

/*
 * @text with each byte that is not part of a UTF-8 sequence as \ufffd
 * (json-c passes a string's bytes through, and a DMI string or an
 * os-release name may hold Latin-1): the document stays UTF-8.  Outside
 * strings json-c writes ASCII only, so only strings change.
 */
static void emit_utf8(struct json_stream *s, const char *text)
{
	const unsigned char *p = (const unsigned char *)text;
	size_t n = strlen(text), at = 0, run = 0;

	while (at + run < n) {
		size_t k = utf8_sequence(p + at + run, n - at - run);

		if (k) {
			run += k;
			continue;
		}
		emit(s, text + at, run);
		emit_str(s, "\\ufffd");
		at += run + 1;
		run = 0;
	}
	emit(s, text + at, run);
}

/* A scalar's text is json-c's: its escaping and number formats. */
static void emit_scalar(struct json_stream *s, struct json_object *v)
{
	const char *text = json_object_to_json_string_ext(v, s->flags);

	if (!text)
		s->error = ENOMEM;
	else
		emit_utf8(s, text);
}

/*
 * A container given whole is written through the same open/put/close as
 * a streamed one, so the two are the same bytes by construction and the
 * layout (json_stream.h) never depends on json-c's pretty printer.
 */
static void emit_container(struct json_stream *s, struct json_object *v)
{
	size_t i, n;

	if (json_object_is_type(v, json_type_object)) {
		open_bracket(s, "{", '}');
		json_object_object_foreach(v, key, member_value)
			json_stream_put(s, key, json_object_get(member_value));
	} else {
		open_bracket(s, "[", ']');
		n = json_object_array_length(v);
		for (i = 0; i < n; i++)
			json_stream_put(s, NULL,
					json_object_get(json_object_array_get_idx(v, i)));
	}
	json_stream_close(s);
}

/* @v at the current depth; @v (the caller's reference) is released. */
static void emit_value(struct json_stream *s, struct json_object *v)
{
	if (!v)
		emit_str(s, "null");
	else if (s->error)
		;
	else if (json_object_is_type(v, json_type_object) ||
		 json_object_is_type(v, json_type_array))
		emit_container(s, v);
	else
		emit_scalar(s, v);
	json_object_put(v);
}

/* A key, escaped as json-c escapes keys: as a string. */
static void emit_key(struct json_stream *s, const char *key)
{
	struct json_object *k = s->error ? NULL : json_object_new_string(key);

	if (!k) {
		if (!s->error)
			s->error = ENOMEM;
		return;
	}
	emit_value(s, k);
	emit_str(s, s->flags & JSON_C_TO_STRING_SPACED ? ": " : ":");
}

/*
 * What comes before a member: the separator, a line break and its
 * indentation when pretty, its key.  The line break comes here, not after
 * the opening bracket, so an empty container is "[]" or "{}" on one line.
 */
static void member(struct json_stream *s, const char *key)
{
	if (!s->depth)
		return;
	if (s->members[s->depth - 1])
		emit_str(s, ",");
	s->members[s->depth - 1] = true;
	if (pretty(s))
		emit_str(s, "\n");
	else if (spaced_inline(s))
		emit_str(s, " ");
	indent(s, s->depth);
	if (key)
		emit_key(s, key);
}

/* An opening bracket where a member's value goes (its key written). */
static void open_bracket(struct json_stream *s, const char *opener,
			 char closer)
{
	if (s->error)
		return;
	if (s->depth == JSON_STREAM_DEPTH) {
		s->error = EINVAL;
		return;
	}
	emit_str(s, opener);
	s->closer[s->depth] = closer;
	s->members[s->depth] = false;
	s->depth++;
}

static void open_container(struct json_stream *s, const char *key,
			   const char *opener, char closer)
{
	if (s->error)
		return;
	member(s, key);
	open_bracket(s, opener, closer);
}

void json_stream_begin(struct json_stream *s, FILE *out, int flags)
{
	memset(s, 0, sizeof(*s));
	s->out = out;
	s->flags = flags;
}

void json_stream_open_object(struct json_stream *s, const char *key)
{
	open_container(s, key, "{", '}');
}

void json_stream_open_array(struct json_stream *s, const char *key)
{
	open_container(s, key, "[", ']');
}

void json_stream_close(struct json_stream *s)
{
	char closer[3] = " ";

	if (s->error)
		return;
	if (!s->depth) {
		s->error = EINVAL;
		return;
	}
	s->depth--;
	if (pretty(s) && s->members[s->depth]) {
		emit_str(s, "\n");
		indent(s, s->depth);
	}
	closer[1] = s->closer[s->depth];
	emit_str(s, spaced_inline(s) ? closer : closer + 1);
}

void json_stream_put(struct json_stream *s, const char *key,
		     struct json_object *v)
{
	if (s->error) {
		json_object_put(v);
		return;
	}
	member(s, key);
	emit_value(s, v);
}

bool json_stream_ok(const struct json_stream *s)
{
	return !s->error;
}

int json_stream_end(struct json_stream *s)
{
	if (!s->error && s->depth)
		s->error = EINVAL;
	errno = 0;
	if (!s->error && fflush(s->out))
		s->error = errno ? errno : EIO;
	if (!s->error)
		return 0;
	errno = s->error;
	return -1;
}
