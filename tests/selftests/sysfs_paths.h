/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the selftests look, and small file helpers.  Every root can be
 * moved with an environment variable so the programs also run against a
 * fake tree (tests/selftests/fake/) outside the VM lab:
 *
 *   P2PDIAG_SYSFS   /sys/kernel/p2pdiag
 *   PCI_SYSFS       /sys/bus/pci/devices
 *   IOMMU_SYSFS     /sys/kernel/iommu_groups
 *   P2PDIAG_PARAMS  /sys/module/p2pdiag/parameters
 *   LAB_TOPO        /lab/topo
 *   PROC_CMDLINE    /proc/cmdline
 */
#ifndef P2PDIAG_SELFTEST_SYSFS_PATHS_H
#define P2PDIAG_SELFTEST_SYSFS_PATHS_H

#include <stddef.h>

#define ST_ADDR_LEN	17	/* "ffffffff:bb:dd.f" plus NUL */
#define ST_MAX_FUNCS	1024

const char *st_p2pdiag_root(void);
const char *st_pci_root(void);
const char *st_iommu_root(void);
const char *st_params_root(void);
const char *st_topo_path(void);
const char *st_cmdline_path(void);

/* 1 when the p2pdiag directory exists (the module is loaded). */
int st_module_loaded(void);

/*
 * Read a whole file into a NUL-terminated malloc'd buffer with reads of
 * @block bytes.  Returns NULL (errno set) on failure; *len gets the size.
 */
char *st_read_file(const char *path, size_t block, size_t *len);

/*
 * One-line file without its trailing newline, into @out.  Returns 0, or -1
 * when it cannot be read; @nl is set to 1 when the value ended in exactly
 * one newline and nothing followed it.
 */
int st_read_value(const char *path, char *out, size_t size, int *nl);

/*
 * Check the last line of a topology or pairs text (@text, @len bytes):
 * "# p2pdiag end generation=<n> bytes=<b>" with <n> the generation of the
 * header line and <b> the bytes before the line.  On success cut the text
 * there (NUL) and return 0; else -1 with the reason in @why.  A text that
 * fails was cut short or spliced from two snapshots.
 */
int st_check_trailer(char *text, size_t len, char *why, size_t size);

/* Whether @s is "dddd:bb:dd.f" with lower-case hex. */
int st_is_addr(const char *s);

/*
 * Sorted PCI function addresses under @dir (the PCI root, or the module's
 * devices/).  Returns the count, or -1 when @dir cannot be read.
 */
int st_list_addrs(const char *dir, char (*addrs)[ST_ADDR_LEN], int max);

/* Whether the module counts every endpoint (module parameter endpoints=all). */
int st_all_endpoints(void);

/* Whether @path lies on sysfs (so writes reach the module). */
int st_on_sysfs(const char *path);

#endif /* P2PDIAG_SELFTEST_SYSFS_PATHS_H */
