// SPDX-License-Identifier: GPL-2.0
/*
 * The module checked against the tool: its files, field by field, against
 * libpci's reading of the same machine (--cross-check), and its pairs
 * against this tool's copy of the verdict engine on the module's own
 * topology.  A difference is a finding naming the first place it shows.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/cross_check.h"
#include "platform/fsroot.h"
#include "topology/format_text.h"
#include "topology/pciaddr.h"
#include "uapi/p2pdiag/abi.h"
#include "p2pdiag/format.h"

/* The first line where two texts differ, for a message. */
static void first_difference(const char *x, const char *y, char *out, size_t len)
{
	unsigned int line = 1;
	const char *lx = x, *ly = y;

	while (*x && *x == *y) {
		if (*x == '\n') {
			line++;
			lx = x + 1;
			ly = y + 1;
		}
		x++;
		y++;
	}
	snprintf(out, len, "line %u: module '%.*s', libpci '%.*s'", line,
		 (int)strcspn(lx, "\n"), lx, (int)strcspn(ly, "\n"), ly);
}

/* Mark in @to the functions @from marks as heading their root bus's list. */
static void take_root_bus_heads(struct p2pd_model *to,
				const struct p2pd_model *from)
{
	unsigned int i;
	int j;

	for (i = 0; i < from->nr_fn; i++) {
		if (!from->fn[i].root_bus_first)
			continue;
		for (j = 0; j < (int)to->nr_fn; j++)
			if (!to->fn[j].has_parent &&
			    to->fn[j].host_bridge == from->fn[i].host_bridge)
				to->fn[j].root_bus_first = 0;
		j = p2pd_model_find(to, from->fn[i].addr);
		if (j != P2PD_NO_INDEX)
			to->fn[j].root_bus_first = 1;
	}
}

void judge_cross_check(struct check_run *r, const struct fsroot *module_root,
		       const struct sysfs_snapshot *mod, struct p2pd_model *pci)
{
	const char *root = fsroot_get(module_root);
	const struct p2pd_model *mm = &mod->model;
	unsigned int i = 0, j = 0;
	char *text;
	size_t len;

	while (i < mm->nr_fn || j < pci->nr_fn) {
		unsigned long long am = i < mm->nr_fn ? mm->fn[i].addr : ULLONG_MAX;
		unsigned long long ap = j < pci->nr_fn ? pci->fn[j].addr : ULLONG_MAX;
		char a[P2PD_ADDR_STRLEN], diff[1024] = "";
		size_t used = 0;
		int field;

		if (am != ap) {
			unsigned long long only = am < ap ? am : ap;

			pciaddr_format(a, only);
			findings_add(&r->judged.findings, SEV_WARNING, FC_CROSS_CHECK_MISMATCH,
				     only, FINDING_NO_ADDR, FINDING_NO_FIX,
				     "function %s is in the %s snapshot only", a,
				     am < ap ? "module's" : "libpci");
			if (am < ap)
				i++;
			else
				j++;
			continue;
		}
		pciaddr_format(a, am);
		for (field = 0; field < P2PD_F_COUNT; field++) {
			char path[PATH_MAX], have[160], want[160];

			snprintf(path, sizeof(path), "%s/%s/%s/%s", root,
				 P2PD_DIR_DEVICES, a, p2pd_field_name(field));
			/*
			 * The module names the group and leaves its type to
			 * the group's type file, which both models were given.
			 */
			if (field == P2PD_F_IOMMU_DOMAIN ||
			    sysfs_read_value(root, path, have, sizeof(have), NULL)) {
				/* no per-function file: the topology line */
				p2pd_field_text(have, sizeof(have), &mm->fn[i], field);
			}
			p2pd_field_text(want, sizeof(want), &pci->fn[j], field);
			if (strcmp(have, want) && used < sizeof(diff))
				used += (size_t)snprintf(diff + used, sizeof(diff) - used,
							 "%s%s module '%s' libpci '%s'",
							 used ? "; " : "",
							 p2pd_field_name(field), have, want);
		}
		if (used)
			findings_add(&r->judged.findings, SEV_WARNING, FC_CROSS_CHECK_MISMATCH,
				     am, FINDING_NO_ADDR,
				     "report it with both readings: the module or the libpci walk misreads this function",
				     "%s: %s", a, diff);
		i++;
		j++;
	}

	/*
	 * The pairs text, byte for byte, as the module would write it.  Which
	 * function heads a root bus's device list is not in sysfs (libpci's
	 * reading takes the lowest address, a boot-time scan's order): the
	 * module's mark is the one fact taken over, so a device added back
	 * at a list's tail is no mismatch.
	 */
	pci->generation = mod->generation;
	take_root_bus_heads(pci, mm);
	text = format_pairs_like(pci, mod->pairs, mod->pairs_len, &len);
	if (!text) {
		r->judged.findings.oom = true;
		return;
	}
	if (len != mod->pairs_len || memcmp(text, mod->pairs, len)) {
		char where[1024];

		first_difference(mod->pairs, text, where, sizeof(where));
		findings_add(&r->judged.findings, SEV_WARNING, FC_CROSS_CHECK_PAIRS,
			     FINDING_NO_ADDR, FINDING_NO_ADDR, FINDING_NO_FIX,
			     "the module's pairs file and the same engine over libpci's reading differ: %s",
			     where);
	}
	free(text);
}

void judge_engine_self_check(struct check_run *r, const struct sysfs_snapshot *mod)
{
	size_t len;
	char *text = format_pairs_like(&mod->model, mod->pairs, mod->pairs_len,
				       &len);
	char where[1024];

	if (!text) {
		r->judged.findings.oom = true;
		return;
	}
	if (len != mod->pairs_len || memcmp(text, mod->pairs, len)) {
		first_difference(mod->pairs, text, where, sizeof(where));
		findings_add(&r->judged.findings, SEV_WARNING, FC_ENGINE_MISMATCH,
			     FINDING_NO_ADDR, FINDING_NO_ADDR,
			     "install the module and the tool from the same p2pdiag version",
			     "the module's pairs differ from this tool's verdict engine on the module's own topology (%s): they were built from different versions",
			     where);
	}
	free(text);
}
