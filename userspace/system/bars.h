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

struct check_run;
struct fsroot;

#define BARS_MAX	6

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
int bars_read(struct fsroot *root, unsigned long long addr, struct bar bar[BARS_MAX]);

/* Whether @b is a memory BAR of some size. */
bool bar_is_memory(const struct bar *b);
/* Whether the memory BAR @b has no address (IORESOURCE_UNSET, or a start of 0). */
bool bar_unassigned(const struct bar *b);

/* Judge the BARs of every selected GPU and NIC into @r's findings. */
void bars_judge(struct check_run *r);

#endif /* P2PDIAG_SYSTEM_BARS_H */
