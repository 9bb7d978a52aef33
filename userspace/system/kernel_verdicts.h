/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's own P2PDMA verdicts, as drivers/pci/p2pdma.c logs them:
 * "<client>: cannot be used for peer-to-peer DMA as ... (<provider>)" and
 * "<host bridge device>: Host bridge not in P2PDMA whitelist: vvvv:dddd"
 * (newer kernels print both only when a caller asks for the verbose
 * check).  Read from the kernel log (the live ring buffer, or under a
 * root /var/log/dmesg or /var/log/kern.log) and shown beside p2pdiag's
 * verdict for the same pair.
 */
#ifndef P2PDIAG_SYSTEM_KERNEL_VERDICTS_H
#define P2PDIAG_SYSTEM_KERNEL_VERDICTS_H

struct check_run;

/* Read the kernel log under @r's root and judge it; nothing when unreadable. */
void kernel_verdicts_judge(struct check_run *r);

#endif /* P2PDIAG_SYSTEM_KERNEL_VERDICTS_H */
