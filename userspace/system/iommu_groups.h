/* SPDX-License-Identifier: GPL-2.0 */
/*
 * IOMMU groups against ACS, by the kernel's grouping rule (the engine's
 * p2pd_group_anchor()): what each pair's ACS fix costs in isolation
 * (which groups it would merge), and groups that no longer match the ACS
 * the ports have now (ACS changed after boot, e.g. with setpci).
 */
#ifndef P2PDIAG_SYSTEM_IOMMU_GROUPS_H
#define P2PDIAG_SYSTEM_IOMMU_GROUPS_H

struct check_run;

/* fix-merges-groups per distinct fix, iommu-groups-stale once. */
void iommu_groups_judge(struct check_run *r);

#endif /* P2PDIAG_SYSTEM_IOMMU_GROUPS_H */
