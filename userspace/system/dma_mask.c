// SPDX-License-Identifier: GPL-2.0
/*
 * A function's sysfs dma_mask_bits is fls64() of its streaming DMA mask;
 * until a driver sets it, the PCI core leaves the 32-bit default, which
 * says nothing about the device, so only bound functions count.
 */
#include <stdlib.h>

#include "platform/fsroot.h"
#include "topology/pciaddr.h"
#include "system/dma_mask.h"

unsigned int dma_mask_bits_read(const struct fsroot *root,
				struct fsroot_refusal *refused,
				unsigned long long addr)
{
	char a[P2PD_ADDR_STRLEN], text[16], driver[64], *end;
	unsigned long bits;

	pciaddr_format(a, addr);
	if (fsroot_link_name(root, driver, sizeof(driver),
			     "/sys/bus/pci/devices/%s/driver", a) ||
	    fsroot_read(root, refused, text, sizeof(text),
			"/sys/bus/pci/devices/%s/dma_mask_bits", a))
		return 0;
	bits = strtoul(text, &end, 10);
	return end == text || bits < 1 || bits > 64 ? 0 : (unsigned int)bits;
}
