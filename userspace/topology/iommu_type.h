/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An IOMMU group's default domain type, from the group's type file in
 * sysfs (read through the system root, system/fsroot.h).  Both topology
 * sources use it: the libpci walk, and the module's snapshot, which names
 * the group but leaves its type to this file (include/p2pdiag/ABI.txt).
 */
#ifndef P2PDIAG_IOMMU_TYPE_H
#define P2PDIAG_IOMMU_TYPE_H

#include "p2pdiag/model.h"

/*
 * iommu_group_type() - what group @group's default domain does to DMA.
 * Return: P2PD_IOMMU_NONE for a negative @group, P2PD_IOMMU_UNKNOWN when
 * the type file cannot be read or holds a word this reader does not know.
 */
enum p2pd_iommu_domain iommu_group_type(int group);

/* Fill iommu_domain of every function of @m in a group whose type it lacks. */
void iommu_fill_group_types(struct p2pd_model *m);

#endif /* P2PDIAG_IOMMU_TYPE_H */
