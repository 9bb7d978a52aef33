// SPDX-License-Identifier: GPL-2.0
/*
 * Endpoint groups: the grouped judgement stands for the expanded one.
 * For synthetic SR-IOV servers (with and without switches, ARI-numbered
 * VFs, VFs that differ, VFs on the root bus) and for random trees, every
 * pair judged alone equals its member pair derived from its groups' pair,
 * the group pairs add up to all pairs, every endpoint's expanded view
 * equals the full pairs file's lines that hold it (also read in windows,
 * and put together line by line as the module's reads do),
 * and identical VFs do share groups.
 * Usage: test_groups [random trees] [seed]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "p2pdiag/endpoint_groups.h"
#include "p2pdiag/format.h"
#include "ktap.h"
#include "model_util.h"
#include "sriov_model.h"

struct grouped {
	struct p2pd_groups g;
	int *storage;
};

static int group(const struct p2pd_model *m, struct grouped *gr)
{
	gr->storage = calloc((size_t)P2PD_GROUP_INTS_PER_FN * (m->nr_fn + 1),
			     sizeof(int));
	if (!gr->storage)
		return -1;
	p2pd_groups_attach(&gr->g, gr->storage, m->nr_fn);
	return p2pd_group_endpoints(m, &gr->g);
}

static int same_pair(const struct p2pd_pair *x, const struct p2pd_pair *y)
{
	unsigned int i;

	if (x->a != y->a || x->b != y->b || x->path_len != y->path_len ||
	    x->common_kind != y->common_kind || x->common != y->common ||
	    x->cls != y->cls || x->map != y->map || x->distance != y->distance ||
	    x->nr_blockers != y->nr_blockers || x->host_blocks != y->host_blocks ||
	    x->host_fn != y->host_fn || x->host_fn_b != y->host_fn_b ||
	    x->bottleneck_fn != y->bottleneck_fn || x->degraded != y->degraded ||
	    x->nccl_p2p != y->nccl_p2p || x->notes != y->notes ||
	    x->verdict != y->verdict || x->missing != y->missing ||
	    memcmp(&x->bottleneck, &y->bottleneck, sizeof(x->bottleneck)))
		return 0;
	for (i = 0; i < x->path_len; i++)
		if (x->path[i] != y->path[i])
			return 0;
	for (i = 0; i < x->nr_blockers; i++)
		if (x->blocker[i] != y->blocker[i])
			return 0;
	return 1;
}

/* Every pair alone against its derivation; the counts add up. */
static int check_members(const struct p2pd_model *m, const struct p2pd_groups *g,
			 char *why, size_t whylen)
{
	int a = P2PD_NO_INDEX, b = P2PD_NO_INDEX, ga = P2PD_NO_INDEX, gb = P2PD_NO_INDEX;
	unsigned long sum = 0;

	while (p2pd_next_group_pair(g, &ga, &gb))
		sum += p2pd_group_pair_count(g, ga, gb);
	if (sum != p2pd_count_pairs(m)) {
		snprintf(why, whylen, "group pairs stand for %lu pairs, the model has %lu",
			 sum, p2pd_count_pairs(m));
		return -1;
	}
	while (p2pd_next_pair(m, &a, &b)) {
		struct p2pd_pair alone, rep, derived;
		int x = g->group_of[a], y = g->group_of[b];
		char sa[P2PD_ADDR_STRLEN], sb[P2PD_ADDR_STRLEN];

		addr_str(m->fn[a].addr, sa);
		addr_str(m->fn[b].addr, sb);
		if (x == P2PD_NO_INDEX || y == P2PD_NO_INDEX ||
		    p2pd_judge(m, a, b, &alone) ||
		    p2pd_judge_group_pair(m, g, x < y ? x : y, x < y ? y : x, &rep) ||
		    p2pd_judge_member(m, g, &rep, a, b, &derived)) {
			snprintf(why, whylen, "%s %s (groups %d %d) cannot be judged from its groups",
				 sa, sb, x, y);
			return -1;
		}
		if (!same_pair(&alone, &derived)) {
			char l1[600], l2[600];

			format_pair_line(m, &alone, l1, sizeof(l1));
			format_pair_line(m, &derived, l2, sizeof(l2));
			snprintf(why, whylen, "%s %s: alone '%s' notes %#x, from groups %d %d '%s' notes %#x",
				 sa, sb, l1, alone.notes, x, y, l2, derived.notes);
			return -1;
		}
	}
	return 0;
}

static char *format_all(void (*fmt)(struct p2pd_buf *, const struct p2pd_model *,
				    const struct p2pd_groups *, int),
			const struct p2pd_model *m, const struct p2pd_groups *g, int x,
			size_t *len)
{
	struct p2pd_buf b;
	char *p;

	p2pd_buf_init(&b, NULL, 0);
	fmt(&b, m, g, x);
	p = malloc(b.len + 1);
	if (!p)
		return NULL;
	p2pd_buf_init(&b, p, b.len + 1);
	fmt(&b, m, g, x);
	if (p2pd_buf_terminate(&b)) {
		free(p);
		return NULL;
	}
	*len = b.len;
	return p;
}

static void full_pairs(struct p2pd_buf *b, const struct p2pd_model *m,
		       const struct p2pd_groups *g, int x)
{
	(void)g;
	(void)x;
	p2pd_format_pairs(b, m);
}

/* The lines of @full (after its header) that name @addr, in order. */
static char *lines_with(const char *full, const char *addr)
{
	size_t cap = strlen(full) + 1, used = 0;
	char *out = malloc(cap);
	const char *line = strchr(full, '\n');

	if (!out)
		return NULL;
	out[0] = '\0';
	while (line && *++line) {
		const char *end = strchr(line, '\n');
		size_t n = end ? (size_t)(end - line) + 1 : strlen(line);
		char a[40], b[40];

		snprintf(a, sizeof(a), "a=%s ", addr);
		snprintf(b, sizeof(b), " b=%s ", addr);
		if (!strncmp(line, a, strlen(a)) ||
		    (memmem(line, n, b, strlen(b)) &&
		     (const char *)memmem(line, n, b, strlen(b)) < line + 30)) {
			memcpy(out + used, line, n);
			used += n;
			out[used] = '\0';
		}
		line = end;
	}
	return out;
}

/*
 * @x's view put together as a reader that starts mid-file does: the
 * header, each peer's line with a judgement carried from the line before
 * or (@fresh) with none, the trailer.  0 when it equals @view.
 */
static int same_line_by_line(const struct p2pd_model *m, const struct p2pd_groups *g,
			     int x, const char *view, size_t vlen, int fresh)
{
	struct p2pd_peer_judgement j;
	struct p2pd_buf b;
	unsigned int y, peers = 0;
	char *p = malloc(vlen + 1);
	int ret;

	if (!p)
		return -1;
	for (y = 0; y < m->nr_fn; y++)
		peers += (unsigned int)p2pd_is_endpoint_peer(m, x, y);
	p2pd_buf_init(&b, p, vlen + 1);
	p2pd_format_endpoint_pairs_header(&b, m, x, peers);
	p2pd_peer_judgement_init(&j);
	for (y = 0; y < m->nr_fn; y++) {
		if (!p2pd_is_endpoint_peer(m, x, y))
			continue;
		if (fresh)
			p2pd_peer_judgement_init(&j);
		p2pd_format_endpoint_pair_line(&b, m, g, x, (int)y, &j);
	}
	p2pd_format_endpoint_pairs_trailer(&b, m);
	ret = p2pd_buf_terminate(&b) || b.len != vlen || memcmp(p, view, vlen) ? -1 : 0;
	free(p);
	return ret;
}

/* Each endpoint's view against the full file; one also read in windows. */
static int check_views(const struct p2pd_model *m, const struct p2pd_groups *g,
		       unsigned int every, char *why, size_t whylen)
{
	size_t flen, vlen;
	char *full = format_all(full_pairs, m, g, 0, &flen);
	unsigned int x, checked = 0;
	int ret = 0;

	if (!full) {
		snprintf(why, whylen, "no memory");
		return -1;
	}
	for (x = 0; x < m->nr_fn && !ret; x++) {
		char sa[P2PD_ADDR_STRLEN], *view, *body, *want, *tail;

		if (!m->fn[x].p2p_endpoint || checked++ % every)
			continue;
		addr_str(m->fn[x].addr, sa);
		view = format_all(p2pd_format_endpoint_pairs_file, m, g, (int)x, &vlen);
		want = lines_with(full, sa);
		body = view ? strchr(view, '\n') : NULL;
		tail = view ? strstr(view, "# p2pdiag end generation=") : NULL;
		if (!view || !want || !body || !tail) {
			snprintf(why, whylen, "%s: view not formatted", sa);
			ret = -1;
		} else if ((size_t)(tail - body - 1) != strlen(want) ||
			   memcmp(body + 1, want, strlen(want))) {
			snprintf(why, whylen, "%s: its view (%zu bytes of lines) differs from the full file's %zu bytes of its lines",
				 sa, (size_t)(tail - body - 1), strlen(want));
			ret = -1;
		} else if (same_line_by_line(m, g, (int)x, view, vlen, 0) ||
			   same_line_by_line(m, g, (int)x, view, vlen, 1)) {
			snprintf(why, whylen, "%s: its view line by line differs", sa);
			ret = -1;
		} else {
			/* the same text read 97 bytes at a time */
			char win[97];
			size_t off = 0;

			while (off < vlen && !ret) {
				struct p2pd_buf b;
				size_t got;

				p2pd_buf_init_window(&b, win, sizeof(win), off);
				p2pd_format_endpoint_pairs_file(&b, m, g, (int)x);
				got = b.len - off < sizeof(win) ? b.len - off : sizeof(win);
				if (!got || memcmp(win, view + off, got)) {
					snprintf(why, whylen, "%s: window at %zu differs", sa, off);
					ret = -1;
				}
				off += got;
			}
		}
		free(view);
		free(want);
	}
	free(full);
	return ret;
}

static void check_server(struct ktap *k, const char *name, const struct sriov_spec *s,
			 unsigned int want_groups, unsigned int every)
{
	struct p2pd_model m;
	struct grouped gr = { 0 };
	char why[2048] = "";
	int ok;

	if (sriov_model(s, &m) || p2pd_model_check(&m)) {
		ktap_result(k, 0, "the builder failed", "%s: built", name);
		return;
	}
	ok = !group(&m, &gr);
	ktap_result(k, ok && gr.g.nr == want_groups, why,
		    "%s: %u functions, %lu pairs in %u groups (want %u), %lu group pairs",
		    name, m.nr_fn, p2pd_count_pairs(&m), gr.g.nr, want_groups,
		    p2pd_count_group_pairs(&gr.g));
	why[0] = '\0';
	ktap_result(k, ok && !check_members(&m, &gr.g, why, sizeof(why)), why,
		    "%s: every pair judged alone equals its pair from groups", name);
	why[0] = '\0';
	ktap_result(k, ok && !check_views(&m, &gr.g, every, why, sizeof(why)), why,
		    "%s: endpoint views equal the full file's lines", name);
	free(gr.storage);
	free(m.fn);
}

/*
 * Random trees rarely hold two endpoints judged alike: make some endpoints
 * twins of an earlier one with the same parent (everything but the
 * address, ATS and IOMMU domain, which only the per-pair notes read).
 */
static void make_twins(struct p2pd_model *m, unsigned long long *rs)
{
	unsigned int i, j;

	for (i = 1; i < m->nr_fn; i++) {
		struct p2pd_function *f = &m->fn[i], keep;

		if (!f->p2p_endpoint || rnd(rs, 2))
			continue;
		for (j = i; j-- > 0;) {
			const struct p2pd_function *t = &m->fn[j];

			if (!t->p2p_endpoint || t->has_parent != f->has_parent ||
			    t->parent != f->parent)
				continue;
			keep = *f;
			*f = *t;
			f->addr = keep.addr;
			f->ats = keep.ats;
			f->ats_enabled = keep.ats_enabled;
			f->iommu_domain = keep.iommu_domain;
			break;
		}
	}
}

static void check_random(struct ktap *k, unsigned long trees,
			 unsigned long long seed)
{
	unsigned long t, grouped_away = 0;
	char why[2048] = "";
	int ok = 1;

	for (t = 0; t < trees && ok; t++) {
		unsigned long long rs = seed * 1000003ull + t;
		struct p2pd_model m;
		struct grouped gr = { 0 };
		unsigned int i, endpoints = 0;

		random_model(&rs, &m, (int)(t % 5 == 4));
		make_twins(&m, &rs);
		for (i = 0; i < m.nr_fn; i++)
			endpoints += m.fn[i].p2p_endpoint ? 1 : 0;
		if (group(&m, &gr) || check_members(&m, &gr.g, why, sizeof(why)) ||
		    check_views(&m, &gr.g, 1, why, sizeof(why))) {
			char tmp[2200];

			snprintf(tmp, sizeof(tmp), "tree %lu (seed %llu): %s", t, seed, why);
			snprintf(why, sizeof(why), "%.2000s", tmp);
			ok = 0;
		}
		grouped_away += endpoints - gr.g.nr;
		free(gr.storage);
		free(m.fn);
	}
	ktap_result(k, ok, why, "random trees: %lu, grouped == expanded (%lu endpoints shared a group)",
		    trees, grouped_away);
}

int main(int argc, char **argv)
{
	unsigned long trees = argc > 1 ? strtoul(argv[1], NULL, 0) : 300;
	unsigned long long seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 1;
	struct ktap k = { 0 };
	/* 8 switches x 8 NICs x (1 PF + 7 VFs): a PF group and a VF group per NIC */
	const struct sriov_spec cloud = { .switches = 8, .nics = 8, .vfs = 7 };
	/* the same, VFs reporting their PF's link (as QEMU's do): a group per NIC */
	const struct sriov_spec pf_link = { .switches = 8, .nics = 8, .vfs = 7,
					    .vf_link = 1 };
	/* ARI numbering: 63 VFs span devices 0 to 7 of the PF's bus */
	const struct sriov_spec ari = { .switches = 2, .nics = 2, .vfs = 63,
					.switch_redirect = 1 };
	/* VFs that differ in ATS (notes only: same group) and in ACS (own group) */
	const struct sriov_spec varied = { .switches = 2, .nics = 2, .vfs = 10,
					   .vf_variety = 1, .gpus = 1,
					   .cpu_flags = P2PD_CPU_AMD };
	/* no switch: NICs on root ports and on the root bus, redirecting */
	const struct sriov_spec flat = { .direct_nics = 3, .root_bus_nics = 1,
					 .vfs = 5, .root_redirect = 1 };
	const struct sriov_spec no_vfs = { .switches = 3, .nics = 4, .gpus = 2 };

	ktap_start("engine-groups");
	check_server(&k, "8x8x(1+7)", &cloud, 128, 16);
	/* a PF's device ID is not its VFs': below a bridge no judgement reads it */
	check_server(&k, "8x8x(1+7), VFs with the PF's link", &pf_link, 64, 16);
	check_server(&k, "ARI 2x2x(1+63)", &ari, 8, 8);
	/* per NIC: PF, VFs with ACS redirect (2 of 10), the rest; per switch a GPU */
	check_server(&k, "varied VFs", &varied, 4 * 3 + 2, 1);
	/* 3 NICs on root ports (2 groups each) + root-bus PF and 5 VFs alone */
	check_server(&k, "root ports and root bus", &flat, 3 * 2 + 6, 1);
	check_server(&k, "switches without VFs", &no_vfs, 3 * 6, 1);
	check_random(&k, trees, seed);
	return ktap_finish(&k);
}
