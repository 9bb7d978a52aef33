// SPDX-License-Identifier: GPL-2.0
/*
 * Grouping findings by cause.  The ports of the machine-wide fix come from
 * the engine (p2pd_port_set_add: a pair adds the ports its own fix names),
 * so the one parameter and the per-pair ones cannot disagree.
 */
#include <stdlib.h>
#include <string.h>

#include "judge/causes.h"
#include "judge/judgement.h"
#include "judge/results.h"

/* Index into r->judged.pair of @it's pair, or -1. */
static int finding_pair(const struct check_run *r, const struct finding *it)
{
	int fa, fb;

	if (!it->has_pair || !r->in.model)
		return -1;
	fa = p2pd_model_find(r->in.model, it->a);
	fb = p2pd_model_find(r->in.model, it->b);
	if (fa == P2PD_NO_INDEX || fb == P2PD_NO_INDEX)
		return -1;
	return run_pair_index(r, fa, fb);
}

/*
 * Whether @it's fix is its pair's ACS fix (the one judge_pairs() wrote
 * into the results) and names ports: then the machine-wide parameter
 * holds it.
 */
static bool fixed_by_ports(const struct check_run *r, const struct finding *it)
{
	int pi = finding_pair(r, it);
	struct p2pd_port_set one = { .nr = 0 };
	const char *own;

	if (pi < 0 || !it->fix || !r->judged.results ||
	    p2pd_port_set_add(&one, &r->judged.pair[pi]) <= 0)
		return false;
	own = r->judged.results->pair[pi].fix;
	return !strcmp(own ? own : "", it->fix);
}

static int find_cause(const struct causes *c, const char *code)
{
	size_t i;

	for (i = 0; i < c->nr; i++)
		if (!strcmp(c->cause[i].code, code))
			return (int)i;
	return -1;
}

static int add_item(struct cause *k, size_t item)
{
	size_t *n = realloc(k->item, (k->nr + 1) * sizeof(*n));

	if (!n)
		return -1;
	k->item = n;
	k->item[k->nr++] = item;
	return 0;
}

/* Worst first; within a severity, in the order judgement found them. */
static void sort_items(struct cause *k, const struct findings *f)
{
	size_t i, j;

	for (i = 1; i < k->nr; i++) {
		size_t v = k->item[i];

		for (j = i; j > 0 && f->item[k->item[j - 1]].severity < f->item[v].severity; j--)
			k->item[j] = k->item[j - 1];
		k->item[j] = v;
	}
}

static int worse(const struct cause *x, const struct cause *y)
{
	if (x->severity != y->severity)
		return x->severity > y->severity;
	return x->nr_pairs > y->nr_pairs;
}

static void sort_causes(struct causes *c)
{
	size_t i, j;

	for (i = 1; i < c->nr; i++) {
		struct cause v = c->cause[i];

		for (j = i; j > 0 && worse(&v, &c->cause[j - 1]); j--)
			c->cause[j] = c->cause[j - 1];
		c->cause[j] = v;
	}
}

/* The fix the cause's findings share, and whether the machine fix covers them. */
static void settle_fix(struct cause *k, const struct check_run *r)
{
	const struct findings *f = &r->judged.findings;
	size_t i;
	bool same = true, covered = true;

	for (i = 0; i < k->nr; i++) {
		const struct finding *it = &f->item[k->item[i]];
		const struct finding *first = &f->item[k->item[0]];

		if (!it->fix || !first->fix || strcmp(it->fix, first->fix))
			same = false;
		if (!fixed_by_ports(r, it))
			covered = false;
	}
	k->machine_fix = covered;
	k->fix = same && !covered ? f->item[k->item[0]].fix : NULL;
}

int causes_build(const struct check_run *r, struct causes *c)
{
	const struct findings *f = &r->judged.findings;
	size_t i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < f->nr; i++) {
		const struct finding *it = &f->item[i];
		int pi = finding_pair(r, it);
		const struct p2pd_pair *p = pi < 0 ? NULL : &r->judged.pair[pi];
		int at = find_cause(c, it->code);
		struct cause *k;

		if (at < 0) {
			struct cause *n = realloc(c->cause, (c->nr + 1) * sizeof(*n));

			if (!n) {
				c->oom = true;
				return -1;
			}
			c->cause = n;
			at = (int)c->nr++;
			memset(&c->cause[at], 0, sizeof(c->cause[at]));
			c->cause[at].code = it->code;
			c->cause[at].severity = it->severity;
		}
		k = &c->cause[at];
		if (add_item(k, i)) {
			c->oom = true;
			return -1;
		}
		if (it->severity > k->severity)
			k->severity = it->severity;
		if (it->has_pair) {
			k->nr_pairs++;
			k->nr_member_pairs += pi < 0 ? 1 : run_pair_count(r, (unsigned int)pi);
		}
		/* information changes nothing: its pairs need no port cleared */
		if (p && it->severity >= SEV_WARNING)
			p2pd_port_set_add(&c->ports, p);
	}
	for (i = 0; i < c->nr; i++) {
		sort_items(&c->cause[i], f);
		settle_fix(&c->cause[i], r);
		c->cause[i].root_cause = f->item[c->cause[i].item[0]].root_cause;
	}
	sort_causes(c);
	return 0;
}

void causes_free(struct causes *c)
{
	size_t i;

	for (i = 0; i < c->nr; i++)
		free(c->cause[i].item);
	free(c->cause);
	memset(c, 0, sizeof(*c));
}

size_t causes_count(const struct causes *c, enum finding_severity sev)
{
	size_t i, n = 0;

	for (i = 0; i < c->nr; i++)
		n += c->cause[i].severity == sev;
	return n;
}

const char *cause_fix(const struct check_run *r, const struct cause *c)
{
	if (c->fix)
		return c->fix;
	return c->nr ? r->judged.findings.item[c->item[0]].fix : NULL;
}
