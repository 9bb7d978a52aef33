// SPDX-License-Identifier: GPL-2.0
/*
 * A PyTorch session as pasted from a REPL: each printed tensor
 * ("tensor([1., 2.], device='cuda:1')") after the line that made it.  A
 * tensor copied GPU to GPU (x.to(1), x.cuda(1)) that prints other values
 * than the same tensor where it was made, or than its copy staged
 * through the host (x.to('cpu').to(1), x.cpu().cuda(1)), is a peer copy
 * that corrupted the data: the symptom, not yet its cause.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evidence/evidence.h"

#define NAMES 8
#define VALS 16

struct values {
	bool have;
	unsigned int n;
	double v[VALS];
	unsigned int line;
};

struct tensor_name {
	char name[32];
	struct values ref;	/* where it was made, or staged through the host */
	struct values direct;	/* copied GPU to GPU */
};

/* The identifier @s starts with (after blanks and a "> " or ">>> " prompt). */
static size_t ident(const char *s, char *out, size_t len)
{
	size_t n = 0;

	while (n + 1 < len && (isalnum((unsigned char)s[n]) || s[n] == '_'))
		n++;
	memcpy(out, s, n);
	out[n] = '\0';
	return n;
}

static const char *skip_prompt(const char *s)
{
	s = ev_skip_blank(s);
	while (*s == '>' || *s == '.')
		s++;
	return ev_skip_blank(s);
}

/* The numbers of "tensor([a, b, ...]" into @v; false where none. */
static bool tensor_values(const char *s, struct values *v)
{
	const char *p = strstr(s, "tensor(");
	char *end;

	if (!p || !(p = strchr(p, '[')))
		return false;
	v->n = 0;
	for (p++; *p && *p != ']' && v->n < VALS;) {
		double x;

		while (*p == ' ' || *p == ',' || *p == '[')
			p++;
		x = strtod(p, &end);
		if (end == p)
			break;
		v->v[v->n++] = x;
		p = end;
	}
	v->have = v->n > 0;
	return v->have;
}

static bool values_differ(const struct values *a, const struct values *b)
{
	unsigned int i;

	if (a->n != b->n)
		return true;
	for (i = 0; i < a->n; i++)
		if (fabs(a->v[i] - b->v[i]) > 1e-6 * (fabs(a->v[i]) + fabs(b->v[i])) + 1e-30)
			return true;
	return false;
}

static struct tensor_name *lookup(struct tensor_name *t, unsigned int *nr, const char *name)
{
	unsigned int i;

	for (i = 0; i < *nr; i++)
		if (!strcmp(t[i].name, name))
			return &t[i];
	if (*nr >= NAMES)
		return NULL;
	memset(&t[*nr], 0, sizeof(t[0]));
	snprintf(t[*nr].name, sizeof(t[0].name), "%s", name);
	return &t[(*nr)++];
}

void read_torch_session(struct evidence *ev, unsigned int fi)
{
	struct ev_file *f = &ev->file[fi];
	struct ev_torch *tq = &ev->torch;
	struct tensor_name names[NAMES];
	unsigned int nr = 0, i;
	const char *input = NULL;

	for (i = 0; i < f->nr_lines; i++) {
		const char *s = f->line[i], *in;
		struct tensor_name *t;
		struct values v;
		char name[32];
		size_t len;

		if (!strstr(s, "tensor(") || !strstr(s, "device='cuda:")) {
			in = skip_prompt(s);
			if (!*in)
				continue;
			input = in;
			len = ident(in, name, sizeof(name));
			/* "x = ...": a new tensor under that name */
			if (len && *ev_skip_blank(in + len) == '=' && ev_skip_blank(in + len)[1] != '=' &&
			    (t = lookup(names, &nr, name)))
				t->ref.have = t->direct.have = false;
			continue;
		}
		if (!input || !tensor_values(s, &v))
			continue;
		f->formats |= EV_FMT_TORCH;
		v.line = i + 1;
		len = ident(input, name, sizeof(name));
		if (!len || !(t = lookup(names, &nr, name)))
			continue;
		if (*ev_skip_blank(input + len) == '=' || strstr(input, "cpu"))
			t->ref = v;
		else if (strstr(input, ".to(") || strstr(input, ".cuda("))
			t->direct = v;
		else
			continue;
		if (t->ref.have && t->direct.have && values_differ(&t->ref, &t->direct) &&
		    !tq->nr_corrupt++) {
			ev_note(&tq->corrupt_ref, fi, t->direct.line);
			snprintf(tq->tensor, sizeof(tq->tensor), "%s", t->name);
		}
		input = NULL;
	}
}
