// SPDX-License-Identifier: GPL-2.0
/*
 * The run's results (judge/results.h): the selection applied once, the
 * pair loop, and the figures' judgement, each computed here once so that
 * the findings and every report read the same decision.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/cpu_inference.h"
#include "judge/judge.h"
#include "judge/judge_validity.h"
#include "judge/results.h"
#include "topology/pciaddr.h"

static bool selection_keeps(const struct selection *s, unsigned long long addr)
{
	unsigned int i;

	if (!s->nr)
		return true;
	for (i = 0; i < s->nr; i++)
		if (s->addr[i] == addr)
			return true;
	return false;
}

/* The selection names endpoints of this topology only. */
static int selection_valid(const struct check_run *r, char *err, size_t errlen)
{
	const struct p2pd_model *m = r->in.model;
	unsigned int i;

	for (i = 0; i < r->in.selection.nr; i++) {
		int idx = p2pd_model_find(m, r->in.selection.addr[i]);

		if (idx == P2PD_NO_INDEX || !m->fn[idx].p2p_endpoint) {
			char text[P2PD_ADDR_STRLEN];

			snprintf(err, errlen,
				 "--pairs: %s is not a P2P endpoint of the topology",
				 pciaddr_format(text, r->in.selection.addr[i]));
			return -1;
		}
	}
	return 0;
}

/* Each judged pair's fix, once: kept only where there is one. */
static int judge_pair_fixes(struct check_run *r)
{
	struct judged_pair *jp = r->judged.results->pair;
	char *fix = malloc(JUDGE_TEXT_MAX);
	unsigned int i;

	if (!fix)
		return -1;
	for (i = 0; i < r->judged.nr_pairs; i++) {
		judge_pair_fix(r, &r->judged.pair[i], fix, JUDGE_TEXT_MAX);
		if (fix[0] && !(jp[i].fix = strdup(fix))) {
			free(fix);
			return -1;
		}
	}
	free(fix);
	return 0;
}

/* Count judged pair @p against its ends and the functions on its path. */
static void note_through(struct run_results *res, const struct p2pd_pair *p)
{
	int fn[2 + P2PD_MAX_PATH];
	unsigned int k, nr = 0;

	fn[nr++] = p->a;
	fn[nr++] = p->b;
	for (k = 0; k < p->path_len && k < P2PD_MAX_PATH; k++)
		if (p->path[k] != p->a && p->path[k] != p->b)
			fn[nr++] = p->path[k];
	for (k = 0; k < nr; k++) {
		struct pairs_through *t;

		if (fn[k] < 0)
			continue;
		t = &res->through[fn[k]];
		if (t->nr < RUN_PAIRS_NAMED) {
			t->a[t->nr] = p->a;
			t->b[t->nr] = p->b;
		}
		t->nr++;
	}
}

/*
 * Room in r->judged.pair and r->judged.results->pair for one more pair.  Up to @alloc
 * they were sized before the loop; past it they grow by half, up to
 * EXPAND_PAIRS_MAX, where the judgement stops with the reason in @err.
 */
static int room_for_pair(struct check_run *r, unsigned long *alloc,
			 char *err, size_t errlen)
{
	struct run_results *res = r->judged.results;
	unsigned long want;
	struct p2pd_pair *p;
	struct judged_pair *jp;

	if (r->judged.nr_pairs < *alloc)
		return 0;
	if (r->judged.nr_pairs >= EXPAND_PAIRS_MAX) {
		snprintf(err, errlen,
			 "more than %lu pairs to keep one by one (about 600 bytes each, with a finding each) among the %lu judged so far: select endpoints with --pairs",
			 EXPAND_PAIRS_MAX, res->nr_member_pairs);
		return -1;
	}
	want = *alloc + *alloc / 2 + 1024;
	if (want > EXPAND_PAIRS_MAX)
		want = EXPAND_PAIRS_MAX;
	p = realloc(r->judged.pair, want * sizeof(*p));
	if (p)
		r->judged.pair = p;
	jp = realloc(res->pair, want * sizeof(*jp));
	if (jp)
		res->pair = jp;
	if (!p || !jp) {
		snprintf(err, errlen, "out of memory for %lu pairs", want);
		return -1;
	}
	*alloc = want;
	return 0;
}

/*
 * Judged pair @p in, standing for @jp's count: counted by verdict and
 * against the functions it passes, and kept in r->judged.pair when @keep_all
 * or when it matters.  Return: 0, or -1 with the reason in @err.
 */
static int add_judged_pair(struct check_run *r, const struct p2pd_pair *p,
			   const struct judged_pair *jp, bool keep_all,
			   unsigned long *alloc, char *err, size_t errlen)
{
	struct run_results *res = r->judged.results;

	res->nr_member_pairs += jp->count;
	if ((unsigned int)p->verdict < P2PD_VERDICT_COUNT)
		res->verdict_pairs[p->verdict] += jp->count;
	note_through(res, p);
	if (!keep_all && !judge_pair_matters(r, p)) {
		res->pairs_not_listed += jp->count;
		return 0;
	}
	if (room_for_pair(r, alloc, err, errlen))
		return -1;
	r->judged.pair[r->judged.nr_pairs] = *p;
	res->pair[r->judged.nr_pairs] = *jp;
	r->judged.nr_pairs++;
	return 0;
}

/* The pairs the selection keeps, one by one (--pairs, --expand-pairs). */
static int judge_each_pair(struct check_run *r, char *err, size_t errlen)
{
	const struct p2pd_model *m = r->in.model;
	struct run_results *res = r->judged.results;
	int a = P2PD_NO_INDEX, b = P2PD_NO_INDEX;
	unsigned long n = 0;
	struct p2pd_pair p;

	while (p2pd_next_pair(m, &a, &b))
		n += run_fn_selected(r, a) && run_fn_selected(r, b);
	if (n > EXPAND_PAIRS_MAX) {
		snprintf(err, errlen,
			 "%lu pairs to judge one by one, more than %lu (about 600 bytes each): select endpoints with --pairs, or leave out --expand-pairs for the grouped report",
			 n, EXPAND_PAIRS_MAX);
		return -1;
	}
	r->judged.pair = calloc(n ? n : 1, sizeof(*r->judged.pair));
	res->pair = calloc(n ? n : 1, sizeof(*res->pair));
	if (!r->judged.pair || !res->pair) {
		snprintf(err, errlen, "out of memory for %lu pairs", n);
		return -1;
	}
	a = b = P2PD_NO_INDEX;
	while (p2pd_next_pair(m, &a, &b)) {
		const struct judged_pair jp = { .gpu_ab = -1, .gpu_ba = -1,
						.count = 1, .group_a = -1,
						.group_b = -1 };

		if (!run_fn_selected(r, a) || !run_fn_selected(r, b))
			continue;
		if (!p2pd_judge(m, a, b, &p) &&
		    add_judged_pair(r, &p, &jp, true, &n, err, errlen))
			return -1;
	}
	return 0;
}

/*
 * One judgement per group pair (endpoint_groups.h), each with its count.
 * Past PAIRS_LISTED_MAX group pairs (endpoints that share no group), only
 * those that matter are kept: memory follows them, not the pair count.
 */
static int judge_group_pairs(struct check_run *r, char *err, size_t errlen)
{
	const struct p2pd_model *m = r->in.model;
	struct run_results *res = r->judged.results;
	int ga = P2PD_NO_INDEX, gb = P2PD_NO_INDEX;
	unsigned long n, alloc;
	struct p2pd_pair p;
	bool keep_all;

	res->group_storage = calloc((size_t)P2PD_GROUP_INTS_PER_FN *
				    (m->nr_fn ? m->nr_fn : 1), sizeof(int));
	if (!res->group_storage) {
		snprintf(err, errlen, "out of memory for the groups of %u functions",
			 m->nr_fn);
		return -1;
	}
	p2pd_groups_attach(&res->groups, res->group_storage, m->nr_fn);
	if (p2pd_group_endpoints(m, &res->groups)) {
		snprintf(err, errlen, "the topology's functions cannot be grouped");
		return -1;
	}
	res->grouped = true;
	n = p2pd_count_group_pairs(&res->groups);
	keep_all = n <= PAIRS_LISTED_MAX;
	alloc = keep_all ? n : 0;
	r->judged.pair = calloc(alloc ? alloc : 1, sizeof(*r->judged.pair));
	res->pair = calloc(alloc ? alloc : 1, sizeof(*res->pair));
	if (!r->judged.pair || !res->pair) {
		snprintf(err, errlen, "out of memory for %lu group pairs", n);
		return -1;
	}
	while (p2pd_next_group_pair(&res->groups, &ga, &gb)) {
		struct judged_pair jp = { .gpu_ab = -1, .gpu_ba = -1,
					  .group_a = ga, .group_b = gb };

		if (p2pd_judge_group_pair(m, &res->groups, ga, gb, &p))
			continue;
		jp.count = p2pd_group_pair_count(&res->groups, ga, gb);
		if (add_judged_pair(r, &p, &jp, keep_all, &alloc, err, errlen))
			return -1;
	}
	return 0;
}

int judge_pairs(struct check_run *r, char *err, size_t errlen)
{
	const struct p2pd_model *m = r->in.model;
	struct run_results *res;
	unsigned int i;
	int ret;

	if (selection_valid(r, err, errlen))
		return -1;
	judge_cpu_inference(r);
	res = calloc(1, sizeof(*res));
	r->judged.results = res;
	if (res && r->in.selection.nr) {
		res->fn_selected = calloc(m->nr_fn ? m->nr_fn : 1, 1);
		for (i = 0; res->fn_selected && i < m->nr_fn; i++)
			res->fn_selected[i] = selection_keeps(&r->in.selection,
							      m->fn[i].addr);
	}
	if (res)
		res->through = calloc(m->nr_fn ? m->nr_fn : 1, sizeof(*res->through));
	if (!res || !res->through ||
	    (r->in.selection.nr && !res->fn_selected)) {
		snprintf(err, errlen, "out of memory for the results");
		return -1;
	}
	if (r->in.selection.nr || r->in.expand_pairs)
		ret = judge_each_pair(r, err, errlen);
	else
		ret = judge_group_pairs(r, err, errlen);
	if (ret)
		return -1;
	if (judge_pair_fixes(r)) {
		snprintf(err, errlen, "out of memory for the fixes of %u pairs",
			 r->judged.nr_pairs);
		return -1;
	}
	return 0;
}

static void judge_gpu_figures(const struct check_run *r, unsigned int g,
			      struct judged_gpu *jg)
{
	const struct gpu_device *d = &r->in.gpu->dev[g];
	const struct gpu_activity *a = &d->activity;
	char why[1024], fix[512];
	bool host = judge_gpu_explained(r, g, true, why, sizeof(why), fix, sizeof(fix));
	bool local = judge_gpu_explained(r, g, false, why, sizeof(why), fix, sizeof(fix));
	unsigned int i;

	jg->selected = selection_keeps(&r->in.selection, d->pci_addr);
	jg->expected_host_gbs = judge_expected_host_gbs(r, g);
	for (i = 0; i < JF_DEV_FIGS; i++) {
		struct judged_figure *jf = &jg->fig[i];

		judge_expect_device(r, g, i, &jf->expect);
		jf->low = judge_figure_low(r, judge_dev_figure(d, i), &jf->expect,
					   &jf->ratio);
		jf->explained = i == JF_LOCAL ? local : host;
	}
	jg->nr_settings = judge_gpu_settings(r, g, jg->setting);
	for (i = 0; i < CURVE_KINDS; i++)
		curve_fit(&d->curve[i], &jg->curve[i]);
	jg->clocks_held = a->throttle_valid && (a->throttle & JUDGE_THROTTLE_SLOWING);
	judge_throttle_words(a->throttle, jg->throttle_words, sizeof(jg->throttle_words));
	judge_process_words(a, jg->process_words, sizeof(jg->process_words));
}

static void judge_gpu_pair_figures(const struct check_run *r,
				   const struct gpu_pair *gp,
				   struct judged_gpu_pair *jp)
{
	const struct gpu_state *st = r->in.gpu;
	char why[1024], fix[512];
	bool explained;
	unsigned int i;

	jp->selected = selection_keeps(&r->in.selection, st->dev[gp->src].pci_addr) &&
		       selection_keeps(&r->in.selection, st->dev[gp->dst].pci_addr);
	jp->expected_gbs = judge_expected_pair_gbs(r, gp);
	explained = judge_gpu_explained(r, (unsigned int)gp->src, false, why,
					sizeof(why), fix, sizeof(fix)) ||
		    judge_gpu_explained(r, (unsigned int)gp->dst, false, why,
					sizeof(why), fix, sizeof(fix));
	for (i = 0; i < JP_PAIR_FIGS; i++) {
		struct judged_figure *jf = &jp->fig[i];

		judge_expect_pair(r, gp, i, &jf->expect);
		jf->low = judge_figure_low(r, judge_pair_figure(gp, i), &jf->expect,
					   &jf->ratio);
		jf->explained = explained;
	}
	curve_fit(&gp->curve, &jp->curve);
}

/* Which measured GPU pairs each judged pair carries, in both directions. */
static void map_gpu_pairs(const struct check_run *r, struct run_results *res)
{
	const struct gpu_state *st = r->in.gpu;
	int gpu_at[GPU_MAX][GPU_MAX];
	unsigned int i, g;

	memset(gpu_at, 0xff, sizeof(gpu_at));	/* -1 */
	for (i = 0; st->pair && i < st->nr_pairs; i++) {
		const struct gpu_pair *gp = &st->pair[i];

		if (gp->src >= 0 && gp->src < GPU_MAX && gp->dst >= 0 &&
		    gp->dst < GPU_MAX && gpu_at[gp->src][gp->dst] < 0)
			gpu_at[gp->src][gp->dst] = (int)i;
	}
	for (i = 0; r->in.model && i < r->judged.nr_pairs; i++) {
		const struct p2pd_pair *p = &r->judged.pair[i];
		int ga = -1, gb = -1;

		/* the first GPU at each end's address, as CUDA ordered them */
		for (g = st->nr_dev; g-- > 0;) {
			if (st->dev[g].pci_addr == r->in.model->fn[p->a].addr)
				ga = (int)g;
			if (st->dev[g].pci_addr == r->in.model->fn[p->b].addr)
				gb = (int)g;
		}
		if (ga >= 0 && gb >= 0) {
			res->pair[i].gpu_ab = gpu_at[ga][gb];
			res->pair[i].gpu_ba = gpu_at[gb][ga];
		}
	}
}

void judge_figures(struct check_run *r)
{
	struct run_results *res = r->judged.results;
	const struct gpu_state *st = r->in.gpu;
	unsigned int i;

	if (!res)
		return;
	judge_host_aspm(r->in.host_aspm_policy, &res->host_aspm);
	if (!st)
		return;
	for (i = 0; i < st->nr_dev && i < GPU_MAX; i++)
		judge_gpu_figures(r, i, &res->gpu[i]);
	free(res->gpu_pair);
	res->nr_gpu_pairs = 0;
	res->gpu_pair = calloc(st->nr_pairs ? st->nr_pairs : 1, sizeof(*res->gpu_pair));
	if (!res->gpu_pair) {
		r->judged.findings.oom = true;
		return;
	}
	for (i = 0; st->pair && i < st->nr_pairs; i++)
		judge_gpu_pair_figures(r, &st->pair[i], &res->gpu_pair[i]);
	res->nr_gpu_pairs = st->pair ? st->nr_pairs : 0;
	map_gpu_pairs(r, res);
}

void judge_release(struct check_run *r)
{
	struct run_results *res = r->judged.results;
	unsigned int i;

	if (res) {
		for (i = 0; res->pair && i < r->judged.nr_pairs; i++)
			free(res->pair[i].fix);
		free(res->pair);
		free(res->gpu_pair);
		free(res->fn_selected);
		free(res->through);
		free(res->group_storage);
		free(res);
	}
	r->judged.results = NULL;
	free(r->judged.pair);
	r->judged.pair = NULL;
	r->judged.nr_pairs = 0;
}
