// SPDX-License-Identifier: GPL-2.0
/*
 * The topology file, text to model: the inverse of p2pd_format_topology()
 * in kmod/engine/format.c.  The names of roles, IOMMU domains and fields
 * come from the engine's tables, so the two cannot drift apart without
 * the round-trip test noticing.
 *
 * This file reads the file as a whole (header, function lines, then the
 * checks across lines); the rest of the parser is split by what it reads:
 *
 *   parse_reader.c    lines, key=value tokens, escapes, error messages
 *   parse_values.c    one value's syntax (addresses, hex, speeds, words)
 *   parse_header.c    the header line and its keys
 *   parse_function.c  one function line and the checks within it
 */
#include <stdlib.h>
#include <string.h>

#include "p2pdiag/format.h"
#include "topology/parse_lines.h"
#include "topology/parse_reader.h"
#include "topology/topology_parse.h"

static int by_addr(const void *x, const void *y)
{
	const struct parsed_fn *a = x, *b = y;

	if (a->f.addr != b->f.addr)
		return a->f.addr < b->f.addr ? -1 : 1;
	return a->line < b->line ? -1 : a->line > b->line;
}

static int by_addr_key(const void *key, const void *elem)
{
	unsigned long long addr = *(const unsigned long long *)key;
	const struct parsed_fn *e = elem;

	return addr < e->f.addr ? -1 : addr > e->f.addr;
}

/*
 * The parsed function at @addr, or NULL.  A file with no function lines
 * has no table at all, and bsearch() must not be given a NULL one.
 */
static struct parsed_fn *find_fn(const struct parser *p, unsigned long long addr)
{
	if (!p->nr)
		return NULL;
	return bsearch(&addr, p->fns, p->nr, sizeof(*p->fns), by_addr_key);
}

/* After sorting: unique addresses, one host bridge along each chain. */
static int check_tree(struct parser *p)
{
	unsigned int i;

	for (i = 1; i < p->nr; i++) {
		char a[P2PD_ADDR_STRLEN];
		struct p2pd_buf b;

		if (p->fns[i].f.addr != p->fns[i - 1].f.addr)
			continue;
		p2pd_buf_init(&b, a, sizeof(a));
		p2pd_put_addr(&b, p->fns[i].f.addr);
		p2pd_buf_terminate(&b);
		return parse_fail(p, p->fns[i].line,
				  "duplicate address %s (first on line %u)", a,
				  p->fns[i - 1].line);
	}
	for (i = 0; i < p->nr; i++) {
		const struct p2pd_function *f = &p->fns[i].f;
		const struct parsed_fn *parent;

		if (!f->has_parent)
			continue;
		parent = find_fn(p, f->parent);
		/* a parent missing from the file is the engine's "unknown" */
		if (parent && parent->f.host_bridge != f->host_bridge)
			return parse_fail(p, p->fns[i].line,
					  "host_bridge differs from its parent's (line %u)",
					  parent->line);
	}
	return 0;
}

/*
 * Mark the functions the header's root_bus_first= names: each must be in
 * the file, on a root bus, and the only one named for its root bus.
 */
static int mark_root_heads(struct parser *p, const struct topo_header *h)
{
	unsigned int i, j;

	for (i = 0; i < h->nr_root_heads; i++) {
		struct parsed_fn *head = find_fn(p, h->root_head[i]);
		char a[P2PD_ADDR_STRLEN];
		struct p2pd_buf b;

		p2pd_buf_init(&b, a, sizeof(a));
		p2pd_put_addr(&b, h->root_head[i]);
		p2pd_buf_terminate(&b);
		if (!head)
			return parse_fail(p, 1,
					  "root_bus_first= names %s, which has no line",
					  a);
		if (head->f.has_parent)
			return parse_fail(p, 1,
					  "root_bus_first= names %s, which is not on a root bus (line %u)",
					  a, head->line);
		for (j = 0; j < i; j++) {
			const struct parsed_fn *other = find_fn(p, h->root_head[j]);

			if (other->f.host_bridge == head->f.host_bridge)
				return parse_fail(p, 1,
						  "root_bus_first= names two functions of one root bus (%s and line %u)",
						  a, other->line);
		}
		head->f.root_bus_first = 1;
	}
	return 0;
}

/* The lines after the header, into p->fns; their count checked. */
static int read_functions(struct parser *p, const struct topo_header *h)
{
	char line[TOPO_MAX_LINE + 1];
	size_t n;
	int r;

	while ((r = parse_next_line(p, line, &n)) > 0) {
		if (!n || line[0] == '#')
			continue;	/* blank lines and comments */
		if (parse_function_line(p, line))
			return -1;
	}
	if (r < 0)
		return -1;
	if (p->nr != h->functions)
		return parse_fail(p, 1,
				  "header says functions=%u but %u function lines follow%s",
				  h->functions, p->nr,
				  p->nr < h->functions ? " (truncated?)" : "");
	return 0;
}

int topo_parse_ex(const char *text, size_t len, struct p2pd_model *m,
		  struct topo_header *hdr, char *err, size_t errlen)
{
	char line[TOPO_MAX_LINE + 1];
	struct parser p = {
		.text = text, .len = len, .err = err, .errlen = errlen,
	};
	struct topo_header h = { 0 };
	unsigned int cpu_flags = 0, i;
	size_t n;
	int r;

	memset(m, 0, sizeof(*m));
	if (err && errlen)
		err[0] = 0;
	if (!text && len)
		return parse_fail(&p, 0, "no text");

	r = parse_next_line(&p, line, &n);
	if (r <= 0)
		return r ? -1 : parse_fail(&p, 0,
					   "empty input: no topology header");
	if (parse_header(&p, line, &h, &cpu_flags))
		return -1;
	if (read_functions(&p, &h))
		goto fail_free;

	if (p.nr)
		qsort(p.fns, p.nr, sizeof(*p.fns), by_addr);
	if (check_tree(&p) || mark_root_heads(&p, &h))
		goto fail_free;

	if (p.nr) {
		m->fn = calloc(p.nr, sizeof(*m->fn));
		if (!m->fn) {
			parse_fail(&p, 0, "out of memory");
			goto fail_free;
		}
	}
	for (i = 0; i < p.nr; i++)
		m->fn[i] = p.fns[i].f;
	m->nr_fn = p.nr;
	m->cpu_flags = cpu_flags;
	m->kernel_release = h.kernel_release;
	m->generation = h.generation;
	free(p.fns);
	if (hdr)
		*hdr = h;
	return 0;

fail_free:
	free(p.fns);
	memset(m, 0, sizeof(*m));
	return -1;
}

int topo_parse(const char *text, size_t len, struct p2pd_model *m,
	       char *err, size_t errlen)
{
	return topo_parse_ex(text, len, m, NULL, err, errlen);
}

void p2pd_model_free(struct p2pd_model *m)
{
	if (!m)
		return;
	free(m->fn);
	memset(m, 0, sizeof(*m));
}
