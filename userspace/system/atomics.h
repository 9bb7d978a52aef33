/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whether PCIe AtomicOps between two GPUs or accelerators can work, from
 * config space under the root (PCI Express capability, root only past 64
 * bytes): every port on the pair's path must route AtomicOps (Device
 * Capabilities 2, AtomicOp Routing Supported) without blocking their
 * egress (Device Control 2, AtomicOp Egress Blocking), and the target
 * must complete them (32- and 64-bit AtomicOp Completer Supported).
 */
#ifndef P2PDIAG_SYSTEM_ATOMICS_H
#define P2PDIAG_SYSTEM_ATOMICS_H

#include <stdbool.h>

struct fsroot;
struct fsroot_refusal;

#define DEVCAP2_ROUTING		0x0040
#define DEVCAP2_COMPLETER_32	0x0080
#define DEVCAP2_COMPLETER_64	0x0100
#define DEVCTL2_EGRESS_BLOCKING	0x0080

/*
 * atomics_devcap2_read() - the low word of Device Capabilities 2 of
 * @addr into @cap; false when it cannot be read (or reads all ones).
 */
bool atomics_devcap2_read(const struct fsroot *root,
			  struct fsroot_refusal *refused,
			  unsigned long long addr, unsigned int *cap);
/* atomics_devctl2_read() - likewise, the low word of Device Control 2. */
bool atomics_devctl2_read(const struct fsroot *root,
			  struct fsroot_refusal *refused,
			  unsigned long long addr, unsigned int *ctl);

#endif /* P2PDIAG_SYSTEM_ATOMICS_H */
