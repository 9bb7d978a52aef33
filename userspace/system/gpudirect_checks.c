// SPDX-License-Identifier: GPL-2.0
/*
 * The checks a GPUDirect pair's preconditions are recorded as, and the
 * text helpers the readiness code and both route judges share
 * (gpudirect_checks.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "topology/pciaddr.h"
#include "system/gpudirect_checks.h"
#include "p2pdiag/verdict.h"

/* @src into @dst, cut to fit: names and report lines, never paths. */
void gd_copy_text(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

struct gd_check *gd_check_add(struct gd_pair *p, const char *route,
			      const char *name, enum tri ok, const char *fmt, ...)
{
	struct gd_check *c;
	va_list ap;

	if (p->nr_check >= GD_MAX_CHECKS)
		return NULL;
	c = &p->check[p->nr_check++];
	c->name = name;
	c->route = route;
	c->ok = ok;
	va_start(ap, fmt);
	vsnprintf(c->evidence, sizeof(c->evidence), fmt, ap);
	va_end(ap);
	return c;
}

void gd_path_check(struct gd_pair *g, const struct p2pd_pair *p)
{
	gd_check_add(g, NULL, "path", p->verdict == P2PD_VERDICT_BLOCKED ? TRI_NO : TRI_YES,
		     "%s, verdict %s%s", p2pd_class_name(p->cls),
		     p2pd_verdict_name(p->verdict),
		     p->verdict == P2PD_VERDICT_REDIRECTED ?
		     " (works, but every transfer turns at the root complex)" : "");
}

const char *gd_addr_text(unsigned long long addr, char buf[P2PD_ADDR_STRLEN])
{
	return pciaddr_format(buf, addr);
}
