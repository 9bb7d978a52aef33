// SPDX-License-Identifier: GPL-2.0
/*
 * The GPUDirect clique capability: a vendor-specific capability (ID 0x09)
 * of length 8 whose bytes 3-5 read "P2P" and whose byte 6 holds the
 * clique id in bits 3-6 (QEMU's x-nv-gpudirect-clique, cloud-hypervisor's
 * x_nv_gpudirect_clique write it).  The NVIDIA driver in a guest allows
 * P2P only between GPUs that carry it with the same id; without it,
 * peer copies are staged through host memory at a fraction of the speed.
 */
#include <stdio.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "platform/fsroot.h"
#include "topology/pciaddr.h"
#include "system/virt.h"

#define CAP_ID_VENDOR	0x09
#define CAP_POINTER	0x34
#define STATUS_REG	0x06
#define STATUS_CAPS	0x10
#define CFG_READ	256
#define MAX_CAPS	48		/* a looping list ends here */

static const struct { const char *vendor, *product, *name; } dmi_guests[] = {
	{ "QEMU", NULL, "QEMU" },
	{ "Amazon EC2", NULL, "Amazon EC2 (Nitro)" },
	{ "Google", "Google Compute Engine", "Google Compute Engine" },
	{ "Microsoft Corporation", "Virtual Machine", "Hyper-V" },
	{ "VMware, Inc.", NULL, "VMware" },
	{ "Xen", NULL, "Xen" },
	{ "innotek GmbH", NULL, "VirtualBox" },
	{ "Cloud Hypervisor", NULL, "Cloud Hypervisor" },
	{ "OpenStack Foundation", NULL, "OpenStack (KVM)" },
};


static void cpuid_vendor(char *out, size_t len)
{
	out[0] = '\0';
#if defined(__x86_64__) || defined(__i386__)
	{
		unsigned int a, b, c, d;
		char sig[13];

		__cpuid(0x40000000, a, b, c, d);
		memcpy(sig, &b, 4);
		memcpy(sig + 4, &c, 4);
		memcpy(sig + 8, &d, 4);
		sig[12] = '\0';
		if (!strcmp(sig, "KVMKVMKVM"))
			snprintf(out, len, "KVM");
		else if (!strcmp(sig, "Microsoft Hv"))
			snprintf(out, len, "Hyper-V");
		else if (!strcmp(sig, "VMwareVMware"))
			snprintf(out, len, "VMware");
		else if (!strcmp(sig, "XenVMMXenVMM"))
			snprintf(out, len, "Xen");
		else if (!strcmp(sig, "TCGTCGTCGTCG"))
			snprintf(out, len, "QEMU TCG");
		else if (sig[0] >= 0x20 && sig[0] < 0x7f)
			snprintf(out, len, "'%.12s'", sig);
		(void)a;
	}
#else
	(void)len;
#endif
}

/* An unreadable /proc/cpuinfo has no flag; one that is no file, @err. */
static int cpuinfo_hypervisor_flag(const struct fsroot *root, bool *flag,
				   char *err, size_t errlen)
{
	char line[4096];
	FILE *f = fsroot_fopen_fact(root, err, errlen, "/proc/cpuinfo");

	*flag = false;
	if (!f)
		return err[0] ? -1 : 0;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5))
			continue;
		*flag = strstr(line, " hypervisor") != NULL;
		break;
	}
	fclose(f);
	return 0;
}

int virt_facts_read(struct virt_facts *v, const struct fsroot *root,
		    struct fsroot_refusal *refused, char *err,
		    size_t errlen)
{
	char xen[32], cpuid[32] = "";
	const char *dmi = NULL;
	unsigned int i;

	memset(v, 0, sizeof(*v));
	if (cpuinfo_hypervisor_flag(root, &v->cpuid_flag, err, errlen))
		return -1;
	if (fsroot_read(root, refused, v->dmi_vendor, sizeof(v->dmi_vendor),
			"/sys/class/dmi/id/sys_vendor"))
		v->dmi_vendor[0] = '\0';
	if (fsroot_read(root, refused, v->dmi_product, sizeof(v->dmi_product),
			"/sys/class/dmi/id/product_name"))
		v->dmi_product[0] = '\0';
	for (i = 0; i < sizeof(dmi_guests) / sizeof(dmi_guests[0]); i++)
		if (!strcmp(v->dmi_vendor, dmi_guests[i].vendor) &&
		    (!dmi_guests[i].product || !strcmp(v->dmi_product, dmi_guests[i].product)))
			dmi = dmi_guests[i].name;
	/* the CPUID leaf is this CPU's: only when the root is this machine */
	if (fsroot_is_live(root) && v->cpuid_flag)
		cpuid_vendor(cpuid, sizeof(cpuid));
	if (!fsroot_read(root, refused, xen, sizeof(xen),
			 "/sys/hypervisor/type") && xen[0] &&
	    !cpuid[0])
		snprintf(cpuid, sizeof(cpuid), "%s", xen);
	v->guest = v->cpuid_flag || dmi || cpuid[0];
	if (!v->guest)
		return 0;
	snprintf(v->hypervisor, sizeof(v->hypervisor), "%s%s%s%s%s",
		 cpuid[0] ? cpuid : "", cpuid[0] ? " (CPUID)" : "",
		 cpuid[0] && dmi ? ", " : "", dmi ? dmi : "", dmi ? " (DMI)" : "");
	if (!v->hypervisor[0])
		snprintf(v->hypervisor, sizeof(v->hypervisor),
			 "unnamed (the CPU's hypervisor flag; no DMI of a known hypervisor)");
	return 0;
}

int virt_clique(const unsigned char *cfg, unsigned int len)
{
	unsigned int pos, steps;

	if (len < 0x40 || !(cfg[STATUS_REG] & STATUS_CAPS))
		return -1;
	pos = cfg[CAP_POINTER] & 0xfc;
	for (steps = 0; pos >= 0x40 && pos + 8 <= len && steps < MAX_CAPS; steps++) {
		const unsigned char *c = cfg + pos;

		if (c[0] == CAP_ID_VENDOR && c[2] == 8 && c[3] == 'P' && c[4] == '2' &&
		    c[5] == 'P')
			return (c[6] >> 3) & 0x0f;
		pos = c[1] & 0xfc;
	}
	return -1;
}

int virt_gpu_clique(const struct fsroot *root, struct fsroot_refusal *refused,
		    unsigned long long addr)
{
	unsigned char cfg[CFG_READ];
	char a[P2PD_ADDR_STRLEN];
	size_t n;
	FILE *f;

	f = fsroot_fopen(root, refused, "/sys/bus/pci/devices/%s/config",
			pciaddr_format(a, addr));
	if (!f)
		return -2;
	n = fread(cfg, 1, sizeof(cfg), f);
	fclose(f);
	/* unprivileged readers get the first 64 bytes only */
	if (n <= 0x40)
		return -2;
	return virt_clique(cfg, (unsigned int)n);
}
