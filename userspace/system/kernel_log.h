/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel log, where drivers/pci/p2pdma.c says its own P2PDMA verdicts
 * (judge/system_kernel_verdicts.c sets them beside p2pdiag's): the live
 * ring buffer, or under a root /var/log/dmesg or /var/log/kern.log.
 */
#ifndef P2PDIAG_SYSTEM_KERNEL_LOG_H
#define P2PDIAG_SYSTEM_KERNEL_LOG_H

struct fsroot;
struct fsroot_refusal;

/*
 * kernel_log_read() - the kernel log under @root, NUL-terminated and
 * owned by the caller (at most 4 MiB), or NULL when it cannot be read.
 */
char *kernel_log_read(const struct fsroot *root,
		      struct fsroot_refusal *refused);

#endif /* P2PDIAG_SYSTEM_KERNEL_LOG_H */
