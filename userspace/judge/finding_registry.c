// SPDX-License-Identifier: GPL-2.0
/*
 * The finding codes (finding_registry.h says what the table is for).  The
 * order is the documentation's: the path first, then measurements, the
 * GPU's settings and drivers, the cross-checks and the baseline, then the
 * system checks.  The meaning is the short form of userspace/README.md's
 * "Findings" table; the fix is the one a producer gives when nothing more
 * specific is known (many build theirs from the ports and devices).
 */
#include <stdio.h>
#include <string.h>

#include "judge/finding_registry.h"

#define I SEV_INFO
#define W SEV_WARNING
#define E SEV_ERROR

static const struct finding_kind kinds[] = {
	/* the path: the engine's verdicts, as judge/topology_findings.c says them */
	{ "acs-redirect", W, E, "path",
	  "ACS redirect (ReqRedir, CmpltRedir, EgressCtrl) on the path's ports sends P2P through the root complex",
	  "pci=disable_acs_redir= naming only those ports" },
	{ "host-bridge-no-p2p", W, E, "path",
	  "the path crosses a host bridge the kernel does not trust to route P2P",
	  "put both devices under one host bridge or one switch" },
	{ "paravirtual-pair", I, I, "path",
	  "a pair with a paravirtual device: it has no P2P data path, so its verdict breaks nothing",
	  NULL },
	{ "verdict-unknown", W, W, "path",
	  "a fact the verdict needs is missing: a port's ACS, a parent, the root bus",
	  "read config space as root, or load the p2pdiag module" },
	{ "iommu-translated", I, W, "path",
	  "traffic through the root complex is translated by the IOMMU",
	  "remove the redirect, or put the devices' groups in identity mode" },
	{ "ats-direct-translated", I, I, "path",
	  "ATS is on and every redirecting port has DirectTrans: translated requests go direct",
	  NULL },
	{ "link-degraded", W, W, "link",
	  "a link trained below the lanes or speed both ends support",
	  "reseat the card; check the slot, riser or cable, retimers and the BIOS bifurcation and PCIe speed settings" },
	{ "link-slow-idle", I, I, "link",
	  "a GPU link below its speed at idle (power saving)",
	  NULL },
	/* measurements */
	{ "bw-low", W, W, "measurement",
	  "a bandwidth below --min-ratio of its expectation, with nothing but the path to explain it",
	  "check the link under load, the GPU's NUMA node and that host buffers are pinned there" },
	{ "bw-low-explained", I, I, "measurement",
	  "a low bandwidth explained by other work, held clocks or NUMA placement",
	  "the cause's fix" },
	{ "latency-high", W, W, "measurement",
	  "a latency above its ceiling, with nothing but the path to explain it",
	  "look for other work on the GPU and for host power states" },
	{ "latency-high-explained", I, I, "measurement",
	  "a high latency explained by other work, held clocks or NUMA placement",
	  "the cause's fix" },
	{ "gpu-busy", W, W, "measurement",
	  "other processes or utilisation on a GPU: not measured, or measured alongside them",
	  "stop the named processes, or --wait-idle" },
	{ "gpu-throttled", W, W, "measurement",
	  "clocks held back while the copies ran (thermal, power, slowdown)",
	  "the fix NVML's reason names" },
	{ "numa-remote", W, W, "measurement",
	  "the pinned host buffers landed on another NUMA node than the GPU's",
	  "run on a CPU of the GPU's NUMA node (numactl)" },
	{ "fake-p2p", E, E, "measurement",
	  "CUDA or NVML report peer access, yet P2P is no faster than host staging or does not verify",
	  "clear the path's ACS redirect, or disable P2P for the pair" },
	{ "data-corrupt", E, E, "measurement",
	  "a copy's data did not verify (zeros, ones, stale or partial)",
	  "do not use P2P between these devices until the path is fixed" },
	{ "copy-timeout", E, E, "measurement",
	  "a copy did not finish before --timeout",
	  "the likely cause the topology names (ACS redirect, IOMMU)" },
	{ "measure-failed", W, W, "measurement",
	  "the measurements stopped early: a call failed",
	  "check dmesg for NVRM/Xid messages" },
	{ "teardown-failed", W, W, "measurement",
	  "every figure was measured, then calls of the teardown failed",
	  "check dmesg for NVRM/Xid messages" },
	{ "contradiction-blocked-but-cuda-ok", E, E, "measurement",
	  "the topology says blocked, yet CUDA allows peer access",
	  "the pair's ACS or host bridge fix" },
	{ "contradiction-redirected-but-cuda-ok", W, E, "measurement",
	  "the topology says redirected, yet CUDA allows peer access as if direct",
	  "the pair's ACS fix" },
	{ "contradiction-ok-but-cuda-refuses", W, W, "measurement",
	  "a direct path, yet CUDA refuses peer access",
	  "check nvidia-smi topo -p2p r and the driver's P2P settings" },
	{ "hairpin", W, W, "measurement",
	  "both directions at once move no more than 1.15 x one direction: one link crossed twice",
	  "remove the ACS redirect on the pair's path" },
	{ "sibling-outlier", W, W, "measurement",
	  "a GPU's host bandwidth 10% or more below the median of GPUs of its name",
	  "compare its slot, link and NUMA node with its siblings'" },
	/* the GPU's settings, health and driver */
	{ "setting-ecc", W, W, "gpu-setting",
	  "an ECC mode change is pending",
	  "nvidia-smi -e, then a reboot" },
	{ "setting-persistence", I, I, "gpu-setting",
	  "persistence mode is off",
	  "nvidia-smi -pm 1" },
	{ "setting-compute_mode", W, W, "gpu-setting",
	  "the compute mode is not the default",
	  "nvidia-smi -c 0" },
	{ "setting-mig", W, W, "gpu-setting",
	  "MIG is on or pending: no CUDA P2P between GPUs",
	  "nvidia-smi -mig 0, then a GPU reset" },
	{ "setting-clocks", W, W, "gpu-setting",
	  "application or locked clocks held below their defaults",
	  "nvidia-smi -rac, -rgc, -rmc" },
	{ "setting-aspm_policy", I, I, "gpu-setting",
	  "the kernel's ASPM policy lets idle links sleep (powersave, powersupersave)",
	  "pcie_aspm.policy=performance" },
	{ "pcie-replay", W, W, "gpu-health",
	  "a GPU's PCIe replay counter rose during the run",
	  "reseat, check the riser or retimer, look at AER messages in dmesg" },
	{ "ecc-uncorrected", W, W, "gpu-health",
	  "a GPU's uncorrected ECC count rose during the run",
	  "see nvidia-smi -q -d ECC,PAGE_RETIREMENT" },
	{ "xid", W, E, "gpu-health",
	  "the driver reported Xid events during the run",
	  "look up the Xid in dmesg (NVRM: Xid)" },
	{ "gpu-not-in-topology", W, W, "gpu-health",
	  "a CUDA GPU whose PCI address is not in the snapshot",
	  "read the topology from this machine" },
	{ "cuda-not-built", I, I, "driver",
	  "built without cuda.h: topology only",
	  "install the CUDA Toolkit and rebuild" },
	{ "cuda-absent", I, I, "driver",
	  "libcuda.so.1 not found: CUDA checks skipped",
	  NULL },
	{ "nvml-absent", I, I, "driver",
	  "libnvidia-ml.so.1 not found: NVML checks skipped",
	  NULL },
	{ "no-gpu", I, I, "driver",
	  "CUDA sees no GPU: measurements skipped",
	  NULL },
	{ "cuda-symbol-missing", W, W, "driver",
	  "libcuda lacks an entry point (old driver)",
	  "update the NVIDIA driver" },
	{ "nvml-symbol-missing", W, W, "driver",
	  "libnvidia-ml lacks an entry point (old driver)",
	  "update the NVIDIA driver" },
	{ "cuda-init-failed", W, W, "driver",
	  "cuInit failed",
	  "check dmesg and that the driver matches its kernel module" },
	{ "nvml-init-failed", W, W, "driver",
	  "nvmlInit failed",
	  "check dmesg and that the driver matches its kernel module" },
	{ "cuda-failed", W, W, "driver",
	  "a CUDA call failed",
	  NULL },
	{ "nvml-failed", W, W, "driver",
	  "an NVML call failed",
	  NULL },
	/* the two sources, the CPU, the baseline */
	{ "cross-check-mismatch", W, W, "cross-check",
	  "--cross-check: a function or a field differs between the module and libpci",
	  "compare the module's version with the tool's" },
	{ "cross-check-pairs", W, W, "cross-check",
	  "--cross-check: the pairs files differ",
	  "compare the module's version with the tool's" },
	{ "engine-mismatch", W, W, "cross-check",
	  "the module's pairs differ from this tool's engine on the module's own topology",
	  "install the module and the tool of one version" },
	{ "cpuinfo-unreadable", W, W, "cpu",
	  "/proc/cpuinfo unreadable: host bridges judged as non-AMD",
	  "make /proc/cpuinfo readable, or pass --cpuinfo FILE" },
	{ "cpu-inferred", I, I, "cpu",
	  "an input without its CPU: the CPU inferred from its host bridges",
	  "pass that machine's /proc/cpuinfo with --cpuinfo FILE" },
	{ "cpu-unknown", I, I, "cpu",
	  "an input without its CPU, and its host bridges do not tell",
	  "pass that machine's /proc/cpuinfo with --cpuinfo FILE" },
	{ "baseline-topology", W, W, "baseline",
	  "--baseline check: a function missing or extra",
	  "check slots, risers and the firmware's PCIe settings" },
	{ "baseline-device", W, W, "baseline",
	  "--baseline check: a function's role, parent, IDs, ACS, link or IOMMU domain differ",
	  "compare the firmware settings with the baseline server" },
	{ "baseline-class", W, W, "baseline",
	  "--baseline check: a pair's class differs",
	  "check slots and risers" },
	{ "baseline-verdict", I, E, "baseline",
	  "--baseline check: a pair's verdict differs",
	  "compare the ACS findings and the firmware settings with the baseline server" },
	{ "baseline-bw", W, W, "baseline",
	  "--baseline check: bandwidth below the baseline by more than --tolerance",
	  "compare the link, clocks and placement with the baseline" },
	{ "baseline-context", I, I, "baseline",
	  "--baseline check: what changed in the machine's context (kernel, firmware, driver, slots)",
	  NULL },
	/* GPUDirect RDMA and Storage */
	{ "gdr-peermem-unregistered", W, W, "gpudirect",
	  "nvidia_peermem is loaded, but no peer-memory client is registered",
	  "reload nvidia_peermem after the RDMA stack" },
	{ "gdr-no-route", I, I, "gpudirect",
	  "an RDMA NIC, but neither peermem nor dma-buf",
	  "load nvidia_peermem, or use the open kernel modules on 5.12+" },
	{ "gdr-no-rdma-device", I, I, "gpudirect",
	  "a NIC function without an RDMA device",
	  "load the NIC's RDMA driver" },
	{ "gdr-no-rdma-nic", I, I, "gpudirect",
	  "GPUs, and no RDMA device at all",
	  NULL },
	{ "gdr-nccl-distance", I, I, "gpudirect",
	  "a GPU-NIC route NCCL will not use for GPUDirect RDMA by its distance rule",
	  "NCCL_NET_GDR_LEVEL, or a NIC closer to the GPU" },
	{ "gds-compat-mode", I, W, "gpudirect",
	  "GPU-NVMe: GPUDirect Storage would run through host memory",
	  "the missing P2PDMA precondition, or nvidia-fs" },
	{ "gds-iommu-translated", W, W, "gpudirect",
	  "nvidia-fs loaded, but the GPU's or the NVMe's IOMMU group translates",
	  "put both groups in identity mode" },
	{ "nvme-behind-vmd", I, I, "gpudirect",
	  "an NVMe controller in an Intel VMD domain: no GPUDirect route",
	  "turn VMD off for these NVMe ports in the firmware setup" },
	/* the kernel command line */
	{ "cmdline-acs-comma", W, W, "cmdline",
	  "pci=disable_acs_redir=A,B: the kernel keeps only A",
	  "separate the devices with ';'" },
	{ "cmdline-pci-repeated", W, W, "cmdline",
	  "more than one pci= argument sets the same ACS list: only the last applies",
	  "one pci= argument naming every port" },
	{ "cmdline-noacs", W, W, "cmdline",
	  "pci=noacs, which mainline Linux does not have",
	  "pci=disable_acs_redir= naming the ports" },
	{ "cmdline-acs-override", I, I, "cmdline",
	  "pcie_acs_override= changes grouping, not ACS redirect",
	  NULL },
	{ "cmdline-iommu-pt", I, I, "cmdline",
	  "iommu=pt next to redirected pairs: pass-through does not clear ACS",
	  NULL },
	{ "cmdline-fix-applied", I, I, "cmdline",
	  "the ports the command line's ACS list names read as it asks",
	  NULL },
	{ "cmdline-fix-not-applied", W, W, "cmdline",
	  "a port the command line's ACS list names still has the bits the list clears",
	  "check the list's syntax and the kernel's log" },
	{ "cmdline-fix-no-device", W, W, "cmdline",
	  "the command line's ACS list names a device the topology does not have",
	  "name the ports as they are now (bus numbers moved)" },
	/* IOMMU groups */
	{ "fix-merges-groups", I, I, "iommu-groups",
	  "the IOMMU groups that would join at the next boot once the fix clears ACS redirect",
	  NULL },
	{ "iommu-groups-stale", W, W, "iommu-groups",
	  "a function's IOMMU group no longer follows its ports' ACS (changed after boot)",
	  "reboot for the groups to follow" },
	/* AER and link status */
	{ "aer-during-run", W, W, "aer",
	  "a function on a judged path logged AER errors during the copies",
	  "reseat or replace the card or cable at this port" },
	{ "aer-logged", I, W, "aer",
	  "a function on a judged path has logged AER errors since boot",
	  "see the kernel log for this port's AER reports" },
	{ "link-retrained", I, I, "aer",
	  "a link on a path changed speed or width by itself",
	  NULL },
	/* virtual machines */
	{ "vm-guest", I, I, "vm",
	  "a virtual machine: the bridges are emulated, the fixes are the host's",
	  NULL },
	{ "vm-paravirtual", I, I, "vm",
	  "paravirtual devices (virtio, Hyper-V, VMware, Xen, gVNIC): no P2P or RDMA through them",
	  NULL },
	{ "vm-no-gpudirect-clique", W, W, "vm",
	  "a guest's GPUs without the GPUDirect clique capability: P2P is staged through host memory",
	  "give the GPUs a clique on the host" },
	{ "vm-gpudirect-clique", I, I, "vm",
	  "every GPU carries the GPUDirect clique capability, in one clique",
	  NULL },
	{ "vm-gpudirect-clique-split", W, W, "vm",
	  "the GPUs carry the GPUDirect clique capability in different cliques",
	  "give the GPUs one clique on the host" },
	{ "vm-clique-unreadable", I, I, "vm",
	  "the GPUs' config space past 64 bytes is root's only",
	  "run as root" },
	/* the environment */
	{ "env-nccl-p2p-disable", I, W, "environment",
	  "NCCL_P2P_DISABLE is set", NULL },
	{ "env-nccl-p2p-level", I, W, "environment",
	  "NCCL_P2P_LEVEL is set: how many GPU pairs gain or lose P2P", NULL },
	{ "env-nccl-ignore-disabled-p2p", I, I, "environment",
	  "NCCL_IGNORE_DISABLED_P2P is set", NULL },
	{ "env-nccl-net-gdr-level", I, I, "environment",
	  "NCCL_NET_GDR_LEVEL is set", NULL },
	{ "env-cuda-visible-devices", I, I, "environment",
	  "CUDA_VISIBLE_DEVICES is set", NULL },
	{ "env-cuda-device-order", I, I, "environment",
	  "CUDA_DEVICE_ORDER unset or FASTEST_FIRST while CUDA's order is not PCI order",
	  "CUDA_DEVICE_ORDER=PCI_BUS_ID" },
	/* --evidence: pasted files of another machine (evidence/) */
	{ "iommu-fault-during-p2p", E, E, "evidence",
	  "the kernel log has IOMMU faults of a GPU: peer DMA was refused",
	  "remove the ACS redirect, or put the devices' groups in identity mode" },
	{ "nccl-p2p-disabled", W, W, "evidence",
	  "NCCL did not use P2P between GPUs of one node",
	  "run p2pdiag-check on that machine" },
	{ "p2p-not-supported", I, E, "evidence",
	  "the tools report no peer access between the GPUs (a note where only pairs across CPU sockets are refused)",
	  "run p2pdiag-check on that machine" },
	{ "p2p-slower-than-host", W, W, "evidence",
	  "a pair with P2P enabled is slower than with it disabled",
	  "run p2pdiag-check on that machine" },
	{ "p2p-host-staged", W, W, "evidence",
	  "peer access granted, yet the bandwidth of the staged path",
	  "run p2pdiag-check on that machine" },
	{ "pair-asymmetric", W, W, "evidence",
	  "one direction of a pair below 60% of the other",
	  "run p2pdiag-check on that machine" },
	{ "bidir-collapse", W, W, "evidence",
	  "bidirectional P2P below 1.15 times the faster direction alone",
	  "remove the ACS redirect on the pair's path" },
	{ "p2p-latency-detour", W, W, "evidence",
	  "a pair's P2P latency far above the others'",
	  "run p2pdiag-check on that machine" },
	{ "bar-unassigned", W, E, "evidence",
	  "the kernel log has a BAR it found no space for: a GPU's memory cannot be mapped for peers",
	  "enable Above 4G Decoding and Resizable BAR in the firmware setup, or boot with pci=realloc" },
	{ "evidence-undecided", I, I, "evidence",
	  "these files cannot decide; the message names the command that would",
	  NULL },
};

#undef I
#undef W
#undef E

const struct finding_kind *finding_kinds(size_t *nr)
{
	*nr = sizeof(kinds) / sizeof(kinds[0]);
	return kinds;
}

const struct finding_kind *finding_kind_find(const char *code)
{
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(kinds[i].code, code))
			return &kinds[i];
	return NULL;
}

const char *finding_default_fix(const char *code)
{
	const struct finding_kind *k = finding_kind_find(code);

	return k ? k->fix : NULL;
}

int finding_kinds_print(FILE *out)
{
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		const struct finding_kind *k = &kinds[i];

		if (k->least == k->worst)
			fprintf(out, "%s\t%s", k->code,
				finding_severity_name(k->worst));
		else
			fprintf(out, "%s\t%s-%s", k->code,
				finding_severity_name(k->least),
				finding_severity_name(k->worst));
		fprintf(out, "\t%s\t%s\t%s\n", k->family, k->meaning,
			k->fix ? k->fix : "-");
	}
	return fflush(out) || ferror(out) ? -1 : 0;
}
