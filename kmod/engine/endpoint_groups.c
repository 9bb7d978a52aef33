// SPDX-License-Identifier: GPL-2.0
/*
 * Endpoint groups (endpoint_groups.h): the P2P endpoints whose pairs are
 * judged alike, so that 4,096 SR-IOV functions need thousands of
 * judgements, not millions.  Which values decide is the verdict engine's
 * rule (p2pd_judge_inputs_cmp()); this file sorts by it and walks the
 * groups.  Freestanding: the caller owns the storage.
 */
#include "p2pdiag/decode.h"
#include "p2pdiag/endpoint_groups.h"

void p2pd_groups_attach(struct p2pd_groups *g, int *storage, unsigned int nr_fn)
{
	g->group_of = storage;
	g->next = storage + nr_fn;
	g->first = storage + 2ul * nr_fn;
	g->size = storage + 3ul * nr_fn;
	g->nr = 0;
	g->nr_fn = nr_fn;
}

/*
 * A function that another pair's judgement names (an upstream bridge, or
 * one on a root bus, which may identify its host bridge) stays alone: the
 * judgements that name it differ from its group mates'.  So does a GPU:
 * p2pdiag-check measures GPU pairs one by one and puts each figure on its
 * pair, and there are few of them.
 */
static int stays_alone(const struct p2pd_function *f, const int *is_parent,
		       int idx)
{
	return !f->has_parent || is_parent[idx] ||
	       p2pd_device_kind(f->class_code) == P2PD_KIND_GPU;
}

/* Sort order: stays-alone functions by index, then by inputs, then index. */
static int endpoint_cmp(const struct p2pd_model *m, const int *alone, int x,
			int y)
{
	int c;

	if (alone[x] || alone[y]) {
		if (alone[x] != alone[y])
			return alone[x] ? -1 : 1;
		return x < y ? -1 : x > y;
	}
	c = p2pd_judge_inputs_cmp(&m->fn[x], &m->fn[y]);
	if (c)
		return c;
	return x < y ? -1 : x > y;
}

static void sift_down(const struct p2pd_model *m, const int *alone, int *v,
		      unsigned int root, unsigned int n)
{
	for (;;) {
		unsigned int child = 2 * root + 1;
		int tmp;

		if (child >= n)
			return;
		if (child + 1 < n &&
		    endpoint_cmp(m, alone, v[child], v[child + 1]) < 0)
			child++;
		if (endpoint_cmp(m, alone, v[root], v[child]) >= 0)
			return;
		tmp = v[root];
		v[root] = v[child];
		v[child] = tmp;
		root = child;
	}
}

/* Heapsort: in place and O(n log n) in the worst case, no recursion. */
static void sort_endpoints(const struct p2pd_model *m, const int *alone,
			   int *v, unsigned int n)
{
	unsigned int i;

	for (i = n / 2; i-- > 0;)
		sift_down(m, alone, v, i, n);
	for (i = n; i-- > 1;) {
		int tmp = v[0];

		v[0] = v[i];
		v[i] = tmp;
		sift_down(m, alone, v, 0, i);
	}
}

int p2pd_group_endpoints(const struct p2pd_model *m, struct p2pd_groups *g)
{
	int *alone = g->size, *order = g->first, *leader = g->group_of;
	unsigned int i, n = 0, start;

	if (g->nr_fn != m->nr_fn)
		return -1;
	g->nr = 0;

	/* alone[]: referenced by another function, or on a root bus */
	for (i = 0; i < m->nr_fn; i++)
		alone[i] = 0;
	for (i = 0; i < m->nr_fn; i++) {
		int up;

		if (!m->fn[i].has_parent)
			continue;
		up = p2pd_model_find(m, m->fn[i].parent);
		if (up != P2PD_NO_INDEX)
			alone[up] = 1;
	}
	for (i = 0; i < m->nr_fn; i++)
		alone[i] = stays_alone(&m->fn[i], alone, (int)i);

	for (i = 0; i < m->nr_fn; i++) {
		g->next[i] = P2PD_NO_INDEX;
		if (m->fn[i].p2p_endpoint)
			order[n++] = (int)i;
	}
	sort_endpoints(m, alone, order, n);

	/*
	 * Runs of equal inputs are groups; within a run the order is by
	 * index, so its first entry is the lowest member.  Every member
	 * points at it (in group_of[] for now) and at the next member.
	 */
	for (i = 0; i < m->nr_fn; i++)
		leader[i] = P2PD_NO_INDEX;
	for (start = 0; start < n; start = i) {
		leader[order[start]] = order[start];
		for (i = start + 1; i < n; i++) {
			if (alone[order[start]] || alone[order[i]] ||
			    p2pd_judge_inputs_cmp(&m->fn[order[start]],
						  &m->fn[order[i]]))
				break;
			leader[order[i]] = order[start];
			g->next[order[i - 1]] = order[i];
		}
	}

	/*
	 * Number the groups by their first member's index; a leader comes
	 * before its members, so a member finds its leader numbered.  This
	 * overwrites order[] and alone[], which are done with.
	 */
	for (i = 0; i < m->nr_fn; i++) {
		int l = g->group_of[i];

		if (l == P2PD_NO_INDEX)
			continue;
		if (l == (int)i) {
			g->first[g->nr] = (int)i;
			g->size[g->nr] = 1;
			g->group_of[i] = (int)g->nr++;
		} else {
			g->group_of[i] = g->group_of[l];
			g->size[g->group_of[i]]++;
		}
	}
	return 0;
}

int p2pd_next_group_pair(const struct p2pd_groups *g, int *ga, int *gb)
{
	int nr = (int)g->nr;
	int x = *ga, y = *gb;

	if (x == P2PD_NO_INDEX) {
		x = 0;
		y = -1;
	}
	for (; x < nr; x++, y = x - 1) {
		/* a group with itself first, when it holds a pair */
		if (y < x && g->size[x] >= 2)
			y = x;
		else if (y < x)
			y = x + 1;
		else
			y++;
		if (y < nr) {
			*ga = x;
			*gb = y;
			return 1;
		}
	}
	return 0;
}

unsigned long p2pd_group_pair_count(const struct p2pd_groups *g, int ga, int gb)
{
	unsigned long na = (unsigned long)g->size[ga];

	if (ga == gb)
		return na * (na - 1) / 2;
	return na * (unsigned long)g->size[gb];
}

unsigned long p2pd_count_group_pairs(const struct p2pd_groups *g)
{
	unsigned long n = 0;
	unsigned int i;

	for (i = 0; i < g->nr; i++)
		n += g->size[i] >= 2 ? 1 : 0;
	return n + (unsigned long)g->nr * (g->nr ? g->nr - 1 : 0) / 2;
}

int p2pd_judge_group_pair(const struct p2pd_model *m, const struct p2pd_groups *g,
			  int ga, int gb, struct p2pd_pair *out)
{
	int a, b;

	if (ga < 0 || gb < ga || (unsigned int)gb >= g->nr)
		return -1;
	a = g->first[ga];
	b = ga == gb ? g->next[a] : g->first[gb];
	if (b == P2PD_NO_INDEX)
		return -1;
	return p2pd_judge(m, a, b, out);
}

int p2pd_judge_member(const struct p2pd_model *m, const struct p2pd_groups *g,
		      const struct p2pd_pair *rep, int a, int b,
		      struct p2pd_pair *out)
{
	int ga, gb, ra = g->group_of[rep->a], rb = g->group_of[rep->b];

	if (a < 0 || b <= a || (unsigned int)b >= m->nr_fn)
		return -1;
	ga = g->group_of[a];
	gb = g->group_of[b];
	if (ga == ra && gb == rb)
		return p2pd_derive_member_pair(m, rep, a, b, out);
	/*
	 * The lower address in the other group: the judgement lists a's
	 * side first (path, blockers, host bridges), so judge it as it is.
	 */
	if (ga == rb && gb == ra)
		return p2pd_judge(m, a, b, out);
	return -1;
}
