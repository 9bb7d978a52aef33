/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Errors on the path: the AER counters the kernel keeps per function
 * (aer_dev_correctable, aer_dev_nonfatal, aer_dev_fatal) and the Link
 * Status flags that say a link retrained by itself, for every function on
 * a judged pair's path; read before the copies and after, so errors the
 * run caused are told from those logged since boot, and each is put on
 * the port that logged it and the pairs whose path crosses it.
 */
#ifndef P2PDIAG_SYSTEM_AER_H
#define P2PDIAG_SYSTEM_AER_H

#include <stdbool.h>

struct fsroot;
struct fsroot_refusal;

#define AER_DETAIL 256

struct aer_counts {
	bool have;			/* the three files were readable */
	unsigned long long cor, nonfatal, fatal;
	char detail[AER_DETAIL];	/* the non-zero counters: "RxErr 12, CmpltTO 1" */
};

struct aer_port {
	unsigned long long addr;		/* P2PD_ADDR() */
	int fn;				/* model index */
	struct aer_counts before, after;
	bool have_lnksta;
	unsigned int lnksta;		/* Link Status, after the run */
};

struct aer_state {
	struct aer_port *port;		/* malloc'd */
	unsigned int nr;
	bool taken;			/* aer_read_before() ran */
};

/* aer_read_counts() - the three AER counters of @addr under @root into @c. */
void aer_read_counts(const struct fsroot *root, struct fsroot_refusal *refused,
		     unsigned long long addr, struct aer_counts *c);
/* aer_read_after() - @p's counters and Link Status after the copies. */
void aer_read_after(const struct fsroot *root, struct fsroot_refusal *refused,
		    struct aer_port *p);
/*
 * aer_read_before() - before the copies, the counters of every port of
 * @a (the judge chose them: judge/system_checks.h's aer_choose()).
 */
void aer_read_before(const struct fsroot *root, struct fsroot_refusal *refused,
		     struct aer_state *a);
/* aer_read_ports_after() - after the copies, aer_read_after() of every port of @a. */
void aer_read_ports_after(const struct fsroot *root,
			  struct fsroot_refusal *refused, struct aer_state *a);
void aer_free(struct aer_state *a);

/*
 * aer_parse() - the TOTAL_ERR_* line and the non-zero counters of one
 * aer_dev_* file's text; Return: 0, or -1 when it has no total.
 */
int aer_parse(const char *text, unsigned long long *total, char *detail, size_t len);

#endif /* P2PDIAG_SYSTEM_AER_H */
