// SPDX-License-Identifier: GPL-2.0
/*
 * Whether each end of a pair can address the other's BARs: a device
 * whose driver addresses fewer bits (system/dma_mask.h) than a peer's BAR
 * ends at cannot reach it where nothing translates its requests.  A peer
 * reaches a BAR by its bus address where the pair routes by bus address
 * (a common switch) or where the IOMMU does not translate the peer's
 * requests (passthrough, or no IOMMU); a translating IOMMU hands it an
 * address inside its mask instead.  The bus address is taken as the CPU
 * address of the resource file, which is what it is on x86 and on every
 * host bridge without a translation offset.
 */
#include <stdio.h>

#include "judge/judgement.h"
#include "judge/judge.h"
#include "topology/pciaddr.h"
#include "judge/system_checks.h"
#include "system/bars.h"
#include "system/dma_mask.h"
#include "system/system.h"
#include "p2pdiag/decode.h"

/* The highest address @bits of DMA mask reach. */
static unsigned long long mask_top(unsigned int bits)
{
	return bits >= 64 ? ~0ULL : (1ULL << bits) - 1;
}

/* Whether @from's requests to a peer carry the BAR's own address. */
static bool untranslated(const struct p2pd_pair *p, const struct p2pd_function *from)
{
	if (p->map == P2PD_MAP_BUS_ADDR)
		return true;
	return p->map == P2PD_MAP_THRU_HOST_BRIDGE &&
	       (from->iommu_domain == P2PD_IOMMU_IDENTITY ||
		from->iommu_domain == P2PD_IOMMU_NONE);
}

static void judge_direction(struct check_run *r, const struct p2pd_pair *p,
			    const struct p2pd_function *from,
			    const struct p2pd_function *to)
{
	char af[P2PD_ADDR_STRLEN], at[P2PD_ADDR_STRLEN], fix[640];
	struct bar bar[BARS_MAX];
	unsigned int bits;
	int n, b;

	if (!untranslated(p, from) || !(bits = dma_mask_bits_read(r->in.root, &r->in.system->refused, from->addr)) || bits >= 64)
		return;
	pciaddr_format(af, from->addr);
	pciaddr_format(at, to->addr);
	n = bars_read(r->in.root, &r->in.system->refused, to->addr, bar);
	for (b = 0; b < n; b++) {
		if (!bar_is_memory(&bar[b]) || bar_unassigned(&bar[b]) ||
		    bar[b].end <= mask_top(bits))
			continue;
		if (p->map == P2PD_MAP_BUS_ADDR)
			snprintf(fix, sizeof(fix),
				 "across the switch the peer uses bus addresses, which no IOMMU setting changes: lower the firmware's 64-bit MMIO base (\"MMIO High Base\", \"MMIOH Base\") below %u bits so the BAR lands inside %s's mask, or use a driver of %s that sets a wider DMA mask",
				 bits, af, af);
		else
			snprintf(fix, sizeof(fix),
				 "let the IOMMU translate %s's requests: boot without iommu=pt and iommu.passthrough=1, or with its driver unbound echo DMA > /sys/kernel/iommu_groups/%d/type; else lower the firmware's 64-bit MMIO base (\"MMIO High Base\", \"MMIOH Base\") below %u bits",
				 af, from->iommu_group, bits);
		findings_add(&r->judged.findings, SEV_ERROR, FC_BAR_ABOVE_DMA_MASK,
			     from->addr, to->addr, fix,
			     "%s %s addresses %u bits (its driver's DMA mask, dma_mask_bits), but %s %s's BAR %d ends at %#llx: with %s, its peer DMA to that BAR cannot be mapped",
			     p2pd_kind_name(p2pd_device_kind(from->class_code)), af, bits,
			     p2pd_kind_name(p2pd_device_kind(to->class_code)), at, b,
			     bar[b].end,
			     p->map == P2PD_MAP_BUS_ADDR ? "bus addresses across the switch" :
			     from->iommu_domain == P2PD_IOMMU_NONE ? "no IOMMU" :
			     "the IOMMU in passthrough");
		return;
	}
}

void bar_reach_judge(struct check_run *r)
{
	const struct p2pd_model *m = r->in.model;
	unsigned int i;

	for (i = 0; m && i < r->judged.nr_pairs; i++) {
		const struct p2pd_pair *p = &r->judged.pair[i];

		judge_direction(r, p, &m->fn[p->a], &m->fn[p->b]);
		judge_direction(r, p, &m->fn[p->b], &m->fn[p->a]);
	}
}
