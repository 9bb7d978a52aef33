// SPDX-License-Identifier: GPL-2.0
/*
 * The list of findings.  Messages are formatted into owned strings so the
 * reports can print them long after the numbers behind them are gone.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "findings/findings.h"
#include "findings/finding_registry.h"
#include "platform/safe_text.h"

static unsigned long violations;

unsigned long finding_registry_violations(void)
{
	return violations;
}

/*
 * A code outside the registry's range (a value no FC_ constant has) is a
 * producer the documentation does not know: refused, said on stderr, and
 * the run cannot end "all good".  A severity outside the code's range is
 * kept (the finding is real) and said the same way.
 */
static const struct finding_kind *registered(struct findings *f,
					    enum finding_severity sev,
					    enum finding_code code)
{
	const struct finding_kind *k = finding_kind(code);

	if (!k) {
		violations++;
		f->unregistered = true;
		fprintf(stderr, "p2pdiag-check: internal error: finding code %d is not in findings/finding_codes.h: finding dropped\n",
			(int)code);
		return NULL;
	}
	if (sev < k->least || sev > k->worst) {
		violations++;
		fprintf(stderr, "p2pdiag-check: internal error: finding '%s' with severity %s, outside its registered range\n",
			k->code, finding_severity_name(sev));
	}
	return k;
}

/* A printf format and its arguments: callers' formats are checked. */
static __attribute__((format(printf, 1, 0)))
char *vformat(const char *fmt, va_list ap)
{
	va_list ap2;
	char *s;
	int n;

	va_copy(ap2, ap);
	n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		return NULL;
	s = malloc((size_t)n + 1);
	if (s)
		vsnprintf(s, (size_t)n + 1, fmt, ap);
	return s;
}

/*
 * A finding's text as every output shows it: a value quoted from an input
 * file keeps its control characters and stray bytes as \xHH, so neither
 * the text report nor the journal sends them (safe_text.h).  Frees @s
 * when it makes a new text; NULL when memory ran out.
 */
static char *shown(char *s)
{
	size_t len;
	char *out;

	if (!s || !text_needs_escape(s))
		return s;
	len = 4 * strlen(s) + 1;
	out = malloc(len);
	if (out)
		safe_text(out, len, s);
	free(s);
	return out;
}

int findings_add(struct findings *f, enum finding_severity sev,
		 enum finding_code code, unsigned long long a, unsigned long long b,
		 const char *fix, const char *fmt, ...)
{
	const struct finding_kind *k = registered(f, sev, code);
	struct finding *it;
	va_list ap;

	if (!k)
		return -1;
	if (f->nr == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 16;
		struct finding *n = realloc(f->item, cap * sizeof(*n));

		if (!n) {
			f->oom = true;
			return -1;
		}
		f->item = n;
		f->cap = cap;
	}
	it = &f->item[f->nr];
	memset(it, 0, sizeof(*it));
	it->severity = sev;
	it->id = code;
	it->code = k->code;
	it->has_pair = a != FINDING_NO_ADDR && b != FINDING_NO_ADDR;
	it->a = a;
	it->b = b;
	it->root_cause = k->root_cause;
	if (!fix)
		fix = k->fix;
	va_start(ap, fmt);
	it->message = shown(vformat(fmt, ap));
	va_end(ap);
	it->fix = fix && *fix ? shown(strdup(fix)) : NULL;
	if (!it->message || (fix && *fix && !it->fix)) {
		free(it->message);
		free(it->fix);
		f->oom = true;
		return -1;
	}
	f->nr++;
	return 0;
}

int findings_set_evidence(struct findings *f, const char *refs)
{
	struct finding *it;

	if (!f->nr)
		return -1;
	it = &f->item[f->nr - 1];
	free(it->evidence);
	it->evidence = strdup(refs);
	if (!it->evidence) {
		f->oom = true;
		return -1;
	}
	return 0;
}

void findings_set_root_cause(struct findings *f, enum root_cause rc)
{
	if (f->nr)
		f->item[f->nr - 1].root_cause = rc;
}

void findings_free(struct findings *f)
{
	size_t i;

	for (i = 0; i < f->nr; i++) {
		free(f->item[i].message);
		free(f->item[i].fix);
		free(f->item[i].evidence);
	}
	free(f->item);
	memset(f, 0, sizeof(*f));
}

size_t findings_count_code(const struct findings *f, const char *code)
{
	size_t i, n = 0;

	for (i = 0; i < f->nr; i++)
		if (!strcmp(f->item[i].code, code))
			n++;
	return n;
}

enum finding_severity findings_worst(const struct findings *f)
{
	enum finding_severity w = SEV_INFO;
	size_t i;

	for (i = 0; i < f->nr; i++)
		if (f->item[i].severity > w)
			w = f->item[i].severity;
	return w;
}
