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

#include "judge/judgement.h"
#include "judge/judge.h"
#include "platform/fsroot.h"
#include "topology/pciaddr.h"
#include "system/virt.h"
#include "p2pdiag/decode.h"

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

int virt_facts_read(struct virt_facts *v, struct fsroot *root, char *err,
		    size_t errlen)
{
	char xen[32], cpuid[32] = "";
	const char *dmi = NULL;
	unsigned int i;

	memset(v, 0, sizeof(*v));
	if (cpuinfo_hypervisor_flag(root, &v->cpuid_flag, err, errlen))
		return -1;
	if (fsroot_read(root, v->dmi_vendor, sizeof(v->dmi_vendor),
			"/sys/class/dmi/id/sys_vendor"))
		v->dmi_vendor[0] = '\0';
	if (fsroot_read(root, v->dmi_product, sizeof(v->dmi_product),
			"/sys/class/dmi/id/product_name"))
		v->dmi_product[0] = '\0';
	for (i = 0; i < sizeof(dmi_guests) / sizeof(dmi_guests[0]); i++)
		if (!strcmp(v->dmi_vendor, dmi_guests[i].vendor) &&
		    (!dmi_guests[i].product || !strcmp(v->dmi_product, dmi_guests[i].product)))
			dmi = dmi_guests[i].name;
	/* the CPUID leaf is this CPU's: only when the root is this machine */
	if (fsroot_is_live(root) && v->cpuid_flag)
		cpuid_vendor(cpuid, sizeof(cpuid));
	if (!fsroot_read(root, xen, sizeof(xen), "/sys/hypervisor/type") && xen[0] &&
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

/* The clique of GPU @addr from its config file; -2 when unreadable. */
static int gpu_clique(struct fsroot *root, unsigned long long addr)
{
	unsigned char cfg[CFG_READ];
	char a[P2PD_ADDR_STRLEN];
	size_t n;
	FILE *f;

	f = fsroot_fopen(root, "/sys/bus/pci/devices/%s/config",
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

static void append(char *buf, size_t len, const char *text)
{
	size_t used = strlen(buf);

	if (used + 1 < len && snprintf(buf + used, len - used, "%s%s",
				       used ? ", " : "", text) < 0)
		buf[used] = '\0';
}

static bool is_bridge(const struct p2pd_function *f)
{
	return f->role == P2PD_ROLE_ROOT_PORT || f->role == P2PD_ROLE_UPSTREAM_PORT ||
	       f->role == P2PD_ROLE_DOWNSTREAM_PORT || f->role == P2PD_ROLE_PCI_BRIDGE ||
	       f->role == P2PD_ROLE_CARDBUS_BRIDGE ||
	       f->role == P2PD_ROLE_PCIE_TO_PCI_BRIDGE ||
	       f->role == P2PD_ROLE_PCI_TO_PCIE_BRIDGE || (f->class_code >> 8) == 0x0600;
}

static void gpu_cliques(struct check_run *r)
{
	const struct p2pd_model *m = r->in.model;
	char with[512] = "", without[512] = "", unread[512] = "", text[64];
	unsigned int i, gpus = 0, cliques = 0;
	int first = -1;
	bool mixed = false;

	for (i = 0; i < m->nr_fn; i++) {
		const struct p2pd_function *f = &m->fn[i];
		char a[P2PD_ADDR_STRLEN];
		int c;

		if (!p2pd_is_nvidia_gpu(f))
			continue;
		gpus++;
		c = gpu_clique(r->in.root, f->addr);
		pciaddr_format(a, f->addr);
		if (c == -2) {
			append(unread, sizeof(unread), a);
		} else if (c < 0) {
			append(without, sizeof(without), a);
		} else {
			snprintf(text, sizeof(text), "%s clique %d", a, c);
			append(with, sizeof(with), text);
			mixed |= first >= 0 && c != first;
			first = c;
			cliques++;
		}
	}
	if (gpus < 2)
		return;
	if (without[0])
		findings_add(&r->judged.findings, SEV_WARNING, FC_VM_NO_GPUDIRECT_CLIQUE,
			     FINDING_NO_ADDR, FINDING_NO_ADDR,
			     "on the host: give every GPU that should talk P2P the same clique id (QEMU: -device vfio-pci,host=<addr>,x-nv-gpudirect-clique=0; cloud-hypervisor: --device path=<sysfs path>,x_nv_gpudirect_clique=0); a guest cannot add it",
			     "GPU(s) %s carry no GPUDirect clique capability: the NVIDIA driver in this guest does not allow P2P to them, so peer copies are staged through host memory (one public measurement: 11 GB/s and 15 us instead of 27 GB/s and 1 us)%s%s",
			     without, with[0] ? "; with one: " : "", with);
	else if (mixed)
		findings_add(&r->judged.findings, SEV_WARNING, FC_VM_GPUDIRECT_CLIQUE_SPLIT,
			     FINDING_NO_ADDR, FINDING_NO_ADDR,
			     "on the host: give the GPUs that should talk P2P the same x-nv-gpudirect-clique id",
			     "the GPUs' GPUDirect clique ids differ (%s): P2P works only within a clique", with);
	else if (cliques)
		findings_add(&r->judged.findings, SEV_INFO, FC_VM_GPUDIRECT_CLIQUE,
			     FINDING_NO_ADDR, FINDING_NO_ADDR, NULL,
			     "every GPU carries the GPUDirect clique capability, all in one clique (%s): the driver allows P2P between them; the host's ACS and IOMMU still decide the path",
			     with);
	if (unread[0])
		findings_add(&r->judged.findings, SEV_INFO, FC_VM_CLIQUE_UNREADABLE,
			     FINDING_NO_ADDR, FINDING_NO_ADDR, NULL,
			     "the config space of GPU(s) %s is not readable past 64 bytes: whether they carry the GPUDirect clique capability is unknown",
			     unread);
}

void virt_judge(struct check_run *r, const struct virt_facts *v)
{
	const struct p2pd_model *m = r->in.model;
	char bridges[512] = "", pv[768] = "", text[96];
	unsigned int i, nr_bridges = 0;
	const char *pv_name;

	if (!v->guest || !m)
		return;
	for (i = 0; i < m->nr_fn; i++) {
		const struct p2pd_function *f = &m->fn[i];
		char a[P2PD_ADDR_STRLEN];

		pciaddr_format(a, f->addr);
		if (is_bridge(f)) {
			nr_bridges++;
			snprintf(text, sizeof(text), "%s [%04x:%04x]", a, f->vendor, f->device);
			append(bridges, sizeof(bridges), text);
		}
		/* the paravirtual vendors are the engine's, as pairs see them */
		pv_name = p2pd_paravirtual_vendor(f->vendor);
		if (pv_name) {
			snprintf(text, sizeof(text), "%s %s %s", a, pv_name,
				 p2pd_kind_name(p2pd_device_kind(f->class_code)));
			append(pv, sizeof(pv), text);
		}
	}
	findings_add(&r->judged.findings, SEV_INFO, FC_VM_GUEST, FINDING_NO_ADDR, FINDING_NO_ADDR,
		     "ACS, the IOMMU and which GPUs share a switch are the host's: run p2pdiag-check on the host, and fix them there (the host administrator's part)",
		     "this machine is a virtual machine (hypervisor: %s%s%s): its host bridge and bridges are emulated (%u: %s), so the ACS, link and IOMMU facts above describe the hypervisor's emulation, not the hardware; a guest cannot fix ACS on the real ports or the host's IOMMU",
		     v->hypervisor, v->dmi_product[0] ? "; DMI product " : "",
		     v->dmi_product, nr_bridges, bridges[0] ? bridges : "none");
	if (pv[0])
		findings_add(&r->judged.findings, SEV_INFO, FC_VM_PARAVIRTUAL, FINDING_NO_ADDR,
			     FINDING_NO_ADDR,
			     "for GPUDirect RDMA the host must pass an RDMA NIC (or an SR-IOV VF of one) through to the guest",
			     "paravirtual devices: %s: no P2P, no RDMA, no GPUDirect through them", pv);
	gpu_cliques(r);
}
