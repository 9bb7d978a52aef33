// SPDX-License-Identifier: GPL-2.0
/*
 * --graph: the PCI tree as a Graphviz picture.  Host bridges at the top,
 * root ports, switches (a cluster of the upstream port and its downstream
 * ports) and the P2P endpoints with the labels of the matrix.  Everything
 * it marks comes from the judged pairs, never from a rule of its own: a
 * port is drawn redirecting because pairs name it as a blocker, a host
 * bridge as refusing P2P because pairs were blocked there, and an edge
 * takes the colour of the worst verdict among the pairs whose traffic
 * crosses it (ACS-redirected traffic climbs to the root complex, so those
 * pairs colour the edges above their common bridge too).
 *
 * This file writes the DOT text; report/graph_file.c puts it, or what
 * dot(1) draws from it, in the --graph file.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/endpoint_labels.h"
#include "judge/judge.h"
#include "topology/pciaddr.h"
#include "report/report.h"
#include "uapi/p2pdiag/abi.h"
#include "p2pdiag/decode.h"
#include "p2pdiag/format.h"

/* Peers named on an endpoint before "+N more". */
#define PEERS_NAMED 4

/* How an edge or node is drawn: the worst verdict of the pairs through it. */
enum mark {
	MARK_UNUSED,	/* no judged pair crosses it */
	MARK_DIRECT,	/* ok or host */
	MARK_DETOUR,	/* redirected or unknown */
	MARK_BLOCKED,
};

static const char *const mark_colour[] = {
	[MARK_UNUSED] = "gray60",
	[MARK_DIRECT] = "darkgreen",
	[MARK_DETOUR] = "darkorange2",
	[MARK_BLOCKED] = "red3",
};

struct root_bus {
	unsigned long long host_bridge;	/* P2PD_HOST_BRIDGE() */
	int host_fn;			/* the function that names it, or NO_INDEX */
	int numa_node;
	unsigned int routed, refused;	/* pairs through it, by map */
	enum mark up;			/* its edge to the CPU node */
	bool lit;
};

struct graph {
	const struct check_run *r;
	const struct p2pd_model *m;
	struct endpoint_label *ep;
	unsigned int nr_ep;
	/* per function */
	bool *drawn;
	unsigned int *blocks;		/* pairs that name it as a blocker */
	enum mark *up;			/* the edge to its parent */
	bool *lit;			/* on the highlighted pair's route */
	bool *lit_up;			/* its edge to its parent is, too */
	struct root_bus *bus;
	unsigned int nr_bus;
	bool many_numa;			/* root buses on several NUMA nodes */
	enum mark numa_link;
	bool numa_lit;
	int pair;			/* highlighted r->judged.pair index, or -1 */
	enum mark lit_mark;		/* its verdict, the colour of its route */
	bool failed;			/* memory ran out: the text is incomplete */
};

static enum mark verdict_mark(enum p2pd_verdict v)
{
	switch (v) {
	case P2PD_VERDICT_OK:
	case P2PD_VERDICT_HOST:
		return MARK_DIRECT;
	case P2PD_VERDICT_BLOCKED:
		return MARK_BLOCKED;
	default:
		return MARK_DETOUR;
	}
}

static void raise_mark(enum mark *m, enum mark to)
{
	if (to > *m)
		*m = to;
}

static int parent_of(const struct p2pd_model *m, int i)
{
	if (!m->fn[i].has_parent)
		return P2PD_NO_INDEX;
	return p2pd_model_find(m, m->fn[i].parent);
}

static int bus_index(const struct graph *g, unsigned long long host_bridge)
{
	unsigned int i;

	for (i = 0; i < g->nr_bus; i++)
		if (g->bus[i].host_bridge == host_bridge)
			return (int)i;
	return -1;
}

/* Endpoints and every bridge above one; their root buses. */
static void choose_nodes(struct graph *g)
{
	const struct p2pd_model *m = g->m;
	unsigned int i, depth;
	int numa = -2;

	for (i = 0; i < m->nr_fn; i++) {
		int at = (int)i;

		if (!m->fn[i].p2p_endpoint)
			continue;
		for (depth = 0; at != P2PD_NO_INDEX && depth <= P2PD_MAX_DEPTH; depth++) {
			g->drawn[at] = true;
			at = parent_of(m, at);
		}
	}
	for (i = 0; i < m->nr_fn; i++) {
		const struct p2pd_function *f = &m->fn[i];
		struct root_bus *b;

		if (!g->drawn[i] || bus_index(g, f->host_bridge) >= 0)
			continue;
		b = &g->bus[g->nr_bus++];
		b->host_bridge = f->host_bridge;
		b->host_fn = P2PD_NO_INDEX;
		b->numa_node = f->numa_node;
		if (numa != -2 && numa != f->numa_node)
			g->many_numa = true;
		numa = f->numa_node;
	}
}

/* The judged pairs' traffic on the edges, as the engine judged them. */
static void mark_route(struct graph *g, const struct p2pd_pair *p, bool lit)
{
	const struct p2pd_model *m = g->m;
	enum mark mk = verdict_mark(p->verdict);
	/* ACS or the root complex: the traffic goes all the way up */
	bool to_root = p->common_kind != P2PD_COMMON_BRIDGE || p->nr_blockers ||
		       p->verdict == P2PD_VERDICT_BLOCKED;
	int end[2] = { p->a, p->b };
	unsigned int side, depth;
	int ba, bb;

	for (side = 0; side < 2; side++) {
		int at = end[side];

		for (depth = 0; at != P2PD_NO_INDEX && depth <= P2PD_MAX_DEPTH; depth++) {
			if (lit)
				g->lit[at] = true;
			if (at == p->common && !to_root)
				break;
			raise_mark(&g->up[at], mk);
			if (lit)
				g->lit_up[at] = true;
			at = parent_of(m, at);
		}
	}
	ba = bus_index(g, m->fn[p->a].host_bridge);
	bb = bus_index(g, m->fn[p->b].host_bridge);
	if (!to_root || ba < 0 || bb < 0)
		return;
	if (lit)
		g->bus[ba].lit = g->bus[bb].lit = true;
	if (ba != bb) {
		raise_mark(&g->bus[ba].up, mk);
		raise_mark(&g->bus[bb].up, mk);
		if (g->many_numa && g->bus[ba].numa_node != g->bus[bb].numa_node) {
			raise_mark(&g->numa_link, mk);
			g->numa_lit |= lit;
		}
	}
}

static void count_host(struct graph *g, const struct p2pd_pair *p, int host_fn)
{
	int bi;

	if (host_fn == P2PD_NO_INDEX)
		return;
	bi = bus_index(g, g->m->fn[host_fn].host_bridge);
	if (bi < 0)
		return;
	g->bus[bi].host_fn = host_fn;
	if (p->host_blocks)
		g->bus[bi].refused++;
	else if (p->map == P2PD_MAP_THRU_HOST_BRIDGE)
		g->bus[bi].routed++;
}

static void read_pairs(struct graph *g)
{
	unsigned int i, k;

	for (i = 0; i < g->r->judged.nr_pairs; i++) {
		const struct p2pd_pair *p = &g->r->judged.pair[i];

		for (k = 0; k < p->nr_blockers; k++)
			g->blocks[p->blocker[k]]++;
		count_host(g, p, p->host_fn);
		count_host(g, p, p->host_fn_b);
		mark_route(g, p, false);
	}
	if (g->pair >= 0) {
		g->lit_mark = verdict_mark(g->r->judged.pair[g->pair].verdict);
		mark_route(g, &g->r->judged.pair[g->pair], true);
	}
}

/*
 * A DOT double-quoted string: newlines become @newline (DOT's \n centres
 * a line, \l left-justifies it), quotes and backslashes escaped.
 */
static void put_quoted(FILE *out, const char *s, const char *newline)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '\n')
			fputs(newline, out);
		else if (*s == '"' || *s == '\\')
			fprintf(out, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fputc(' ', out);
		else
			fputc(*s, out);
	}
	fputc('"', out);
}

/*
 * A label is written into memory first (open_memstream), then quoted into
 * the DOT text.  Memory running out fails the whole picture.
 */
static FILE *label_open(struct graph *g, char **text, size_t *len)
{
	FILE *t;

	*text = NULL;
	t = open_memstream(text, len);
	if (!t)
		g->failed = true;
	return t;
}

/*
 * Close @t and write its text quoted, lines ended by @newline.  @text is
 * the pointer label_open() gave: the stream sets it when it closes.
 */
static void label_close(FILE *out, struct graph *g, FILE *t, char **text,
			const char *newline)
{
	if (fclose(t) || !*text) {
		g->failed = true;
		free(*text);
		fputs("\"\"", out);
		return;
	}
	put_quoted(out, *text, newline);
	free(*text);
}

static void add_link(FILE *t, const struct p2pd_link *l)
{
	char cur[16], max[16];
	struct p2pd_buf b;

	if (l->state != P2PD_PRESENT || !l->speed)
		return;
	p2pd_buf_init(&b, cur, sizeof(cur));
	p2pd_put_speed(&b, l->speed);
	p2pd_buf_terminate(&b);
	p2pd_buf_init(&b, max, sizeof(max));
	p2pd_put_speed(&b, l->max_speed);
	p2pd_buf_terminate(&b);
	fprintf(t, "\n%s GT/s x%u", cur, l->width);
	if (l->speed < l->max_speed || l->width < l->max_width)
		fprintf(t, " (max %s x%u)", max, l->max_width);
}

static const char *role_words(enum p2pd_role role)
{
	switch (role) {
	case P2PD_ROLE_ROOT_PORT:
		return "root port";
	case P2PD_ROLE_UPSTREAM_PORT:
		return "upstream port";
	case P2PD_ROLE_DOWNSTREAM_PORT:
		return "downstream port";
	default:
		return p2pd_role_name(role);
	}
}

static void node_id(char *buf, size_t len, unsigned long long addr)
{
	snprintf(buf, len, "fn_%08llx", addr);
}

/* The peers of endpoint @fn whose pair is blocked: "NIC0, GPU1 +2 more". */
static unsigned int add_blocked_peers(FILE *t, const struct graph *g, int fn)
{
	unsigned int i, named = 0, total = 0;

	for (i = 0; i < g->r->judged.nr_pairs; i++) {
		const struct p2pd_pair *p = &g->r->judged.pair[i];
		int peer = p->a == fn ? p->b : p->b == fn ? p->a : P2PD_NO_INDEX;
		const char *label;
		char a[P2PD_ADDR_STRLEN];

		if (peer == P2PD_NO_INDEX || p->verdict != P2PD_VERDICT_BLOCKED)
			continue;
		if (total++ >= PEERS_NAMED)
			continue;
		label = endpoint_label_of(g->ep, g->nr_ep, peer);
		fprintf(t, "%s%s", named++ ? ", " : "\nblocked with ",
		    label ? label : pciaddr_format(a, g->m->fn[peer].addr));
	}
	if (total > named)
		fprintf(t, " +%u more", total - named);
	return total;
}

static void function_node(FILE *out, struct graph *g, unsigned int i)
{
	const struct p2pd_function *f = &g->m->fn[i];
	const char *label = endpoint_label_of(g->ep, g->nr_ep, (int)i);
	char id[32], a[P2PD_ADDR_STRLEN];
	const char *fill = "white", *border = "black";
	unsigned int blocked = 0;
	int width = 1;
	size_t len;
	char *text;
	FILE *t = label_open(g, &text, &len);

	if (!t)
		return;
	pciaddr_format(a, f->addr);
	if (f->p2p_endpoint) {
		enum p2pd_kind kind = p2pd_device_kind(f->class_code);

		fprintf(t, "%s %s\n[%04x:%04x]", label ? label : p2pd_kind_name(kind),
			a, f->vendor, f->device);
		fill = kind == P2PD_KIND_GPU ? "#dcefd6" : kind == P2PD_KIND_NIC ? "#d6e4f5" :
		       kind == P2PD_KIND_NVME ? "#f3ead0" : "#ececec";
	} else {
		fprintf(t, "%s %s\n[%04x:%04x]", role_words(f->role), a, f->vendor, f->device);
	}
	add_link(t, &f->link);
	if (p2pd_config_unread(f))
		fprintf(t, "\nconfig reads failed");
	if (f->has_parent && parent_of(g->m, (int)i) == P2PD_NO_INDEX) {
		pciaddr_format(a, f->parent);
		fprintf(t, "\nparent %s not in the snapshot", a);
	}
	if (g->blocks[i]) {
		char bits[32];
		struct p2pd_buf b;

		p2pd_buf_init(&b, bits, sizeof(bits));
		p2pd_put_acs_redirect(&b, f);
		p2pd_buf_terminate(&b);
		fprintf(t, "\nACS redirect %s: %u pair%s", bits, g->blocks[i],
		    g->blocks[i] == 1 ? "" : "s");
		fill = "#fbd9b0";
		border = "darkorange3";
		width = 2;
	}
	if (f->p2p_endpoint)
		blocked = add_blocked_peers(t, g, (int)i);
	if (blocked) {
		border = "red3";
		width = 2;
	}
	if (g->lit[i])
		width = 4;
	node_id(id, sizeof(id), f->addr);
	fprintf(out, "    %s [label=", id);
	label_close(out, g, t, &text, "\\n");
	fprintf(out, ", fillcolor=\"%s\", color=\"%s\", penwidth=%d%s];\n", fill,
		border, width, f->p2p_endpoint ? "" : ", style=\"rounded,filled\"");
}

static void bus_node(FILE *out, struct graph *g, const struct root_bus *b)
{
	const char *fill = "#e3e8ef", *border = "black";
	size_t len;
	char *text;
	FILE *t = label_open(g, &text, &len);
	char name[P2PD_HOST_BRIDGE_STRLEN];

	if (!t)
		return;
	fprintf(t, "host bridge %s", pciaddr_format_host_bridge(name, b->host_bridge));
	if (b->host_fn != P2PD_NO_INDEX) {
		const struct p2pd_function *f = &g->m->fn[b->host_fn];

		fprintf(t, "\n[%04x:%04x]", f->vendor, f->device);
	}
	if (b->routed)
		fprintf(t, "\nroutes P2P: %u pair%s", b->routed, b->routed == 1 ? "" : "s");
	if (b->refused) {
		fprintf(t, "\ndoes not route P2P: %u pair%s blocked", b->refused,
		    b->refused == 1 ? "" : "s");
		fill = "#f6cccc";
		border = "red3";
	}
	fprintf(out, "  hb_%06llx [shape=box3d, style=filled, label=", b->host_bridge);
	label_close(out, g, t, &text, "\\n");
	fprintf(out, ", fillcolor=\"%s\", color=\"%s\", penwidth=%d];\n", fill, border,
		b->lit ? 4 : b->refused ? 2 : 1);
}

static void edge(FILE *out, const struct graph *g, const char *from,
		 const char *to, enum mark mk, bool lit)
{
	fprintf(out, "  %s -> %s [color=\"%s\", penwidth=%s%s];\n", from, to,
		lit ? mark_colour[g->lit_mark] : g->pair >= 0 ? "gray80" : mark_colour[mk],
		lit ? "4" : mk >= MARK_DETOUR ? "2" : "1",
		mk == MARK_UNUSED ? ", style=dashed" : "");
}

/* The upstream port of a switch and its downstream ports, as one box. */
static void switch_cluster(FILE *out, struct graph *g, unsigned int up,
			   bool *done)
{
	const struct p2pd_function *u = &g->m->fn[up];
	unsigned int i;

	fprintf(out, "  subgraph cluster_sw_%08llx {\n", u->addr);
	fprintf(out, "    label=\"switch [%04x:%04x]\"; style=rounded; color=gray40;\n",
		u->vendor, u->device);
	function_node(out, g, up);
	done[up] = true;
	for (i = 0; i < g->m->nr_fn; i++) {
		const struct p2pd_function *f = &g->m->fn[i];

		if (g->drawn[i] && f->role == P2PD_ROLE_DOWNSTREAM_PORT &&
		    f->has_parent && f->parent == u->addr) {
			function_node(out, g, i);
			done[i] = true;
		}
	}
	fputs("  }\n", out);
}

static void legend(FILE *out, struct graph *g, unsigned int hidden)
{
	const struct check_run *r = g->r;
	size_t len;
	char *text;
	FILE *t = label_open(g, &text, &len);

	if (!t)
		return;
	fprintf(t, "p2pdiag-check %s: %s (%s)\n", report_version(), r->in.source,
	    r->in.source_detail);
	if (g->pair >= 0) {
		const struct p2pd_pair *p = &r->judged.pair[g->pair];
		const char *la = endpoint_label_of(g->ep, g->nr_ep, p->a);
		const char *lb = endpoint_label_of(g->ep, g->nr_ep, p->b);
		char a[P2PD_ADDR_STRLEN], b[P2PD_ADDR_STRLEN], blk[JUDGE_TEXT_MAX];
		struct p2pd_buf buf;

		p2pd_buf_init(&buf, blk, sizeof(blk));
		p2pd_format_blockers(&buf, g->m, p);
		p2pd_buf_terminate(&buf);
		fprintf(t, "highlighted: %s %s to %s %s: %s, %s, blockers %s\n",
		    la ? la : "", pciaddr_format(a, g->m->fn[p->a].addr), lb ? lb : "",
		    pciaddr_format(b, g->m->fn[p->b].addr), p2pd_verdict_name(p->verdict),
		    p2pd_class_name(p->cls), blk);
	}
	fprintf(t, "edges: green direct, orange redirected through the root complex, red blocked, dashed no judged pair\n");
	fprintf(t, "orange box: a port whose ACS redirects; red: a host bridge that does not route P2P, an endpoint with blocked peers\n");
	if (hidden)
		fprintf(t, "%u function%s on no path to a P2P endpoint not drawn\n", hidden,
		    hidden == 1 ? "" : "s");
	fputs("  label=", out);
	label_close(out, g, t, &text, "\\l");
	fputs(";\n", out);
}

static void write_dot(FILE *out, struct graph *g)
{
	const struct p2pd_model *m = g->m;
	unsigned int i, hidden = 0;
	bool *done = calloc(m->nr_fn ? m->nr_fn : 1, sizeof(*done));
	char id[32], pid[32];

	fputs("digraph p2pdiag {\n"
	      "  graph [rankdir=TB, fontname=\"Helvetica\", fontsize=10, labelloc=b, labeljust=l, nodesep=0.25, ranksep=0.4];\n"
	      "  node [shape=box, style=filled, fontname=\"Helvetica\", fontsize=10];\n"
	      "  edge [arrowhead=none];\n", out);
	for (i = 0; i < m->nr_fn; i++)
		hidden += !g->drawn[i];
	legend(out, g, hidden);
	if (g->nr_bus > 1) {
		int last = -2;

		for (i = 0; i < g->nr_bus; i++) {
			if (g->bus[i].numa_node == last)
				continue;
			last = g->bus[i].numa_node;
			if (last < 0)
				fprintf(out, "  cpu_n [shape=ellipse, fillcolor=\"#eeeeee\", label=\"CPU\"];\n");
			else
				fprintf(out, "  cpu_%d [shape=ellipse, fillcolor=\"#eeeeee\", label=\"CPU, NUMA node %d\"];\n",
					last, last);
		}
	}
	for (i = 0; i < g->nr_bus; i++)
		bus_node(out, g, &g->bus[i]);
	for (i = 0; done && i < m->nr_fn; i++) {
		if (g->drawn[i] && !done[i] && m->fn[i].role == P2PD_ROLE_UPSTREAM_PORT)
			switch_cluster(out, g, i, done);
	}
	for (i = 0; done && i < m->nr_fn; i++)
		if (g->drawn[i] && !done[i])
			function_node(out, g, i);
	/* edges: bus to CPU, function to parent (or to its host bridge) */
	for (i = 0; g->nr_bus > 1 && i < g->nr_bus; i++) {
		const struct root_bus *b = &g->bus[i];
		char cpu[32], hb[32];

		if (b->numa_node < 0)
			snprintf(cpu, sizeof(cpu), "cpu_n");
		else
			snprintf(cpu, sizeof(cpu), "cpu_%d", b->numa_node);
		snprintf(hb, sizeof(hb), "hb_%06llx", b->host_bridge);
		edge(out, g, cpu, hb, b->up, b->lit);
	}
	if (g->many_numa) {
		int first = g->bus[0].numa_node;

		for (i = 1; i < g->nr_bus; i++) {
			char x[32], y[32];

			if (g->bus[i].numa_node == first || g->bus[i].numa_node < 0 || first < 0)
				continue;
			snprintf(x, sizeof(x), "cpu_%d", first);
			snprintf(y, sizeof(y), "cpu_%d", g->bus[i].numa_node);
			fprintf(out, "  %s -> %s [constraint=false, label=\"inter-socket\", color=\"%s\", penwidth=%s];\n",
				x, y, g->numa_lit ? mark_colour[g->lit_mark] :
				g->pair >= 0 ? "gray80" : mark_colour[g->numa_link],
				g->numa_lit ? "4" : "2");
			first = g->bus[i].numa_node;
		}
	}
	for (i = 0; i < m->nr_fn; i++) {
		const struct p2pd_function *f = &m->fn[i];
		int p;

		if (!g->drawn[i])
			continue;
		node_id(id, sizeof(id), f->addr);
		p = parent_of(m, (int)i);
		if (p != P2PD_NO_INDEX)
			node_id(pid, sizeof(pid), m->fn[p].addr);
		else if (!f->has_parent)
			snprintf(pid, sizeof(pid), "hb_%06llx", f->host_bridge);
		else
			continue;
		edge(out, g, pid, id, g->up[i], g->lit_up[i]);
	}
	fputs("}\n", out);
	free(done);
}

int report_graph_pair(const struct check_run *r, const char *const name[2],
		      int *pair, char *err, size_t errlen)
{
	struct endpoint_label *ep = NULL;
	unsigned int n, i;
	int fn[2];

	*pair = -1;
	n = endpoint_labels(r, &ep);
	for (i = 0; i < 2; i++) {
		fn[i] = endpoint_label_find(r, ep, n, name[i]);
		if (fn[i] == P2PD_NO_INDEX || !r->in.model->fn[fn[i]].p2p_endpoint) {
			snprintf(err, errlen,
				 "--graph-pair: '%s' is no P2P endpoint here: give a label from the matrix (%s%s%s) or a PCI address",
				 name[i], n ? ep[0].label : "none",
				 n > 1 ? " to " : "", n > 1 ? ep[n - 1].label : "");
			free(ep);
			return -1;
		}
	}
	free(ep);
	if (fn[0] == fn[1]) {
		snprintf(err, errlen, "--graph-pair: '%s' and '%s' are the same device: name two",
			 name[0], name[1]);
		return -1;
	}
	*pair = run_pair_index(r, fn[0], fn[1]);
	if (*pair < 0) {
		snprintf(err, errlen,
			 "--graph-pair: %s,%s was not judged: --pairs leaves it out",
			 name[0], name[1]);
		return -1;
	}
	return 0;
}

int report_graph_dot(FILE *out, const struct check_run *r, int pair)
{
	unsigned int n = r->in.model ? r->in.model->nr_fn : 0;
	struct graph g = { .r = r, .m = r->in.model, .pair = pair };
	int ret = -1;

	if (!r->in.model)
		return -1;
	g.drawn = calloc(n + 1, sizeof(*g.drawn));
	g.blocks = calloc(n + 1, sizeof(*g.blocks));
	g.up = calloc(n + 1, sizeof(*g.up));
	g.lit = calloc(n + 1, sizeof(*g.lit));
	g.lit_up = calloc(n + 1, sizeof(*g.lit_up));
	g.bus = calloc(n + 1, sizeof(*g.bus));
	if (!g.drawn || !g.blocks || !g.up || !g.lit || !g.lit_up || !g.bus)
		goto free_all;
	g.nr_ep = endpoint_labels(r, &g.ep);
	choose_nodes(&g);
	read_pairs(&g);
	write_dot(out, &g);
	ret = ferror(out) || g.failed ? -1 : 0;
free_all:
	free(g.ep);
	free(g.drawn);
	free(g.blocks);
	free(g.up);
	free(g.lit);
	free(g.lit_up);
	free(g.bus);
	return ret;
}
