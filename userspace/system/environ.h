/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The environment's words the judge reads (judge/system_environ.c):
 * NCCL's path levels.
 */
#ifndef P2PDIAG_SYSTEM_ENVIRON_H
#define P2PDIAG_SYSTEM_ENVIRON_H

/*
 * environ_nccl_level() - an NCCL path level (LOC, NVL, PIX, PXB, PHB,
 * SYS, or NCCL's number for it) as a P2PD_CLASS_*, or -1 when it is none
 * the engine's classes can compare with.
 */
int environ_nccl_level(const char *value);

#endif /* P2PDIAG_SYSTEM_ENVIRON_H */
