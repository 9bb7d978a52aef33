/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel command line against the ACS fixes it carries: options that
 * cannot work as written (commas inside disable_acs_redir=, a second pci=
 * argument, pci=noacs, iommu=pt taken for an ACS fix), and, after a
 * reboot with a fix, whether each port it names now has ReqRedir,
 * CmpltRedir and EgressCtrl clear.
 */
#ifndef P2PDIAG_SYSTEM_BOOTLINE_H
#define P2PDIAG_SYSTEM_BOOTLINE_H

#include <stddef.h>

struct check_run;

/* Lint @cmdline and verify its ACS settings against r->in.model. */
void bootline_judge(struct check_run *r, const char *cmdline);

/* What a kernel command line sets of the IOMMU. */
enum bootline_iommu {
	BOOTLINE_IOMMU_UNSAID,		/* no argument about it: the kernel's default */
	BOOTLINE_IOMMU_PASSTHROUGH,	/* iommu=pt, amd_iommu=pt */
	BOOTLINE_IOMMU_OFF,		/* iommu=off, amd_iommu=off, intel_iommu=off */
};

/*
 * bootline_iommu() - what @cmdline sets of the IOMMU: off where an
 * argument turns it off (whatever else it says), else passthrough where
 * one sets that.  @arg (of @len bytes) gets the argument that decided,
 * "" where none did: intel_iommu=off and amd_iommu=off turn off only
 * their vendor's IOMMU, so it says which.
 */
enum bootline_iommu bootline_iommu(const char *cmdline, char *arg, size_t len);

#endif /* P2PDIAG_SYSTEM_BOOTLINE_H */
