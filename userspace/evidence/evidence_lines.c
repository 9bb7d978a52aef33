// SPDX-License-Identifier: GPL-2.0
/*
 * A pasted file into lines: read whole with a bound (a pipe or /dev/zero
 * is an error, not a hang), split at newlines, and cleaned of what pasting
 * adds, while every line keeps its number in the file so that evidence
 * can be quoted by line: a CR before the newline, markdown fences and
 * quote marks, a line longer than the readers take (cut, and said).
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
		snprintf(err, errlen, "--evidence: cannot read %s: %s",
			 strcmp(path, "-") ? path : "stdin",
			 errno == EFBIG ? "larger than 16 MiB" : strerror(errno));
		return -1;
	}
	f->name = strdup(path);
	if (!f->name) {
		free(f->text);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	ev->nr_files++;
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
