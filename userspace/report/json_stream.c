// SPDX-License-Identifier: GPL-2.0
/*
 * The streamed JSON document: see json_stream.h.  The structure between
 * members (commas, line breaks, indentation, the space after a key) is
 * written here as json-c writes it for the same flags (an empty container
 * too: "[", a line break and the closing bracket indented); a
 * member's own text is json-c's, printed as a document of its own, whose
 * line breaks are then indented to the member's depth, and written at once.  A line break in
 * json-c's output is always structure: inside strings it is escaped.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

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

/*
 * @text with @level's indentation after each line break, into s->line
 * (grown as needed, kept for the next member).  Return: its length, or
 * 0 with s->error set when memory ran out.
 */
static size_t indent_lines(struct json_stream *s, const char *text,
			   unsigned int level)
{
	const char *unit = indent_unit(s), *p, *nl, *end = text + strlen(text);
	size_t unit_len = strlen(unit), breaks = 0, len = 0, need;
	unsigned int k;

	for (p = text; (nl = memchr(p, '\n', (size_t)(end - p))); p = nl + 1)
		breaks++;
	need = (size_t)(end - text) + breaks * level * unit_len + 1;
	if (need > s->line_size) {
		char *line = realloc(s->line, need);

		if (!line) {
			s->error = ENOMEM;
			return 0;
		}
		s->line = line;
		s->line_size = need;
	}
	for (p = text; p < end; p = nl) {
		nl = memchr(p, '\n', (size_t)(end - p));
		nl = nl ? nl + 1 : end;
		memcpy(s->line + len, p, (size_t)(nl - p));
		len += (size_t)(nl - p);
		if (nl[-1] != '\n')
			break;
		for (k = 0; k < level; k++, len += unit_len)
			memcpy(s->line + len, unit, unit_len);
	}
	return len;
}

/* json-c's text of @v at the current depth, in one write; @v is released. */
static void emit_value(struct json_stream *s, struct json_object *v)
{
	const char *text;
	size_t len;

	if (!v) {
		emit_str(s, "null");
		return;
	}
	text = s->error ? NULL : json_object_to_json_string_ext(v, s->flags);
	if (!text && !s->error)
		s->error = ENOMEM;
	if (text && (!pretty(s) || !s->depth || !strchr(text, '\n'))) {
		emit_str(s, text);
	} else if (text) {
		len = indent_lines(s, text, s->depth);
		emit(s, s->line, len);
	}
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

/* What comes before a member: the separator, its indentation, its key. */
static void member(struct json_stream *s, const char *key)
{
	if (!s->depth)
		return;
	/* json-c breaks the line after an opening bracket, not before a member */
	if (s->members[s->depth - 1])
		emit_str(s, pretty(s) ? ",\n" : ",");
	s->members[s->depth - 1] = true;
	if (spaced_inline(s))
		emit_str(s, " ");
	indent(s, s->depth);
	if (key)
		emit_key(s, key);
}

static void open_container(struct json_stream *s, const char *key,
			   const char *opener, char closer)
{
	if (s->error)
		return;
	if (s->depth == JSON_STREAM_DEPTH) {
		s->error = EINVAL;
		return;
	}
	member(s, key);
	emit_str(s, opener);
	if (pretty(s))
		emit_str(s, "\n");
	s->closer[s->depth] = closer;
	s->members[s->depth] = false;
	s->depth++;
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
	if (pretty(s)) {
		if (s->members[s->depth])
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
	free(s->line);
	s->line = NULL;
	s->line_size = 0;
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
