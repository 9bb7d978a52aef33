/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KTAP-style results for the unit tests: "ok N name" / "not ok N name",
 * "ok N name # SKIP reason" for a test that could not run here,
 * diagnostics as "# ..." lines.  tests/unit/Makefile counts the result
 * lines of every runner with tests/tap-totals and prints the one summary
 * line.
 */
#ifndef P2PD_TEST_KTAP_H
#define P2PD_TEST_KTAP_H

#include <stdarg.h>
#include <stdio.h>

struct ktap {
	unsigned int n, passed, failed, skipped;
};

static inline void ktap_start(const char *suite)
{
	printf("KTAP version 1\n# suite: %s\n", suite);
}

/* One result; @why says what went wrong when @ok is false. */
static inline int ktap_result(struct ktap *k, int ok, const char *why,
			      const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static inline int ktap_result(struct ktap *k, int ok, const char *why,
			      const char *fmt, ...)
{
	va_list ap;

	k->n++;
	if (ok)
		k->passed++;
	else
		k->failed++;
	printf("%sok %u ", ok ? "" : "not ", k->n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!ok && why && *why)
		printf("# %s\n", why);
	return ok;
}

/*
 * A test that ran nothing that could fail (not root, no device): counted
 * apart from the passes, with @why saying what it lacked.
 */
static inline void ktap_skip(struct ktap *k, const char *why,
			     const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static inline void ktap_skip(struct ktap *k, const char *why,
			     const char *fmt, ...)
{
	va_list ap;

	k->n++;
	k->skipped++;
	printf("ok %u ", k->n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(" # SKIP %s\n", why);
}

/* The plan at the end, the runner's own count as a comment; exit status. */
static inline int ktap_finish(const struct ktap *k)
{
	printf("1..%u\n# %u passed, %u failed, %u skipped\n", k->n, k->passed,
	       k->failed, k->skipped);
	fflush(stdout);
	return k->failed ? 1 : 0;
}

#endif /* P2PD_TEST_KTAP_H */
