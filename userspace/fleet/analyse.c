// SPDX-License-Identifier: GPL-2.0
/*
 * Each group's reference is its majority: for every fact, the value that
 * more than half of the group's servers hold (absence included, so that a
 * function most servers lack is an extra one where it appears); a fact
 * with no such value is split, said for the group and held against no
 * server.  A figure's reference is the group's median, from at least
 * FLEET_MIN_MEDIAN servers that measured it.
 *
 * Servers with the same facts share one interned array, so the facts are
 * compared once per distinct array, not once per server.  What follows
 * from a function being missing or extra (its fields, its pairs) is not
 * said again.
 */
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet_priv.h"
#include "judge/compare_rules.h"
#include "topology/parse_values.h"
#include "p2pdiag/format.h"

#define FLEET_MIN_MEDIAN	3

const struct fleet_key *fleet_key_of(const struct fleet_state *st, uint32_t id)
{
	return intern_get(&st->keys, id, NULL);
}

const char *fleet_word(const struct fleet_state *st, uint32_t id, const char *none)
{
	const char *w = intern_get(&st->words, id, NULL);

	return w ? w : none;
}

uint32_t fleet_key_find(const struct fleet_state *st, const struct fleet_key *k)
{
	return intern_find(&st->keys, k, sizeof(*k));
}

const struct fleet_ref *fleet_ref_of(const struct fleet_group *g, uint32_t key)
{
	uint32_t lo = 0, hi = g->nr_ref;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (g->ref[mid].key == key)
			return &g->ref[mid];
		if (g->ref[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}


/* One (key, value) of a group's distinct arrays, weighted by its servers. */
struct vote {
	uint32_t key, value, servers;
};

static int cmp_vote(const void *x, const void *y)
{
	const struct vote *a = x, *b = y;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return (a->value > b->value) - (a->value < b->value);
}

static int cmp_u32(const void *x, const void *y)
{
	const uint32_t *a = x, *b = y;

	return (*a > *b) - (*a < *b);
}

/* The distinct fact arrays of group @g with their servers' counts. */
static int group_uses(const struct fleet_state *st, uint32_t g,
		      struct facts_use **out, uint32_t *nr)
{
	uint32_t *ids = malloc((st->group[g].nr_servers + 1) * sizeof(*ids));
	uint32_t i, n = 0, k = 0;
	struct facts_use *u;

	if (!ids)
		return -1;
	for (i = 0; i < st->nr_server; i++)
		if (st->server[i].group == g)
			ids[n++] = st->server[i].facts;
	qsort(ids, n, sizeof(*ids), cmp_u32);
	u = malloc((n + 1) * sizeof(*u));
	if (!u) {
		free(ids);
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (k && u[k - 1].facts == ids[i])
			u[k - 1].servers++;
		else
			u[k++] = (struct facts_use){ ids[i], 1 };
	}
	free(ids);
	*out = u;
	*nr = k;
	return 0;
}

/*
 * The severity of a fact without a majority: a pair's verdict split
 * between ok and blocked is as bad as the worse of its values.
 */
static enum finding_severity split_severity(const struct fleet_state *st,
					    uint32_t key, const struct vote *v,
					    size_t n);

int fleet_reference(struct fleet_state *st, struct fleet_group *gr,
		    const struct facts_use *u, uint32_t nu)
{
	struct vote *v;
	size_t nv = 0, i, j, len;
	uint32_t k;

	for (k = 0; k < nu; k++) {
		intern_get(&st->facts, u[k].facts, &len);
		nv += len / sizeof(struct fleet_fact);
	}
	v = malloc((nv + 1) * sizeof(*v));
	gr->ref = malloc((nv + 1) * sizeof(*gr->ref));
	if (!v || !gr->ref) {
		free(v);
		return -1;
	}
	nv = 0;
	for (k = 0; k < nu; k++) {
		const struct fleet_fact *f = intern_get(&st->facts, u[k].facts, &len);

		for (i = 0; i < len / sizeof(*f); i++)
			v[nv++] = (struct vote){ f[i].key, f[i].value, u[k].servers };
	}
	qsort(v, nv, sizeof(*v), cmp_vote);
	gr->nr_ref = gr->nr_split = 0;
	for (i = 0; i < nv; i = j) {
		struct fleet_ref r = { v[i].key, 0, 0, false };
		uint32_t present = 0, best = 0, best_value = 0;

		for (j = i; j < nv && v[j].key == v[i].key; ) {
			uint32_t value = v[j].value, servers = 0;

			for (; j < nv && v[j].key == v[i].key && v[j].value == value; j++)
				servers += v[j].servers;
			present += servers;
			if (servers > best) {
				best = servers;
				best_value = value;
			}
		}
		if (gr->nr_servers - present > best) {
			best = gr->nr_servers - present;
			best_value = 0;
		}
		r.value = best_value;
		r.servers = best;
		r.split = 2 * (uint64_t)best <= gr->nr_servers;
		gr->nr_split += r.split;
		if (r.split) {
			enum finding_severity sev = split_severity(st, v[i].key, v + i, j - i);

			if (sev > gr->split_worst)
				gr->split_worst = (uint8_t)sev;
		}
		gr->ref[gr->nr_ref++] = r;
	}
	free(v);
	return 0;
}

static int diff_add(struct fleet_diff_list *l, const struct fleet_diff *d)
{
	if (fleet_grow(&l->d, &l->alloc, l->nr, sizeof(*l->d), 8))
		return -1;
	l->d[l->nr++] = *d;
	return 0;
}

/* The value of @key in @f (sorted by key), or 0 when absent. */
static uint32_t value_of(const struct fleet_fact *f, size_t n, uint32_t key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f[mid].key == key)
			return f[mid].value;
		if (f[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* Addresses of the functions missing or extra in one server. */
struct gone {
	unsigned long long *addr;
	uint32_t nr;
};

static bool is_gone(const struct gone *g, unsigned long long a)
{
	uint32_t i;

	for (i = 0; i < g->nr; i++)
		if (g->addr[i] == a)
			return true;
	return false;
}

static const char *verdict_word(unsigned int i)
{
	return p2pd_verdict_name((enum p2pd_verdict)i);
}

static enum finding_severity verdict_severity(const struct fleet_state *st,
					      uint32_t value)
{
	int v = parse_word_index(fleet_word(st, value, ""), P2PD_VERDICT_COUNT,
				 verdict_word);

	return v < 0 ? SEV_WARNING : verdict_change_severity((enum p2pd_verdict)v);
}

static enum finding_severity split_severity(const struct fleet_state *st,
					    uint32_t key, const struct vote *v,
					    size_t n)
{
	enum finding_severity worst = SEV_WARNING, s;
	size_t i;

	if (fleet_key_of(st, key)->kind != FK_PAIR_VERDICT)
		return worst;
	for (i = 0; i < n; i++) {
		s = verdict_severity(st, v[i].value);
		if (s > worst)
			worst = s;
	}
	return worst;
}

int fleet_facts_diff(struct fleet_state *st, const struct fleet_group *g,
		     uint32_t facts, const struct fleet_group *own,
		     struct fleet_diff_list *l)
{
	size_t n, len;
	const struct fleet_fact *f = intern_get(&st->facts, facts, &len);
	struct gone gone = { NULL, 0 };
	uint32_t i;
	int pass, rc = -1;

	n = len / sizeof(*f);
	gone.addr = malloc((g->nr_ref + 1) * sizeof(*gone.addr));
	if (!gone.addr)
		return -1;
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < g->nr_ref; i++) {
			const struct fleet_ref *r = &g->ref[i];
			const struct fleet_key *k = fleet_key_of(st, r->key);
			uint32_t have = value_of(f, n, r->key);
			struct fleet_diff d = { 0 };

			if (r->split || have == r->value ||
			    (pass == 0) != (k->kind == FK_FUNCTION))
				continue;
			if (own) {
				const struct fleet_ref *o = fleet_ref_of(own, r->key);

				if (o && o->split)
					continue;
			}
			d.key = r->key;
			d.value = have;
			d.ref = r->value;
			d.ref_servers = r->servers;
			d.severity = SEV_WARNING;
			switch (k->kind) {
			case FK_FUNCTION:
				d.kind = have ? FD_EXTRA : FD_MISSING;
				gone.addr[gone.nr++] = k->a;
				break;
			case FK_FIELD:
				if (is_gone(&gone, k->a))
					continue;
				d.kind = FD_FIELD;
				break;
			case FK_PAIR_VERDICT:
				if (is_gone(&gone, k->a) || is_gone(&gone, k->b))
					continue;
				d.kind = !have ? FD_PAIR_MISSING :
					 !r->value ? FD_PAIR_EXTRA : FD_VERDICT;
				if (d.kind == FD_VERDICT)
					d.severity = (uint8_t)verdict_severity(st, have);
				break;
			case FK_PAIR_CLASS:
				/* a pair not judged on one side is said by its verdict */
				if (is_gone(&gone, k->a) || is_gone(&gone, k->b) ||
				    !have || !r->value)
					continue;
				d.kind = FD_CLASS;
				break;
			default:
				continue;
			}
			if (diff_add(l, &d))
				goto free_gone;
		}
	}
	rc = 0;
free_gone:
	free(gone.addr);
	return rc;
}

/* One figure of one server of a group, for the medians. */
struct sample {
	uint32_t key, server;
	float gbs;
};

static int cmp_sample(const void *x, const void *y)
{
	const struct sample *a = x, *b = y;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return (a->gbs > b->gbs) - (a->gbs < b->gbs);
}

/* A figure below its group's median by more than the tolerance. */
struct low_figure {
	uint32_t server;
	struct fleet_diff d;
};

static int cmp_low(const void *x, const void *y)
{
	const struct low_figure *a = x, *b = y;

	if (a->server != b->server)
		return a->server < b->server ? -1 : 1;
	return (a->d.key > b->d.key) - (a->d.key < b->d.key);
}

struct low_list {
	struct low_figure *f;
	uint32_t nr;
	size_t alloc;
};

static int group_figures(struct fleet_state *st, uint32_t g, struct low_list *low)
{
	struct sample *s;
	size_t n = 0, i, j;
	uint32_t k;

	for (k = 0; k < st->nr_server; k++)
		if (st->server[k].group == g)
			n += st->server[k].nr_fig;
	s = malloc((n + 1) * sizeof(*s));
	if (!s)
		return -1;
	n = 0;
	for (k = 0; k < st->nr_server; k++) {
		const struct fleet_server *sv = &st->server[k];

		if (sv->group != g)
			continue;
		for (i = 0; i < sv->nr_fig; i++)
			s[n++] = (struct sample){ sv->fig[i].key, k, sv->fig[i].gbs };
	}
	qsort(s, n, sizeof(*s), cmp_sample);
	for (i = 0; i < n; i = j) {
		size_t m;
		double median;

		for (j = i; j < n && s[j].key == s[i].key; j++)
			;
		m = j - i;
		if (m < FLEET_MIN_MEDIAN)
			continue;
		median = m % 2 ? s[i + m / 2].gbs :
			 ((double)s[i + m / 2 - 1].gbs + s[i + m / 2].gbs) / 2;
		for (k = (uint32_t)i; k < j && bw_below_reference(median, s[k].gbs,
								 st->tolerance); k++) {
			struct low_figure lf = { 0 };

			if (fleet_grow(&low->f, &low->alloc, low->nr,
				       sizeof(*low->f), 64)) {
				free(s);
				return -1;
			}
			lf.server = s[k].server;
			lf.d.kind = FD_BW_LOW;
			lf.d.severity = SEV_WARNING;
			lf.d.key = s[k].key;
			lf.d.ref_servers = (uint32_t)m;
			lf.d.gbs = s[k].gbs;
			lf.d.median = (float)median;
			low->f[low->nr++] = lf;
		}
	}
	free(s);
	return 0;
}

/* A distinct fact array's differences, shared by its servers. */
struct use_diffs {
	uint32_t facts;
	struct fleet_diff_list l;
};

static int cmp_use_diffs(const void *x, const void *y)
{
	const struct use_diffs *a = x, *b = y;

	return (a->facts > b->facts) - (a->facts < b->facts);
}

int fleet_cmp_diff(const void *x, const void *y)
{
	const struct fleet_diff *a = x, *b = y;

	if (a->severity != b->severity)
		return a->severity > b->severity ? -1 : 1;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	return (a->key > b->key) - (a->key < b->key);
}

static int cmp_outlier(const void *x, const void *y, void *arg)
{
	const struct fleet_outlier *a = x, *b = y;
	const struct fleet_state *st = arg;

	if (a->worst != b->worst)
		return a->worst > b->worst ? -1 : 1;
	if (a->nr_diff != b->nr_diff)
		return a->nr_diff > b->nr_diff ? -1 : 1;
	return strcmp(st->server[a->server].name, st->server[b->server].name);
}

static int outlier_add(struct fleet_state *st, uint32_t server,
		       const struct fleet_diff_list *shared, const struct low_figure *low,
		       uint32_t nr_low)
{
	uint32_t n = (shared ? shared->nr : 0) + nr_low, i;
	struct fleet_outlier *o;

	if (!n)
		return 0;
	o = &st->outlier[st->nr_outlier];
	o->server = server;
	o->diff = malloc(n * sizeof(*o->diff));
	if (!o->diff)
		return -1;
	o->nr_diff = 0;
	for (i = 0; shared && i < shared->nr; i++)
		o->diff[o->nr_diff++] = shared->d[i];
	for (i = 0; i < nr_low; i++)
		o->diff[o->nr_diff++] = low[i].d;
	qsort(o->diff, o->nr_diff, sizeof(*o->diff), fleet_cmp_diff);
	o->worst = o->diff[0].severity;
	st->nr_outlier++;
	return 0;
}

static int group_outliers(struct fleet_state *st, uint32_t g,
			  struct use_diffs *ud, uint32_t nu,
			  const struct low_list *low)
{
	uint32_t k, li = 0;

	for (k = 0; k < st->nr_server; k++) {
		const struct fleet_server *sv = &st->server[k];
		struct use_diffs want = { sv->facts, { 0 } }, *u;
		uint32_t l0;

		if (sv->group != g)
			continue;
		u = bsearch(&want, ud, nu, sizeof(*ud), cmp_use_diffs);
		while (li < low->nr && low->f[li].server < k)
			li++;
		for (l0 = li; li < low->nr && low->f[li].server == k; li++)
			;
		if (outlier_add(st, k, u ? &u->l : NULL, li > l0 ? low->f + l0 : NULL,
				li - l0))
			return -1;
	}
	return 0;
}

static int analyse_group(struct fleet_state *st, uint32_t g)
{
	struct facts_use *u = NULL;
	struct use_diffs *ud = NULL;
	struct low_list low = { 0 };
	uint32_t nu = 0, k;
	int rc = -1;

	if (group_uses(st, g, &u, &nu) || fleet_reference(st, &st->group[g], u, nu))
		goto free_uses;
	ud = calloc(nu + 1, sizeof(*ud));
	if (!ud)
		goto free_uses;
	for (k = 0; k < nu; k++) {
		ud[k].facts = u[k].facts;
		if (fleet_facts_diff(st, &st->group[g], u[k].facts, NULL, &ud[k].l))
			goto free_diffs;
	}
	if (group_figures(st, g, &low))
		goto free_diffs;
	if (low.nr)
		qsort(low.f, low.nr, sizeof(*low.f), cmp_low);
	rc = group_outliers(st, g, ud, nu, &low);
free_diffs:
	for (k = 0; k < nu; k++)
		free(ud[k].l.d);
	free(ud);
	free(low.f);
free_uses:
	free(u);
	return rc;
}

int fleet_analyse(struct fleet_state *st)
{
	uint32_t g, k;

	st->outlier = calloc(st->nr_server + 1, sizeof(*st->outlier));
	if (!st->outlier)
		return -1;
	for (k = 0; k < st->nr_server; k++)
		if (st->group[st->server[k].group].nr_servers == 1)
			st->group[st->server[k].group].lone = k;
	for (g = 0; g < st->nr_group; g++)
		if (analyse_group(st, g))
			return -1;
	qsort_r(st->outlier, st->nr_outlier, sizeof(*st->outlier), cmp_outlier, st);
	return 0;
}
