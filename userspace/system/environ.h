/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The environment variables that silently change P2P for the programs
 * started from this environment (NCCL's P2P and GDR levels and switches,
 * CUDA's device visibility and order), as information.
 */
#ifndef P2PDIAG_SYSTEM_ENVIRON_H
#define P2PDIAG_SYSTEM_ENVIRON_H

struct check_run;

/* One info finding per such variable that is set (or that matters unset). */
void environ_judge(struct check_run *r);

/*
 * environ_nccl_level() - an NCCL path level (LOC, NVL, PIX, PXB, PHB,
 * SYS, or NCCL's number for it) as a P2PD_CLASS_*, or -1 when it is none
 * the engine's classes can compare with.
 */
int environ_nccl_level(const char *value);

#endif /* P2PDIAG_SYSTEM_ENVIRON_H */
