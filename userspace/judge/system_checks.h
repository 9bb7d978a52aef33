/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The judgements of the system checks: the facts system/ reads (the
 * system report's structs, system/system.h) against the judged pairs,
 * into the run's findings.  Each has a file of its own
 * (judge/system_<check>.c).
 */
#ifndef P2PDIAG_JUDGE_SYSTEM_CHECKS_H
#define P2PDIAG_JUDGE_SYSTEM_CHECKS_H

struct check_run;

/*
 * IOMMU groups against ACS, by the kernel's grouping rule (the engine's
 * p2pd_group_anchor()): what each pair's ACS fix costs in isolation
 * (which groups it would merge), and groups that no longer match the ACS
 * the ports have now (ACS changed after boot, e.g. with setpci).
 * fix-merges-groups per distinct fix, iommu-groups-stale once.
 */
void iommu_groups_judge(struct check_run *r);

/*
 * The kernel command line against the ACS fixes it carries: options that
 * cannot work as written (commas inside disable_acs_redir=, a second pci=
 * argument, pci=noacs, iommu=pt taken for an ACS fix), and, after a
 * reboot with a fix, whether each port it names now has ReqRedir,
 * CmpltRedir and EgressCtrl clear.  Lint @cmdline and verify its ACS
 * settings against r->in.model.
 */
void bootline_judge(struct check_run *r, const char *cmdline);

/*
 * The environment variables that silently change P2P for the programs
 * started from this environment (NCCL's P2P and GDR levels and switches,
 * CUDA's device visibility and order), as information: one info finding
 * per such variable that is set (or that matters unset).
 */
void environ_judge(struct check_run *r);

#endif /* P2PDIAG_JUDGE_SYSTEM_CHECKS_H */
