/* SPDX-License-Identifier: GPL-2.0 */
/* The DMA mask a function's driver set, as sysfs shows it. */
#ifndef P2PDIAG_SYSTEM_DMA_MASK_H
#define P2PDIAG_SYSTEM_DMA_MASK_H

struct fsroot;
struct fsroot_refusal;

/*
 * dma_mask_bits_read() - the driver's DMA mask of function @addr in bits
 * (its dma_mask_bits under @root), or 0 when unbound or unreadable.
 */
unsigned int dma_mask_bits_read(const struct fsroot *root,
				struct fsroot_refusal *refused,
				unsigned long long addr);

#endif /* P2PDIAG_SYSTEM_DMA_MASK_H */
