/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What gpudirect.c shares with the two route judges, GPUDirect RDMA
 * (gpudirect_rdma.c) and GPUDirect Storage (gpudirect_storage.c): the
 * checks a pair's preconditions are recorded as, and each judge's entry
 * points.  Private to system/gpudirect*.c.
 */
#ifndef P2PDIAG_SYSTEM_GPUDIRECT_ROUTES_H
#define P2PDIAG_SYSTEM_GPUDIRECT_ROUTES_H

#include <stddef.h>

#include "system/gpudirect.h"
#include "p2pdiag/verdict.h"

/* Where a registered peer-memory client (nvidia-peermem) shows itself. */
#define PEER_MEM_DIR	"/sys/kernel/mm/memory_peers/nv_mem"

/* gd_copy_text() - @src into @dst, cut to fit: names and report lines. */
void gd_copy_text(char *dst, size_t len, const char *src);

/*
 * gd_check_add() - record one precondition of @route (NULL: every route)
 * on @p, its evidence formatted from @fmt.
 * Return: the check, or NULL when @p has GD_MAX_CHECKS already.
 */
struct gd_check *gd_check_add(struct gd_pair *p, const char *route,
			      const char *name, enum tri ok, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* gd_path_check() - the "path" check: the pair's class and verdict. */
void gd_path_check(struct gd_pair *g, const struct p2pd_pair *p);

/* gd_addr_text() - @addr as a PCI address in @buf. */
const char *gd_addr_text(unsigned long long addr, char buf[P2PD_ADDR_STRLEN]);

/* gdr_find_rdma() - the RDMA device of NIC @addr into @out, or "". */
void gdr_find_rdma(const struct fsroot *root, const char *addr, char *out,
		   size_t len);

/* gdr_judge_pair() - the RDMA routes' checks of GPU-NIC pair @pi into @g. */
void gdr_judge_pair(const struct check_run *r, const struct gpudirect_facts *f,
		    struct gd_pair *g, unsigned int pi);

/* gdr_findings() - GPUDirect RDMA's findings, added to r->findings. */
void gdr_findings(struct check_run *r, const struct gpudirect *g);

/* gds_judge_pair() - the Storage routes' checks of GPU-NVMe pair @pi into @g. */
void gds_judge_pair(const struct check_run *r, const struct gpudirect_facts *f,
		    struct gd_pair *g, unsigned int pi);

/* gds_find_vmd_nvme() - the NVMe controllers behind a VMD domain into @g. */
void gds_find_vmd_nvme(const struct fsroot *root, struct gpudirect *g);

/* gds_findings() - GPUDirect Storage's findings, added to r->findings. */
void gds_findings(struct check_run *r, const struct gpudirect *g);

#endif /* P2PDIAG_SYSTEM_GPUDIRECT_ROUTES_H */
