// SPDX-License-Identifier: GPL-2.0
/*
 * The other views of the pairs file: grouped (one line per group pair,
 * pairs judged alike), limited to a byte budget, and one endpoint's own
 * pairs, each framed like the full file (format_frame.h).
 */
#include "p2pdiag/format.h"
#include "uapi/p2pdiag/abi.h"
#include "p2pdiag/endpoint_groups.h"
#include "format_frame.h"

static void put_pairs_view_header(struct p2pd_buf *b, const struct p2pd_model *m,
				  const struct p2pd_groups *g)
{
	p2pd_put_header(b, m);
	p2pd_put_header_key(b, P2PD_HEADER_PAIRS);
	p2pd_put_udec(b, p2pd_count_pairs(m));
	p2pd_put_str(b, " view=" P2PD_PAIRS_VIEW_GROUPED " groups=");
	p2pd_put_udec(b, g->nr);
	p2pd_put_str(b, " group_pairs=");
	p2pd_put_udec(b, p2pd_count_group_pairs(g));
}

/* "group=<n> members=<k> addr=<addr>,<addr>..." */
static void put_group_line(struct p2pd_buf *b, const struct p2pd_model *m,
			   const struct p2pd_groups *g, int gi)
{
	int i;

	p2pd_put_str(b, "group=");
	p2pd_put_udec(b, (unsigned long)gi);
	p2pd_put_str(b, " members=");
	p2pd_put_udec(b, (unsigned long)g->size[gi]);
	p2pd_put_str(b, " addr=");
	for (i = g->first[gi]; i != P2PD_NO_INDEX; i = g->next[i]) {
		if (i != g->first[gi])
			p2pd_put_char(b, ',');
		p2pd_put_addr(b, m->fn[i].addr);
	}
	p2pd_put_char(b, '\n');
}

void p2pd_format_group_pair(struct p2pd_buf *b, const struct p2pd_model *m,
			    const struct p2pd_groups *g, int ga, int gb,
			    const struct p2pd_pair *rep)
{
	p2pd_put_str(b, "group_a=");
	p2pd_put_udec(b, (unsigned long)ga);
	p2pd_put_str(b, " group_b=");
	p2pd_put_udec(b, (unsigned long)gb);
	p2pd_put_header_key(b, P2PD_HEADER_PAIRS);
	p2pd_put_udec(b, p2pd_group_pair_count(g, ga, gb));
	p2pd_put_char(b, ' ');
	p2pd_format_pair(b, m, rep);
}

void p2pd_format_pairs_grouped(struct p2pd_buf *b, const struct p2pd_model *m,
			       const struct p2pd_groups *g)
{
	struct p2pd_pair rep;
	int ga = P2PD_NO_INDEX, gb = P2PD_NO_INDEX;
	unsigned int i;

	put_pairs_view_header(b, m, g);
	p2pd_put_str(b, " status=" P2PD_PAIRS_STATUS_COMPLETE "\n");
	for (i = 0; i < g->nr && !p2pd_buf_full(b); i++) {
		put_group_line(b, m, g, (int)i);
		p2pd_line_done(b);
	}
	while (!p2pd_buf_full(b) && p2pd_next_group_pair(g, &ga, &gb)) {
		if (!p2pd_judge_group_pair(m, g, ga, gb, &rep))
			p2pd_format_group_pair(b, m, g, ga, gb, &rep);
		p2pd_line_done(b);
	}
}

void p2pd_format_pairs_grouped_file(struct p2pd_buf *b,
				    const struct p2pd_model *m,
				    const struct p2pd_groups *g)
{
	p2pd_format_pairs_grouped(b, m, g);
	p2pd_put_trailer(b, m->generation);
}

void p2pd_format_pairs_limit(struct p2pd_buf *b, const struct p2pd_model *m,
			     const struct p2pd_groups *g, unsigned long limit)
{
	put_pairs_view_header(b, m, g);
	p2pd_put_str(b, " status=" P2PD_PAIRS_STATUS_LIMIT " limit=");
	p2pd_put_udec(b, limit);
	p2pd_put_char(b, '\n');
}

void p2pd_format_pairs_limit_file(struct p2pd_buf *b, const struct p2pd_model *m,
				  const struct p2pd_groups *g,
				  unsigned long limit)
{
	p2pd_format_pairs_limit(b, m, g, limit);
	p2pd_put_trailer(b, m->generation);
}

/*
 * A window's reader wants nothing before b->skip: a line of @n bytes that
 * ends there need not be formatted, only counted.
 */
static int skip_before_window(struct p2pd_buf *b, unsigned long n)
{
	if (!n || b->len + n > b->skip)
		return 0;
	b->len += n;
	return 1;
}

void p2pd_format_endpoint_pairs_header(struct p2pd_buf *b,
				       const struct p2pd_model *m, int x,
				       unsigned int peers)
{
	p2pd_put_header(b, m);
	p2pd_put_str(b, " endpoint=");
	p2pd_put_addr(b, m->fn[x].addr);
	p2pd_put_header_key(b, P2PD_HEADER_PAIRS);
	p2pd_put_udec(b, peers);
	p2pd_put_char(b, '\n');
}

int p2pd_format_endpoint_pair_line(struct p2pd_buf *b,
				   const struct p2pd_model *m,
				   const struct p2pd_groups *g, int x, int y,
				   struct p2pd_peer_judgement *j)
{
	int a = y < x ? y : x, bb = y < x ? x : y;
	int ga = g->group_of[a], gb = g->group_of[bb];

	if (ga > gb) {
		ga = gb;
		gb = g->group_of[a];
	}
	/* consecutive peers mostly share a group pair: judge it once */
	if (ga != j->ga || gb != j->gb) {
		j->ga = P2PD_NO_INDEX;	/* judged anew next time */
		if (p2pd_judge_group_pair(m, g, ga, gb, &j->pair))
			return -1;
		j->ga = ga;
		j->gb = gb;
	}
	if (p2pd_judge_member(m, g, &j->pair, a, bb, &j->pair)) {
		j->ga = P2PD_NO_INDEX;
		return -1;
	}
	p2pd_format_pair(b, m, &j->pair);
	return 0;
}

void p2pd_format_endpoint_pairs_trailer(struct p2pd_buf *b,
					const struct p2pd_model *m)
{
	p2pd_put_trailer(b, m->generation);
}

void p2pd_format_endpoint_pairs_file(struct p2pd_buf *b,
				     const struct p2pd_model *m,
				     const struct p2pd_groups *g, int x)
{
	struct p2pd_peer_judgement j;
	/*
	 * Member pairs with a's group and b's group in common differ only in
	 * addresses of one width (one group, one domain): their lines are of
	 * one length, measured once and skipped before a window.
	 */
	int len_ga = P2PD_NO_INDEX, len_gb = P2PD_NO_INDEX;
	unsigned long line_len = 0, start;
	unsigned int y, peers = 0;

	for (y = 0; y < m->nr_fn; y++)
		peers += (unsigned int)p2pd_is_endpoint_peer(m, x, y);
	p2pd_format_endpoint_pairs_header(b, m, x, peers);
	p2pd_peer_judgement_init(&j);
	for (y = 0; y < m->nr_fn; y++) {
		int a = (int)y < x ? (int)y : x, bb = (int)y < x ? x : (int)y;

		if (!p2pd_is_endpoint_peer(m, x, y))
			continue;
		p2pd_line_done(b);
		if (p2pd_buf_full(b))
			return;	/* a window: the rest is not wanted */
		if (g->group_of[a] == len_ga && g->group_of[bb] == len_gb &&
		    skip_before_window(b, line_len))
			continue;
		start = b->len;
		if (p2pd_format_endpoint_pair_line(b, m, g, x, (int)y, &j))
			continue;
		line_len = b->len - start;
		len_ga = g->group_of[a];
		len_gb = g->group_of[bb];
	}
	p2pd_format_endpoint_pairs_trailer(b, m);
}
