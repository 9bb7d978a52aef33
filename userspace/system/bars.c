// SPDX-License-Identifier: GPL-2.0
/*
 * BARs as the kernel shows them (bars.h).  In a resource file a BAR the
 * kernel could not place keeps its size with IORESOURCE_UNSET in its
 * flags, or reads as starting at 0; resourceN_resize (Linux 6.1 on) is
 * the Resizable BAR capability's bitmask of sizes, bit n meaning 1 MiB
 * << n.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "judge/judge.h"
#include "judge/results.h"
#include "platform/fsroot.h"
#include "topology/pciaddr.h"
#include "system/bars.h"
#include "p2pdiag/decode.h"

#define IORESOURCE_MEM		0x00000200ULL
#define IORESOURCE_MEM_64	0x00100000ULL
#define IORESOURCE_UNSET	0x20000000ULL

int bars_parse(const char *text, struct bar bar[BARS_MAX])
{
	const char *line = text;
	int n = 0;

	while (line && *line && n < BARS_MAX) {
		if (sscanf(line, "%llx %llx %llx", &bar[n].start, &bar[n].end,
			   &bar[n].flags) != 3)
			return -1;
		n++;
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return n;
}

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
	findings_add(&r->findings, SEV_ERROR, "bar-unassigned", f->addr,
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
	char text[32], cur[24], max[24], fix[512], *end;
	unsigned long long sizes, now = b->end - b->start + 1;
	int top;

	if (fsroot_read(r->root, text, sizeof(text),
			"/sys/bus/pci/devices/%s/resource%d_resize", a, i))
		return;
	sizes = strtoull(text, &end, 16);
	if (end == text || !sizes)
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
	findings_add(&r->findings, SEV_WARNING, "bar-resizable-small", f->addr,
		     FINDING_NO_ADDR, fix,
		     "%s %s: BAR %d is %s, while its Resizable BAR capability offers up to %s: peers and the host map the device's memory through a window this small",
		     p2pd_kind_name(p2pd_device_kind(f->class_code)), a, i, cur, max);
}

void bars_judge(struct check_run *r)
{
	const struct p2pd_model *m = r->model;
	unsigned int i;

	for (i = 0; m && i < m->nr_fn; i++) {
		const struct p2pd_function *f = &m->fn[i];
		enum p2pd_kind kind = p2pd_device_kind(f->class_code);
		struct bar bar[BARS_MAX];
		char a[P2PD_ADDR_STRLEN], text[1024];
		int n, b;

		if (!f->p2p_endpoint || !run_fn_selected(r, (int)i) ||
		    (kind != P2PD_KIND_GPU && kind != P2PD_KIND_NIC &&
		     kind != P2PD_KIND_ACCELERATOR))
			continue;
		pciaddr_format(a, f->addr);
		if (fsroot_read(r->root, text, sizeof(text),
				"/sys/bus/pci/devices/%s/resource", a))
			continue;
		n = bars_parse(text, bar);
		for (b = 0; b < n; b++) {
			if (!(bar[b].flags & IORESOURCE_MEM) || bar[b].end <= bar[b].start)
				continue;
			if ((bar[b].flags & IORESOURCE_UNSET) || !bar[b].start)
				unassigned(r, f, a, b, &bar[b]);
			else
				resizable(r, f, a, b, &bar[b]);
		}
	}
}
