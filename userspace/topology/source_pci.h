/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The libpci source: walk PCI config space into the snapshot model, the
 * same model the module fills, so the same verdict engine judges it.
 */
#ifndef P2PDIAG_SOURCE_PCI_H
#define P2PDIAG_SOURCE_PCI_H

#include <stddef.h>
#include <stdio.h>

#include "p2pdiag/model.h"

struct fsroot;

/*
 * pci_source_read() - fill @m from an `lspci -x...` dump file (libpci's
 * dump back-end: no NUMA, IOMMU or parent facts, parents come from
 * bridges' secondary bus numbers); no system file is read.
 * @m->cpu_flags and @m->kernel_release are left alone.  Free the model
 * with p2pd_model_free().
 * Return: 0, or -1 with the reason in @err; @m is then empty.
 */
int pci_source_read(const char *dump_file, struct p2pd_model *m,
		    char *err, size_t errlen);

/*
 * pci_source_walk() - pci_source_read() of the PCI functions of the
 * machine whose system files @root holds: this machine's when @root is
 * live, else what libpci's sysfs back-end finds under it; parents,
 * SR-IOV links and IOMMU group types from the sysfs under @root.
 */
int pci_source_walk(const struct fsroot *root, struct p2pd_model *m,
		    char *err, size_t errlen);

/*
 * pci_model_host_bridges() - each function's host_bridge in @m (sorted,
 * parents set): the root bus at the top of its parent chain, or, where
 * a parent is missing from @m, the bus of the last parent named.
 */
void pci_model_host_bridges(struct p2pd_model *m);

/*
 * cpu_flags_from_cpuinfo() - P2PD_CPU_* from a /proc/cpuinfo text file:
 * AMD or Hygon vendor, and whether an AMD CPU is family 0x17 (Zen) or
 * newer, which the kernel trusts to route P2P through any host bridge.
 * Return: 0, or -1 with errno set when @path cannot be read, and ENODATA
 * when it is no cpuinfo: its first processor's block names no CPU (no
 * vendor_id, nor another architecture's "CPU implementer", "cpu" or
 * "isa") within CPUINFO_FIRST_BLOCK_LINES lines; an empty file, or one
 * of blank lines, is such a file.
 */
int cpu_flags_from_cpuinfo(const char *path, unsigned int *flags);

/*
 * Where the first processor's block must have named its CPU: a real one
 * does within about 30 lines.
 */
#define CPUINFO_FIRST_BLOCK_LINES	2048

/*
 * cpu_flags_from_stream() - cpu_flags_from_cpuinfo() of an open stream
 * (the root's /proc/cpuinfo, opened as a system file), left open.
 * Return: 0, or -1 with errno set (ENODATA as above).
 */
int cpu_flags_from_stream(FILE *fp, unsigned int *flags);

/* Why cpu_flags_from_cpuinfo() failed with @e, for a message. */
const char *cpuinfo_strerror(int e);

#endif /* P2PDIAG_SOURCE_PCI_H */
