// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel log lines (dmesg, journalctl -k, with or without their time
 * stamps): whether the IOMMU is on and in which mode ("DMAR: IOMMU
 * enabled", "AMD-Vi: ...", "iommu: Default domain type: Translated" or
 * "Passthrough") or off ("DMAR: IOMMU disabled"), the IOMMU's faults (Intel's "DMAR: [DMA Read|Write
 * ...] Request device [bb:dd.f] fault", AMD's "IO_PAGE_FAULT
 * device=bb:dd.f"), the GPU driver's Xid errors, AER reports, the
 * ACS override of patched kernels, and the kernel command line (its
 * "Command line:" line, or /proc/cmdline pasted) as far as it sets the
 * IOMMU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evidence/evidence.h"
#include "topology/bootline_args.h"

/*
 * A device's address as the kernel prints it before its message
 * ("nvidia 0000:84:00.0: BAR 1 ..."): the colon that ends it is the
 * message's, not the address's.
 */
static void line_device(const char *d, char *dev, size_t len)
{
	size_t n;

	/* the 23 characters read below, and their end */
	if (len < 24 || sscanf(d, "%23[0-9a-f:.]", dev) != 1)
		return;
	n = strlen(dev);
	while (n && dev[n - 1] == ':')
		dev[--n] = '\0';
}

/* The bb:dd.f a fault line names into @dev. */
static void fault_device(const char *s, char *dev, size_t len)
{
	const char *p;
	unsigned int bus, d, fn;

	if ((p = strstr(s, "Request device [")))
		p += 16;
	else if ((p = strstr(s, "device=")))
		p += 7;
	else if ((p = strstr(s, " 0000:")))
		p += 1;		/* "nvidia 0000:07:00.0: AMD-Vi: ..." */
	else
		return;
	/*
	 * "dddd:bb:dd.f" carries a domain. A pasted line may end inside
	 * the address, so its eight characters are counted before the
	 * eighth is read.
	 */
	if (strnlen(p, 8) == 8 && p[4] == ':' && p[7] == ':')
		p += 5;
	/* newer kernels print "[0x00:0x02.0]" */
	if (sscanf(p, "%2x:%2x.%1u", &bus, &d, &fn) == 3 ||
	    sscanf(p, "0x%2x:0x%2x.%1u", &bus, &d, &fn) == 3)
		snprintf(dev, len, "%02x:%02x.%u", bus, d, fn);
}

/*
 * The arguments of a kernel command line in @s, or NULL: dmesg's
 * "Command line: " (and "Kernel command line: "), or /proc/cmdline as
 * pasted, which starts with BOOT_IMAGE= or follows the command that
 * printed it (@prev).
 */
static const char *cmdline_args(const char *s, const char *prev)
{
	const char *p = strstr(s, "Command line: ");

	if (p)
		return p + 14;
	if (ev_starts(s, "BOOT_IMAGE=") ||
	    (prev && strstr(prev, "cat /proc/cmdline") && strstr(s, "root=")))
		return s;
	return NULL;
}

/* The IOMMU's setting on the first command line read (bootline.c's rule). */
static void read_cmdline(struct ev_kernel *k, const char *args, unsigned int fi, unsigned int line)
{
	enum bootline_iommu mode;

	if (k->cmdline_ref.line)
		return;		/* dmesg prints it twice */
	ev_note(&k->cmdline_ref, fi, line);
	mode = bootline_iommu(args, k->iommu_arg, sizeof(k->iommu_arg));
	k->iommu_off = mode == BOOTLINE_IOMMU_OFF;
	/* the kernel's own "Default domain type" line, where read, decides */
	if (mode == BOOTLINE_IOMMU_PASSTHROUGH && !k->mode_ref.line) {
		k->passthrough = true;
		ev_note(&k->mode_ref, fi, line);
	}
}

void read_kernel_log(struct evidence *ev, unsigned int fi)
{
	struct ev_file *f = &ev->file[fi];
	struct ev_kernel *k = &ev->kernel;
	unsigned int i;

	for (i = 0; i < f->nr_lines; i++) {
		const char *s = f->line[i], *p;
		bool seen = true;

		if (strstr(s, "DMAR: IOMMU enabled") || strstr(s, "AMD-Vi: Found IOMMU") ||
		    strstr(s, "AMD-Vi: Interrupt remapping enabled") ||
		    strstr(s, "Intel(R) Virtualization Technology for Directed I/O")) {
			k->iommu_on = true;
			ev_note(&k->iommu_ref, fi, i + 1);
		} else if (strstr(s, "DMAR: IOMMU disabled")) {
			k->iommu_disabled = true;
			ev_note(&k->disabled_ref, fi, i + 1);
		} else if ((p = strstr(s, "Default domain type: "))) {
			/* the kernel's result, over a command line read before it */
			k->translated = ev_starts(p + 21, "Translated");
			k->passthrough = ev_starts(p + 21, "Passthrough");
			k->iommu_on = true;
			k->mode_ref.file = fi;
			k->mode_ref.line = i + 1;
		} else if ((p = cmdline_args(s, i ? f->line[i - 1] : NULL))) {
			read_cmdline(k, p, fi, i + 1);
		} else if ((strstr(s, "DMAR:") && strstr(s, "fault") &&
			    strstr(s, "Request device")) ||
			   strstr(s, "IO_PAGE_FAULT")) {
			if (!k->nr_faults++) {
				ev_note(&k->fault_ref, fi, i + 1);
				fault_device(s, k->fault_dev, sizeof(k->fault_dev));
				k->fault_nvidia = strstr(s, "nvidia 0000:") != NULL;
			}
		} else if ((p = strstr(s, "NVRM: Xid ("))) {
			if (!k->nr_xid++) {
				const char *c = strstr(p, "): ");

				ev_note(&k->xid_ref, fi, i + 1);
				sscanf(p + 11, "%23[^)]", k->xid_dev);
				if (c)
					k->xid_code = (unsigned int)strtoul(c + 3, NULL, 10);
			}
		} else if ((p = strstr(s, "AER: ")) &&
			   (strstr(p, "error") || strstr(p, "Error"))) {
			if (!k->nr_aer++) {
				const char *d = strstr(s, "0000:");

				ev_note(&k->aer_ref, fi, i + 1);
				if (d)
					line_device(d, k->aer_dev, sizeof(k->aer_dev));
			}
		} else if ((p = strstr(s, ": BAR ")) &&
			   (strstr(p, "no space for") || strstr(p, "can't assign; no space") ||
			    strstr(p, "failed to assign"))) {
			if (!k->nr_bar_unassigned++) {
				const char *d = strstr(s, "0000:");

				ev_note(&k->bar_ref, fi, i + 1);
				if (d)
					line_device(d, k->bar_dev, sizeof(k->bar_dev));
			}
		} else if (strstr(s, "NVRM:") && strstr(s, "Assertion failed") &&
			   (strstr(s, "kern_bus") || strstr(s, "remoteWMBox"))) {
			/* the driver setting up peer mappings through BAR1 */
			if (!k->nr_bus_assert++)
				ev_note(&k->bus_assert_ref, fi, i + 1);
			if (strstr(s, "remoteWMBox") && !k->nr_mailbox_assert++)
				ev_note(&k->mailbox_assert_ref, fi, i + 1);
		} else if (strstr(s, "cannot be used for peer-to-peer DMA") ||
			   (strcasestr(s, "host bridge") && strcasestr(s, "not whitelisted")) ||
			   strstr(s, "not in P2PDMA whitelist")) {
			/* the kernel's P2PDMA: no shared switch, no listed root complex */
			if (!k->nr_p2pdma_refused++)
				ev_note(&k->p2pdma_ref, fi, i + 1);
		} else if (strstr(s, "ACS overrides") || strstr(s, "pcie_acs_override")) {
			k->acs_override = true;
			ev_note(&k->acs_override_ref, fi, i + 1);
		} else {
			seen = false;
		}
		if (seen)
			f->formats |= EV_FMT_KERNEL_LOG;
	}
}
