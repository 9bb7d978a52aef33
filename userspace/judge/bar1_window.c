// SPDX-License-Identifier: GPL-2.0
/*
 * BAR1 against the GPU's memory (bar1_window.h), from NVML's
 * nvmlDeviceGetBAR1MemoryInfo and nvmlDeviceGetMemoryInfo.  BAR1 is
 * resource1 in sysfs on NVIDIA GPUs (the 64-bit BAR at 0x14), and a
 * Resizable BAR size is 1 MiB << n, so the size that spans the memory
 * is the smallest such power of two.
 */
#include <stdio.h>

#include "judge/bar1_window.h"
#include "judge/judge_priv.h"
#include "judge/results.h"

#define MIB	(1ULL << 20)

bool bar1_spans_memory(unsigned long long bar1, unsigned long long memory)
{
	return bar1 >= memory;
}

/* The resourceN_resize exponent n of the first size 1 MiB << n >= @bytes. */
static unsigned int resize_exponent(unsigned long long bytes)
{
	unsigned int n = 0;

	while (n < 43 && (MIB << n) < bytes)
		n++;
	return n;
}

void judge_bar1_windows(struct check_run *r)
{
	const struct gpu_state *st = r->in.gpu;
	unsigned int g;

	for (g = 0; st && r->judged.results && g < st->nr_dev; g++) {
		const struct gpu_device *d = &st->dev[g];
		const struct gpu_bar1_reading *b = &d->bar1;
		char fix[FIX_LEN], addr[P2PD_ADDR_STRLEN];

		if (!r->judged.results->gpu[g].selected || !b->valid ||
		    bar1_spans_memory(b->total, b->memory))
			continue;
		snprintf(addr, sizeof(addr), "%s", judge_addr_str(d->pci_addr));
		snprintf(fix, sizeof(fix),
			 "turn on \"Resizable BAR\" (\"Re-Size BAR Support\") and \"Above 4G Decoding\" (\"Above 4G MMIO\", \"64-bit MMIO\") in the BIOS; on Linux 6.1 and later, where /sys/bus/pci/devices/%s/resource1_resize lists the sizes the GPU offers (bit n: 1 MiB << n), echo %u > that file with the driver unbound and bind it again; a GPU without the Resizable BAR capability keeps this BAR1",
			 addr, resize_exponent(b->memory));
		findings_add(&r->judged.findings, SEV_WARNING, FC_BAR1_BELOW_MEMORY,
			     d->pci_addr, FINDING_NO_ADDR, fix,
			     "GPU %s: NVML's BAR1 is %llu MiB (%llu MiB in use) for %llu MiB of memory: peers and NICs map the GPU's memory through BAR1, so no more than that at once, and a driver that maps all of it for peers fails",
			     addr, b->total / MIB, b->used / MIB, b->memory / MIB);
	}
}
