/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Registers of a function's header and PCI Express capability, read from
 * its sysfs config file under the run's root: past the first 64 bytes only
 * root reads them, so every caller treats "not read" as an unknown fact.
 */
#ifndef P2PDIAG_PCIE_CONFIG_H
#define P2PDIAG_PCIE_CONFIG_H

#include <stdbool.h>

struct fsroot;
struct fsroot_refusal;

#define PCI_HEADER_SIZE		64	/* the standard header, readable by anyone */

#define PCIE_CAP_LNKSTA		0x12	/* Link Status */
#define PCIE_CAP_LNKCTL2	0x30	/* Link Control 2 */

/*
 * pcie_config_read_word() - the 16-bit register at @off of @addr's PCI
 * Express capability.
 * Return: true with *@val set; false when the file, the capability list
 * or the capability is not there or not readable; a config file there
 * that is no regular file is then named in @refused (platform/fsroot.h).
 */
bool pcie_config_read_word(const struct fsroot *root,
			   struct fsroot_refusal *refused,
			   unsigned long long addr, unsigned int off,
			   unsigned int *val);

/*
 * pci_config_read_header() - the 32-bit register at @off (a multiple of 4,
 * below PCI_HEADER_SIZE) of @addr's header.
 * Return: true with *@val set; false when the file is not there or short
 * (@refused as for pcie_config_read_word()).
 */
bool pci_config_read_header(const struct fsroot *root,
			    struct fsroot_refusal *refused,
			    unsigned long long addr, unsigned int off,
			    unsigned int *val);

#endif /* P2PDIAG_PCIE_CONFIG_H */
