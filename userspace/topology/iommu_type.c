// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "topology/iommu_type.h"
#include "platform/fsroot.h"

#define IOMMU_GROUPS_DIR	"/sys/kernel/iommu_groups"

int iommu_group_read_type(const struct fsroot *root, int group, char *word,
			  size_t wordlen, enum p2pd_iommu_domain *type,
			  char *err, size_t errlen)
{
	*type = P2PD_IOMMU_NONE;
	err[0] = '\0';
	if (group < 0)
		return 0;
	*type = P2PD_IOMMU_UNKNOWN;
	if (fsroot_read_fact(root, word, wordlen, err, errlen,
			     IOMMU_GROUPS_DIR "/%d/type", group))
		return err[0] ? -1 : 0;
	/* DMA and DMA-FQ translate; so does a VFIO "unmanaged" domain. */
	if (!strcmp(word, "DMA") || !strcmp(word, "DMA-FQ") ||
	    !strcmp(word, "unmanaged"))
		*type = P2PD_IOMMU_TRANSLATED;
	else if (!strcmp(word, "identity"))
		*type = P2PD_IOMMU_IDENTITY;
	else if (!strcmp(word, "blocked"))
		*type = P2PD_IOMMU_BLOCKED;
	return 1;
}

int iommu_group_type(const struct fsroot *root, int group,
		     enum p2pd_iommu_domain *type, char *err, size_t errlen)
{
	char word[32];

	return iommu_group_read_type(root, group, word, sizeof(word), type, err,
				     errlen) < 0 ? -1 : 0;
}

int iommu_fill_group_types(const struct fsroot *root, struct p2pd_model *m,
			   char *err, size_t errlen)
{
	unsigned int i;

	/* a type the snapshot states (an older module's) is kept */
	for (i = 0; i < m->nr_fn; i++)
		if (m->fn[i].iommu_group >= 0 &&
		    m->fn[i].iommu_domain == P2PD_IOMMU_UNKNOWN &&
		    iommu_group_type(root, m->fn[i].iommu_group,
				     &m->fn[i].iommu_domain, err, errlen))
			return -1;
	return 0;
}
