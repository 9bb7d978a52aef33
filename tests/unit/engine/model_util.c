// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uapi/p2pdiag/abi.h"
#include "p2pdiag/format.h"
#include "model_util.h"

char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, r;

	if (!f)
		return NULL;
	do {
		if (n + 4096 + 1 > cap) {
			char *nb;

			cap = cap ? cap * 2 : 8192;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		r = fread(buf + n, 1, 4096, f);
		n += r;
	} while (r == 4096);
	if (ferror(f)) {
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	if (!buf)
		buf = calloc(1, 1);
	if (!buf)
		return NULL;
	buf[n] = 0;
	*len = n;
	return buf;
}

void addr_str(unsigned long long addr, char out[P2PD_ADDR_STRLEN])
{
	snprintf(out, P2PD_ADDR_STRLEN, "%04x:%02x:%02x.%x",
		 P2PD_ADDR_DOMAIN(addr), P2PD_ADDR_BUS(addr),
		 P2PD_ADDR_DEV(addr), P2PD_ADDR_FN(addr));
}

#define DIFF(field)							\
	do {								\
		if (a->field != b->field) {				\
			snprintf(why, whylen, "%s: %s %ld != %ld", at,	\
				 #field, (long)a->field, (long)b->field); \
			return -1;					\
		}							\
	} while (0)

static int fn_equal(const struct p2pd_function *a,
		    const struct p2pd_function *b, char *why, size_t whylen)
{
	char at[P2PD_ADDR_STRLEN];

	addr_str(a->addr, at);
	DIFF(addr);
	DIFF(has_parent);
	if (a->has_parent)
		DIFF(parent);
	DIFF(host_bridge);
	DIFF(numa_node);
	DIFF(vendor);
	DIFF(device);
	DIFF(class_code);
	DIFF(role);
	DIFF(acs);
	if (a->acs == P2PD_PRESENT) {
		DIFF(acs_cap);
		DIFF(acs_ctrl);
	}
	DIFF(ats);
	if (a->ats == P2PD_PRESENT) {
		DIFF(ats_enabled);
		if (a->ats_enabled)
			DIFF(ats_stu);
	}
	DIFF(link.state);
	if (a->link.state == P2PD_PRESENT) {
		DIFF(link.speed);
		DIFF(link.width);
		DIFF(link.max_speed);
		DIFF(link.max_width);
	}
	DIFF(iommu_group);
	DIFF(iommu_domain);
	DIFF(p2p_endpoint);
	DIFF(root_bus_first);
	DIFF(has_physfn);
	DIFF(physfn);
	return 0;
}

int model_equal(const struct p2pd_model *a, const struct p2pd_model *b,
		char *why, size_t whylen)
{
	const char *at = "model";
	unsigned int i;

	DIFF(nr_fn);
	DIFF(cpu_flags);
	DIFF(kernel_release);
	DIFF(generation);
	for (i = 0; i < a->nr_fn; i++)
		if (fn_equal(&a->fn[i], &b->fn[i], why, whylen))
			return -1;
	return 0;
}

char *format_topology(const struct p2pd_model *m)
{
	struct p2pd_buf b;
	char *s;

	p2pd_buf_init(&b, NULL, 0);
	p2pd_format_topology(&b, m);
	s = malloc(b.len + 1);
	if (!s)
		return NULL;
	p2pd_buf_init(&b, s, b.len + 1);
	p2pd_format_topology(&b, m);
	if (p2pd_buf_terminate(&b)) {
		free(s);
		return NULL;
	}
	return s;
}

void format_pair_line(const struct p2pd_model *m, const struct p2pd_pair *p,
		      char *out, size_t outlen)
{
	struct p2pd_buf b;

	p2pd_buf_init(&b, out, outlen);
	p2pd_format_pair(&b, m, p);
	p2pd_buf_terminate(&b);
	out[strcspn(out, "\n")] = 0;
}

unsigned int rnd(unsigned long long *s, unsigned int below)
{
	/* splitmix64 */
	unsigned long long z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return below ? (unsigned int)(z % below) : 0;
}

/* ---- random trees ------------------------------------------------------ */

struct gen {
	unsigned long long *rs;
	struct p2pd_function *fn;
	unsigned int nr, cap;
	unsigned int next_bus;
	unsigned int bus_limit;
	unsigned int domain;
	unsigned long long host_bridge;
	int numa;
};

static struct p2pd_function *new_fn(struct gen *g, unsigned int bus,
				    unsigned int dev, unsigned int fn,
				    int parent_idx, enum p2pd_role role)
{
	static const unsigned int ctrls[] = {
		0x0000, 0x001d, 0x005f, 0x0004, 0x0008, 0x0020, 0x0011,
		0x001f, 0x007f, 0x0040, 0x0001,
	};
	struct p2pd_function *f;
	unsigned int s;

	if (g->nr == g->cap) {
		g->cap = g->cap ? g->cap * 2 : 64;
		g->fn = realloc(g->fn, g->cap * sizeof(*g->fn));
		if (!g->fn)
			abort();
	}
	f = &g->fn[g->nr++];
	memset(f, 0, sizeof(*f));
	f->addr = P2PD_ADDR(g->domain, bus, dev, fn);
	f->has_parent = parent_idx >= 0;
	if (parent_idx >= 0)
		f->parent = g->fn[parent_idx].addr;
	f->host_bridge = g->host_bridge;
	f->numa_node = g->numa;
	f->vendor = 0x1000 + rnd(g->rs, 0x100);
	f->device = rnd(g->rs, 0x10000);
	f->class_code = 0x060400;
	f->role = role;
	s = rnd(g->rs, 40);
	f->acs = s < 16 ? P2PD_ABSENT : s == 16 ? P2PD_UNKNOWN : P2PD_PRESENT;
	if (f->acs == P2PD_PRESENT) {
		f->acs_cap = 0x005f;
		f->acs_ctrl = ctrls[rnd(g->rs, sizeof(ctrls) / sizeof(ctrls[0]))];
	}
	s = rnd(g->rs, 4);
	f->ats = s == 0 ? P2PD_PRESENT : s == 1 && !rnd(g->rs, 8) ?
		 P2PD_UNKNOWN : P2PD_ABSENT;
	if (f->ats == P2PD_PRESENT) {
		f->ats_enabled = (int)rnd(g->rs, 2);
		f->ats_stu = f->ats_enabled ? rnd(g->rs, 32) : 0;
	}
	s = rnd(g->rs, 10);
	f->link.state = s == 0 ? P2PD_ABSENT : s == 1 ? P2PD_UNKNOWN :
			P2PD_PRESENT;
	if (f->link.state == P2PD_PRESENT) {
		static const unsigned int speeds[] = { 25, 50, 80, 160, 320, 640 };
		static const unsigned int widths[] = { 1, 2, 4, 8, 16 };

		f->link.max_speed = speeds[rnd(g->rs, 6)];
		f->link.max_width = widths[rnd(g->rs, 5)];
		f->link.speed = rnd(g->rs, 3) ? f->link.max_speed : 25;
		f->link.width = rnd(g->rs, 4) ? f->link.max_width : 1;
		/* a reserved speed code (QEMU's xio3130 advertises one) */
		if (!rnd(g->rs, 20))
			f->link.max_speed = 0;
	}
	f->iommu_group = (int)rnd(g->rs, 50) - 1;
	f->iommu_domain = (enum p2pd_iommu_domain)rnd(g->rs, P2PD_IOMMU_COUNT);
	f->pri = f->pasid = P2PD_ABSENT;
	return f;
}

static void add_endpoints(struct gen *g, unsigned int bus, unsigned int dev,
			  int parent)
{
	static const struct {
		unsigned int vendor, class_code;
	} kinds[] = {
		{ 0x10de, 0x030200 }, { 0x10de, 0x030000 },
		{ 0x15b3, 0x020700 }, { 0x15b3, 0x020000 },
		{ 0x144d, 0x010802 }, { 0x1002, 0x038000 },
	};
	unsigned int nfn = rnd(g->rs, 4) ? 1 : 2 + rnd(g->rs, 2), i;

	for (i = 0; i < nfn; i++) {
		struct p2pd_function *f =
			new_fn(g, bus, dev, i, parent, P2PD_ROLE_ENDPOINT);
		unsigned int k = rnd(g->rs, 6);

		f->vendor = kinds[k].vendor;
		f->class_code = kinds[k].class_code;
		f->p2p_endpoint = 1;
		if (!rnd(g->rs, 10))
			f->p2p_endpoint = 0;	/* e.g. an audio function */
	}
}

/* A switch below port @parent: an upstream port and 1-3 downstream ports. */
static void add_below(struct gen *g, int parent, int depth);

static void add_switch(struct gen *g, unsigned int bus, int parent, int depth)
{
	unsigned int inner, ndsp = 1 + rnd(g->rs, 3), i;
	int usp;

	new_fn(g, bus, 0, 0, parent, P2PD_ROLE_UPSTREAM_PORT);
	usp = (int)g->nr - 1;
	if (g->next_bus >= g->bus_limit)
		return;
	inner = g->next_bus++;
	for (i = 0; i < ndsp; i++) {
		new_fn(g, inner, i + 1, 0, usp, P2PD_ROLE_DOWNSTREAM_PORT);
		add_below(g, (int)g->nr - 1, depth + 1);
	}
}

static void add_below(struct gen *g, int parent, int depth)
{
	unsigned int bus, what = rnd(g->rs, 6);

	if (g->next_bus >= g->bus_limit)
		return;
	bus = g->next_bus++;
	if (what == 0)
		return;		/* an empty slot */
	if (what <= 2 && depth < 3)
		add_switch(g, bus, parent, depth);
	else if (what == 3 && depth < 2) {
		/* a conventional PCI bridge with a device behind it */
		unsigned int inner;
		int br;

		new_fn(g, bus, 0, 0, parent, P2PD_ROLE_PCIE_TO_PCI_BRIDGE);
		br = (int)g->nr - 1;
		if (g->next_bus < g->bus_limit) {
			inner = g->next_bus++;
			add_endpoints(g, inner, 0, br);
			g->fn[g->nr - 1].role = P2PD_ROLE_PCI_DEVICE;
		}
	} else {
		add_endpoints(g, bus, 0, parent);
	}
}

static const struct {
	unsigned int vendor, device;
} host_ids[] = {
	{ 0x8086, 0x2020 }, { 0x8086, 0x2030 }, { 0x8086, 0x3c00 },
	{ 0x8086, 0x2f01 }, { 0x8086, 0x09a2 }, { 0x8086, 0x29c0 },
	{ 0x8086, 0x1237 }, { 0x1022, 0x1480 }, { 0x1022, 0x1450 },
	{ 0x1022, 0x14a4 }, { 0x8086, 0x3c01 }, { 0x8086, 0x2033 },
	/* listed from 7.1 (and 7.1.3) to 7.4 */
	{ 0x8086, 0x0b25 }, { 0x8086, 0x4948 }, { 0x1ae0, 0x0042 },
	{ 0x10de, 0x2f95 }, { 0x1d17, 0x1003 }, { 0x1d17, 0x1008 },
	{ 0x8086, 0x0c08 }, { 0x8086, 0x6f00 },
};

static void add_root_bus(struct gen *g, unsigned int bus)
{
	unsigned int nrp = 1 + rnd(g->rs, 3), i, first = rnd(g->rs, 4);
	unsigned int k = rnd(g->rs, sizeof(host_ids) / sizeof(host_ids[0]));
	struct p2pd_function *f;

	g->host_bridge = P2PD_HOST_BRIDGE(g->domain, bus);
	g->next_bus = bus + 1;
	g->bus_limit = bus + 0x3f;
	if (first == 0) {
		/* a host bridge device at 00.0 */
		f = new_fn(g, bus, 0, 0, -1, P2PD_ROLE_PCI_DEVICE);
		f->class_code = 0x060000;
		f->vendor = host_ids[k].vendor;
		f->device = host_ids[k].device;
	} else if (first == 1) {
		/*
		 * an endpoint first (a VM's flat root bus), at 00.0 or at
		 * 02.0: then the root bus has no function the kernel's
		 * pci_host_bridge_dev() would take
		 */
		add_endpoints(g, bus, rnd(g->rs, 2) ? 0 : 2, -1);
		for (i = 0; i < g->nr; i++)
			if (g->fn[i].host_bridge == g->host_bridge &&
			    !g->fn[i].has_parent)
				g->fn[i].role = P2PD_ROLE_RC_ENDPOINT;
		/* more endpoints at other slots of the root bus */
		if (rnd(g->rs, 2)) {
			f = new_fn(g, bus, 3, 0, -1, P2PD_ROLE_RC_ENDPOINT);
			f->vendor = 0x10de;
			f->class_code = 0x030200;
			f->p2p_endpoint = 1;
		}
	}
	/* root ports from 01.0 (or 00.0 when first == 2: Skylake style) */
	for (i = 0; i < nrp; i++) {
		unsigned int dev = (first == 2 ? 0 : 4) + i;

		f = new_fn(g, bus, dev, 0, -1, P2PD_ROLE_ROOT_PORT);
		if (i == 0 && first >= 2) {
			f->vendor = host_ids[k].vendor;
			f->device = host_ids[k].device;
		}
		add_below(g, (int)g->nr - 1, 0);
	}
	/*
	 * Now and then the function heading the bus's device list is not
	 * the lowest address (one hot-added back after a removal goes to
	 * the list's tail): mark another root-bus function as the head.
	 */
	if (!rnd(g->rs, 4)) {
		unsigned int on_bus[64], n = 0;

		for (i = 0; i < g->nr && n < 64; i++)
			if (g->fn[i].host_bridge == g->host_bridge &&
			    !g->fn[i].has_parent)
				on_bus[n++] = i;
		if (n)
			g->fn[on_bus[rnd(g->rs, n)]].root_bus_first = 1;
	}
}

static int cmp_addr(const void *x, const void *y)
{
	const struct p2pd_function *a = x, *b = y;

	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

void random_model(unsigned long long *rs, struct p2pd_model *m, int cut)
{
	struct gen g = { .rs = rs };
	unsigned int nhb = 1 + rnd(rs, 3), i;
	static const unsigned int cpus[] = {
		0, P2PD_CPU_AMD, P2PD_CPU_AMD | P2PD_CPU_ROUTES_P2P,
	};
	/* each regime of the host-bridge rules, and one older than 5.10 */
	static const unsigned int releases[] = {
		0, P2PD_RELEASE(4, 19, 0), P2PD_RELEASE(5, 10, 223),
		P2PD_RELEASE(5, 15, 167), P2PD_RELEASE(5, 18, 0),
		P2PD_RELEASE(6, 1, 158), P2PD_RELEASE(6, 12, 95),
		P2PD_RELEASE(7, 1, 0), P2PD_RELEASE(7, 1, 3),
		P2PD_RELEASE(7, 2, 3), P2PD_RELEASE(7, 3, 1),
		P2PD_RELEASE(7, 4, 0),
	};

	memset(m, 0, sizeof(*m));
	for (i = 0; i < nhb; i++) {
		g.domain = i == 2 && rnd(rs, 2) ? 1 : 0;
		g.numa = (int)rnd(rs, 2) - (rnd(rs, 8) ? 0 : 1);
		add_root_bus(&g, i == 2 && g.domain ? 0 : i * 0x40);
	}
	if (cut && g.nr > 2) {
		/* drop one bridge that something hangs under */
		for (i = rnd(rs, g.nr); i < g.nr; i++) {
			unsigned int j;
			int used = 0;

			for (j = 0; j < g.nr; j++)
				used |= g.fn[j].has_parent &&
					g.fn[j].parent == g.fn[i].addr;
			if (used) {
				memmove(&g.fn[i], &g.fn[i + 1],
					(g.nr - i - 1) * sizeof(*g.fn));
				g.nr--;
				break;
			}
		}
	}
	qsort(g.fn, g.nr, sizeof(*g.fn), cmp_addr);
	m->fn = g.fn;
	m->nr_fn = g.nr;
	m->cpu_flags = cpus[rnd(rs, 3)];
	m->kernel_release =
		releases[rnd(rs, sizeof(releases) / sizeof(releases[0]))];
	m->generation = rnd(rs, 1000);
}
