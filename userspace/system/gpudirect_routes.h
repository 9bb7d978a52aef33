/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The two route judges, GPUDirect RDMA (gpudirect_rdma.c) and GPUDirect
 * Storage (gpudirect_storage.c): each judge's entry points, which
 * gpudirect.c calls.  The checks they record are gpudirect_checks.h's.
 * Private to system/gpudirect*.c.
 */
#ifndef P2PDIAG_SYSTEM_GPUDIRECT_ROUTES_H
#define P2PDIAG_SYSTEM_GPUDIRECT_ROUTES_H

#include <stddef.h>

#include "system/gpudirect.h"
#include "p2pdiag/verdict.h"

/* Where a registered peer-memory client (nvidia-peermem) shows itself. */
#define PEER_MEM_DIR	"/sys/kernel/mm/memory_peers/nv_mem"

/* gdr_find_rdma() - the RDMA device of NIC @addr into @out, or "". */
void gdr_find_rdma(const struct fsroot *root, const char *addr, char *out,
		   size_t len);

/* gdr_judge_pair() - the RDMA routes' checks of GPU-NIC pair @pi into @g. */
void gdr_judge_pair(const struct check_run *r, const struct gpudirect_facts *f,
		    struct gd_pair *g, unsigned int pi);

/* gdr_findings() - GPUDirect RDMA's findings, added to r->judged.findings. */
void gdr_findings(struct check_run *r, const struct gpudirect *g);

/* gds_judge_pair() - the Storage routes' checks of GPU-NVMe pair @pi into @g. */
void gds_judge_pair(const struct check_run *r, const struct gpudirect_facts *f,
		    struct gd_pair *g, unsigned int pi);

/* gds_find_vmd_nvme() - the NVMe controllers behind a VMD domain into @g. */
void gds_find_vmd_nvme(const struct fsroot *root, struct gpudirect *g);

/* gds_findings() - GPUDirect Storage's findings, added to r->judged.findings. */
void gds_findings(struct check_run *r, const struct gpudirect *g);

#endif /* P2PDIAG_SYSTEM_GPUDIRECT_ROUTES_H */
