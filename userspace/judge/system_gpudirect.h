/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The two route judges, GPUDirect RDMA (system_gpudirect_rdma.c) and
 * GPUDirect Storage (system_gpudirect_storage.c): each judge's entry
 * points, which system_gpudirect.c calls.  The checks they record are
 * system/gpudirect_checks.h's.
 */
#ifndef P2PDIAG_JUDGE_SYSTEM_GPUDIRECT_H
#define P2PDIAG_JUDGE_SYSTEM_GPUDIRECT_H

#include <stddef.h>

#include "system/gpudirect.h"

struct check_run;
struct function_facts;

/* gdr_judge_pair() - the RDMA routes' checks of GPU-NIC pair @pi into @g. */
void gdr_judge_pair(const struct check_run *r, const struct gpudirect_facts *f,
		    struct gd_pair *g, unsigned int pi);

/* gdr_findings() - GPUDirect RDMA's findings, added to r->judged.findings. */
void gdr_findings(struct check_run *r, const struct gpudirect *g,
		  const struct function_facts *facts);

/* gds_judge_pair() - the Storage routes' checks of GPU-NVMe pair @pi into @g. */
void gds_judge_pair(const struct check_run *r, const struct gpudirect_facts *f,
		    const struct function_facts *facts, struct gd_pair *g,
		    unsigned int pi);

/* gds_findings() - GPUDirect Storage's findings, added to r->judged.findings. */
void gds_findings(struct check_run *r, const struct gpudirect *g);

/*
 * gpudirect_nccl_gdr() - NCCL's GPUDirect RDMA decision by distance for
 * the GPU-NIC pair @pair of @r: 1 when NCCL would use it, 0 when not,
 * with the reason in @why.
 */
int gpudirect_nccl_gdr(const struct check_run *r, unsigned int pair,
		       char *why, size_t len);

#endif /* P2PDIAG_JUDGE_SYSTEM_GPUDIRECT_H */
