// SPDX-License-Identifier: GPL-2.0
/*
 * lspci -vvv as the engine's model.  Where the pasted functions form a
 * tree (every P2P endpoint's bridges pasted up to a function that sits
 * on a root bus), they are the same facts an lspci -xxxx dump gives the
 * engine: addresses, the bridges' secondary buses, the Express port
 * types, ACS capability and control, the links, ATS.  So the engine
 * judges them as it judges a dump, the same verdicts and findings, and
 * the evidence keeps no rules of its own for them.
 *
 * What lspci -vvv leaves unsaid stays unknown to the engine: a function
 * whose block was cut before its extended capabilities, or that lspci
 * could not read (without root: "<access denied>"), has its ACS unknown,
 * never absent; a link without its LnkSta line is unknown.  A block is
 * whole when the next function's header or lspci's driver lines end it.
 */
#include <stdlib.h>
#include <string.h>

#include "evidence/evidence.h"
#include "p2pdiag/decode.h"
#include "p2pdiag/verdict.h"
#include "topology/source_pci.h"

/* The pasted bridge whose secondary bus is @d's: its parent, or -1. */
static int parent_of(const struct evidence *ev, const struct ev_pci_dev *d)
{
	unsigned int i;

	for (i = 0; i < ev->nr_pci; i++) {
		const struct ev_pci_dev *b = &ev->pci[i];

		if (b != d && !b->anonymous && b->bridge && b->has_bus_range &&
		    b->domain == d->domain && b->secondary == d->bus && b->bus < d->bus)
			return (int)i;
	}
	return -1;
}

static enum p2pd_role role_of(const struct ev_pci_dev *d)
{
	unsigned int header = d->has_bus_range ? 1 : 0;

	if ((d->class_code >> 8) == 0x0607)
		header = 2;
	return p2pd_decode_role(d->pcie, d->pcie_type, header);
}

/* Whether a function without a pasted parent can sit on a root bus. */
static bool on_root_bus(const struct ev_pci_dev *d)
{
	switch (role_of(d)) {
	case P2PD_ROLE_ROOT_PORT:
	case P2PD_ROLE_RC_ENDPOINT:
	case P2PD_ROLE_RC_EVENT_COLLECTOR:
	case P2PD_ROLE_PCI_DEVICE:
	case P2PD_ROLE_PCI_BRIDGE:
		return true;
	default:
		return false;
	}
}

static bool endpoint_of_pairs(const struct ev_pci_dev *d)
{
	return !d->anonymous && d->class_known &&
	       p2pd_is_p2p_endpoint(role_of(d), d->class_code, 0);
}

/*
 * Whether @d's chain of pasted parents ends on a root bus, through
 * functions whose kind is shown (an Express port type, or a
 * conventional bridge's bus range); an endpoint must show its own
 * Express capability or that it has none ("Status: Cap-"), or a block
 * cut before it would put it on a root bus of its own.
 */
static bool rooted(const struct evidence *ev, const struct ev_pci_dev *d)
{
	const struct ev_pci_dev *f = d;
	unsigned int steps = 0;

	if (d->anonymous || (endpoint_of_pairs(d) && !d->pcie && !d->no_caps))
		return false;
	while (steps++ < P2PD_MAX_DEPTH) {
		int up = parent_of(ev, f);

		if (!f->class_known || (f != d && !f->pcie && !f->has_bus_range))
			return false;
		if (up < 0)
			return on_root_bus(f);
		f = &ev->pci[up];
	}
	return false;
}

/*
 * Whether every P2P endpoint's chain reaches a root bus within the paste
 * (rooted()), with two endpoints or more and no address pasted twice.
 */
static bool forms_tree(const struct evidence *ev)
{
	unsigned int i, k, endpoints = 0;

	for (i = 0; i < ev->nr_pci; i++) {
		const struct ev_pci_dev *d = &ev->pci[i];

		if (d->anonymous)
			continue;
		for (k = 0; k < i; k++)
			if (!ev->pci[k].anonymous && ev->pci[k].domain == d->domain &&
			    ev->pci[k].bus == d->bus && ev->pci[k].dev == d->dev &&
			    ev->pci[k].fn == d->fn)
				return false;
		if (!endpoint_of_pairs(d))
			continue;
		if (!rooted(ev, d))
			return false;
		endpoints++;
	}
	return endpoints >= 2;
}

static void fill_function(const struct evidence *ev, const struct ev_pci_dev *d,
			  struct p2pd_function *f)
{
	int up = parent_of(ev, d);

	memset(f, 0, sizeof(*f));
	f->addr = P2PD_ADDR(d->domain, d->bus, d->dev, d->fn);
	if (up >= 0) {
		const struct ev_pci_dev *p = &ev->pci[up];

		f->has_parent = 1;
		f->parent = P2PD_ADDR(p->domain, p->bus, p->dev, p->fn);
	}
	f->numa_node = d->numa_node;
	f->vendor = d->vendor ? d->vendor : d->nvidia ? 0x10de : 0;
	f->device = d->device;
	f->class_code = d->class_code;
	f->role = role_of(d);
	f->iommu_group = d->iommu_group;
	f->iommu_domain = d->iommu_group >= 0 ? P2PD_IOMMU_UNKNOWN : P2PD_IOMMU_NONE;
	f->ats = f->pri = f->pasid = P2PD_ABSENT;
	if (d->acs_ctl_seen) {
		f->acs = P2PD_PRESENT;
		f->acs_cap = d->acs_cap_bits;
		f->acs_ctrl = d->acs_ctl_bits;
	} else {
		f->acs = (d->ext_caps_seen || d->whole) && !d->access_denied ?
			 P2PD_ABSENT : P2PD_UNKNOWN;
	}
	if (d->ats_seen) {
		f->ats = P2PD_PRESENT;
		f->ats_enabled = d->ats_enabled;
	}
	if (!p2pd_role_has_link(d->pcie, f->role)) {
		f->link.state = P2PD_ABSENT;
	} else if (d->lnk_ref.line && d->sta_speed10 && d->sta_width) {
		f->link.state = P2PD_PRESENT;
		f->link.speed = d->sta_speed10;
		f->link.width = d->sta_width;
		f->link.max_speed = d->cap_speed10;
		f->link.max_width = d->cap_width;
	} else {
		f->link.state = P2PD_UNKNOWN;
	}
	f->p2p_endpoint = p2pd_is_p2p_endpoint(f->role, f->class_code, 0);
}

static int by_addr(const void *x, const void *y)
{
	const struct p2pd_function *a = x, *b = y;

	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* The pasted functions the engine's model holds: the engine judges them. */
static void mark_modelled(struct evidence *ev)
{
	unsigned int i;

	for (i = 0; i < ev->nr_pci; i++) {
		const struct ev_pci_dev *d = &ev->pci[i];

		ev->pci[i].modelled = !d->anonymous &&
			p2pd_model_find(&ev->dump, P2PD_ADDR(d->domain, d->bus, d->dev,
							     d->fn)) != P2PD_NO_INDEX;
	}
}

bool ev_lspci_model(struct evidence *ev)
{
	struct p2pd_model *m = &ev->dump;
	unsigned int i, n = 0;
	bool first = true;

	if (ev->have_dump) {
		mark_modelled(ev);	/* an lspci -xxxx dump holds them */
		return false;
	}
	if (!forms_tree(ev))
		return false;
	memset(m, 0, sizeof(*m));
	m->cpu_flags = ev->cpu_flags;
	m->fn = calloc(ev->nr_pci, sizeof(*m->fn));
	if (!m->fn)
		return false;
	for (i = 0; i < ev->nr_pci; i++) {
		if (!rooted(ev, &ev->pci[i]))
			continue;	/* a fragment outside the tree */
		fill_function(ev, &ev->pci[i], &m->fn[n++]);
		if (first) {
			ev->dump_ref = ev->pci[i].ref;
			first = false;
		}
	}
	m->nr_fn = n;
	qsort(m->fn, n, sizeof(*m->fn), by_addr);
	pci_model_host_bridges(m);
	ev->have_dump = true;
	ev->dump_from_verbose = true;
	mark_modelled(ev);
	return true;
}
