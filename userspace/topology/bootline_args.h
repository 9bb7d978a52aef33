/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel command line read as the kernel reads it: its arguments one
 * by one, and what they set of the IOMMU.  Below both the live system
 * checks (judge/system_bootline.c) and the pasted evidence
 * (evidence/read_kernel_log.c), which read command lines alike.
 */
#ifndef P2PDIAG_BOOTLINE_ARGS_H
#define P2PDIAG_BOOTLINE_ARGS_H

#include <stddef.h>

/* The longest argument kept whole; a longer one is cut. */
#define BOOTLINE_ARG_MAX	1024

/*
 * bootline_next_arg() - the next space-separated argument of @s (double
 * quotes group, and are dropped) into @arg, at most @len - 1 bytes.
 * Return: where the argument ends, to pass back in; NULL when none is left.
 */
const char *bootline_next_arg(const char *s, char *arg, size_t len);

/* What a kernel command line sets of the IOMMU. */
enum bootline_iommu {
	BOOTLINE_IOMMU_UNSAID,		/* no argument about it: the kernel's default */
	BOOTLINE_IOMMU_PASSTHROUGH,	/* iommu=pt, amd_iommu=pt */
	BOOTLINE_IOMMU_OFF,		/* iommu=off, amd_iommu=off, intel_iommu=off */
};

/* What one argument @arg sets of the IOMMU (the kernel's parameters). */
enum bootline_iommu bootline_iommu_arg(const char *arg);

/*
 * bootline_iommu() - what @cmdline sets of the IOMMU: off where an
 * argument turns it off (whatever else it says), else passthrough where
 * one sets that.  @arg (of @len bytes) gets the argument that decided,
 * "" where none did: intel_iommu=off and amd_iommu=off turn off only
 * their vendor's IOMMU, so it says which.
 */
enum bootline_iommu bootline_iommu(const char *cmdline, char *arg, size_t len);

#endif /* P2PDIAG_BOOTLINE_ARGS_H */
