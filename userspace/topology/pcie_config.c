// SPDX-License-Identifier: GPL-2.0
/*
 * Registers from sysfs config files: the header's, and the PCI Express
 * capability's.
 */
#include <stdio.h>

#include "platform/fsroot.h"
#include "topology/pciaddr.h"
#include "topology/pcie_config.h"
#include "p2pdiag/model.h"

#define CAP_POINTER	0x34
#define CAP_ID_EXP	0x10
#define STATUS_CAP_LIST	0x10	/* Status register, low byte */
#define MAX_CAPS	48

bool pcie_config_read_word(const struct fsroot *root,
			   struct fsroot_refusal *refused,
			   unsigned long long addr, unsigned int off,
			   unsigned int *val)
{
	unsigned char cfg[256];
	char a[P2PD_ADDR_STRLEN];
	unsigned int pos, steps;
	size_t n;
	FILE *f = fsroot_fopen(root, refused, "/sys/bus/pci/devices/%s/config",
			       pciaddr_format(a, addr));

	if (!f)
		return false;
	n = fread(cfg, 1, sizeof(cfg), f);
	fclose(f);
	if (n < sizeof(cfg) || !(cfg[0x06] & STATUS_CAP_LIST))
		return false;
	pos = cfg[CAP_POINTER] & 0xfc;
	for (steps = 0; pos >= 0x40 && pos + off + 2 <= n && steps < MAX_CAPS; steps++) {
		if (cfg[pos] == CAP_ID_EXP) {
			*val = cfg[pos + off] | (unsigned int)cfg[pos + off + 1] << 8;
			return true;
		}
		pos = cfg[pos + 1] & 0xfc;
	}
	return false;
}

bool pci_config_read_header(const struct fsroot *root,
			    struct fsroot_refusal *refused,
			    unsigned long long addr, unsigned int off,
			    unsigned int *val)
{
	unsigned char cfg[PCI_HEADER_SIZE];
	char a[P2PD_ADDR_STRLEN];
	size_t n;
	FILE *f;

	if (off % 4 || off + 4 > sizeof(cfg))
		return false;
	f = fsroot_fopen(root, refused, "/sys/bus/pci/devices/%s/config",
			 pciaddr_format(a, addr));
	if (!f)
		return false;
	n = fread(cfg, 1, sizeof(cfg), f);
	fclose(f);
	if (n < sizeof(cfg))
		return false;
	*val = cfg[off] | (unsigned int)cfg[off + 1] << 8 |
	       (unsigned int)cfg[off + 2] << 16 | (unsigned int)cfg[off + 3] << 24;
	return true;
}
