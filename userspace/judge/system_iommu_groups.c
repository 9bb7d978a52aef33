// SPDX-License-Identifier: GPL-2.0
/*
 * A pair's fix clears ReqRedir and CmpltRedir on its blockers.  The kernel
 * forms IOMMU groups at boot: with those bits clear, every function below
 * a blocker fails the ACS path test and joins its parent's group, so the
 * groups below the blocker become one.  What an administrator who passes
 * devices to VMs gives up is exactly that list of merges.
 *
 * Stale groups: where the ACS a port has now would put a function into
 * its parent's group, yet the function sits in a group of its own, the
 * groups were formed under other ACS settings; they change at the next
 * boot only.  Only ports with a readable ACS capability count (a port
 * without one may be isolated by a device quirk the model does not know).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/judgement.h"
#include "topology/pciaddr.h"
#include "judge/system_checks.h"
#include "p2pdiag/groups.h"
#include "p2pdiag/verdict.h"

#define TEXT_MAX 2048

static void append(char *buf, size_t len, const char *text)
{
	size_t used = strlen(buf);

	if (used + 1 < len && snprintf(buf + used, len - used, "%s%s",
				       used ? "; " : "", text) < 0)
		buf[used] = '\0';
}

/* What clearing @port alone changes: "0000:1c:00.0 (group 6) joins group 5 of ..." */
static unsigned int merges(const struct p2pd_model *m, int port, char *buf, size_t len)
{
	struct p2pd_acs_cleared cl = { &port, 1 };
	unsigned int i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < m->nr_fn; i++) {
		const struct p2pd_function *f = &m->fn[i];
		int now = p2pd_group_anchor(m, (int)i, NULL);
		int after = p2pd_group_anchor(m, (int)i, &cl);
		const struct p2pd_function *t = &m->fn[after];
		char a[P2PD_ADDR_STRLEN], b[P2PD_ADDR_STRLEN], text[128];

		/* only what the fix changes; a group that is off already is stale_groups' */
		if (after == now || f->iommu_group < 0 || t->iommu_group < 0 ||
		    t->iommu_group == f->iommu_group)
			continue;
		snprintf(text, sizeof(text), "%s (group %d) joins group %d of %s",
			 pciaddr_format(a, f->addr), f->iommu_group, t->iommu_group,
			 pciaddr_format(b, t->addr));
		append(buf, len, text);
		n++;
	}
	return n;
}

/* One finding per port that some pair's fix names. */
static void fix_cost(struct check_run *r)
{
	const struct p2pd_model *m = r->in.model;
	char text[TEXT_MAX], a[P2PD_ADDR_STRLEN];
	/* each port once, at the first pair that names it */
	unsigned char *named = calloc(m->nr_fn ? m->nr_fn : 1, 1);
	unsigned int i, k;

	if (!named) {
		r->judged.findings.oom = true;
		return;
	}
	for (i = 0; i < r->judged.nr_pairs; i++) {
		const struct p2pd_pair *p = &r->judged.pair[i];

		if (p->verdict != P2PD_VERDICT_REDIRECTED)
			continue;
		for (k = 0; k < p->nr_blockers; k++) {
			int port = p->blocker[k];

			if (port < 0 || named[port])
				continue;
			named[port] = 1;
			if (!merges(m, port, text, sizeof(text)))
				continue;
			findings_add(&r->judged.findings, SEV_INFO, FC_FIX_MERGES_GROUPS,
				     m->fn[port].addr, FINDING_NO_ADDR,
				     "devices that go to different VMs must then go to the same VM (or keep ACS and lose direct P2P); weigh that before rebooting with the fix",
				     "clearing ACS redirect on %s (the fix names it) costs isolation: at the next boot %s",
				     pciaddr_format(a, m->fn[port].addr), text);
		}
	}
	free(named);
}

static void stale_groups(struct check_run *r)
{
	const struct p2pd_model *m = r->in.model;
	char text[TEXT_MAX] = "";
	unsigned int i, n = 0;

	for (i = 0; i < m->nr_fn; i++) {
		const struct p2pd_function *f = &m->fn[i];
		int to = p2pd_group_anchor(m, (int)i, NULL), brk;
		char a[P2PD_ADDR_STRLEN], b[P2PD_ADDR_STRLEN], item[160];

		if (to == (int)i || f->iommu_group < 0 || m->fn[to].iommu_group < 0 ||
		    m->fn[to].iommu_group == f->iommu_group || !f->has_parent)
			continue;
		brk = p2pd_acs_path_breaker(m, p2pd_model_find(m, f->parent), NULL);
		if (brk == P2PD_NO_INDEX || m->fn[brk].acs != P2PD_PRESENT)
			continue;
		snprintf(item, sizeof(item),
			 "%s in group %d, though ACS control 0x%04x of %s puts it into group %d",
			 pciaddr_format(a, f->addr), f->iommu_group, m->fn[brk].acs_ctrl,
			 pciaddr_format(b, m->fn[brk].addr), m->fn[to].iommu_group);
		append(text, sizeof(text), item);
		n++;
	}
	if (n)
		findings_add(&r->judged.findings, SEV_WARNING, FC_IOMMU_GROUPS_STALE,
			     FINDING_NO_ADDR, FINDING_NO_ADDR,
			     "reboot for the groups to follow, and make the ACS change a kernel parameter (the pairs' pci=disable_acs_redir= fix) so it survives",
			     "IOMMU groups do not match the ACS the ports have now (%s): ACS was changed after boot (setpci?), and the kernel forms groups at boot only, so VFIO and the isolation they promise are stale until a reboot",
			     text);
}

void iommu_groups_judge(struct check_run *r)
{
	if (!r->in.model)
		return;
	fix_cost(r);
	stale_groups(r);
}
