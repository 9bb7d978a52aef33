// SPDX-License-Identifier: GPL-2.0
/*
 * The helpers every judgement file writes its sentences with, kept apart
 * so that the topology and the GPU findings word a blocker, an address
 * and a pair's fix the same way.
 */
#include <stdarg.h>
#include <stdio.h>

#include "judge/judge_priv.h"
#include "judge/results.h"
#include "topology/pciaddr.h"
#include "uapi/p2pdiag/abi.h"
#include "p2pdiag/decode.h"
#include "p2pdiag/format.h"

const char *judge_addr_str(unsigned long long addr)
{
	static char ring[8][P2PD_ADDR_STRLEN];
	static unsigned int next;
	return pciaddr_format(ring[next++ % 8], addr);
}

void text_add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->used >= t->len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(t->p + t->used, t->len - t->used, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->used += (size_t)n;
	if (t->used >= t->len)
		t->used = t->len - 1;
}

void judge_describe_blockers(const struct p2pd_model *m,
			     const struct p2pd_pair *p, struct text *t)
{
	unsigned int i;

	for (i = 0; i < p->nr_blockers; i++) {
		const struct p2pd_function *f = &m->fn[p->blocker[i]];
		char bits[32];
		struct p2pd_buf b;

		p2pd_buf_init(&b, bits, sizeof(bits));
		p2pd_put_acs_redirect(&b, f);
		p2pd_buf_terminate(&b);
		text_add(t, "%s%s %s (ACSCtl 0x%04x: %s)", i ? ", " : "",
			 p2pd_role_name(f->role), judge_addr_str(f->addr), f->acs_ctrl,
			 bits);
	}
}

const char *judge_pair_fix_of(const struct check_run *r, int pi)
{
	const char *fix = r->judged.results ? r->judged.results->pair[pi].fix : NULL;

	return fix ? fix : "";
}
