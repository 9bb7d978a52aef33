// SPDX-License-Identifier: GPL-2.0
/*
 * BARs as the kernel shows them (bars.h).  In a resource file a BAR the
 * kernel could not place keeps its size with IORESOURCE_UNSET in its
 * flags, or reads as starting at 0; resourceN_resize (Linux 6.1 on) is
 * the Resizable BAR capability's bitmask of sizes, bit n meaning 1 MiB
 * << n.  A bridge forwards a prefetchable BAR only inside its
 * Prefetchable Memory Base and Limit (type 1 header, 0x24-0x2f), which
 * decode addresses above 4 GiB only where the base's low bits say 64-bit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform/fsroot.h"
#include "topology/pciaddr.h"
#include "system/bars.h"
#include "topology/pcie_config.h"
#include "p2pdiag/decode.h"

#define MEM_BASE_LIMIT		0x20	/* Memory Base, Limit: 32-bit */
#define PREF_BASE_LIMIT		0x24	/* Prefetchable Memory Base, Limit */
#define PREF_BASE_UPPER		0x28
#define PREF_LIMIT_UPPER	0x2c
#define PREF_64BIT		0x1	/* low bits of the base: 64-bit decode */

int bars_parse(const char *text, struct bar bar[BARS_MAX])
{
	const char *line = text;
	int n = 0;

	while (line && *line && n < BARS_MAX) {
		if (sscanf(line, "%llx %llx %llx", &bar[n].start, &bar[n].end,
			   &bar[n].flags) != 3)
			return -1;
		n++;
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return n;
}

int bars_read(const struct fsroot *root, struct fsroot_refusal *refused,
	      unsigned long long addr, struct bar bar[BARS_MAX])
{
	char a[P2PD_ADDR_STRLEN], text[1024];

	if (fsroot_read(root, refused, text, sizeof(text),
			"/sys/bus/pci/devices/%s/resource",
			pciaddr_format(a, addr)))
		return -1;
	return bars_parse(text, bar);
}

bool bar_is_memory(const struct bar *b)
{
	return (b->flags & IORESOURCE_MEM) && b->end > b->start;
}

bool bar_unassigned(const struct bar *b)
{
	return (b->flags & IORESOURCE_UNSET) || !b->start;
}

unsigned long long bar_resize_sizes(const struct fsroot *root,
				    struct fsroot_refusal *refused,
				    const char *addr, int i)
{
	char text[32], *end;
	unsigned long long sizes;

	if (fsroot_read(root, refused, text, sizeof(text),
			"/sys/bus/pci/devices/%s/resource%d_resize", addr, i))
		return 0;
	sizes = strtoull(text, &end, 16);
	return end == text ? 0 : sizes;
}

bool bridge_window_read(const struct fsroot *root,
			struct fsroot_refusal *refused, unsigned long long addr,
			struct bridge_window *w)
{
	unsigned int bl, ub = 0, ul = 0;

	if (!pci_config_read_header(root, refused, addr, PREF_BASE_LIMIT,
				    &bl) ||
	    bl == 0xffffffff)
		return false;
	w->is64 = (bl & 0xf) == PREF_64BIT;
	if (w->is64 && (!pci_config_read_header(root, refused, addr,
						PREF_BASE_UPPER, &ub) ||
			!pci_config_read_header(root, refused, addr,
						PREF_LIMIT_UPPER, &ul)))
		return false;
	w->base = (unsigned long long)(bl & 0xfff0) << 16 | (unsigned long long)ub << 32;
	w->limit = (unsigned long long)(bl >> 16 & 0xfff0) << 16 | 0xfffff |
		   (unsigned long long)ul << 32;
	return true;
}

bool bridge_mem_window_read(const struct fsroot *root,
			    struct fsroot_refusal *refused,
			    unsigned long long addr, struct bridge_window *w)
{
	unsigned int bl;

	if (!pci_config_read_header(root, refused, addr, MEM_BASE_LIMIT, &bl))
		return false;
	w->base = (unsigned long long)(bl & 0xfff0) << 16;
	w->limit = (unsigned long long)(bl >> 16 & 0xfff0) << 16 | 0xfffff;
	w->is64 = false;
	return true;
}
