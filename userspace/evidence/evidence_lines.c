// SPDX-License-Identifier: GPL-2.0
/*
 * A pasted file into lines: read whole with a bound (a pipe or /dev/zero
 * is an error, not a hang), split at newlines, and cleaned of what pasting
 * adds, while every line keeps its number in the file so that evidence
 * can be quoted by line: a CR before the newline, markdown fences and
 * quote marks, a table's pipes, terminal escapes (nvidia-smi underlines
 * its headers even into a file), a UTF-8 byte order mark, UTF-16 (what
 * PowerShell's redirection writes), a line longer than the readers take
 * (cut, and said).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "evidence/evidence.h"
#include "platform/bounded_file.h"

/* A fence line (```, ```text, ~~~) holds no output: it reads as empty. */
static bool fence_line(const char *s)
{
	s = ev_skip_blank(s);
	return ev_starts(s, "```") || ev_starts(s, "~~~");
}

/* "> " of a markdown quote, possibly nested. */
static const char *unquote(const char *s)
{
	while (s[0] == '>' && (s[1] == ' ' || s[1] == '\0' || s[1] == '>'))
		s += s[1] == ' ' ? 2 : 1;
	return s;
}

/* "`ACSCtl: ...`": an output line pasted as inline code, without its marks. */
static void strip_inline_code(char *s)
{
	char *p = (char *)ev_skip_blank(s);
	size_t n = strlen(p);

	if (n >= 2 && p[0] == '`' && p[1] != '`' && p[n - 1] == '`') {
		p[n - 1] = '\0';
		memmove(p, p + 1, n - 1);
	}
}

/*
 * Terminal escapes out of @s, in place: CSI (ESC [ ... final byte), OSC
 * (ESC ] ... BEL or ESC \), any other ESC pair, and SGR sequences whose
 * ESC a paste dropped ("[4mGPU0[0m").
 */
static void strip_escapes(char *s)
{
	char *w = s;
	const char *r = s;

	while (*r) {
		if (r[0] == '\033' && r[1] == '[') {
			r += 2;
			while (*r && !(*r >= '@' && *r <= '~'))
				r++;
			r += *r != '\0';
		} else if (r[0] == '\033' && r[1] == ']') {
			r += 2;
			while (*r && *r != '\a' && !(r[0] == '\033' && r[1] == '\\'))
				r++;
			r += *r == '\a' ? 1 : *r ? 2 : 0;
		} else if (r[0] == '\033') {
			r += 1 + (r[1] != '\0');
		} else if (r[0] == '[' && r[1] >= '0' && r[1] <= '9' &&
			   r[1 + strspn(r + 1, "0123456789;")] == 'm' &&
			   strspn(r + 1, "0123456789;") <= 8) {
			r += 2 + strspn(r + 1, "0123456789;");
		} else {
			*w++ = *r++;
		}
	}
	*w = '\0';
}

/*
 * A markdown table row ("| GPU0 | X | OK |") as the words it holds, its
 * rule ("|---|:--:|") as an empty line.  Only a line that starts and
 * ends with '|' is one: lspci -tv's tree lines start with blanks.
 */
static void untable(char *s)
{
	size_t n = strlen(s);
	char *p;

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (s[0] != '|' || n < 2 || s[n - 1] != '|')
		return;
	if (strspn(s, "|-: \t") >= n) {
		s[0] = '\0';
		return;
	}
	for (p = s; *p; p++)
		if (*p == '|')
			*p = ' ';
}

/*
 * A markdown heading made of a header line ("# GPU0 GPU1 ...", where the
 * paste turned the first of the header's blanks into '#'): the header.
 */
static void unheading(char *s)
{
	const char *p = s + strspn(s, "#");

	if (p == s || p - s > 6 || (*p != ' ' && *p != '\t'))
		return;
	if (ev_starts(ev_skip_blank(p), "GPU0"))
		memmove(s, p, strlen(p) + 1);
}

static int split_lines(struct ev_file *f)
{
	size_t i, start = 0, nr = 0, cap = 0;
	char **line = NULL;

	for (i = 0; i <= f->len; i++) {
		size_t n;
		char *s;
		const char *from;

		if (i < f->len && f->text[i] != '\n')
			continue;
		if (i == f->len && start == f->len)
			break;		/* no last line after a final newline */
		n = i - start;
		if (n && f->text[start + n - 1] == '\r')
			n--;
		if (n > EV_LINE_MAX) {
			n = EV_LINE_MAX;
			f->cut = true;
		}
		if (nr == cap) {
			size_t c = cap ? cap * 2 : 256;
			char **nl = realloc(line, c * sizeof(*nl));

			if (!nl)
				goto out_of_memory;
			line = nl;
			cap = c;
		}
		s = malloc(n + 1);
		if (!s)
			goto out_of_memory;
		memcpy(s, f->text + start, n);
		s[n] = '\0';
		from = unquote(s);
		if (fence_line(from))
			s[0] = '\0';
		else if (from != s)
			memmove(s, from, strlen(from) + 1);
		strip_inline_code(s);
		strip_escapes(s);
		untable(s);
		unheading(s);
		line[nr++] = s;
		start = i + 1;
		if (nr >= 0x7fffffffu)
			break;
	}
	f->line = line;
	f->nr_lines = (unsigned int)nr;
	return 0;

out_of_memory:
	while (nr)
		free(line[--nr]);
	free(line);
	errno = ENOMEM;
	return -1;
}

/*
 * UTF-16 (a byte order mark, or every other byte NUL in the first line's
 * worth) into UTF-8 in place of f->text; characters past the Basic
 * Multilingual Plane become '?', which no reader needs.  A UTF-8 byte
 * order mark is dropped.  Return: 0, or -1 when memory ran out.
 */
static int to_utf8(struct ev_file *f)
{
	const unsigned char *t = (const unsigned char *)f->text;
	size_t i, n = f->len, at = 0, zero_odd = 0, zero_even = 0, w = 0;
	bool be;
	char *out;

	if (n >= 3 && t[0] == 0xef && t[1] == 0xbb && t[2] == 0xbf) {
		memmove(f->text, f->text + 3, n - 3);
		f->len -= 3;
		f->text[f->len] = '\0';
		return 0;
	}
	for (i = 0; i + 1 < n && i < 128; i += 2) {
		zero_even += !t[i];
		zero_odd += !t[i + 1];
	}
	if (n >= 2 && ((t[0] == 0xff && t[1] == 0xfe) || (t[0] == 0xfe && t[1] == 0xff))) {
		be = t[0] == 0xfe;
		at = 2;
	} else if (n >= 8 && (zero_odd * 4 >= i / 2 * 3) != (zero_even * 4 >= i / 2 * 3)) {
		be = zero_even > zero_odd;
	} else {
		return 0;
	}
	out = malloc((n - at) / 2 * 3 + 1);
	if (!out)
		return -1;
	for (i = at; i + 1 < n; i += 2) {
		unsigned int c = be ? (unsigned int)t[i] << 8 | t[i + 1] :
				      (unsigned int)t[i + 1] << 8 | t[i];

		if (c < 0x80) {
			out[w++] = (char)c;
		} else if (c < 0x800) {
			out[w++] = (char)(0xc0 | c >> 6);
			out[w++] = (char)(0x80 | (c & 0x3f));
		} else if (c >= 0xd800 && c < 0xe000) {
			if (c < 0xdc00)
				out[w++] = '?';	/* a pair's low half is dropped */
		} else {
			out[w++] = (char)(0xe0 | c >> 12);
			out[w++] = (char)(0x80 | ((c >> 6) & 0x3f));
			out[w++] = (char)(0x80 | (c & 0x3f));
		}
	}
	out[w] = '\0';
	free(f->text);
	f->text = out;
	f->len = w;
	f->utf16 = true;
	return 0;
}

int evidence_load(struct evidence *ev, const char *path, char *err, size_t errlen)
{
	struct ev_file *f;
	int rc;

	if (ev->nr_files >= EV_FILES_MAX) {
		snprintf(err, errlen, "--evidence: at most %u files", EV_FILES_MAX);
		return -1;
	}
	f = &ev->file[ev->nr_files];
	memset(f, 0, sizeof(*f));
	if (!strcmp(path, "-"))
		rc = bounded_fd_read(dup(STDIN_FILENO), EV_FILE_MAX, &f->text, &f->len);
	else
		rc = bounded_file_read(path, EV_FILE_MAX, &f->text, &f->len);
	if (rc) {
		/* named in the report as not read; the other files still count */
		snprintf(f->why, sizeof(f->why), "cannot read it: %s",
			 errno == EFBIG ? "larger than 16 MiB" : strerror(errno));
		f->text = NULL;
		f->len = 0;
		f->unreadable = true;
	}
	f->name = strdup(path);
	if (!f->name) {
		free(f->text);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	ev->nr_files++;
	if (f->unreadable)
		return 0;
	if (to_utf8(f)) {
		snprintf(err, errlen, "--evidence: %s: out of memory", path);
		return -1;
	}
	f->binary = memchr(f->text, '\0', f->len) != NULL;
	if (!f->binary && split_lines(f)) {
		snprintf(err, errlen, "--evidence: %s: out of memory", path);
		return -1;
	}
	return 0;
}

const char *ev_skip_blank(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

bool ev_starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

size_t ev_word(const char **s, char *out, size_t outlen)
{
	const char *p = ev_skip_blank(*s);
	size_t n = 0;

	while (*p && *p != ' ' && *p != '\t') {
		if (n + 1 < outlen)
			out[n++] = *p;
		p++;
	}
	if (outlen)
		out[n] = '\0';
	*s = p;
	return n;
}

double ev_number(const char *s)
{
	char *end;
	double v;

	if (!*s)
		return __builtin_nan("");
	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end || errno || v != v)
		return __builtin_nan("");
	return v;
}
