/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the GPUDirect readers (gpudirect*.c) and the readiness judges
 * (judge/system_gpudirect*.c) share: the checks a pair's preconditions
 * are recorded as, and the text of names and addresses.  It calls none
 * of them, so that each depends on it, never round.
 */
#ifndef P2PDIAG_SYSTEM_GPUDIRECT_CHECKS_H
#define P2PDIAG_SYSTEM_GPUDIRECT_CHECKS_H

#include <stddef.h>

#include "system/gpudirect.h"
#include "p2pdiag/model.h"

struct p2pd_pair;

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

#endif /* P2PDIAG_SYSTEM_GPUDIRECT_CHECKS_H */
