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

struct check_run;

/* One p2p-atomics finding per judged GPU pair whose registers were all read. */
void atomics_judge(struct check_run *r);

#endif /* P2PDIAG_SYSTEM_ATOMICS_H */
