/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An IOMMU group's default domain type, from the group's type file in
 * sysfs (read through the system root, platform/fsroot.h).  Both topology
 * sources use it: the libpci walk, and the module's snapshot, which names
 * the group but leaves its type to this file (include/uapi/p2pdiag/ABI.txt).
 */
#ifndef P2PDIAG_IOMMU_TYPE_H
#define P2PDIAG_IOMMU_TYPE_H

#include <stddef.h>

#include "p2pdiag/model.h"

struct fsroot;

/*
 * iommu_group_read_type() - iommu_group_type(), also handing back the
 * type file's word in @word (at most @wordlen - 1 bytes) for evidence that
 * quotes it ("group 5 type DMA-FQ").
 * Return: 1 when the file was read (@word holds it, known or not), 0
 * when there is no group or the file is absent or unreadable (@word
 * undefined), -1 as iommu_group_type().
 */
int iommu_group_read_type(const struct fsroot *root, int group, char *word,
			  size_t wordlen, enum p2pd_iommu_domain *type,
			  char *err, size_t errlen);

/*
 * iommu_group_type() - what group @group's default domain does to DMA
 * under @root,
 * into *@type: P2PD_IOMMU_NONE for a negative @group, P2PD_IOMMU_UNKNOWN
 * when the type file is absent or unreadable or holds a word this reader
 * does not know.
 * Return: 0, or -1 when the type file is there but is not a regular file
 * (bad input, fsroot_read_fact()): @err names it.
 */
int iommu_group_type(const struct fsroot *root, int group,
		     enum p2pd_iommu_domain *type, char *err, size_t errlen);

/*
 * iommu_fill_group_types() - iommu_domain of every function of @m in a
 * group whose type it lacks.
 * Return: 0, or -1 as iommu_group_type(), at the first such file.
 */
int iommu_fill_group_types(const struct fsroot *root, struct p2pd_model *m,
			   char *err, size_t errlen);

#endif /* P2PDIAG_IOMMU_TYPE_H */
