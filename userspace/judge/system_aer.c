// SPDX-License-Identifier: GPL-2.0
/*
 * The AER counters and Link Status (system/aer.h) of every function on a
 * judged pair's path, before the copies and after: errors the run caused
 * apart from those logged since boot, each put on the port that logged it
 * and the pairs whose path crosses it.  Link Bandwidth Management Status
 * (bit 14) and Link Autonomous Bandwidth Status (bit 15) mean the link
 * changed speed or width since they were last cleared.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/judgement.h"
#include "judge/results.h"
#include "judge/system_checks.h"
#include "topology/pciaddr.h"
#include "system/aer.h"
#include "system/system.h"
#include "p2pdiag/verdict.h"

#define LNKSTA_LBMS	0x4000
#define LNKSTA_LABS	0x8000

/* A function that some judged pair ends at or passes. */
static bool on_a_path(const struct check_run *r, unsigned int i, const void *arg)
{
	(void)arg;
	return run_pairs_through(r, (int)i)->nr > 0;
}

void aer_before(const struct check_run *r, struct aer_state *a)
{
	const struct p2pd_model *m = r->in.model;
	unsigned int *fns = NULL, k;
	int n;

	memset(a, 0, sizeof(*a));
	if (!m || !m->nr_fn)
		return;
	n = run_select(r, m->nr_fn, on_a_path, NULL, &fns);
	if (n > 0)
		a->port = calloc((size_t)n, sizeof(*a->port));
	if (n < 0 || (n > 0 && !a->port)) {
		free(fns);
		return;
	}
	for (k = 0; k < (unsigned int)n; k++) {
		struct aer_port *port = &a->port[a->nr++];

		port->addr = m->fn[fns[k]].addr;
		port->fn = (int)fns[k];
		aer_read_counts(r->in.root, &r->in.system->refused, port->addr,
				&port->before);
	}
	free(fns);
	a->taken = true;
}

/*
 * "0000:1b:00.0-0000:1c:00.0, ... and N more" for the pairs through @fn,
 * as the pair loop counted them (judge/results.h): one look per port.
 */
static void pairs_through(const struct check_run *r, int fn, char *buf, size_t len)
{
	const struct pairs_through *t = run_pairs_through(r, fn);
	unsigned long k;
	size_t used = 0;

	buf[0] = '\0';
	for (k = 0; k < t->nr && k < RUN_PAIRS_NAMED; k++) {
		char x[P2PD_ADDR_STRLEN], y[P2PD_ADDR_STRLEN];

		if (used < len) {
			int w = snprintf(buf + used, len - used, "%s%s-%s", used ? ", " : "",
					 pciaddr_format(x, r->in.model->fn[t->a[k]].addr),
					 pciaddr_format(y, r->in.model->fn[t->b[k]].addr));

			used = w < 0 ? used : used + (size_t)w;
		}
	}
	if (t->nr > RUN_PAIRS_NAMED && used < len)
		snprintf(buf + used, len - used, " and %lu more", t->nr - RUN_PAIRS_NAMED);
}

static void judge_port(struct check_run *r, const struct aer_port *p)
{
	const struct aer_counts *b = &p->before, *n = &p->after;
	const struct p2pd_function *f = &r->in.model->fn[p->fn];
	char a[P2PD_ADDR_STRLEN], pairs[512];

	pciaddr_format(a, p->addr);
	pairs_through(r, p->fn, pairs, sizeof(pairs));
	if (r->in.gpu_measured && b->have && n->have &&
	    (n->cor > b->cor || n->nonfatal > b->nonfatal || n->fatal > b->fatal))
		findings_add(&r->judged.findings, SEV_WARNING, FC_AER_DURING_RUN, p->addr,
			     FINDING_NO_ADDR,
			     "reseat or replace the card or cable at this port, check its slot's lane margin (or lower the link speed in firmware) and compare with nvidia-smi -q's replay counter",
			     "%s %s logged errors during this run's copies: correctable +%llu, non-fatal +%llu, fatal +%llu (now %s); it is on the path of %s",
			     p2pd_role_name(f->role), a, n->cor - b->cor, n->nonfatal - b->nonfatal,
			     n->fatal - b->fatal, n->detail, pairs);
	else if (n->have && (n->cor || n->nonfatal || n->fatal))
		findings_add(&r->judged.findings, n->nonfatal || n->fatal ? SEV_WARNING : SEV_INFO,
			     FC_AER_LOGGED, p->addr, FINDING_NO_ADDR,
			     n->nonfatal || n->fatal ?
			     "see the kernel log for the AER reports of this port; an uncorrectable error on a P2P path can mean lost or poisoned data: test the pair's copies (the data check below)" :
			     FINDING_NO_FIX,
			     "%s %s has logged AER errors since boot: correctable %llu, non-fatal %llu, fatal %llu (%s); it is on the path of %s",
			     p2pd_role_name(f->role), a, n->cor, n->nonfatal, n->fatal,
			     n->detail, pairs);
	if (p->have_lnksta && (p->lnksta & (LNKSTA_LBMS | LNKSTA_LABS)))
		findings_add(&r->judged.findings, SEV_INFO, FC_LINK_RETRAINED, p->addr,
			     FINDING_NO_ADDR, NULL,
			     "%s %s: Link Status 0x%04x has %s%s%s set: the link changed speed or width by itself since the flag was last cleared (signal trouble, or power management); it is on the path of %s",
			     p2pd_role_name(f->role), a, p->lnksta,
			     p->lnksta & LNKSTA_LBMS ? "Link Bandwidth Management Status" : "",
			     (p->lnksta & LNKSTA_LBMS) && (p->lnksta & LNKSTA_LABS) ? " and " : "",
			     p->lnksta & LNKSTA_LABS ? "Link Autonomous Bandwidth Status" : "",
			     pairs);
}

void aer_judge(struct check_run *r, struct aer_state *a)
{
	unsigned int i;

	if (!r->in.model)
		return;
	if (!a->taken)
		aer_before(r, a);
	for (i = 0; i < a->nr; i++) {
		struct aer_port *p = &a->port[i];

		aer_read_after(r->in.root, &r->in.system->refused, p);
		judge_port(r, p);
	}
}
