// SPDX-License-Identifier: GPL-2.0
/*
 * Groups compared with each other.  Servers are grouped by model, BIOS
 * and kernel, and each group's majority is its reference: a BIOS that
 * changes what every server running it shows (ACS redirect turned on at
 * a root port) is the majority of its own group, and no server of it is
 * an outlier there.  So each group's reference is compared here with its
 * model's: for each fact, the value held by more than half of the
 * model's servers, each group's reference counting for its servers (a
 * group with no majority on a fact counts for no value).  A group that
 * differs is listed with what differs and the model's largest other
 * group, whose BIOS and kernel say what changed; facts on which the
 * model's groups hold no majority are a finding of their own.
 */
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet_priv.h"

/* Group @g's reference as a fact array, interned; 0 when memory ran out. */
static uint32_t group_facts(struct fleet_state *st, const struct fleet_group *g,
			    uint32_t no_majority)
{
	struct fleet_fact *f = malloc((g->nr_ref + 1) * sizeof(*f));
	uint32_t i, n = 0, id;

	if (!f)
		return 0;
	for (i = 0; i < g->nr_ref; i++) {
		if (g->ref[i].split)
			f[n++] = (struct fleet_fact){ g->ref[i].key, no_majority };
		else if (g->ref[i].value)
			f[n++] = (struct fleet_fact){ g->ref[i].key, g->ref[i].value };
	}
	id = intern_add(&st->facts, f, n * sizeof(*f));
	free(f);
	return id;
}

/* The model's reference over its groups @gs (@n of them), into @mg. */
static int model_reference(struct fleet_state *st, struct fleet_group *mg,
			   const uint32_t *gs, uint32_t n, uint32_t *facts,
			   uint32_t no_majority)
{
	struct facts_use *u = calloc(n + 1, sizeof(*u));
	uint32_t i, kept = 0;
	int rc = -1;

	if (!u)
		return -1;
	for (i = 0; i < n; i++) {
		facts[i] = group_facts(st, &st->group[gs[i]], no_majority);
		if (!facts[i])
			goto free_uses;
		u[i] = (struct facts_use){ facts[i], st->group[gs[i]].nr_servers };
		mg->nr_servers += u[i].servers;
	}
	if (fleet_reference(st, mg, u, n))
		goto free_uses;
	/* a majority of servers in groups without one is no reference */
	mg->nr_split = 0;
	for (i = 0; i < mg->nr_ref; i++) {
		struct fleet_ref *r = &mg->ref[i];

		if (r->value == no_majority)
			r->split = true;
		else
			kept += r->split;
	}
	mg->nr_split = kept;
	if (!kept)
		mg->split_worst = 0;
	rc = 0;
free_uses:
	free(u);
	return rc;
}

/* The largest group of @gs other than @g. */
static uint32_t largest_other(const struct fleet_state *st, const uint32_t *gs,
			      uint32_t n, uint32_t g)
{
	uint32_t i, best = g;

	for (i = 0; i < n; i++)
		if (gs[i] != g && (best == g ||
				   st->group[gs[i]].nr_servers > st->group[best].nr_servers))
			best = gs[i];
	return best;
}

static int compare_model(struct fleet_state *st, uint32_t m, const uint32_t *gs,
			 uint32_t n)
{
	struct fleet_group *mg = &st->model[m];
	uint32_t *facts = calloc(n + 1, sizeof(*facts)), i;
	uint32_t no_majority = intern_add(&st->words, FLEET_NO_MAJORITY, sizeof(FLEET_NO_MAJORITY));
	int rc = -1;

	if (!facts || !no_majority)
		goto free_facts;
	if (model_reference(st, mg, gs, n, facts, no_majority))
		goto free_facts;
	for (i = 0; i < n; i++) {
		struct fleet_diff_list l = { 0 };
		struct fleet_group_diff *gd;

		if (fleet_facts_diff(st, mg, facts[i], &st->group[gs[i]], &l)) {
			free(l.d);
			goto free_facts;
		}
		if (!l.nr)
			continue;
		qsort(l.d, l.nr, sizeof(*l.d), fleet_cmp_diff);
		gd = &st->gdiff[st->nr_gdiff++];
		gd->group = gs[i];
		gd->model = m;
		gd->like = largest_other(st, gs, n, gs[i]);
		gd->diff = l.d;
		gd->nr_diff = l.nr;
		gd->worst = l.d[0].severity;
	}
	rc = 0;
free_facts:
	free(facts);
	return rc;
}

int fleet_analyse_models(struct fleet_state *st)
{
	uint32_t *gs, g, h, n;
	bool *done;
	int rc = -1;

	st->gdiff = calloc(st->nr_group + 1, sizeof(*st->gdiff));
	st->model = calloc(st->nr_group + 1, sizeof(*st->model));
	gs = malloc((st->nr_group + 1) * sizeof(*gs));
	done = calloc(st->nr_group + 1, sizeof(*done));
	if (!st->gdiff || !st->model || !gs || !done)
		goto free_lists;
	for (g = 0; g < st->nr_group; g++) {
		if (done[g])
			continue;
		for (n = 0, h = g; h < st->nr_group; h++)
			if (st->group[h].model == st->group[g].model) {
				gs[n++] = h;
				done[h] = true;
			}
		if (n < 2)
			continue;
		st->model[st->nr_model].model = st->group[g].model;
		if (compare_model(st, st->nr_model++, gs, n))
			goto free_lists;
	}
	rc = 0;
free_lists:
	free(gs);
	free(done);
	return rc;
}
