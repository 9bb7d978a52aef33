/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What holds a link below the speed both its ends support, other than the
 * link itself: the kernel's PCIe bandwidth controller acting as a thermal
 * cooling device (6.13 on; drivers/thermal/pcie_cooling.c registers one
 * per port, of type "PCIe_Port_Link_Speed_<port>", whose state N lowers
 * the port's speed N steps below its maximum), or a Target Link Speed in
 * Link Control 2 below the maximum (firmware or a setpci).
 */
#ifndef P2PDIAG_LINK_CAPS_H
#define P2PDIAG_LINK_CAPS_H

#include <stdbool.h>

struct fsroot;
struct fsroot_refusal;

#define LINK_COOLING_PREFIX	"PCIe_Port_Link_Speed_"

struct link_cap {
	/* an active bwctrl cooling device on the port */
	bool cooling;
	unsigned int cooling_id;		/* cooling_device<N> */
	unsigned long cooling_state, cooling_max;
	/* a Target Link Speed below the link's maximum, and where */
	unsigned int target_tenths;		/* 0: none read or none lower */
	unsigned long long target_at;		/* P2PD_ADDR() of that end */
};

/*
 * link_cap_read() - what caps the link between @port (the downstream end)
 * and @dev, whose ends both support @max_tenths (0.1 GT/s).
 * Return: true when something does (@cap says what), false when nothing
 * read does; the unreadable is not reported as a cap.  A file there that
 * is no regular file is named in @refused (platform/fsroot.h).
 */
bool link_cap_read(const struct fsroot *root, struct fsroot_refusal *refused,
		   unsigned long long port, unsigned long long dev,
		   unsigned int max_tenths, struct link_cap *cap);

#endif /* P2PDIAG_LINK_CAPS_H */
