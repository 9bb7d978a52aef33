// SPDX-License-Identifier: GPL-2.0
/*
 * Suspects where pasted evidence shows trouble but not its cause: the
 * reasoning a maintainer applies to a thread, as rules over the facts the
 * readers filled.  Each suspect names the facts for and against it, with
 * the file and line, and the one command on that machine that settles
 * it.  The symptoms weighed: P2P refused (by the GPU's class, the sockets
 * or the platform; by ROCm, also the driver's peer support), P2P slower than staged copies (the IOMMU, ACS
 * redirect, a large BAR missing on GeForce cards a patched driver lets
 * peer), IOMMU faults of a device not known to be a GPU, and topology
 * alone (NVLink everywhere, or PCIe switches where hangs are reported).
 */
#include <stdio.h>
#include <string.h>

#include "evidence/evidence.h"
#include "judge/bar1_window.h"
#include "judge/diagnosis.h"
#include "judge/evidence_health.h"
#include "judge/judge.h"

#define CMD_GNS	"nvidia-smi topo -p2p r (GNS: the GPU offers no P2P; CNS: the chipset; OK: granted)"
#define CMD_IOMMU "sudo dmesg | grep -i -e DMAR -e AMD-Vi -e 'iommu:'; cat /proc/cmdline (translated, or iommu=pt / off)"
#define CMD_ACS	"sudo lspci -vvv | grep -E '^[0-9a-f]|ACSCtl' (ReqRedir+, CmpltRedir+ or EgressCtrl+ on a port above the GPUs)"
#define CMD_BAR	"sudo dmesg | grep -i -e 'BAR 1' -e 'no space'; nvidia-smi -q | grep -A3 BAR1 (BAR1 total as large as the GPU's memory)"
#define CMD_TOPO "nvidia-smi topo -m (SYS between the GPUs: different sockets)"
#define CMD_MEASURE "p2pBandwidthLatencyTest (P2P enabled well above disabled, every pair)"
#define CMD_FABRIC "systemctl status nvidia-fabricmanager; nvidia-smi -q | grep -A2 Fabric (State Completed and Status Success on an NVSwitch machine)"
#define CMD_ROCM_DRIVER "grep -s CONFIG_HSA_AMD_P2P /boot/config-$(uname -r); dkms status amdgpu (=y, or amdgpu built by DKMS: the driver has peer support)"
#define CMD_VIRT "systemd-detect-virt; sudo lspci -vvv -d 10de: | grep -i -A2 'Vendor Specific' (a VM: pass the GPUs with QEMU's x-nv-gpudirect-clique)"

struct facts {
	const struct evidence *ev;
	char ref[200];
};

/* "file:line" of @r, or "" when it has none. */
static const char *at(struct facts *f, struct ev_ref r)
{
	char one[180];

	if (!r.line) {
		f->ref[0] = '\0';
		return f->ref;
	}
	snprintf(f->ref, sizeof(f->ref), " (%s)", ev_ref_str(f->ev, r, one, sizeof(one)));
	return f->ref;
}

/* Whether CUDA, nvbandwidth, NCCL or topo -p2p refused P2P anywhere. */
static bool refused(const struct evidence *ev)
{
	unsigned int a, b;

	if (ev->cuda.nr_peer_unsupported || ev->nccl.nr_refused || ev->nccl.p2p_disabled_msg ||
	    ev->nvbw_waived)
		return true;
	for (a = 0; a < EV_GPU_MAX; a++)
		for (b = 0; b < EV_GPU_MAX; b++)
			if (ev->can_access[a][b] == 0 || ev->p2p_status[a][b] > EV_P2P_OK)
				return true;
	return false;
}

static bool granted(const struct evidence *ev)
{
	unsigned int a, b;

	for (a = 0; a < EV_GPU_MAX; a++)
		for (b = 0; b < EV_GPU_MAX; b++)
			if (ev->can_access[a][b] == 1 || ev->p2p_status[a][b] == EV_P2P_OK)
				return true;
	return ev->nccl.nr_p2p > 0;
}

/*
 * simpleP2P ran to its end on a pair CUDA granted peer access both ways:
 * a copy figure with peer access enabled, and everything its kernels
 * wrote through the peer mapping read back as written.
 */
static bool simple_p2p_verified(const struct evidence *ev)
{
	const struct ev_simple_p2p *sp = &ev->simple_p2p;
	unsigned int a = sp->gpu[0], b = sp->gpu[1];

	return sp->gbs > 0 && sp->passed_ref.line && !sp->nr_verify_errors &&
	       a < EV_GPU_MAX && b < EV_GPU_MAX && ev->can_access[a][b] == 1 &&
	       ev->can_access[b][a] == 1;
}

/* The first pair of topo -m joined by @link, or false. */
static bool topo_has(const struct evidence *ev, enum ev_link link, unsigned int *row)
{
	unsigned int a, b;

	for (a = 0; a < ev->topo_gpus; a++)
		for (b = 0; b < ev->topo_gpus; b++)
			if (a != b && ev->topo_link[a][b] == link) {
				*row = a;
				return true;
			}
	return false;
}

static bool topo_all_nvlink(const struct evidence *ev)
{
	unsigned int a, b, nv = 0, pairs = 0;

	for (a = 0; a < ev->topo_gpus; a++)
		for (b = 0; b < ev->topo_gpus; b++)
			if (a != b) {
				pairs++;
				nv += ev->topo_link[a][b] == EV_LINK_NV;
			}
	return pairs && nv == pairs;
}

/* Whether every refused pair of topo -p2p says @st, one at least; its row. */
static bool p2p_status_only(const struct evidence *ev, enum ev_p2p_status st, unsigned int *row)
{
	unsigned int a, b, seen = 0;

	for (a = 0; a < ev->p2p_gpus; a++)
		for (b = 0; b < ev->p2p_gpus; b++) {
			enum ev_p2p_status x = ev->p2p_status[a][b];

			if (x <= EV_P2P_OK)
				continue;
			if (x != st)
				return false;
			if (!seen++)
				*row = a;
		}
	return seen > 0;
}

/*
 * A pair CUDA grants peer access both ways whose GPUs are both GPU@g's
 * model, into *@pa and *@pb: a class without PCIe P2P is refused on
 * every pair, so a granted one says the class is not what refuses the
 * others.
 */
static bool class_granted(const struct evidence *ev, int g, unsigned int *pa, unsigned int *pb)
{
	unsigned int a, b;

	for (a = 0; a < ev->nr_gpus && a < EV_GPU_MAX; a++)
		for (b = a + 1; b < ev->nr_gpus && b < EV_GPU_MAX; b++)
			if (!strcmp(ev->gpu_name[a], ev->gpu_name[g]) &&
			    !strcmp(ev->gpu_name[b], ev->gpu_name[g]) &&
			    ev->can_access[a][b] == 1 && ev->can_access[b][a] == 1) {
				*pa = a;
				*pb = b;
				return true;
			}
	return false;
}

/*
 * ROCm refusing peers: it peers PCIe GPUs only under one root complex
 * that routes peer traffic (not across sockets on hosts whose
 * interconnect carries none), only where a large BAR exposes the whole
 * VRAM, and only where the kernel driver has peer support (the kernel's
 * own amdgpu built with CONFIG_HSA_AMD_P2P, or ROCm's amdgpu-dkms);
 * GeForce has nothing to do with it.  rocm_bandwidth_test lists a CPU
 * agent per NUMA node: one alone is one socket.
 */
static void rocm_refusal_suspects(struct facts *f, struct diagnosis *d)
{
	const struct evidence *ev = f->ev;
	bool one_node = ev->rocm.nr_cpu_agents == 1;
	struct suspect *s;

	s = diagnosis_suspect(d, RC_CROSS_SOCKET, one_node ? UNLIKELY : POSSIBLE, CMD_ROCM_TOPO);
	suspect_for(s, "ROCm found the GPUs no peers%s, as GPUs under two CPU sockets are where the socket interconnect carries no peer traffic",
		    at(f, ev->rocm.refused_ref));
	if (one_node)
		suspect_against(s, "rocm_bandwidth_test lists one CPU agent%s, and it lists one per NUMA node: the GPUs hang off one socket",
				at(f, ev->rocm.cpu_agent_ref));
	s = diagnosis_suspect(d, RC_BAR_SIZE, POSSIBLE, CMD_ROCM_BAR);
	suspect_for(s, "ROCm peers only GPUs whose whole memory a large BAR exposes%s", at(f, ev->rocm.refused_ref));
	s = diagnosis_suspect(d, RC_DRIVER, POSSIBLE, CMD_ROCM_DRIVER);
	suspect_for(s, "ROCm peers GPUs over PCIe only where the kernel driver has peer support%s: the kernel's own amdgpu only when built with CONFIG_HSA_AMD_P2P, ROCm's amdgpu-dkms where the kernel has PCI P2PDMA",
		    at(f, ev->rocm.refused_ref));
	s = diagnosis_suspect(d, RC_HOST_BRIDGE, UNLIKELY, CMD_ROCM_TOPO);
	suspect_for(s, "a root complex that does not route peer traffic between its ports makes GPUs no peers too");
}

/* A refusal: the GPU's class, the sockets, the platform. */
static void refusal_suspects(struct facts *f, struct diagnosis *d)
{
	const struct evidence *ev = f->ev;
	int g = ev_first_consumer_gpu(ev);
	unsigned int row = 0, pa = 0, pb = 0, group[EV_GPU_MAX];
	bool peers = g >= 0 && class_granted(ev, g, &pa, &pb);
	/* the findings' note of the same pattern (evidence_findings.c) */
	bool groups = evidence_refused_between_groups(ev, group);
	struct suspect *s;
	/*
	 * topo -p2p's plain NS gives no reason (CNS: the chipset, GNS: the
	 * GPU, TNS: the topology): what a guest whose hypervisor passes the
	 * GPUs through without NVIDIA's GPUDirect clique capability sees.
	 * A GPU that offers no P2P, a GeForce card's, is answered GNS, so
	 * NS alone weighs against the GPU's class.
	 */
	bool ns_only = g < 0 && p2p_status_only(ev, EV_P2P_NS, &row);

	s = diagnosis_suspect(d, RC_CONSUMER_GPU,
			      peers ? UNLIKELY : g >= 0 ? LIKELY : ns_only ? UNLIKELY : POSSIBLE,
			      CMD_GNS);
	if (ns_only) {
		struct suspect *v = diagnosis_suspect(d, RC_VIRTUALIZATION, POSSIBLE, CMD_VIRT);

		suspect_for(v, "topo -p2p refuses every pair as NS, with no reason (CNS, GNS, TNS)%s, as inside a VM without the GPUDirect clique capability",
			    at(f, ev->p2p_ref[row]));
		suspect_against(s, "topo -p2p answers GNS for a GPU that offers no P2P; here it says NS%s",
				at(f, ev->p2p_ref[row]));
	}
	if (g >= 0)
		suspect_for(s, "GPU%d is a %s: GeForce cards have no PCIe P2P%s", g,
			    ev->gpu_name[g], at(f, ev->gpu_ref[g]));
	else
		suspect_for(s, "a refusal of every pair is what a GPU without P2P (GeForce) gives; the files do not name the GPUs");
	if (ev->cuda.nr_peer_unsupported)
		suspect_for(s, "CUDA: peer access is not supported between these two devices%s",
			    at(f, ev->cuda.peer_ref));
	if (peers)
		suspect_against(s, "CUDA grants GPU%u and GPU%u, both %s, peer access%s: the GPU's class does not refuse it",
				pa, pb, ev->gpu_name[g], at(f, ev->can_ref[pa][pb]));
	if (topo_has(ev, EV_LINK_NV, &row))
		suspect_against(s, "NVLink joins GPUs%s: a consumer card's bridge is a peer path",
				at(f, ev->topo_ref[row]));
	/* CUDA keeps pairs on different sockets off P2P by design */
	if (topo_has(ev, EV_LINK_SYS, &row)) {
		s = diagnosis_suspect(d, RC_CROSS_SOCKET, groups ? LIKELY : POSSIBLE, CMD_TOPO);
		suspect_for(s, "GPUs on different sockets (SYS)%s", at(f, ev->topo_ref[row]));
	} else if (!ev->topo_gpus) {
		s = diagnosis_suspect(d, RC_CROSS_SOCKET, groups ? LIKELY : POSSIBLE, CMD_TOPO);
		suspect_for(s, "CUDA refuses P2P between GPUs on different sockets, and these files do not show where the GPUs sit");
	} else {
		s = NULL;
	}
	if (s && groups)
		suspect_for(s, "CUDA grants peer access inside groups of GPUs and refuses it only between them%s, as it answers for GPUs under two sockets",
			    at(f, evidence_first_refusal(ev)));
	s = diagnosis_suspect(d, RC_HOST_BRIDGE, UNLIKELY, CMD_GNS);
	suspect_for(s, "a root complex that does not route P2P is refused as CNS");
}

/* Whether a file holds kernel log lines (or the kernel command line). */
static bool kernel_lines(const struct evidence *ev)
{
	unsigned int i;

	for (i = 0; i < ev->nr_files; i++)
		if (ev->file[i].formats & EV_FMT_KERNEL_LOG)
			return true;
	return false;
}

/*
 * The IOMMU off: where the kernel says so, or where the kernel command
 * line pasted turns it off: iommu=off always; intel_iommu=off and
 * amd_iommu=off only their vendor's IOMMU, so where the files show the
 * other vendor's CPU they say nothing, and where they show no CPU the
 * argument is a fact against the IOMMU, not its exclusion.
 * Return: 0 not off, 1 off if the CPU is that vendor's, 2 off.
 */
static int iommu_off(const struct evidence *ev)
{
	const struct ev_kernel *k = &ev->kernel;
	bool amd = ev->cpu_known && (ev->cpu_flags & P2PD_CPU_AMD);
	bool intel_arg = !strcmp(k->iommu_arg, "intel_iommu=off");
	bool amd_arg = !strcmp(k->iommu_arg, "amd_iommu=off");

	if (k->iommu_disabled)
		return 2;
	if (!k->iommu_off || (intel_arg && amd) || (amd_arg && ev->cpu_known && !amd))
		return 0;
	return (intel_arg || amd_arg) && !ev->cpu_known ? 1 : 2;
}

/* The IOMMU suspect's likelihood @l, unless the command line turns it off. */
static enum likelihood iommu_likelihood(const struct evidence *ev, enum likelihood l)
{
	return iommu_off(ev) == 2 ? UNLIKELY : l;
}

/* iommu_off()'s fact against the IOMMU suspect @s, where it has one. */
static void iommu_off_against(struct facts *f, struct suspect *s)
{
	const struct ev_kernel *k = &f->ev->kernel;
	int off = iommu_off(f->ev);

	if (off && k->iommu_disabled)
		suspect_against(s, "the kernel says the IOMMU is disabled%s", at(f, k->disabled_ref));
	else if (off == 1)
		suspect_against(s, "%s on the kernel command line%s turns the IOMMU off where the CPU is %s's",
				k->iommu_arg, at(f, k->cmdline_ref),
				k->iommu_arg[0] == 'i' ? "Intel" : "AMD");
	else if (off == 2)
		suspect_against(s, "%s on the kernel command line%s: the IOMMU is off, and translates nothing",
				k->iommu_arg, at(f, k->cmdline_ref));
}

/*
 * A GPU's link pasted slower than its capability with its width whole
 * (lanes missing are a cause of their own, evidence_findings.c): idle
 * GPUs lower their speed, so it is a suspect of slow copies, settled by
 * the link read while they run.
 */
static void link_speed_suspect(struct facts *f, struct diagnosis *d)
{
	const struct evidence *ev = f->ev;
	unsigned int i;

	for (i = 0; i < ev->nr_pci; i++) {
		const struct ev_pci_dev *p = &ev->pci[i];
		struct suspect *s;

		if ((!p->anonymous && !p->gpu) || !p->lnk_ref.line || p->width_downgraded ||
		    (p->cap_width && p->sta_width && p->sta_width < p->cap_width))
			continue;
		if (!p->speed_downgraded &&
		    !(p->cap_speed10 && p->sta_speed10 && p->sta_speed10 < p->cap_speed10))
			continue;
		s = diagnosis_suspect(d, RC_LINK_DEGRADED, POSSIBLE,
				      "nvidia-smi -q -d PCIE while p2pBandwidthLatencyTest runs (Link Gen Current against Max), or sudo lspci -vvv -s BUS:DEV.FN | grep LnkSta then");
		suspect_for(s, "a GPU's link below its capability's speed when lspci ran%s: a link that stays there under load carries only that",
			    at(f, p->lnk_ref));
		suspect_against(s, "idle GPUs lower their link speed, and these lines do not say whether a copy ran");
		return;
	}
}

/* P2P slower than the host path, or like it: what sits on the peer path. */
static void slow_suspects(struct facts *f, struct diagnosis *d)
{
	const struct evidence *ev = f->ev;
	const struct ev_kernel *k = &ev->kernel;
	int g = ev_first_consumer_gpu(ev);
	unsigned int row, srow;
	bool pix = topo_has(ev, EV_LINK_PIX, &row) || topo_has(ev, EV_LINK_PXB, &row);
	bool amd = ev->cpu_known && (ev->cpu_flags & P2PD_CPU_AMD);
	struct suspect *s;

	if (g >= 0) {
		/*
		 * GeForce P2P slower than staged: a P2P-enabled driver tried it
		 * (refused, "enabled" copies are staged and as fast), and it
		 * maps peers through BAR1, which must span the GPU's memory
		 */
		s = diagnosis_suspect(d, RC_BAR_SIZE, LIKELY, CMD_BAR);
		suspect_for(s, "GPU%d is a %s copying peer to peer: only a P2P-enabled driver does, through a BAR1 that must span the GPU's memory%s",
			    g, ev->gpu_name[g], at(f, ev->gpu_ref[g]));
		if (granted(ev))
			suspect_for(s, "peer access granted between GeForce cards");
	}
	/*
	 * GPUs under different sockets: peer traffic over the CPU
	 * interconnect (QPI/UPI, xGMI) runs slower than copies staged through
	 * host memory on many hosts; where no pair shares a switch, that
	 * path is likely the one measured
	 */
	if (topo_has(ev, EV_LINK_SYS, &srow)) {
		s = diagnosis_suspect(d, RC_CROSS_SOCKET, pix ? POSSIBLE : LIKELY, CMD_TOPO);
		suspect_for(s, "GPUs on different sockets (SYS)%s, whose peer traffic crosses the CPU interconnect, slower than staged copies on many hosts",
			    at(f, ev->topo_ref[srow]));
	}
	s = diagnosis_suspect(d, RC_IOMMU_TRANSLATION,
			      iommu_likelihood(ev, k->translated || amd || !pix ? LIKELY : POSSIBLE),
			      CMD_IOMMU);
	suspect_for(s, "P2P enabled is slower than copies staged through the host%s, as peer DMA translated by the IOMMU is",
		    at(f, ev->uni_on.ref));
	if (k->translated)
		suspect_for(s, "the IOMMU's default domain is translated%s", at(f, k->mode_ref));
	if (amd)
		suspect_for(s, "an AMD host, whose root ports redirect peer traffic into the IOMMU where it is on");
	if (k->passthrough)
		suspect_against(s, "the IOMMU is in passthrough%s", at(f, k->mode_ref));
	iommu_off_against(f, s);
	s = diagnosis_suspect(d, RC_ACS_REDIRECT, pix ? LIKELY : POSSIBLE, CMD_ACS);
	if (pix)
		suspect_for(s, "GPUs behind one PCIe switch (PIX/PXB)%s: ACS redirect there sends their traffic up to the root complex",
			    at(f, ev->topo_ref[row]));
	else
		suspect_for(s, "ACS redirect on the ports above the GPUs slows P2P the same way");
	if (ev->nr_acs_lines && !ev->nr_acs_redirect)
		suspect_against(s, "the ACSCtl words pasted have no redirect bit");
	link_speed_suspect(f, d);
	if (g < 0 && !pix) {
		s = diagnosis_suspect(d, RC_HOST_BRIDGE, POSSIBLE, CMD_GNS);
		suspect_for(s, "peer traffic that crosses the root complex is only as fast as it routes it");
	}
}

/* Topology alone, or a hang over it: nothing measured. */
static void topology_suspects(struct facts *f, struct diagnosis *d)
{
	const struct evidence *ev = f->ev;
	unsigned int row;
	struct suspect *s;

	if (topo_all_nvlink(ev)) {
		s = diagnosis_suspect(d, RC_HEALTHY, POSSIBLE, CMD_MEASURE);
		suspect_for(s, "every GPU pair is joined by NVLink%s", at(f, ev->topo_ref[0]));
		suspect_against(s, "nothing in these files measures P2P");
		s = diagnosis_suspect(d, RC_NVLINK, UNLIKELY, CMD_NVLINK_LINKS);
		suspect_for(s, "P2P between these GPUs rests on their NVLinks%s", at(f, ev->topo_ref[0]));
		return;
	}
	if (topo_has(ev, EV_LINK_PIX, &row) || topo_has(ev, EV_LINK_PXB, &row) ||
	    topo_has(ev, EV_LINK_NODE, &row) || topo_has(ev, EV_LINK_PHB, &row)) {
		s = diagnosis_suspect(d, RC_ACS_REDIRECT, POSSIBLE, CMD_ACS);
		suspect_for(s, "GPUs joined over PCIe bridges%s: where ACS redirects there, peer traffic detours through the root complex, and NCCL can hang",
			    at(f, ev->topo_ref[row]));
		suspect_against(s, "nothing in these files measures P2P or shows ACS");
		s = diagnosis_suspect(d, RC_IOMMU_TRANSLATION, POSSIBLE, CMD_IOMMU);
		suspect_for(s, "peer DMA over PCIe is translated where the IOMMU is on");
	}
	if (topo_has(ev, EV_LINK_SYS, &row)) {
		s = diagnosis_suspect(d, RC_CROSS_SOCKET, POSSIBLE, CMD_TOPO);
		suspect_for(s, "GPUs on different sockets (SYS)%s", at(f, ev->topo_ref[row]));
	}
}

/*
 * Whether nccl-tests stopped before its first size: its table's header
 * with no row, or its preamble and NCCL's log after it with no table
 * (or the paste ends there, which the files cannot tell apart).
 */
static bool run_stopped(const struct ev_nccl *n)
{
	return !n->tests_rows &&
	       (n->tests_header || (n->tests_preamble && n->nr_log_after_preamble));
}

/*
 * A collective that stopped before its first size: on PCIe peers, peer
 * traffic that never completes, as ACS redirect or a translating IOMMU
 * gives; nothing here tells which.
 */
static void stopped_suspects(struct facts *f, struct diagnosis *d)
{
	const struct evidence *ev = f->ev;
	const struct ev_ref hdr = ev->nccl.tests_header ? ev->nccl.tests_header_ref :
							  ev->nccl.last_log_ref;
	struct suspect *s;

	s = diagnosis_suspect(d, RC_ACS_REDIRECT, LIKELY, CMD_ACS);
	suspect_for(s, "the collective stopped before its first size (or the paste ends there)%s: peer writes that ACS redirects and the root complex drops never arrive", at(f, hdr));
	s = diagnosis_suspect(d, RC_IOMMU_TRANSLATION, iommu_likelihood(ev, LIKELY), CMD_IOMMU);
	suspect_for(s, "the collective stopped before its first size%s: peer writes the IOMMU does not map are dropped", at(f, hdr));
	suspect_against(s, "no IOMMU fault in these files (%s)",
			kernel_lines(ev) ? "in the kernel lines pasted" : "they hold no kernel log");
	iommu_off_against(f, s);
	s = diagnosis_suspect(d, RC_HOST_BRIDGE, POSSIBLE, CMD_GNS);
	suspect_for(s, "a root complex that does not route peer writes between its ports stalls them the same way");
}

/*
 * nvidia-smi -q's BAR1 against the GPU's memory: a peer that maps the
 * GPU's memory through BAR1 (the P2P-enabled drivers of GeForce cards)
 * needs BAR1 to span it; where the memory is not shown, BAR1's size
 * alone is worth the command that shows both.
 */
static void bar1_suspects(struct facts *f, struct diagnosis *d)
{
	const struct ev_smi_query *q = &f->ev->smi;
	unsigned int g;
	struct suspect *s;

	for (g = 0; g < q->nr_gpus; g++) {
		if (!q->bar1_mib[g])
			continue;
		if (q->fb_mib[g] && bar1_spans_memory((unsigned long long)q->bar1_mib[g],
						      (unsigned long long)q->fb_mib[g]))
			continue;
		s = diagnosis_suspect(d, RC_BAR_SIZE, q->fb_mib[g] ? LIKELY : POSSIBLE, CMD_BAR);
		if (q->fb_mib[g])
			suspect_for(s, "GPU%u's BAR1 is %ld MiB, less than its %ld MiB of memory%s: a peer mapping through BAR1 cannot span it",
				    g, q->bar1_mib[g], q->fb_mib[g], at(f, q->bar1_ref[g]));
		else
			suspect_for(s, "GPU%u's BAR1 is %ld MiB%s; the GPU's memory, which it must span for peers mapping through it, is not shown",
				    g, q->bar1_mib[g], at(f, q->bar1_ref[g]));
		return;
	}
}

/*
 * Whether the files show any symptom at all: a refusal, a slow pair, a
 * fault, an error of CUDA, NCCL or the driver, a run that stopped.
 */
static bool symptom_shown(const struct evidence *ev, bool slow)
{
	const struct ev_kernel *k = &ev->kernel;

	return slow || refused(ev) || ev->nccl.nr_shm || ev->nccl.lib_error ||
	       ev->nccl.nvlink_p2p_disabled || ev->cuda.nr_other || ev->cuda.nr_not_ready ||
	       k->nr_faults || k->nr_xid || k->nr_aer || k->nr_bus_assert ||
	       k->nr_bar_unassigned || k->nr_p2pdma_refused ||
	       run_stopped(&ev->nccl) || ev->torch.nr_corrupt;
}

void evidence_suspects(const struct evidence *ev, struct diagnosis *d, bool slow)
{
	struct facts f = { .ev = ev };
	unsigned int row;

	if (ev->kernel.nr_bus_assert) {
		struct ev_ref bar1 = { 0 };
		bool large = evidence_bar1_spans_memory(&ev->smi, &bar1);
		struct suspect *s = diagnosis_suspect(d, RC_BAR_SIZE, large ? UNLIKELY : LIKELY, CMD_BAR);

		suspect_for(s, "the NVIDIA driver asserted in its BAR1 peer-mapping code%s: BAR1 too small or unassigned for peer mappings gives that",
			    at(&f, ev->kernel.bus_assert_ref));
		if (large)
			suspect_against(s, "BAR1 is as large as the GPU's memory%s", at(&f, bar1));
		s = diagnosis_suspect(d, RC_DRIVER, POSSIBLE, "nvidia-smi -q | grep -i -e 'Driver Version' -e BAR1 -A3");
		suspect_for(s, "assertions of the NVIDIA driver itself%s", at(&f, ev->kernel.bus_assert_ref));
	} else if (ev->cuda.nr_not_ready && !evidence_nvlink_fabric(ev).line) {
		struct suspect *s = diagnosis_suspect(d, RC_NVLINK, POSSIBLE, CMD_FABRIC);

		suspect_for(s, "CUDA would not start: system not yet initialized%s, what an NVSwitch machine whose fabric manager is not running gives",
			    at(&f, ev->cuda.not_ready_ref));
		suspect_against(s, "nothing in these files shows an NVSwitch, a fabric manager or NVLink");
		s = diagnosis_suspect(d, RC_DRIVER, POSSIBLE, "nvidia-smi; sudo dmesg | grep -e NVRM -e nvidia (the driver loaded, and of the version the CUDA libraries and the fabric manager want)");
		suspect_for(s, "CUDA waits on the driver's system state%s; a driver half installed or of another version than its daemons gives the same",
			    at(&f, ev->cuda.not_ready_ref));
	} else if (ev->torch.nr_corrupt) {
		struct suspect *s = diagnosis_suspect(d, RC_IOMMU_TRANSLATION,
						      iommu_likelihood(ev, LIKELY), CMD_IOMMU);

		suspect_for(s, "a GPU-to-GPU copy arrived with other values than the same data where it was made or staged through the host%s: peer writes the IOMMU does not translate land elsewhere, and the copy reads zeros",
			    at(&f, ev->torch.corrupt_ref));
		iommu_off_against(&f, s);
		/* redirected writes go wrong only where the IOMMU translates them */
		s = diagnosis_suspect(d, RC_ACS_REDIRECT, iommu_likelihood(ev, POSSIBLE), CMD_ACS);
		suspect_for(s, "peer writes that ACS redirects into the IOMMU are translated the same way");
		iommu_off_against(&f, s);
		s = diagnosis_suspect(d, RC_HOST_BRIDGE, POSSIBLE, CMD_GNS);
		suspect_for(s, "a root complex that does not route peer writes correctly corrupts them");
	} else if (ev->rocm.nr_refused)
		rocm_refusal_suspects(&f, d);
	else if (refused(ev) || ev->nccl.nr_shm)
		refusal_suspects(&f, d);
	else if (slow)
		slow_suspects(&f, d);
	else if (ev->kernel.nr_faults) {
		struct suspect *s = diagnosis_suspect(d, RC_IOMMU_TRANSLATION, POSSIBLE,
						      "lspci -nn -s BUS:DEV.FN of the faulting device (a GPU: peer DMA through the IOMMU)");

		suspect_for(s, "the IOMMU logged faults%s", at(&f, ev->kernel.fault_ref));
		suspect_against(s, "the faulting device is not known to be a GPU");
	} else if (ev->topo_gpus > 1 && !ev->uni_on.have && !ev->nvbw_d2d.have)
		topology_suspects(&f, d);
	else if (ev->nccl.busbw_max > 0 && topo_has(ev, EV_LINK_NV, &row))
		topology_suspects(&f, d);
	else if (run_stopped(&ev->nccl) && !ev->nccl.nr_p2p &&
		 !topo_has(ev, EV_LINK_NV, &row))
		stopped_suspects(&f, d);
	bar1_suspects(&f, d);
	/*
	 * Files with GPUs in them and no symptom at all: a working machine is
	 * a suspect like the others, never the verdict, for nothing here
	 * measures its peer path
	 */
	if (!symptom_shown(ev, slow) && (ev->nr_gpus > 1 || ev->topo_gpus > 1)) {
		const struct ev_simple_p2p *sp = &ev->simple_p2p;
		bool verified = simple_p2p_verified(ev);
		struct suspect *s = diagnosis_suspect(d, RC_HEALTHY, verified ? LIKELY : POSSIBLE,
						      CMD_MEASURE);

		suspect_for(s, "no refusal, slow pair, fault or error in these files");
		if (verified)
			suspect_for(s, "simpleP2P copied %.2f GB/s between GPU%u and GPU%u with peer access, and its kernels read back what they wrote through the peer mapping%s",
				    sp->gbs, sp->gpu[0], sp->gpu[1], at(&f, sp->passed_ref));
		else if (granted(ev))
			suspect_for(s, "peer access granted between the GPUs");
		if (verified)
			suspect_against(s, "simpleP2P measures one pair, with no staged copy or link speed to weigh its figure against");
		else if (!ev->uni_on.have && !ev->nvbw_d2d.have)
			suspect_against(s, "nothing in these files measures P2P between the GPUs");
		else
			suspect_against(s, "the P2P copies measured here are not shown near what the path gives");
	}
}
