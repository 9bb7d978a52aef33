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

#endif /* P2PDIAG_SYSTEM_BOOTLINE_H */
