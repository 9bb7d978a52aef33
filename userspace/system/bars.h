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

struct check_run;

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

/* Judge the BARs of every selected GPU and NIC into @r's findings. */
void bars_judge(struct check_run *r);

#endif /* P2PDIAG_SYSTEM_BARS_H */
