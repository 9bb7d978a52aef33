// SPDX-License-Identifier: GPL-2.0
/*
 * A fabric of endpoints that share no group (fabric_model.h).  Per
 * domain, switch k's root port is 00:(1 + k / 8).(k % 8), its upstream
 * port on bus 1 + 34k, its downstream ports on the next bus, and the
 * drive of port d on the bus after that plus d.
 */
#include <stdlib.h>
#include <string.h>

#include "uapi/p2pdiag/abi.h"
#include "p2pdiag/groups.h"
#include "fabric_model.h"

#define VENDOR_AMD	0x1022
#define VENDOR_BROADCOM	0x1000
#define VENDOR_SAMSUNG	0x144d
/* a switch takes its upstream bus, its port bus and a bus a drive */
#define BUSES_PER_SWITCH (2 + FABRIC_PORTS_PER_SWITCH)
#define SWITCHES_PER_DOMAIN (255 / BUSES_PER_SWITCH)
#define REDIRECT	(P2PD_ACS_SV | P2PD_ACS_RR | P2PD_ACS_CR | P2PD_ACS_UF)

static struct p2pd_function *add(struct p2pd_model *m, unsigned long long addr,
				 enum p2pd_role role, unsigned long long parent)
{
	struct p2pd_function *f = &m->fn[m->nr_fn++];

	memset(f, 0, sizeof(*f));
	f->addr = addr;
	f->role = role;
	f->has_parent = role != P2PD_ROLE_ROOT_PORT && role != P2PD_ROLE_PCI_DEVICE;
	f->parent = f->has_parent ? parent : 0;
	f->host_bridge = P2PD_HOST_BRIDGE(P2PD_ADDR_DOMAIN(addr), 0);
	f->numa_node = 0;
	f->iommu_group = (int)m->nr_fn;
	f->iommu_domain = P2PD_IOMMU_IDENTITY;
	f->acs = P2PD_ABSENT;
	f->ats = P2PD_ABSENT;
	f->pri = P2PD_ABSENT;
	f->pasid = P2PD_ABSENT;
	if (role != P2PD_ROLE_PCI_DEVICE) {
		f->link.state = P2PD_PRESENT;
		f->link.speed = f->link.max_speed = 160;
		f->link.width = f->link.max_width = role == P2PD_ROLE_ENDPOINT ? 4 : 16;
	}
	return f;
}

static void port(struct p2pd_function *f, unsigned int device, int redirect)
{
	f->vendor = f->role == P2PD_ROLE_ROOT_PORT ? VENDOR_AMD : VENDOR_BROADCOM;
	f->device = device;
	f->class_code = 0x060400;
	if (f->role == P2PD_ROLE_UPSTREAM_PORT)
		return;
	f->acs = P2PD_PRESENT;
	f->acs_cap = 0x005f;
	f->acs_ctrl = redirect ? REDIRECT : 0;
}

static int cmp_addr(const void *x, const void *y)
{
	const struct p2pd_function *a = x, *b = y;

	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

int fabric_model(struct p2pd_model *m, unsigned int n, int redirect)
{
	unsigned int done = 0, sw;

	if (n > FABRIC_ENDPOINTS_MAX)
		return -1;
	memset(m, 0, sizeof(*m));
	/* per switch: root port, upstream port, downstream ports, drives; per domain a host bridge */
	m->fn = calloc((size_t)n * 2 + (n / FABRIC_PORTS_PER_SWITCH + 1) * 2 +
		      n / (FABRIC_PORTS_PER_SWITCH * SWITCHES_PER_DOMAIN) + 1, sizeof(*m->fn));
	if (!m->fn)
		return -1;
	m->cpu_flags = P2PD_CPU_AMD | P2PD_CPU_ROUTES_P2P;
	m->generation = 1;
	for (sw = 0; done < n; sw++) {
		unsigned int dom = sw / SWITCHES_PER_DOMAIN, k = sw % SWITCHES_PER_DOMAIN;
		unsigned int bus = 1 + k * BUSES_PER_SWITCH, d;
		unsigned long long rp = P2PD_ADDR(dom, 0, 1 + k / 8, k % 8);
		unsigned long long up = P2PD_ADDR(dom, bus, 0, 0);

		if (!k) {
			struct p2pd_function *hb = add(m, P2PD_ADDR(dom, 0, 0, 0),
						       P2PD_ROLE_PCI_DEVICE, 0);

			hb->vendor = VENDOR_AMD;
			hb->device = 0x1480;
			hb->class_code = 0x060000;
			hb->root_bus_first = 1;
		}
		port(add(m, rp, P2PD_ROLE_ROOT_PORT, 0), 0x1483, 0);
		port(add(m, up, P2PD_ROLE_UPSTREAM_PORT, rp), 0xc030, 0);
		for (d = 0; d < FABRIC_PORTS_PER_SWITCH && done < n; d++, done++) {
			unsigned long long dp = P2PD_ADDR(dom, bus + 1, d, 0);
			struct p2pd_function *e;

			port(add(m, dp, P2PD_ROLE_DOWNSTREAM_PORT, up), 0xc030,
			     redirect && sw == 0);
			e = add(m, P2PD_ADDR(dom, bus + 2 + d, 0, 0),
				P2PD_ROLE_ENDPOINT, dp);
			e->vendor = VENDOR_SAMSUNG;
			e->device = 0xa824;
			e->class_code = 0x010802;
			e->p2p_endpoint = 1;
		}
	}
	qsort(m->fn, m->nr_fn, sizeof(*m->fn), cmp_addr);
	/* IOMMU groups as the kernel forms them from this ACS */
	for (sw = 0; sw < m->nr_fn; sw++)
		m->fn[sw].iommu_group = p2pd_group_anchor(m, (int)sw, NULL);
	return 0;
}
