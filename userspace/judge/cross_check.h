/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module against the tool: findings cross-check-mismatch,
 * cross-check-pairs and engine-mismatch.
 */
#ifndef P2PDIAG_JUDGE_CROSS_CHECK_H
#define P2PDIAG_JUDGE_CROSS_CHECK_H

#include "judge/judgement.h"
#include "topology/source_sysfs.h"

/*
 * judge_cross_check() - the module's files under @module_root (@mod, as read)
 * against libpci's reading @pci of the same machine: each function's
 * fields, then the pairs text the engine writes from @pci, byte for byte
 * (@pci takes @mod's generation for that).
 */
void judge_cross_check(struct check_run *r, const struct fsroot *module_root,
		       const struct sysfs_snapshot *mod, struct p2pd_model *pci);

/*
 * judge_engine_self_check() - the module's pairs file against this tool's
 * engine on the module's own topology: they differ when the two were
 * built from different versions.
 */
void judge_engine_self_check(struct check_run *r, const struct sysfs_snapshot *mod);

#endif /* P2PDIAG_JUDGE_CROSS_CHECK_H */
