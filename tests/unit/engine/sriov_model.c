// SPDX-License-Identifier: GPL-2.0
/*
 * Synthetic SR-IOV servers (sriov_model.h).  Bus numbers: root port k of
 * a switch leads to bus 1 + 10k (the upstream port), its downstream ports
 * sit on the next bus, and NIC d of the switch on the bus after that plus
 * d; NICs on their own root ports and on the root bus come after.
 */
#include <stdlib.h>
#include <string.h>

#include "uapi/p2pdiag/abi.h"
#include "p2pdiag/groups.h"
#include "sriov_model.h"

#define VENDOR_INTEL	0x8086
#define VENDOR_MELLANOX	0x15b3
#define VENDOR_NVIDIA	0x10de
#define REDIRECT	(P2PD_ACS_SV | P2PD_ACS_RR | P2PD_ACS_CR | P2PD_ACS_UF)
#define ACS_CAP_ALL	0x005f

struct builder {
	struct p2pd_model *m;
	unsigned int cap;
};

static struct p2pd_function *add(struct builder *b, unsigned long long addr,
				 enum p2pd_role role, int has_parent,
				 unsigned long long parent)
{
	struct p2pd_function *f;

	if (b->m->nr_fn == b->cap)
		return NULL;
	f = &b->m->fn[b->m->nr_fn++];
	memset(f, 0, sizeof(*f));
	f->addr = addr;
	f->role = role;
	f->has_parent = has_parent;
	f->parent = parent;
	f->host_bridge = P2PD_HOST_BRIDGE(0, 0);
	f->numa_node = 0;
	f->iommu_group = (int)b->m->nr_fn;
	f->iommu_domain = P2PD_IOMMU_TRANSLATED;
	f->acs = P2PD_ABSENT;
	f->ats = P2PD_ABSENT;
	f->pri = P2PD_ABSENT;
	f->pasid = P2PD_ABSENT;
	return f;
}

static void set_link(struct p2pd_function *f, unsigned int speed,
		     unsigned int width)
{
	f->link.state = P2PD_PRESENT;
	f->link.speed = f->link.max_speed = speed;
	f->link.width = f->link.max_width = width;
}

static void set_acs(struct p2pd_function *f, int redirect)
{
	f->acs = P2PD_PRESENT;
	f->acs_cap = ACS_CAP_ALL;
	f->acs_ctrl = redirect ? REDIRECT : 0;
}

static struct p2pd_function *bridge(struct builder *b, unsigned long long addr,
				    enum p2pd_role role, int has_parent,
				    unsigned long long parent, int redirect)
{
	struct p2pd_function *f = add(b, addr, role, has_parent, parent);

	if (!f)
		return NULL;
	f->vendor = VENDOR_INTEL;
	f->device = 0x2030;
	f->class_code = 0x060400;
	set_link(f, 160, 16);
	if (role != P2PD_ROLE_UPSTREAM_PORT)
		set_acs(f, redirect);
	return f;
}

/* One function of a NIC: the PF's values; VFs change what differs. */
static struct p2pd_function *nic_function(struct builder *b, unsigned long long addr,
					  unsigned int device, int has_parent,
					  unsigned long long parent)
{
	struct p2pd_function *f = add(b, addr, P2PD_ROLE_ENDPOINT, has_parent,
				      parent);

	if (!f)
		return NULL;
	f->vendor = VENDOR_MELLANOX;
	f->device = device;
	f->class_code = 0x020000;
	f->p2p_endpoint = 1;
	f->ats = P2PD_PRESENT;
	f->ats_enabled = 1;
	return f;
}

/* A PF at @pf and its VFs at @pf + 1 + i, all below @parent. */
static int nic(struct builder *b, const struct sriov_spec *s, unsigned long long pf,
	       int has_parent, unsigned long long parent)
{
	struct p2pd_function *f = nic_function(b, pf, SRIOV_MODEL_PF_DEVICE,
					       has_parent, parent);
	unsigned int i;

	if (!f)
		return -1;
	set_link(f, 160, 16);
	for (i = 0; i < s->vfs; i++) {
		struct p2pd_function *v = nic_function(b, pf + 1 + i,
						       SRIOV_MODEL_VF_DEVICE,
						       has_parent, parent);

		if (!v)
			return -1;
		v->ats_enabled = !(s->vf_variety && i % 3 == 2);
		if (s->vf_link)
			v->link = f->link;
		/* an ACS capability in every VF, redirecting in some */
		if (s->vf_variety)
			set_acs(v, i % 5 == 4);
	}
	return 0;
}

static int gpu(struct builder *b, unsigned long long addr, unsigned long long parent)
{
	struct p2pd_function *f = add(b, addr, P2PD_ROLE_ENDPOINT, 1, parent);

	if (!f)
		return -1;
	f->vendor = VENDOR_NVIDIA;
	f->device = 0x2335;
	f->class_code = 0x030200;
	f->p2p_endpoint = 1;
	set_link(f, 160, 16);
	return 0;
}

static int cmp_addr(const void *x, const void *y)
{
	const struct p2pd_function *a = x, *b = y;

	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

static int build(struct builder *b, const struct sriov_spec *s)
{
	unsigned int sw, d, k, bus = 1;
	struct p2pd_function *hb = add(b, P2PD_ADDR(0, 0, 0, 0),
				       P2PD_ROLE_PCI_DEVICE, 0, 0);

	if (!hb)
		return -1;
	hb->vendor = VENDOR_INTEL;
	hb->device = 0x2020;		/* Skylake-E: on the kernel's list */
	hb->class_code = 0x060000;
	for (sw = 0; sw < s->switches; sw++, bus += 10) {
		unsigned int rp = P2PD_ADDR(0, 0, 1 + sw, 0);
		unsigned long long up = P2PD_ADDR(0, bus, 0, 0);

		if (!bridge(b, rp, P2PD_ROLE_ROOT_PORT, 0, 0, s->root_redirect) ||
		    !bridge(b, up, P2PD_ROLE_UPSTREAM_PORT, 1, rp, 0))
			return -1;
		for (d = 0; d < s->nics + s->gpus; d++) {
			unsigned int dp = P2PD_ADDR(0, bus + 1, d, 0);
			unsigned int dev = P2PD_ADDR(0, bus + 2 + d, 0, 0);

			if (!bridge(b, dp, P2PD_ROLE_DOWNSTREAM_PORT, 1, up,
				    s->switch_redirect))
				return -1;
			if (d < s->nics ? nic(b, s, dev, 1, dp) : gpu(b, dev, dp))
				return -1;
		}
	}
	for (k = 0; k < s->direct_nics; k++, bus++) {
		unsigned int rp = P2PD_ADDR(0, 0, 1 + s->switches + k, 0);

		if (!bridge(b, rp, P2PD_ROLE_ROOT_PORT, 0, 0, s->root_redirect) ||
		    nic(b, s, P2PD_ADDR(0, bus, 0, 0), 1, rp))
			return -1;
	}
	/* on the root bus: a device number each, VFs in the functions above */
	for (k = 0; k < s->root_bus_nics; k++)
		if (nic(b, s, P2PD_ADDR(0, 0, 0x18 + 8 * k, 0), 0, 0))
			return -1;
	return 0;
}

int sriov_model(const struct sriov_spec *s, struct p2pd_model *m)
{
	struct builder b = { .m = m };
	unsigned int per_nic = 1 + s->vfs, i;

	memset(m, 0, sizeof(*m));
	if (s->switches > 25 || s->nics + s->gpus > 8 || s->vfs > 255 ||
	    (s->root_bus_nics && (s->root_bus_nics > 1 || s->vfs > 63)) ||
	    s->switches + s->direct_nics > 0x17)
		return -1;
	b.cap = 1 + s->switches * (2 + (s->nics + s->gpus) * (1 + per_nic)) +
		s->direct_nics * (1 + per_nic) + s->root_bus_nics * per_nic;
	m->fn = calloc(b.cap, sizeof(*m->fn));
	if (!m->fn)
		return -1;
	m->cpu_flags = s->cpu_flags;
	m->generation = 1;
	if (build(&b, s)) {
		free(m->fn);
		memset(m, 0, sizeof(*m));
		return -1;
	}
	qsort(m->fn, m->nr_fn, sizeof(*m->fn), cmp_addr);
	for (i = 1; i < m->nr_fn; i++) {
		if (m->fn[i - 1].addr == m->fn[i].addr) {
			free(m->fn);
			memset(m, 0, sizeof(*m));
			return -1;
		}
	}
	/* IOMMU groups as the kernel forms them from this ACS: by the anchor */
	for (i = 0; i < m->nr_fn; i++)
		m->fn[i].iommu_group = p2pd_group_anchor(m, (int)i, NULL);
	return 0;
}
