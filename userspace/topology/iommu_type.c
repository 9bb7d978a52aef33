// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "topology/iommu_type.h"
#include "system/fsroot.h"

#define IOMMU_GROUPS_DIR	"/sys/kernel/iommu_groups"

enum p2pd_iommu_domain iommu_group_type(int group)
{
	char type[32];

	if (group < 0)
		return P2PD_IOMMU_NONE;
	if (fsroot_read(type, sizeof(type), IOMMU_GROUPS_DIR "/%d/type", group))
		return P2PD_IOMMU_UNKNOWN;
	/* DMA and DMA-FQ translate; so does a VFIO "unmanaged" domain. */
	if (!strcmp(type, "DMA") || !strcmp(type, "DMA-FQ") ||
	    !strcmp(type, "unmanaged"))
		return P2PD_IOMMU_TRANSLATED;
	if (!strcmp(type, "identity"))
		return P2PD_IOMMU_IDENTITY;
	if (!strcmp(type, "blocked"))
		return P2PD_IOMMU_BLOCKED;
	return P2PD_IOMMU_UNKNOWN;
}

void iommu_fill_group_types(struct p2pd_model *m)
{
	unsigned int i;

	/* a type the snapshot states (an older module's) is kept */
	for (i = 0; i < m->nr_fn; i++)
		if (m->fn[i].iommu_group >= 0 &&
		    m->fn[i].iommu_domain == P2PD_IOMMU_UNKNOWN)
			m->fn[i].iommu_domain =
				iommu_group_type(m->fn[i].iommu_group);
}
