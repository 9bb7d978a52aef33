/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The memory windows (BARs) of the GPUs and NICs that take part in P2P,
 * from each function's sysfs resource file and resourceN_resize: a BAR
 * the firmware or the kernel left without an address, and a Resizable
 * BAR kept below the size the device offers.  A peer reaches a device's
 * memory only through these windows, so both break P2P before any path
 * rule does.
 */
#ifndef P2PDIAG_SYSTEM_BARS_H
#define P2PDIAG_SYSTEM_BARS_H

#include <stdbool.h>

struct fsroot;
struct fsroot_refusal;

#define BARS_MAX	6

/* A resource file's flags (include/linux/ioport.h) */
#define IORESOURCE_MEM		0x00000200ULL
#define IORESOURCE_PREFETCH	0x00002000ULL
#define IORESOURCE_MEM_64	0x00100000ULL
#define IORESOURCE_UNSET	0x20000000ULL

struct bar {
	unsigned long long start, end, flags;
};

/*
 * bars_parse() - the standard BARs from a resource file's text: one
 * "start end flags" line of hex numbers each.
 * Return: how many lines were read (at most BARS_MAX), -1 for a malformed
 * line.
 */
int bars_parse(const char *text, struct bar bar[BARS_MAX]);

/*
 * bars_read() - the BARs of @addr from its sysfs resource file under @root.
 * Return: how many were read, -1 when the file is not there or malformed.
 */
int bars_read(const struct fsroot *root, struct fsroot_refusal *refused,
	      unsigned long long addr, struct bar bar[BARS_MAX]);

/* Whether @b is a memory BAR of some size. */
bool bar_is_memory(const struct bar *b);
/* Whether the memory BAR @b has no address (IORESOURCE_UNSET, or a start of 0). */
bool bar_unassigned(const struct bar *b);

/*
 * bar_resize_sizes() - resourceN_resize of BAR @i of device @addr (the
 * Resizable BAR capability's sizes, bit n meaning 1 MiB << n), or 0 when
 * there is none, it cannot be read or does not parse.
 */
unsigned long long bar_resize_sizes(const struct fsroot *root,
				    struct fsroot_refusal *refused,
				    const char *addr, int i);

/* A bridge's memory window as its registers say. */
struct bridge_window {
	unsigned long long base, limit;	/* limit < base: disabled */
	bool is64;
};

/*
 * bridge_window_read() - the prefetchable memory window of bridge @addr
 * (Prefetchable Memory Base and Limit, with their upper halves where the
 * base says 64-bit); false when its registers cannot be read.
 */
bool bridge_window_read(const struct fsroot *root,
			struct fsroot_refusal *refused, unsigned long long addr,
			struct bridge_window *w);
/* bridge_mem_window_read() - ... and its non-prefetchable one (32-bit). */
bool bridge_mem_window_read(const struct fsroot *root,
			    struct fsroot_refusal *refused,
			    unsigned long long addr, struct bridge_window *w);

#endif /* P2PDIAG_SYSTEM_BARS_H */
