// SPDX-License-Identifier: GPL-2.0
/*
 * Every function's files, read for all of them rather than for the
 * judged pairs: which functions count is the judge's choice, made on
 * what is read here.
 */
#include <stdlib.h>

#include "platform/fsroot.h"
#include "p2pdiag/decode.h"
#include "system/atomics.h"
#include "system/dma_mask.h"
#include "system/gpudirect_routes.h"
#include "system/function_facts.h"
#include "system/virt.h"
#include "topology/pciaddr.h"

static void read_bars(const struct fsroot *root, struct fsroot_refusal *refused,
		      unsigned long long addr, struct function_facts *f)
{
	char a[P2PD_ADDR_STRLEN];
	int i;

	f->nr_bars = bars_read(root, refused, addr, f->bar);
	pciaddr_format(a, addr);
	for (i = 0; i < f->nr_bars && i < BARS_MAX; i++)
		if (bar_is_memory(&f->bar[i]) && !bar_unassigned(&f->bar[i]))
			f->resize[i] = bar_resize_sizes(root, refused, a, i);
}

/* What holds the link above @idx below the speed both its ends support. */
static void read_link_cap(const struct fsroot *root,
			  struct fsroot_refusal *refused,
			  const struct p2pd_model *m, int idx,
			  struct function_facts *f)
{
	const struct p2pd_function *fn = &m->fn[idx];
	struct p2pd_link l;
	int up;

	if (!fn->has_parent || !p2pd_link_above(m, idx, &l) || !l.speed ||
	    !l.width || !l.max_speed || fn->link.speed >= l.max_speed)
		return;
	up = p2pd_model_find(m, fn->parent);
	if (up == P2PD_NO_INDEX)
		return;
	f->link_capped = link_cap_read(root, refused, m->fn[up].addr, fn->addr,
				       l.max_speed, &f->link_cap);
}

/* What GPUDirect's route judges compare of the ends of a GPU-NIC or GPU-NVMe pair. */
static void read_gpudirect(const struct fsroot *root, const struct p2pd_function *fn,
			   struct function_facts *f)
{
	enum p2pd_kind kind = p2pd_device_kind(fn->class_code);
	char a[P2PD_ADDR_STRLEN];

	pciaddr_format(a, fn->addr);
	if (kind == P2PD_KIND_NIC || kind == P2PD_KIND_NVME) {
		gd_read_driver(root, a, f->driver, sizeof(f->driver));
		f->present = gd_device_present(root, a);
	}
	if (kind == P2PD_KIND_NIC)
		gdr_find_rdma(root, a, f->rdma, sizeof(f->rdma));
	if (kind == P2PD_KIND_NVME || p2pd_is_nvidia_gpu(fn))
		f->iommu_translated = gds_iommu_translated(root, fn, f->iommu_mode,
							   sizeof(f->iommu_mode));
}

struct function_facts *function_facts_read(const struct fsroot *root,
					   struct fsroot_refusal *refused,
					   const struct p2pd_model *m, bool guest)
{
	struct function_facts *facts;
	unsigned int i;

	if (!m || !m->nr_fn)
		return NULL;
	facts = calloc(m->nr_fn, sizeof(*facts));
	if (!facts)
		return NULL;
	for (i = 0; i < m->nr_fn; i++) {
		const struct p2pd_function *fn = &m->fn[i];
		struct function_facts *f = &facts[i];

		read_bars(root, refused, fn->addr, f);
		f->dma_mask_bits = dma_mask_bits_read(root, refused, fn->addr);
		f->have_devcap2 = atomics_devcap2_read(root, refused, fn->addr, &f->devcap2);
		/* Device Capabilities 2 once: Device Control 2 is the other word */
		f->have_atomics_regs = f->have_devcap2 &&
			atomics_devctl2_read(root, refused, fn->addr, &f->atomics_ctl);
		read_link_cap(root, refused, m, (int)i, f);
		f->clique = guest && p2pd_is_nvidia_gpu(fn) ?
			    virt_gpu_clique(root, refused, fn->addr) : -1;
		read_gpudirect(root, fn, f);
	}
	/* the windows of each function with one below it, for the BARs there */
	for (i = 0; i < m->nr_fn; i++) {
		int up = m->fn[i].has_parent ? p2pd_model_find(m, m->fn[i].parent) :
					      P2PD_NO_INDEX;
		struct function_facts *b;

		if (up == P2PD_NO_INDEX || facts[up].windows_read)
			continue;
		b = &facts[up];
		b->windows_read = true;
		b->have_window = bridge_window_read(root, refused, m->fn[up].addr, &b->window);
		b->have_mem_window = bridge_mem_window_read(root, refused, m->fn[up].addr,
							    &b->mem_window);
	}
	return facts;
}
