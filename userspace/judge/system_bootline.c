// SPDX-License-Identifier: GPL-2.0
/*
 * How the kernel reads the ACS options (drivers/pci/pci.c, pci_setup()):
 * each pci= argument's value is split on commas into options, so
 * "disable_acs_redir=A,B" sets the list to "A" and B becomes an unknown
 * option; each disable_acs_redir= (or config_acs=) replaces the list kept
 * so far, so of two pci= arguments only the last one's list applies.  The
 * list separates devices with ';'.  A device is "[dddd:]bb:dd.f" with
 * optional "/dd.f" steps down the path, or "pci:vvvv:dddd[:sv:sd]".
 * disable_acs_redir clears RR, CR and EC; config_acs sets each bit given
 * as 0 or 1, the rightmost character being bit 0 (SV).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/judgement.h"
#include "topology/pciaddr.h"
#include "judge/system_checks.h"
#include "topology/bootline_args.h"
#include "uapi/p2pdiag/abi.h"
#include "p2pdiag/verdict.h"

#define LIST_MAX	1024

/* The ACS lists as the kernel ends up with them, and what went wrong. */
struct acs_args {
	char redir[LIST_MAX];		/* the disable_acs_redir list that applies */
	char config[LIST_MAX];		/* the config_acs list that applies */
	unsigned int nr_redir_lists;	/* pci= arguments that set disable_acs_redir */
	unsigned int nr_config_lists;	/* ... and config_acs */
	char lists_seen[LIST_MAX];	/* each such argument, for the message */
	char comma_lost[LIST_MAX];	/* devices cut off by a comma */
	char comma_arg[BOOTLINE_ARG_MAX];
	char comma_fixed[BOOTLINE_ARG_MAX];	/* the same argument, lists with ';' */
	bool noacs, iommu_pt, acs_override;
};

/* Whether @tok reads as a device the ACS lists name (address or pci:ids). */
static bool looks_like_device(const char *tok)
{
	unsigned long long a;
	char head[32];

	if (!strncmp(tok, "pci:", 4) || strchr(tok, '@'))
		return true;
	snprintf(head, sizeof(head), "%.*s", (int)strcspn(tok, "/;"), tok);
	return !pciaddr_parse(head, &a);
}

static void append(char *buf, size_t len, const char *sep, const char *text)
{
	size_t used = strlen(buf);

	/* cut at the buffer's end: the message stays readable */
	if (used + 1 < len &&
	    snprintf(buf + used, len - used, "%s%s", used ? sep : "", text) < 0)
		buf[used] = '\0';
}

static void scan_pci_value(struct acs_args *a, const char *value, const char *arg)
{
	char copy[BOOTLINE_ARG_MAX], rebuilt[BOOTLINE_ARG_MAX] = "", *tok, *save;
	bool in_list = false, set_redir = false, set_config = false, lost = false;

	snprintf(copy, sizeof(copy), "%s", value);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (in_list && looks_like_device(tok)) {
			append(a->comma_lost, sizeof(a->comma_lost), ", ", tok);
			append(rebuilt, sizeof(rebuilt), ";", tok);
			lost = true;
			continue;
		}
		in_list = false;
		append(rebuilt, sizeof(rebuilt), ",", tok);
		if (!strncmp(tok, "disable_acs_redir=", 18)) {
			snprintf(a->redir, sizeof(a->redir), "%s", tok + 18);
			in_list = set_redir = true;
		} else if (!strncmp(tok, "config_acs=", 11)) {
			snprintf(a->config, sizeof(a->config), "%s", tok + 11);
			in_list = set_config = true;
		} else if (!strcmp(tok, "noacs")) {
			a->noacs = true;
		}
	}
	if (lost) {
		snprintf(a->comma_arg, sizeof(a->comma_arg), "%s", arg);
		if (snprintf(a->comma_fixed, sizeof(a->comma_fixed), "pci=%s",
			     rebuilt) >= (int)sizeof(a->comma_fixed))
			snprintf(a->comma_fixed, sizeof(a->comma_fixed),
				 "(too long to rewrite here: separate its devices with ';')");
	}
	a->nr_redir_lists += set_redir;
	a->nr_config_lists += set_config;
	if (set_redir || set_config)
		append(a->lists_seen, sizeof(a->lists_seen), " ", arg);
}

static void scan(struct acs_args *a, const char *cmdline)
{
	char arg[BOOTLINE_ARG_MAX];
	const char *s = cmdline;

	memset(a, 0, sizeof(*a));
	while ((s = bootline_next_arg(s, arg, sizeof(arg)))) {
		if (!strncmp(arg, "pci=", 4))
			scan_pci_value(a, arg + 4, arg);
		else if (bootline_iommu_arg(arg) == BOOTLINE_IOMMU_PASSTHROUGH)
			a->iommu_pt = true;
		else if (!strncmp(arg, "pcie_acs_override=", 18))
			a->acs_override = true;
	}
}

static int child_at(const struct p2pd_model *m, int parent, unsigned int dev,
		    unsigned int fn)
{
	unsigned int i;

	for (i = 0; i < m->nr_fn; i++) {
		const struct p2pd_function *f = &m->fn[i];

		if (f->has_parent && f->parent == m->fn[parent].addr &&
		    P2PD_ADDR_DEV(f->addr) == dev && P2PD_ADDR_FN(f->addr) == fn)
			return (int)i;
	}
	return P2PD_NO_INDEX;
}

/*
 * The functions a device spec names, into @out (at most @max).
 * Return: how many, 0 when none of the topology matches.
 */
static unsigned int resolve(const struct p2pd_model *m, const char *spec,
			    int *out, unsigned int max)
{
	unsigned int v, d, sv = 0xffff, sd = 0xffff, n = 0, i;
	unsigned long long addr;
	char head[32];
	const char *step;
	int idx;

	if (!strncmp(spec, "pci:", 4)) {
		if (sscanf(spec + 4, "%x:%x:%x:%x", &v, &d, &sv, &sd) < 2)
			return 0;
		for (i = 0; i < m->nr_fn && n < max; i++)
			if (m->fn[i].vendor == v && m->fn[i].device == d)
				out[n++] = (int)i;	/* subsystem ids are not in the model */
		return n;
	}
	snprintf(head, sizeof(head), "%.*s", (int)strcspn(spec, "/"), spec);
	if (pciaddr_parse(head, &addr))
		return 0;
	idx = p2pd_model_find(m, addr);
	for (step = strchr(spec, '/'); step && idx != P2PD_NO_INDEX;
	     step = strchr(step + 1, '/')) {
		unsigned int dv, fn;

		if (sscanf(step + 1, "%x.%x", &dv, &fn) != 2)
			return 0;
		idx = child_at(m, idx, dv, fn);
	}
	if (idx == P2PD_NO_INDEX || !max)
		return 0;
	out[0] = idx;
	return 1;
}

/* config_acs flags: the bits given as 0 (@zero) and as 1 (@one). */
static void config_flags(const char *flags, size_t len, unsigned int *zero,
			 unsigned int *one)
{
	size_t k;

	*zero = *one = 0;
	for (k = 0; k < len && k < 7; k++) {
		char c = flags[len - 1 - k];

		if (c == '0')
			*zero |= 1u << k;
		else if (c == '1')
			*one |= 1u << k;
	}
}

struct verify {
	char applied[LIST_MAX], not_applied[LIST_MAX], absent[LIST_MAX];
};

static void check_port(const struct p2pd_function *f, unsigned int zero,
		       unsigned int one, struct verify *v)
{
	char a[P2PD_ADDR_STRLEN], text[96];

	pciaddr_format(a, f->addr);
	if (f->acs != P2PD_PRESENT) {
		snprintf(text, sizeof(text), "%s (no readable ACS capability)", a);
		append(v->not_applied, sizeof(v->not_applied), ", ", text);
	} else if ((f->acs_ctrl & zero) || (f->acs_ctrl & one) != one) {
		snprintf(text, sizeof(text), "%s (ACS control 0x%04x)", a, f->acs_ctrl);
		append(v->not_applied, sizeof(v->not_applied), ", ", text);
	} else {
		append(v->applied, sizeof(v->applied), ", ", a);
	}
}

static void verify_list(const struct p2pd_model *m, const char *list, bool config,
			struct verify *v)
{
	char copy[LIST_MAX], *spec, *save;

	snprintf(copy, sizeof(copy), "%s", list);
	for (spec = strtok_r(copy, ";", &save); spec; spec = strtok_r(NULL, ";", &save)) {
		unsigned int zero = P2PD_ACS_REDIRECT_MASK, one = 0, n, i;
		const char *dev = spec;
		int idx[16];

		if (config) {
			const char *at = strchr(spec, '@');

			if (!at)
				continue;
			config_flags(spec, (size_t)(at - spec), &zero, &one);
			dev = at + 1;
		}
		n = resolve(m, dev, idx, 16);
		if (!n)
			append(v->absent, sizeof(v->absent), ", ", dev);
		/* by ids, only the matches that have ACS are ports it can set */
		for (i = 0; i < n; i++)
			if (strncmp(dev, "pci:", 4) || m->fn[idx[i]].acs == P2PD_PRESENT)
				check_port(&m->fn[idx[i]], zero, one, v);
	}
}

static bool any_redirected(const struct check_run *r)
{
	unsigned int i;

	for (i = 0; i < r->judged.nr_pairs; i++)
		if (r->judged.pair[i].verdict == P2PD_VERDICT_REDIRECTED)
			return true;
	return false;
}

static void lint(struct check_run *r, const struct acs_args *a)
{
	if (a->comma_lost[0]) {
		findings_add(&r->judged.findings, SEV_WARNING, FC_CMDLINE_ACS_COMMA,
			     FINDING_NO_ADDR, FINDING_NO_ADDR, a->comma_fixed,
			     "'%s': the kernel splits pci= options on commas, so the ACS list stops at the first comma and %s %s: devices in the list are separated by ';'",
			     a->comma_arg, a->comma_lost,
			     strchr(a->comma_lost, ',') ? "are read as unknown pci= options" :
			     "is read as an unknown pci= option");
	}
	if (a->nr_redir_lists > 1 || a->nr_config_lists > 1)
		findings_add(&r->judged.findings, SEV_WARNING, FC_CMDLINE_PCI_REPEATED,
			     FINDING_NO_ADDR, FINDING_NO_ADDR,
			     "put every device into one list of one pci= argument, separated by ';' (pci=disable_acs_redir=A;B;C)",
			     "more than one pci= argument sets the same ACS list (%s): each replaces the one before, so only the last applies (disable_acs_redir='%s'%s%s%s)",
			     a->lists_seen, a->redir, a->config[0] ? ", config_acs='" : "",
			     a->config, a->config[0] ? "'" : "");
	if (a->noacs)
		findings_add(&r->judged.findings, SEV_WARNING, FC_CMDLINE_NOACS,
			     FINDING_NO_ADDR, FINDING_NO_ADDR,
			     "remove pci=noacs; to stop ACS redirect use the pci=disable_acs_redir= list this report gives for the redirected pairs",
			     "pci=noacs is no mainline kernel option: the kernel logs \"Unknown option\" and leaves ACS as it was");
	if (a->acs_override)
		findings_add(&r->judged.findings, SEV_INFO, FC_CMDLINE_ACS_OVERRIDE,
			     FINDING_NO_ADDR, FINDING_NO_ADDR, NULL,
			     "pcie_acs_override= (an out-of-tree patch) changes how such a kernel forms IOMMU groups; it does not clear ACS redirect, so P2P still turns at the root complex");
	if (a->iommu_pt && any_redirected(r))
		findings_add(&r->judged.findings, SEV_INFO, FC_CMDLINE_IOMMU_PT,
			     FINDING_NO_ADDR, FINDING_NO_ADDR,
			     "keep iommu=pt if wanted, and clear the redirect with the pairs' pci=disable_acs_redir= fix",
			     "iommu=pt is set, yet ACS still redirects on the paths of redirected pairs: pass-through changes IOMMU translation only; the kernel enables ACS whenever an IOMMU is present");
}

void bootline_judge(struct check_run *r, const char *cmdline)
{
	struct acs_args a;
	struct verify v;

	memset(&v, 0, sizeof(v));
	scan(&a, cmdline);
	lint(r, &a);
	if (!r->in.model || (!a.redir[0] && !a.config[0]))
		return;
	verify_list(r->in.model, a.redir, false, &v);
	verify_list(r->in.model, a.config, true, &v);
	if (v.not_applied[0])
		findings_add(&r->judged.findings, SEV_WARNING, FC_CMDLINE_FIX_NOT_APPLIED,
			     FINDING_NO_ADDR, FINDING_NO_ADDR,
			     "check the kernel log for \"PCI: Can't parse ACS command line parameter\" and for quirks that set ACS again; a device reset restores ACS too (pci_restore_state), so does a driver rebind on 6.18 and newer",
			     "the kernel command line names %s for its ACS setting, but it did not take: they still have the bits it should clear (or lack those it should set)",
			     v.not_applied);
	if (v.absent[0])
		findings_add(&r->judged.findings, SEV_WARNING, FC_CMDLINE_FIX_NO_DEVICE,
			     FINDING_NO_ADDR, FINDING_NO_ADDR,
			     "run p2pdiag-check again and use the addresses it names now; a bus-number-independent form is the path (e.g. 0000:00:03.0/00.0/08.0) or pci:vendor:device",
			     "the kernel command line's ACS list names %s, which this topology does not have: bus numbers may have moved since the fix was written (a card added, moved or removed)",
			     v.absent);
	if (v.applied[0])
		findings_add(&r->judged.findings, SEV_INFO, FC_CMDLINE_FIX_APPLIED,
			     FINDING_NO_ADDR, FINDING_NO_ADDR, NULL,
			     "the ACS setting on the kernel command line took effect on %s (ReqRedir, CmpltRedir, EgressCtrl as asked)",
			     v.applied);
}
