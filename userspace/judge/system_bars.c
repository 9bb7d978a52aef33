// SPDX-License-Identifier: GPL-2.0
/*
 * The BARs of the GPUs, NICs and accelerators that take part in P2P
 * (system/bars.h): a BAR with no address, a Resizable BAR below the
 * largest size it offers (resourceN_resize's bit n meaning 1 MiB << n), a
 * 64-bit one left below 4 GiB, and a bridge window above that cannot take
 * it (a bridge decodes addresses above 4 GiB only with a 64-bit
 * prefetchable window).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/judgement.h"
#include "judge/judge.h"
#include "judge/results.h"
#include "judge/system_checks.h"
#include "topology/pciaddr.h"
#include "system/bars.h"
#include "system/system.h"
#include "p2pdiag/decode.h"

#define BELOW_4G		(1ULL << 32)

static void size_str(char *buf, size_t len, unsigned long long bytes)
{
	if (bytes >= 1ULL << 30 && !(bytes & ((1ULL << 30) - 1)))
		snprintf(buf, len, "%llu GiB", bytes >> 30);
	else if (bytes >= 1ULL << 20)
		snprintf(buf, len, "%llu MiB", bytes >> 20);
	else
		snprintf(buf, len, "%llu KiB", bytes >> 10);
}

static void unassigned(struct check_run *r, const struct p2pd_function *f,
		       const char *a, int i, const struct bar *b)
{
	char size[24];

	size_str(size, sizeof(size), b->end - b->start + 1);
	findings_add(&r->judged.findings, SEV_ERROR, FC_BAR_UNASSIGNED, f->addr,
		     FINDING_NO_ADDR,
		     b->flags & IORESOURCE_MEM_64 ?
		     "turn on \"Above 4G Decoding\" (\"Above 4G MMIO\", \"64-bit MMIO\") in the BIOS so the firmware places the 64-bit BAR; else boot with the kernel parameter pci=realloc so the kernel resizes the bridge windows; dmesg says \"BAR N: no space for\" for each BAR it could not place" :
		     "boot with the kernel parameter pci=realloc so the kernel resizes the bridge windows, or free 32-bit MMIO space in the BIOS; dmesg says \"BAR N: no space for\" for each BAR it could not place",
		     "%s %s: BAR %d (%s%s) has no address: nothing can reach that memory, peers included",
		     p2pd_kind_name(p2pd_device_kind(f->class_code)), a, i, size,
		     b->flags & IORESOURCE_MEM_64 ? ", 64-bit" : "");
}

/* A Resizable BAR below the largest size its capability offers. */
static void resizable(struct check_run *r, const struct p2pd_function *f,
		      const char *a, int i, const struct bar *b)
{
	char cur[24], max[24], fix[512];
	unsigned long long sizes, now = b->end - b->start + 1;
	int top;

	sizes = bar_resize_sizes(r->in.root, &r->in.system->refused, a, i);
	if (!sizes)
		return;
	for (top = 63; top >= 0 && !(sizes >> top & 1); top--)
		;
	if (top > 43 || (1ULL << 20 << top) <= now)
		return;
	size_str(cur, sizeof(cur), now);
	size_str(max, sizeof(max), 1ULL << 20 << top);
	snprintf(fix, sizeof(fix),
		 "turn on \"Resizable BAR\" (\"Re-Size BAR Support\") and \"Above 4G Decoding\" in the BIOS; or, with the driver unbound, echo %d > /sys/bus/pci/devices/%s/resource%d_resize (Linux 6.1 and later) and bind it again",
		 top, a, i);
	findings_add(&r->judged.findings, SEV_WARNING, FC_BAR_RESIZABLE_SMALL, f->addr,
		     FINDING_NO_ADDR, fix,
		     "%s %s: BAR %d is %s, while its Resizable BAR capability offers up to %s: peers and the host map the device's memory through a window this small",
		     p2pd_kind_name(p2pd_device_kind(f->class_code)), a, i, cur, max);
}

static unsigned long long window_size(const struct bridge_window *w)
{
	return w->limit < w->base ? 0 : w->limit - w->base + 1;
}

/*
 * Whether the placed BAR @b lies in one of the bridge's memory windows:
 * the prefetchable one @w, or the non-prefetchable one, where the kernel
 * puts a prefetchable BAR that the other has no room for.
 */
static bool window_holds(const struct fsroot *root,
			 struct fsroot_refusal *refused,
			 unsigned long long addr, const struct bridge_window *w,
			 const struct bar *b)
{
	struct bridge_window mem = { 0 };

	if (window_size(w) && b->start >= w->base && b->end <= w->limit)
		return true;
	if (!bridge_mem_window_read(root, refused, addr, &mem))
		return false;
	return window_size(&mem) && b->start >= mem.base && b->end <= mem.limit;
}

static void window_str(char *buf, size_t len, const struct bridge_window *w)
{
	char size[24];

	if (!window_size(w)) {
		snprintf(buf, len, "disabled");
		return;
	}
	size_str(size, sizeof(size), window_size(w));
	snprintf(buf, len, "%s at %#llx-%#llx, %s", size, w->base, w->limit,
		 w->is64 ? "64-bit" : "32-bit addresses only");
}

#define FIX_ABOVE_4G "turn on \"Above 4G Decoding\" (\"Above 4G MMIO\", \"64-bit MMIO\", \"MMIO above 4G\") in the BIOS, with \"Resizable BAR\" where it is offered"

/*
 * The nearest bridge above @f whose prefetchable window cannot take the
 * 64-bit prefetchable BAR @b: for a BAR with no address, smaller than it
 * or 32-bit only; for a placed one, a window that neither holds it nor
 * is large enough (a BAR in the bridge's non-prefetchable window is
 * placed as it should be).  A bridge whose registers cannot be read ends
 * the walk with nothing said.
 */
static void bridge_windows(struct check_run *r, const struct p2pd_function *f,
			   const char *a, int i, const struct bar *b, bool unset)
{
	const struct p2pd_model *m = r->in.model;
	unsigned long long size = b->end - b->start + 1;
	const struct p2pd_function *up = f;
	char bridge[P2PD_ADDR_STRLEN], win[96], sz[24];
	struct bridge_window w;
	int idx, steps = 0;

	while (up->has_parent && steps++ < P2PD_MAX_DEPTH) {
		idx = p2pd_model_find(m, up->parent);
		if (idx == P2PD_NO_INDEX)
			return;
		up = &m->fn[idx];
		if (!bridge_window_read(r->in.root, &r->in.system->refused,
					up->addr, &w))
			return;
		if (unset ? window_size(&w) >= size && w.is64 :
			    window_size(&w) >= size || window_holds(r->in.root, &r->in.system->refused, up->addr, &w, b))
			continue;
		pciaddr_format(bridge, up->addr);
		window_str(win, sizeof(win), &w);
		size_str(sz, sizeof(sz), size);
		findings_add(&r->judged.findings, unset ? SEV_ERROR : SEV_WARNING,
			     FC_BAR_BRIDGE_WINDOW, f->addr, FINDING_NO_ADDR,
			     FIX_ABOVE_4G ", and raise the 64-bit MMIO size (\"MMIO High Size\", \"MMIOH Size\") so the bridges above get windows the BAR fits; or boot with the kernel parameter pci=realloc (for a hotplug slot also pci=hpmmioprefsize=) so the kernel sizes the bridge windows again",
			     "%s %s: BAR %d (%s, 64-bit prefetchable) cannot fit bridge %s's prefetchable window (%s)%s",
			     p2pd_kind_name(p2pd_device_kind(f->class_code)), a, i, sz,
			     bridge, win,
			     unset ? ": so the BAR has no address" : "");
		return;
	}
}

/*
 * A GPU's or accelerator's 64-bit prefetchable BAR below 4 GiB, none of
 * its others above: placed in the small 32-bit MMIO range, as firmware
 * does with Above 4G Decoding off, where it cannot grow to the device's
 * memory.  The largest is named.  A NIC's small 64-bit BARs there are
 * common and harmless.
 */
static void below_4g(struct check_run *r, const struct p2pd_function *f,
		     const char *a, int i, const struct bar *b)
{
	const struct p2pd_model *m = r->in.model;
	int idx = f->has_parent ? p2pd_model_find(m, f->parent) : P2PD_NO_INDEX;
	char size[24], why[160] = "";
	struct bridge_window w;

	if (idx != P2PD_NO_INDEX && bridge_window_read(r->in.root, &r->in.system->refused, m->fn[idx].addr, &w) &&
	    !w.is64) {
		char bridge[P2PD_ADDR_STRLEN];

		snprintf(why, sizeof(why), "; bridge %s's prefetchable window decodes 32-bit addresses only",
			 pciaddr_format(bridge, m->fn[idx].addr));
	}
	size_str(size, sizeof(size), b->end - b->start + 1);
	findings_add(&r->judged.findings, SEV_WARNING, FC_BAR_BELOW_4G, f->addr,
		     FINDING_NO_ADDR,
		     FIX_ABOVE_4G ", so the firmware places the BAR above 4 GiB; where it is on already, boot with the kernel parameter pci=realloc so the kernel places it again",
		     "%s %s: BAR %d (%s, 64-bit prefetchable) lies at %#llx, below 4 GiB: the firmware put a 64-bit BAR in the small 32-bit MMIO range, as it does with Above 4G Decoding off, where it cannot grow to the device's memory%s",
		     p2pd_kind_name(p2pd_device_kind(f->class_code)), a, i, size,
		     b->start, why);
}

void bars_judge(struct check_run *r)
{
	const struct p2pd_model *m = r->in.model;
	unsigned int i;

	for (i = 0; m && i < m->nr_fn; i++) {
		const struct p2pd_function *f = &m->fn[i];
		enum p2pd_kind kind = p2pd_device_kind(f->class_code);
		struct bar bar[BARS_MAX];
		char a[P2PD_ADDR_STRLEN];
		int n, b, low = -1;
		bool above = false;

		if (!f->p2p_endpoint || !run_fn_selected(r, (int)i) ||
		    (kind != P2PD_KIND_GPU && kind != P2PD_KIND_NIC &&
		     kind != P2PD_KIND_ACCELERATOR))
			continue;
		pciaddr_format(a, f->addr);
		n = bars_read(r->in.root, &r->in.system->refused, f->addr, bar);
		for (b = 0; b < n; b++) {
			bool unset, pref64;

			if (!bar_is_memory(&bar[b]))
				continue;
			unset = bar_unassigned(&bar[b]);
			pref64 = (bar[b].flags & IORESOURCE_MEM_64) &&
				 (bar[b].flags & IORESOURCE_PREFETCH);
			if (unset)
				unassigned(r, f, a, b, &bar[b]);
			else
				resizable(r, f, a, b, &bar[b]);
			if (pref64 && !unset && bar[b].start >= BELOW_4G)
				above = true;
			else if (pref64 && !unset &&
				 (low < 0 || bar[b].end - bar[b].start >
					     bar[low].end - bar[low].start))
				low = b;
			if (pref64)
				bridge_windows(r, f, a, b, &bar[b], unset);
		}
		/* one 64-bit BAR above 4 GiB shows the firmware can place them there */
		if (low >= 0 && !above && kind != P2PD_KIND_NIC)
			below_4g(r, f, a, low, &bar[low]);
	}
}
