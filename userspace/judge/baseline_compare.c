// SPDX-License-Identifier: GPL-2.0
/*
 * This run against a saved one of a known-good server of the same model
 * (--baseline check): what should not differ between servers of one
 * model (the devices and how they hang together, ACS control, maximum
 * links, classes and verdicts) and bandwidth, which may differ by the
 * tolerance, by the rules the fleet comparison shares (compare_rules.h).
 * The saved run is the JSON report (SCHEMA.md), read by the report's
 * reader (report/report_file.c) into run/saved_report.h's structs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/baseline_compare.h"
#include "judge/compare_rules.h"
#include "judge/results.h"
#include "run/saved_report.h"
#include "topology/parse_values.h"
#include "topology/pciaddr.h"
#include "p2pdiag/format.h"

static void check_devices(struct check_run *r, const struct saved_report *base)
{
	const struct p2pd_model *m = r->in.model;
	size_t i;
	unsigned char *seen = calloc(m->nr_fn ? m->nr_fn : 1, 1);
	unsigned int k;

	if (!seen) {
		r->judged.findings.oom = true;
		return;
	}
	for (i = 0; i < base->nr_device; i++) {
		const struct saved_device *d = &base->device[i];
		const char *as = d->addr;
		unsigned long long addr;
		int idx;

		if (!as || pciaddr_parse(as, &addr))
			continue;
		idx = p2pd_model_find(m, addr);
		if (idx == P2PD_NO_INDEX) {
			findings_add(&r->judged.findings, SEV_WARNING, FC_BASELINE_TOPOLOGY,
				     addr, FINDING_NO_ADDR,
				     "check that the card is seated and enabled in firmware (lspci should list it)",
				     "%s [%s:%s] of the baseline is missing here", as,
				     d->vendor ? d->vendor : "?", d->device ? d->device : "?");
			continue;
		}
		seen[idx] = 1;
		for (k = 0; k < nr_same_model_fields; k++) {
			const char *name = p2pd_field_name(same_model_fields[k]);
			const char *want = d->field[same_model_fields[k]];
			char have[160];

			p2pd_field_text(have, sizeof(have), &m->fn[idx],
					same_model_fields[k]);
			if (want && strcmp(want, have))
				findings_add(&r->judged.findings, SEV_WARNING, FC_BASELINE_DEVICE,
					     addr, FINDING_NO_ADDR,
					     !strcmp(name, "acs_ctrl") ?
					     "compare the firmware ACS settings and kernel parameters with the baseline server" : FINDING_NO_FIX,
					     "%s %s is %s here, %s on the baseline", as, name,
					     have, want);
		}
	}
	for (k = 0; k < m->nr_fn; k++) {
		char a[P2PD_ADDR_STRLEN];

		if (seen[k])
			continue;
		pciaddr_format(a, m->fn[k].addr);
		findings_add(&r->judged.findings, SEV_WARNING, FC_BASELINE_TOPOLOGY,
			     m->fn[k].addr, FINDING_NO_ADDR, FINDING_NO_FIX,
			     "%s [%04x:%04x] is here but not on the baseline", a,
			     m->fn[k].vendor, m->fn[k].device);
	}
	free(seen);
}

static const char *verdict_word(unsigned int i)
{
	return p2pd_verdict_name((enum p2pd_verdict)i);
}

static int verdict_of(const char *s)
{
	return parse_word_index(s, P2PD_VERDICT_COUNT, verdict_word);
}

static void check_bw(struct check_run *r, const char *what, unsigned long long a,
		     unsigned long long b, double base, double now, double tol)
{
	if (bw_below_reference(base, now, tol))
		findings_add(&r->judged.findings, SEV_WARNING, FC_BASELINE_BW, a, b,
			     "compare links under load, NUMA placement and firmware settings with the baseline server",
			     "%s: %.1f GB/s, %.0f%% below the baseline's %.1f GB/s (tolerance %.0f%%)",
			     what, now, 100 * (1 - now / base), base, 100 * tol);
}

/*
 * A baseline entry stands for every pair of a member of group_a with a
 * member of group_b (a group with itself: every two of its members), with
 * count their number; an entry without groups (a baseline of --expand-pairs,
 * or from before grouping) for its own a and b.  Here those members may
 * fall in several of this run's pairs (a group split in two), and each of
 * those is compared: a change in any pair of a group is found.
 */

/* One side's members, as this run's functions and the run's key for each. */
struct entry_side {
	struct fn_key {
		int key;	/* the run's group of the function, or itself */
		int fn;
	} *m;
	unsigned int nr;
};

/* A pair of this run that an entry's members fall in. */
struct covered_pair {
	int pair;		/* index into r->judged.pair */
	int a, b;		/* the first of the entry's member pairs in it */
	unsigned long count;	/* how many of them */
};

struct covered_list {
	struct covered_pair *c;
	size_t nr, alloc;
};

static int cmp_fn_key(const void *x, const void *y)
{
	const struct fn_key *a = x, *b = y;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return (a->fn > b->fn) - (a->fn < b->fn);
}

static int cmp_covered(const void *x, const void *y)
{
	const struct covered_pair *a = x, *b = y;

	return (a->pair > b->pair) - (a->pair < b->pair);
}

static void side_add(struct check_run *r, struct entry_side *s, const char *as)
{
	const struct run_results *res = r->judged.results;
	unsigned long long addr;
	int fn, key;

	if (!as || pciaddr_parse(as, &addr))
		return;
	fn = p2pd_model_find(r->in.model, addr);
	/* missing here (reported by the devices' check) or left out */
	if (fn == P2PD_NO_INDEX || !run_fn_selected(r, fn))
		return;
	key = res && res->grouped ? res->groups.group_of[fn] : fn;
	if (key < 0)
		return;
	s->m[s->nr].key = key;
	s->m[s->nr].fn = fn;
	s->nr++;
}

/* The members of @side's group (addresses), or only @self when it has none. */
static int side_members(struct check_run *r, struct entry_side *s,
			const struct saved_side *side, const char *self)
{
	size_t i, n = side->group >= 0 ? side->nr_member : 1;

	s->nr = 0;
	s->m = calloc(n ? n : 1, sizeof(*s->m));
	if (!s->m)
		return -1;
	if (side->group < 0)
		side_add(r, s, self);
	for (i = 0; side->group >= 0 && i < n; i++)
		side_add(r, s, side->member[i]);
	qsort(s->m, s->nr, sizeof(*s->m), cmp_fn_key);
	return 0;
}

static int cover(struct check_run *r, struct covered_list *l, int a, int b,
		 unsigned long count)
{
	int pi = run_pair_index(r, a, b);

	if (pi < 0 || !count)
		return 0;
	if (l->nr == l->alloc) {
		size_t alloc = l->alloc ? 2 * l->alloc : 8;
		struct covered_pair *c = realloc(l->c, alloc * sizeof(*c));

		if (!c)
			return -1;
		l->c = c;
		l->alloc = alloc;
	}
	l->c[l->nr++] = (struct covered_pair){ pi, a, b, count };
	return 0;
}

/* How many members from @i on share s->m[@i]'s key. */
static unsigned int run_len(const struct entry_side *s, unsigned int i)
{
	unsigned int j = i;

	while (j < s->nr && s->m[j].key == s->m[i].key)
		j++;
	return j - i;
}

/*
 * The run's pairs that the member pairs of sides @x and @y fall in (@same:
 * one group with itself), with how many each; merged by pair.
 */
static int covered_pairs(struct check_run *r, const struct entry_side *x,
			 const struct entry_side *y, bool same,
			 struct covered_list *l)
{
	unsigned int i, j, ni, nj;
	size_t k, out;

	for (i = 0; i < x->nr; i += ni) {
		ni = run_len(x, i);
		if (same && ni > 1 &&
		    cover(r, l, x->m[i].fn, x->m[i + 1].fn, (unsigned long)ni * (ni - 1) / 2))
			return -1;
		for (j = same ? i + ni : 0; j < y->nr; j += nj) {
			nj = run_len(y, j);
			if (x->m[i].fn != y->m[j].fn &&
			    cover(r, l, x->m[i].fn, y->m[j].fn, (unsigned long)ni * nj))
				return -1;
		}
	}
	if (!l->nr)
		return 0;
	qsort(l->c, l->nr, sizeof(*l->c), cmp_covered);
	for (k = 1, out = 0; k < l->nr; k++) {
		if (l->c[k].pair == l->c[out].pair)
			l->c[out].count += l->c[k].count;
		else
			l->c[++out] = l->c[k];
	}
	l->nr = out + 1;
	return 0;
}

/* " (3 of the 9 pairs the baseline judged alike)", or "" for one pair. */
static void share_text(char *buf, size_t len, unsigned long part,
		       unsigned long whole)
{
	buf[0] = 0;
	if (whole > 1)
		snprintf(buf, len, " (%lu of the %lu pairs the baseline judged alike)",
			 part, whole);
}

static void compare_pair(struct check_run *r, const struct covered_pair *c,
			 const char *cls, const char *ver, unsigned long whole)
{
	const struct p2pd_pair *p = &r->judged.pair[c->pair];
	unsigned long long a = r->in.model->fn[c->a].addr, b = r->in.model->fn[c->b].addr;
	char as[P2PD_ADDR_STRLEN], bs[P2PD_ADDR_STRLEN], share[96];
	int v = ver ? verdict_of(ver) : -1;

	pciaddr_format(as, a);
	pciaddr_format(bs, b);
	share_text(share, sizeof(share), c->count, whole);
	if (cls && strcmp(cls, p2pd_class_name(p->cls)))
		findings_add(&r->judged.findings, SEV_WARNING, FC_BASELINE_CLASS, a, b,
			     "the devices sit elsewhere in the PCIe tree than on the baseline: check slots and risers",
			     "%s and %s are %s here, %s on the baseline%s", as, bs,
			     p2pd_class_name(p->cls), cls, share);
	if (v >= 0 && v != (int)p->verdict) {
		enum finding_severity sev = verdict_change_severity(p->verdict);

		findings_add(&r->judged.findings, sev, FC_BASELINE_VERDICT, a, b,
			     NULL,
			     "%s and %s: verdict %s here, %s on the baseline%s", as, bs,
			     p2pd_verdict_name(p->verdict), ver, share);
	}
}

/* Class and verdict of every pair of this run that entry @o stands for. */
static int check_entry(struct check_run *r, const struct saved_pair *o)
{
	struct entry_side x = { 0 }, y = { 0 };
	struct covered_list l = { 0 };
	unsigned long whole = 0;
	bool same = o->side_a.group >= 0 && o->side_a.group == o->side_b.group;
	size_t i;
	int rc = -1;

	if (side_members(r, &x, &o->side_a, o->a) || side_members(r, &y, &o->side_b, o->b) ||
	    covered_pairs(r, &x, &y, same, &l))
		goto free_sides;
	for (i = 0; i < l.nr; i++)
		whole += l.c[i].count;
	/* the baseline's own count, where it has one (it counts missing members too) */
	if (o->count)
		whole = o->count;
	for (i = 0; i < l.nr; i++)
		compare_pair(r, &l.c[i], o->cls, o->verdict, whole);
	rc = 0;
free_sides:
	free(l.c);
	free(x.m);
	free(y.m);
	return rc;
}

/* The bandwidth of the GPU pair that entry @o names, against this run's. */
static void check_pair_bw(struct check_run *r, const struct saved_pair *o, double tol)
{
	const char *as = o->a, *bs = o->b;
	unsigned long long a, b;
	unsigned int g, s = GPU_MAX, d = GPU_MAX;
	const struct gpu_pair *gp;
	char what[96];
	double base = o->p2p_gbs;

	if (!r->in.gpu || !as || !bs || pciaddr_parse(as, &a) || pciaddr_parse(bs, &b) ||
	    !o->have_p2p_gbs)
		return;
	/* left out by the selection, or a missing device (reported) */
	if (run_pair_index(r, p2pd_model_find(r->in.model, a),
			   p2pd_model_find(r->in.model, b)) < 0)
		return;
	for (g = 0; g < r->in.gpu->nr_dev; g++) {
		if (r->in.gpu->dev[g].pci_addr == a)
			s = g;
		if (r->in.gpu->dev[g].pci_addr == b)
			d = g;
	}
	gp = s < GPU_MAX && d < GPU_MAX ? run_gpu_pair(r->in.gpu, (int)s, (int)d) : NULL;
	snprintf(what, sizeof(what), "P2P %s -> %s", as, bs);
	if (gp && gp->p2p.valid)
		check_bw(r, what, a, b, base, gp->p2p.median, tol);
}

static void check_pairs(struct check_run *r, const struct saved_report *base,
			double tol)
{
	size_t i;

	for (i = 0; i < base->nr_pair; i++) {
		if (check_entry(r, &base->pair[i]))
			r->judged.findings.oom = true;
		check_pair_bw(r, &base->pair[i], tol);
	}
}

static void check_gpus(struct check_run *r, const struct saved_report *base, double tol)
{
	size_t i;
	unsigned int g;

	if (!r->in.gpu)
		return;
	for (i = 0; i < base->nr_gpu; i++) {
		const struct saved_gpu *o = &base->gpu[i];
		const char *as = o->addr;
		unsigned long long a;
		char what[96];

		if (!as || pciaddr_parse(as, &a))
			continue;
		for (g = 0; g < r->in.gpu->nr_dev; g++) {
			const struct gpu_device *d = &r->in.gpu->dev[g];

			if (d->pci_addr != a)
				continue;
			snprintf(what, sizeof(what), "GPU %s host to device", as);
			if (d->h2d.valid && o->have_h2d_gbs)
				check_bw(r, what, a, FINDING_NO_ADDR, o->h2d_gbs, d->h2d.median, tol);
			snprintf(what, sizeof(what), "GPU %s device to host", as);
			if (d->d2h.valid && o->have_d2h_gbs)
				check_bw(r, what, a, FINDING_NO_ADDR, o->d2h_gbs, d->d2h.median, tol);
		}
	}
}

void judge_baseline(struct check_run *r, const struct saved_report *base,
		    const struct saved_context *now, double tolerance)
{
	if (r->in.model) {
		check_devices(r, base);
		check_pairs(r, base, tolerance);
	}
	check_gpus(r, base, tolerance);
	baseline_context_check(r, &base->context, now);
}
