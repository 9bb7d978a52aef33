// SPDX-License-Identifier: GPL-2.0
/*
 * A guest's facts (system/virt.h) against its model: the emulated bridges
 * and paravirtual devices it shows, and whether its NVIDIA GPUs carry the
 * GPUDirect clique capability that lets the driver in a guest allow P2P
 * between them (one clique id for all, else copies go through host memory).
 */
#include <stdio.h>
#include <string.h>

#include "judge/judgement.h"
#include "judge/judge.h"
#include "judge/system_checks.h"
#include "topology/pciaddr.h"
#include "system/virt.h"
#include "system/system.h"
#include "p2pdiag/decode.h"

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
		c = virt_gpu_clique(r->in.root, &r->in.system->refused,
				    f->addr);
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
