// SPDX-License-Identifier: GPL-2.0
/*
 * The ACS part of the kernel's IOMMU grouping (drivers/iommu/iommu.c,
 * pci_device_group(), with pci_acs_path_enabled() and pci_acs_enabled()
 * of drivers/pci/pci.c), over the snapshot model.  Freestanding, like the
 * verdict engine: built into the module and into p2pdiag-check.
 *
 * pci_acs_enabled() asks for the flags only at root and downstream ports
 * and in multifunction devices; other PCIe functions pass, conventional
 * PCI functions and PCIe-to-PCI bridges fail.  A flag the ACS capability
 * does not implement counts as enabled (EgressCtrl excepted); a port
 * without an ACS capability fails.
 */
#include "p2pdiag/decode.h"
#include "p2pdiag/groups.h"
#include "uapi/p2pdiag/abi.h"
#include "p2pdiag/verdict.h"

/* REQ_ACS_FLAGS of drivers/iommu/iommu.c */
#define GROUP_ACS_FLAGS	(P2PD_ACS_SV | P2PD_ACS_RR | P2PD_ACS_CR | P2PD_ACS_UF)

static int is_cleared(int idx, const struct p2pd_acs_cleared *cleared)
{
	unsigned int i;

	for (i = 0; cleared && i < cleared->nr; i++)
		if (cleared->idx[i] == idx)
			return 1;
	return 0;
}

/* Another function of the same device: the kernel's pdev->multifunction. */
static int multifunction(const struct p2pd_model *m, int idx)
{
	unsigned long long slot = m->fn[idx].addr & ~0x7ULL;

	return (idx > 0 && (m->fn[idx - 1].addr & ~0x7ULL) == slot) ||
	       ((unsigned int)idx + 1 < m->nr_fn &&
		(m->fn[idx + 1].addr & ~0x7ULL) == slot);
}

static int flags_enabled(const struct p2pd_function *f, int cleared)
{
	unsigned int want = GROUP_ACS_FLAGS & (f->acs_cap | P2PD_ACS_EC);
	unsigned int ctrl = f->acs_ctrl;

	if (f->acs != P2PD_PRESENT)
		return 0;
	if (cleared)
		ctrl &= ~P2PD_ACS_REDIRECT_MASK;
	return (ctrl & want) == want;
}

static int acs_enabled(const struct p2pd_model *m, int idx,
		       const struct p2pd_acs_cleared *cleared)
{
	const struct p2pd_function *f = &m->fn[idx];

	if (!p2pd_is_pcie(f))
		return 0;
	switch (f->role) {
	case P2PD_ROLE_PCIE_TO_PCI_BRIDGE:
	case P2PD_ROLE_PCI_TO_PCIE_BRIDGE:
	case P2PD_ROLE_RC_EVENT_COLLECTOR:
		return 0;
	case P2PD_ROLE_ROOT_PORT:
	case P2PD_ROLE_DOWNSTREAM_PORT:
		return flags_enabled(f, is_cleared(idx, cleared));
	default:
		break;
	}
	if (multifunction(m, idx))
		return flags_enabled(f, is_cleared(idx, cleared));
	return 1;
}

static int parent_of(const struct p2pd_model *m, int idx)
{
	const struct p2pd_function *f = &m->fn[idx];

	return f->has_parent ? p2pd_model_find(m, f->parent) : P2PD_NO_INDEX;
}

int p2pd_acs_path_breaker(const struct p2pd_model *m, int idx,
			  const struct p2pd_acs_cleared *cleared)
{
	unsigned int steps;

	for (steps = 0; idx != P2PD_NO_INDEX && steps < P2PD_MAX_DEPTH; steps++) {
		if (!acs_enabled(m, idx, cleared))
			return idx;
		idx = parent_of(m, idx);
	}
	return P2PD_NO_INDEX;
}

int p2pd_group_anchor(const struct p2pd_model *m, int idx,
		      const struct p2pd_acs_cleared *cleared)
{
	unsigned int steps;

	for (steps = 0; steps < P2PD_MAX_DEPTH; steps++) {
		int up = parent_of(m, idx);

		if (up == P2PD_NO_INDEX ||
		    p2pd_acs_path_breaker(m, up, cleared) == P2PD_NO_INDEX)
			break;
		idx = up;
	}
	return idx;
}
