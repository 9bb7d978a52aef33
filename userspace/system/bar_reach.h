/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A peer's DMA mask against the other end's BARs: a device whose driver
 * addresses fewer bits than a peer's BAR ends at cannot reach it where
 * nothing translates its requests (bus addresses across a switch, or the
 * IOMMU in passthrough, or none), from each function's sysfs dma_mask_bits
 * and resource file.
 */
#ifndef P2PDIAG_SYSTEM_BAR_REACH_H
#define P2PDIAG_SYSTEM_BAR_REACH_H

struct check_run;

/* Judge both directions of every judged pair into @r's findings. */
void bar_reach_judge(struct check_run *r);

#endif /* P2PDIAG_SYSTEM_BAR_REACH_H */
