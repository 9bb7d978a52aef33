// SPDX-License-Identifier: GPL-2.0
/* A function's AtomicOp registers (atomics.h). */
#include "topology/pcie_config.h"
#include "system/atomics.h"

#define DEVCAP2			0x24	/* low word of Device Capabilities 2 */
#define DEVCTL2			0x28

bool atomics_devcap2_read(const struct fsroot *root,
			  struct fsroot_refusal *refused,
			  unsigned long long addr, unsigned int *cap)
{
	return pcie_config_read_word(root, refused, addr, DEVCAP2,
				     cap) && *cap != 0xffff;
}

bool atomics_devctl2_read(const struct fsroot *root,
			  struct fsroot_refusal *refused,
			  unsigned long long addr, unsigned int *ctl)
{
	return pcie_config_read_word(root, refused, addr, DEVCTL2,
				     ctl) && *ctl != 0xffff;
}
