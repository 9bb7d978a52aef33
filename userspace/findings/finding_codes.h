/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every finding code the tool can report, once: the list that
 * finding_registry.h makes enum finding_code of and finding_registry.c
 * makes the registry's table of.  Producers name a code by its FC_
 * constant, so a misspelt code does not compile.  No include guard: it is
 * included once per use, with FINDING() defined as that use needs.
 *
 * FINDING(constant, code, family,
 *	   least severity, worst severity, default root cause,
 *	   meaning, the fix a producer gives when it says none, or NULL)
 *
 * The order is the documentation's: the path first, then measurements,
 * the GPU's settings and drivers, the cross-checks and the baseline, then
 * the system checks.  The meaning is the short form of userspace/README.md's
 * "Findings" table.  The root cause is what a finding of the code is about
 * when its producer says no more (root_cause.h); a code whose findings can
 * have several (a refusal, a slow pair, a timeout) defaults to undecided.
 */

/* the path: the engine's verdicts, as judge/topology_findings.c says them */
FINDING(FC_ACS_REDIRECT, "acs-redirect", "path",
	SEV_WARNING, SEV_ERROR, RC_ACS_REDIRECT,
	"ACS redirect (ReqRedir, CmpltRedir, EgressCtrl) on the path's ports sends P2P through the root complex",
	"pci=disable_acs_redir= naming only those ports")
FINDING(FC_HOST_BRIDGE_NO_P2P, "host-bridge-no-p2p", "path",
	SEV_WARNING, SEV_ERROR, RC_HOST_BRIDGE,
	"the path crosses a host bridge the kernel does not trust to route P2P",
	"put both devices under one host bridge or one switch")
FINDING(FC_PARAVIRTUAL_PAIR, "paravirtual-pair", "path",
	SEV_INFO, SEV_INFO, RC_VIRTUALIZATION,
	"a pair with a paravirtual device: it has no P2P data path, so its verdict breaks nothing",
	NULL)
FINDING(FC_KERNEL_P2PDMA_VERDICT, "kernel-p2pdma-verdict", "path",
	SEV_INFO, SEV_WARNING, RC_UNDECIDED,
	"the kernel logged its own P2PDMA refusal for a pair: shown beside p2pdiag's verdict (a warning where they differ)",
	"compare the kernel's release with the P2PDMA list line")
FINDING(FC_VERDICT_UNKNOWN, "verdict-unknown", "path",
	SEV_WARNING, SEV_WARNING, RC_UNDECIDED,
	"a fact the verdict needs is missing: a port's ACS, a parent, the root bus",
	"read config space as root, or load the p2pdiag module")
FINDING(FC_IOMMU_TRANSLATED, "iommu-translated", "path",
	SEV_INFO, SEV_WARNING, RC_IOMMU_TRANSLATION,
	"traffic through the root complex is translated by the IOMMU",
	"remove the redirect, or put the devices' groups in identity mode")
FINDING(FC_ATS_DIRECT_TRANSLATED, "ats-direct-translated", "path",
	SEV_INFO, SEV_INFO, RC_IOMMU_TRANSLATION,
	"ATS is on and every redirecting port has DirectTrans: translated requests go direct",
	NULL)
FINDING(FC_LINK_DEGRADED, "link-degraded", "link",
	SEV_WARNING, SEV_WARNING, RC_LINK_DEGRADED,
	"a link trained below the lanes or speed both ends support",
	"reseat the card; check the slot, riser or cable, retimers and the BIOS bifurcation and PCIe speed settings")
FINDING(FC_LINK_CAPPED_THERMAL, "link-capped-thermal", "link",
	SEV_WARNING, SEV_WARNING, RC_LINK_DEGRADED,
	"a link below its speed because the kernel's bandwidth controller, as a thermal cooling device, holds its port down (6.13+)",
	"cool the system; the kernel raises the speed again")
FINDING(FC_LINK_CAPPED_TARGET, "link-capped-target", "link",
	SEV_WARNING, SEV_WARNING, RC_BIOS_SETTING,
	"a link below its speed because Target Link Speed in Link Control 2 caps it",
	"set the slot's PCIe speed in the BIOS to Auto")
FINDING(FC_BAR_UNASSIGNED, "bar-unassigned", "link",
	SEV_WARNING, SEV_ERROR, RC_BAR_SIZE,
	"a GPU's or NIC's BAR has no address (its sysfs resource, or the kernel log's no-space line): the firmware or the kernel found no room for it, so peers cannot map its memory",
	"enable Above 4G Decoding and Resizable BAR in the firmware setup, or boot with pci=realloc")
FINDING(FC_BAR_RESIZABLE_SMALL, "bar-resizable-small", "link",
	SEV_WARNING, SEV_WARNING, RC_BAR_SIZE,
	"a GPU's or NIC's Resizable BAR is below the largest size its capability offers",
	"Resizable BAR (Re-Size BAR Support) in the BIOS, or resourceN_resize")
FINDING(FC_BAR1_BELOW_MEMORY, "bar1-below-memory", "link",
	SEV_WARNING, SEV_WARNING, RC_BAR_SIZE,
	"NVML's BAR1 of a GPU is smaller than its memory: Resizable BAR or Above 4G Decoding is off, or the GPU offers no larger BAR1",
	"Resizable BAR (Re-Size BAR Support) and Above 4G Decoding in the BIOS, or resource1_resize")
FINDING(FC_BAR_BELOW_4G, "bar-below-4g", "link",
	SEV_WARNING, SEV_WARNING, RC_BIOS_SETTING,
	"a GPU's or accelerator's 64-bit prefetchable BAR placed below 4 GiB, none of its others above: Above 4G Decoding is off",
	"Above 4G Decoding (Above 4G MMIO, 64-bit MMIO) in the BIOS, or pci=realloc")
FINDING(FC_BAR_BRIDGE_WINDOW, "bar-bridge-window", "link",
	SEV_WARNING, SEV_ERROR, RC_BAR_SIZE,
	"a 64-bit prefetchable BAR larger than a bridge's prefetchable window above it, or without an address behind a 32-bit-only window",
	"Above 4G Decoding and a larger 64-bit MMIO size in the BIOS, or pci=realloc")
FINDING(FC_BAR_ABOVE_DMA_MASK, "bar-above-dma-mask", "link",
	SEV_ERROR, SEV_ERROR, RC_UNDECIDED,
	"a BAR that ends above what a peer's driver can address (dma_mask_bits), where nothing translates the peer's requests",
	"a translating IOMMU for the peer, or a lower 64-bit MMIO base in the BIOS")
FINDING(FC_P2P_ATOMICS, "p2p-atomics", "link",
	SEV_INFO, SEV_WARNING, RC_UNDECIDED,
	"whether PCIe AtomicOps between two GPUs work, are partial or are blocked, and by which port (DevCap2, DevCtl2)",
	"clear AtomicOp Egress Blocking on the named port, or use a path that routes AtomicOps")
FINDING(FC_LINK_SLOW_IDLE, "link-slow-idle", "link",
	SEV_INFO, SEV_INFO, RC_UNDECIDED,
	"a GPU link below its speed at idle (power saving)",
	NULL)
FINDING(FC_NCCL_LINK_CURRENT, "nccl-link-current", "link",
	SEV_INFO, SEV_INFO, RC_UNDECIDED,
	"NCCL 2.30.7 or later takes a GPU's PCIe figure from NVML's current link, which is below what the link can do",
	"an NCCL_TOPO_FILE with the link's link_speed and link_width")

/* measurements */
FINDING(FC_BW_LOW, "bw-low", "measurement",
	SEV_WARNING, SEV_WARNING, RC_UNDECIDED,
	"a bandwidth below --min-ratio of its expectation, with nothing but the path to explain it",
	"check the link under load, the GPU's NUMA node and that host buffers are pinned there")
FINDING(FC_BW_LOW_EXPLAINED, "bw-low-explained", "measurement",
	SEV_INFO, SEV_INFO, RC_UNDECIDED,
	"a low bandwidth explained by other work, held clocks or NUMA placement",
	"the cause's fix")
FINDING(FC_LATENCY_HIGH, "latency-high", "measurement",
	SEV_WARNING, SEV_WARNING, RC_UNDECIDED,
	"a latency above its ceiling, with nothing but the path to explain it",
	"look for other work on the GPU and for host power states")
FINDING(FC_LATENCY_HIGH_EXPLAINED, "latency-high-explained", "measurement",
	SEV_INFO, SEV_INFO, RC_UNDECIDED,
	"a high latency explained by other work, held clocks or NUMA placement",
	"the cause's fix")
FINDING(FC_GPU_BUSY, "gpu-busy", "measurement",
	SEV_INFO, SEV_WARNING, RC_UNDECIDED,
	"other processes or utilisation on a GPU: not measured, or measured alongside them",
	"stop the named processes, or --wait-idle")
FINDING(FC_GPU_THROTTLED, "gpu-throttled", "measurement",
	SEV_WARNING, SEV_WARNING, RC_UNDECIDED,
	"clocks held back while the copies ran (thermal, power, slowdown)",
	"the fix NVML's reason names")
FINDING(FC_NUMA_REMOTE, "numa-remote", "measurement",
	SEV_WARNING, SEV_WARNING, RC_CROSS_SOCKET,
	"the pinned host buffers landed on another NUMA node than the GPU's",
	"run on a CPU of the GPU's NUMA node (numactl)")
FINDING(FC_FAKE_P2P, "fake-p2p", "measurement",
	SEV_ERROR, SEV_ERROR, RC_UNDECIDED,
	"CUDA or NVML report peer access, yet P2P is no faster than host staging or does not verify",
	"clear the path's ACS redirect, or disable P2P for the pair")
FINDING(FC_DATA_CORRUPT, "data-corrupt", "measurement",
	SEV_ERROR, SEV_ERROR, RC_UNDECIDED,
	"a copy's data did not verify (zeros, ones, stale or partial)",
	"do not use P2P between these devices until the path is fixed")
FINDING(FC_COPY_TIMEOUT, "copy-timeout", "measurement",
	SEV_ERROR, SEV_ERROR, RC_UNDECIDED,
	"a copy did not finish before --timeout",
	"the likely cause the topology names (ACS redirect, IOMMU)")
FINDING(FC_MEASURE_FAILED, "measure-failed", "measurement",
	SEV_WARNING, SEV_WARNING, RC_DRIVER,
	"the measurements stopped early: a call failed",
	"check dmesg for NVRM/Xid messages")
FINDING(FC_TEARDOWN_FAILED, "teardown-failed", "measurement",
	SEV_WARNING, SEV_WARNING, RC_DRIVER,
	"every figure was measured, then calls of the teardown failed",
	"check dmesg for NVRM/Xid messages")
FINDING(FC_CONTRADICTION_BLOCKED_BUT_CUDA_OK, "contradiction-blocked-but-cuda-ok", "measurement",
	SEV_ERROR, SEV_ERROR, RC_UNDECIDED,
	"the topology says blocked, yet CUDA allows peer access",
	"the pair's ACS or host bridge fix")
FINDING(FC_CONTRADICTION_REDIRECTED_BUT_CUDA_OK, "contradiction-redirected-but-cuda-ok", "measurement",
	SEV_WARNING, SEV_ERROR, RC_UNDECIDED,
	"the topology says redirected, yet CUDA allows peer access as if direct",
	"the pair's ACS fix")
FINDING(FC_CONTRADICTION_OK_BUT_CUDA_REFUSES, "contradiction-ok-but-cuda-refuses", "measurement",
	SEV_WARNING, SEV_WARNING, RC_UNDECIDED,
	"a direct path, yet CUDA refuses peer access",
	"check nvidia-smi topo -p2p r and the driver's P2P settings")
FINDING(FC_PEER_ACCESS_ONE_WAY, "peer-access-one-way", "measurement",
	SEV_WARNING, SEV_WARNING, RC_BIOS_SETTING,
	"CUDA grants peer access in one direction of a GPU pair only: memory-window placement, not the path",
	"compare both GPUs' BAR placement; Above 4G Decoding in the BIOS")
FINDING(FC_CUDA_REFUSES_AS_TOPOLOGY, "cuda-refuses-as-topology", "measurement",
	SEV_INFO, SEV_INFO, RC_UNDECIDED,
	"a driver that checks IOMMU and ACS (CUDA 13.5+) refuses peer access on a path the topology also rejects",
	"the pair's ACS or host bridge fix")
FINDING(FC_CUDA_PEER_FORCED, "cuda-peer-forced", "measurement",
	SEV_INFO, SEV_ERROR, RC_DRIVER,
	"CUDA allows peer access only because CUDA_DISABLE_IOMMU_ACS_P2P_CAPABILITY_CHECK switches its check off: no evidence",
	"unset CUDA_DISABLE_IOMMU_ACS_P2P_CAPABILITY_CHECK")
FINDING(FC_HAIRPIN, "hairpin", "measurement",
	SEV_WARNING, SEV_WARNING, RC_ACS_REDIRECT,
	"both directions at once move no more than 1.15 x one direction: one link crossed twice",
	"remove the ACS redirect on the pair's path")
FINDING(FC_SIBLING_OUTLIER, "sibling-outlier", "measurement",
	SEV_WARNING, SEV_WARNING, RC_LINK_DEGRADED,
	"a GPU's host bandwidth 10% or more below the median of GPUs of its name",
	"compare its slot, link and NUMA node with its siblings'")

/* the GPU's settings, health and driver */
FINDING(FC_SETTING_ECC, "setting-ecc", "gpu-setting",
	SEV_WARNING, SEV_WARNING, RC_DRIVER,
	"an ECC mode change is pending",
	"nvidia-smi -e, then a reboot")
FINDING(FC_SETTING_PERSISTENCE, "setting-persistence", "gpu-setting",
	SEV_INFO, SEV_INFO, RC_DRIVER,
	"persistence mode is off",
	"nvidia-smi -pm 1")
FINDING(FC_SETTING_COMPUTE_MODE, "setting-compute_mode", "gpu-setting",
	SEV_WARNING, SEV_WARNING, RC_DRIVER,
	"the compute mode is not the default",
	"nvidia-smi -c 0")
FINDING(FC_SETTING_MIG, "setting-mig", "gpu-setting",
	SEV_WARNING, SEV_WARNING, RC_DRIVER,
	"MIG is on or pending: no CUDA P2P between GPUs",
	"nvidia-smi -mig 0, then a GPU reset")
FINDING(FC_SETTING_CLOCKS, "setting-clocks", "gpu-setting",
	SEV_WARNING, SEV_WARNING, RC_DRIVER,
	"application or locked clocks held below their defaults",
	"nvidia-smi -rac, -rgc, -rmc")
FINDING(FC_SETTING_ASPM_POLICY, "setting-aspm_policy", "gpu-setting",
	SEV_INFO, SEV_INFO, RC_BIOS_SETTING,
	"the kernel's ASPM policy lets idle links sleep (powersave, powersupersave)",
	"pcie_aspm.policy=performance")
FINDING(FC_PCIE_REPLAY, "pcie-replay", "gpu-health",
	SEV_WARNING, SEV_WARNING, RC_LINK_DEGRADED,
	"a GPU's PCIe replay counter rose during the run",
	"reseat, check the riser or retimer, look at AER messages in dmesg")
FINDING(FC_ECC_UNCORRECTED, "ecc-uncorrected", "gpu-health",
	SEV_WARNING, SEV_WARNING, RC_UNDECIDED,
	"a GPU's uncorrected ECC count rose during the run",
	"see nvidia-smi -q -d ECC,PAGE_RETIREMENT")
FINDING(FC_XID, "xid", "gpu-health",
	SEV_WARNING, SEV_ERROR, RC_UNDECIDED,
	"the driver reported Xid events during the run",
	"look up the Xid in dmesg (NVRM: Xid)")
FINDING(FC_GPU_NOT_IN_TOPOLOGY, "gpu-not-in-topology", "gpu-health",
	SEV_WARNING, SEV_WARNING, RC_UNDECIDED,
	"a CUDA GPU whose PCI address is not in the snapshot",
	"read the topology from this machine")
FINDING(FC_CUDA_NOT_BUILT, "cuda-not-built", "driver",
	SEV_INFO, SEV_INFO, RC_DRIVER,
	"built without cuda.h: topology only",
	"install the CUDA Toolkit and rebuild")
FINDING(FC_CUDA_ABSENT, "cuda-absent", "driver",
	SEV_INFO, SEV_INFO, RC_DRIVER,
	"libcuda.so.1 not found: CUDA checks skipped",
	NULL)
FINDING(FC_NVML_ABSENT, "nvml-absent", "driver",
	SEV_INFO, SEV_INFO, RC_DRIVER,
	"libnvidia-ml.so.1 not found: NVML checks skipped",
	NULL)
FINDING(FC_NO_GPU, "no-gpu", "driver",
	SEV_INFO, SEV_INFO, RC_DRIVER,
	"CUDA sees no GPU: measurements skipped",
	NULL)
FINDING(FC_CUDA_SYMBOL_MISSING, "cuda-symbol-missing", "driver",
	SEV_WARNING, SEV_WARNING, RC_DRIVER,
	"libcuda lacks an entry point (old driver)",
	"update the NVIDIA driver")
FINDING(FC_NVML_SYMBOL_MISSING, "nvml-symbol-missing", "driver",
	SEV_WARNING, SEV_WARNING, RC_DRIVER,
	"libnvidia-ml lacks an entry point (old driver)",
	"update the NVIDIA driver")
FINDING(FC_CUDA_INIT_FAILED, "cuda-init-failed", "driver",
	SEV_WARNING, SEV_WARNING, RC_DRIVER,
	"cuInit failed",
	"check dmesg and that the driver matches its kernel module")
FINDING(FC_NVML_INIT_FAILED, "nvml-init-failed", "driver",
	SEV_WARNING, SEV_WARNING, RC_DRIVER,
	"nvmlInit failed",
	"check dmesg and that the driver matches its kernel module")
FINDING(FC_GPU_DRIVER_HUNG, "gpu-driver-hung", "driver",
	SEV_ERROR, SEV_ERROR, RC_DRIVER,
	"a CUDA or NVML call did not return before --timeout or --deadline: the driver is wedged, the GPUs unknown",
	"reset the GPUs (nvidia-smi -r) or reboot; the Xid in dmesg says why")
FINDING(FC_CHECK_TIMED_OUT, "check-timed-out", "driver",
	SEV_ERROR, SEV_ERROR, RC_UNDECIDED,
	"the run's --deadline came while a CUDA or NVML call or a copy had not finished: the GPUs unknown",
	"rerun with a longer --deadline; if it never finishes, reset the GPUs or reboot")
FINDING(FC_CUDA_FAILED, "cuda-failed", "driver",
	SEV_WARNING, SEV_WARNING, RC_DRIVER,
	"a CUDA call failed",
	NULL)
FINDING(FC_NVML_FAILED, "nvml-failed", "driver",
	SEV_WARNING, SEV_WARNING, RC_DRIVER,
	"an NVML call failed",
	NULL)

/* the two sources, the CPU, the baseline */
FINDING(FC_CROSS_CHECK_MISMATCH, "cross-check-mismatch", "cross-check",
	SEV_WARNING, SEV_WARNING, RC_DRIVER,
	"--cross-check: a function or a field differs between the module and libpci",
	"compare the module's version with the tool's")
FINDING(FC_CROSS_CHECK_PAIRS, "cross-check-pairs", "cross-check",
	SEV_WARNING, SEV_WARNING, RC_DRIVER,
	"--cross-check: the pairs files differ",
	"compare the module's version with the tool's")
FINDING(FC_ENGINE_MISMATCH, "engine-mismatch", "cross-check",
	SEV_WARNING, SEV_WARNING, RC_DRIVER,
	"the module's pairs differ from this tool's engine on the module's own topology",
	"install the module and the tool of one version")
FINDING(FC_CPUINFO_UNREADABLE, "cpuinfo-unreadable", "cpu",
	SEV_WARNING, SEV_WARNING, RC_UNDECIDED,
	"/proc/cpuinfo unreadable: host bridges judged as non-AMD",
	"make /proc/cpuinfo readable, or pass --cpuinfo FILE")
FINDING(FC_CPU_INFERRED, "cpu-inferred", "cpu",
	SEV_INFO, SEV_INFO, RC_UNDECIDED,
	"an input without its CPU: the CPU inferred from its host bridges",
	"pass that machine's /proc/cpuinfo with --cpuinfo FILE")
FINDING(FC_CPU_UNKNOWN, "cpu-unknown", "cpu",
	SEV_INFO, SEV_INFO, RC_UNDECIDED,
	"an input without its CPU, and its host bridges do not tell",
	"pass that machine's /proc/cpuinfo with --cpuinfo FILE")
FINDING(FC_BASELINE_TOPOLOGY, "baseline-topology", "baseline",
	SEV_WARNING, SEV_WARNING, RC_UNDECIDED,
	"--baseline check: a function missing or extra",
	"check slots, risers and the firmware's PCIe settings")
FINDING(FC_BASELINE_DEVICE, "baseline-device", "baseline",
	SEV_WARNING, SEV_WARNING, RC_UNDECIDED,
	"--baseline check: a function's role, parent, IDs, ACS, link or IOMMU domain differ",
	"compare the firmware settings with the baseline server")
FINDING(FC_BASELINE_CLASS, "baseline-class", "baseline",
	SEV_WARNING, SEV_WARNING, RC_UNDECIDED,
	"--baseline check: a pair's class differs",
	"check slots and risers")
FINDING(FC_BASELINE_VERDICT, "baseline-verdict", "baseline",
	SEV_INFO, SEV_ERROR, RC_UNDECIDED,
	"--baseline check: a pair's verdict differs",
	"compare the ACS findings and the firmware settings with the baseline server")
FINDING(FC_BASELINE_BW, "baseline-bw", "baseline",
	SEV_WARNING, SEV_WARNING, RC_UNDECIDED,
	"--baseline check: bandwidth below the baseline by more than --tolerance",
	"compare the link, clocks and placement with the baseline")
FINDING(FC_BASELINE_CONTEXT, "baseline-context", "baseline",
	SEV_INFO, SEV_INFO, RC_UNDECIDED,
	"--baseline check: what changed in the machine's context (kernel, firmware, driver, slots)",
	NULL)

/* GPUDirect RDMA and Storage */
FINDING(FC_GDR_PEERMEM_UNREGISTERED, "gdr-peermem-unregistered", "gpudirect",
	SEV_WARNING, SEV_WARNING, RC_DRIVER,
	"nvidia_peermem is loaded, but no peer-memory client is registered",
	"reload nvidia_peermem after the RDMA stack")
FINDING(FC_GDR_NO_ROUTE, "gdr-no-route", "gpudirect",
	SEV_INFO, SEV_INFO, RC_DRIVER,
	"an RDMA NIC, but neither peermem nor dma-buf",
	"load nvidia_peermem, or use the open kernel modules on 5.12+")
FINDING(FC_GDR_NO_RDMA_DEVICE, "gdr-no-rdma-device", "gpudirect",
	SEV_INFO, SEV_INFO, RC_DRIVER,
	"a NIC function without an RDMA device",
	"load the NIC's RDMA driver")
FINDING(FC_GDR_NO_RDMA_NIC, "gdr-no-rdma-nic", "gpudirect",
	SEV_INFO, SEV_INFO, RC_UNDECIDED,
	"GPUs, and no RDMA device at all",
	NULL)
FINDING(FC_GDR_NCCL_DISTANCE, "gdr-nccl-distance", "gpudirect",
	SEV_INFO, SEV_INFO, RC_CROSS_SOCKET,
	"a GPU-NIC route NCCL will not use for GPUDirect RDMA by its distance rule",
	"NCCL_NET_GDR_LEVEL, or a NIC closer to the GPU")
FINDING(FC_GDS_COMPAT_MODE, "gds-compat-mode", "gpudirect",
	SEV_INFO, SEV_WARNING, RC_UNDECIDED,
	"GPU-NVMe: GPUDirect Storage would run through host memory",
	"the missing P2PDMA precondition, or nvidia-fs")
FINDING(FC_GDS_IOMMU_TRANSLATED, "gds-iommu-translated", "gpudirect",
	SEV_WARNING, SEV_WARNING, RC_IOMMU_TRANSLATION,
	"nvidia-fs loaded, but the GPU's or the NVMe's IOMMU group translates",
	"put both groups in identity mode")
FINDING(FC_NVME_BEHIND_VMD, "nvme-behind-vmd", "gpudirect",
	SEV_INFO, SEV_INFO, RC_BIOS_SETTING,
	"an NVMe controller in an Intel VMD domain: no GPUDirect route",
	"turn VMD off for these NVMe ports in the firmware setup")

/* the kernel command line */
FINDING(FC_CMDLINE_ACS_COMMA, "cmdline-acs-comma", "cmdline",
	SEV_WARNING, SEV_WARNING, RC_ACS_REDIRECT,
	"pci=disable_acs_redir=A,B: the kernel keeps only A",
	"separate the devices with ';'")
FINDING(FC_CMDLINE_PCI_REPEATED, "cmdline-pci-repeated", "cmdline",
	SEV_WARNING, SEV_WARNING, RC_ACS_REDIRECT,
	"more than one pci= argument sets the same ACS list: only the last applies",
	"one pci= argument naming every port")
FINDING(FC_CMDLINE_NOACS, "cmdline-noacs", "cmdline",
	SEV_WARNING, SEV_WARNING, RC_ACS_REDIRECT,
	"pci=noacs, which mainline Linux does not have",
	"pci=disable_acs_redir= naming the ports")
FINDING(FC_CMDLINE_ACS_OVERRIDE, "cmdline-acs-override", "cmdline",
	SEV_INFO, SEV_INFO, RC_ACS_REDIRECT,
	"pcie_acs_override= changes grouping, not ACS redirect",
	NULL)
FINDING(FC_CMDLINE_IOMMU_PT, "cmdline-iommu-pt", "cmdline",
	SEV_INFO, SEV_INFO, RC_IOMMU_TRANSLATION,
	"iommu=pt next to redirected pairs: pass-through does not clear ACS",
	NULL)
FINDING(FC_CMDLINE_FIX_APPLIED, "cmdline-fix-applied", "cmdline",
	SEV_INFO, SEV_INFO, RC_ACS_REDIRECT,
	"the ports the command line's ACS list names read as it asks",
	NULL)
FINDING(FC_CMDLINE_FIX_NOT_APPLIED, "cmdline-fix-not-applied", "cmdline",
	SEV_WARNING, SEV_WARNING, RC_ACS_REDIRECT,
	"a port the command line's ACS list names still has the bits the list clears",
	"check the list's syntax and the kernel's log")
FINDING(FC_CMDLINE_FIX_NO_DEVICE, "cmdline-fix-no-device", "cmdline",
	SEV_WARNING, SEV_WARNING, RC_ACS_REDIRECT,
	"the command line's ACS list names a device the topology does not have",
	"name the ports as they are now (bus numbers moved)")

/* IOMMU groups */
FINDING(FC_FIX_MERGES_GROUPS, "fix-merges-groups", "iommu-groups",
	SEV_INFO, SEV_INFO, RC_ACS_REDIRECT,
	"the IOMMU groups that would join at the next boot once the fix clears ACS redirect",
	NULL)
FINDING(FC_IOMMU_GROUPS_STALE, "iommu-groups-stale", "iommu-groups",
	SEV_WARNING, SEV_WARNING, RC_ACS_REDIRECT,
	"a function's IOMMU group no longer follows its ports' ACS (changed after boot)",
	"reboot for the groups to follow")

/* AER and link status */
FINDING(FC_AER_DURING_RUN, "aer-during-run", "aer",
	SEV_WARNING, SEV_WARNING, RC_LINK_DEGRADED,
	"a function on a judged path logged AER errors during the copies",
	"reseat or replace the card or cable at this port")
FINDING(FC_AER_LOGGED, "aer-logged", "aer",
	SEV_INFO, SEV_WARNING, RC_LINK_DEGRADED,
	"a function on a judged path has logged AER errors since boot",
	"see the kernel log for this port's AER reports")
FINDING(FC_LINK_RETRAINED, "link-retrained", "aer",
	SEV_INFO, SEV_INFO, RC_LINK_DEGRADED,
	"a link on a path changed speed or width by itself",
	NULL)

/* virtual machines */
FINDING(FC_VM_GUEST, "vm-guest", "vm",
	SEV_INFO, SEV_INFO, RC_VIRTUALIZATION,
	"a virtual machine: the bridges are emulated, the fixes are the host's",
	NULL)
FINDING(FC_VM_PARAVIRTUAL, "vm-paravirtual", "vm",
	SEV_INFO, SEV_INFO, RC_VIRTUALIZATION,
	"paravirtual devices (virtio, Hyper-V, VMware, Xen, gVNIC): no P2P or RDMA through them",
	NULL)
FINDING(FC_VM_NO_GPUDIRECT_CLIQUE, "vm-no-gpudirect-clique", "vm",
	SEV_WARNING, SEV_WARNING, RC_VIRTUALIZATION,
	"a guest's GPUs without the GPUDirect clique capability: P2P is staged through host memory",
	"give the GPUs a clique on the host")
FINDING(FC_VM_GPUDIRECT_CLIQUE, "vm-gpudirect-clique", "vm",
	SEV_INFO, SEV_INFO, RC_VIRTUALIZATION,
	"every GPU carries the GPUDirect clique capability, in one clique",
	NULL)
FINDING(FC_VM_GPUDIRECT_CLIQUE_SPLIT, "vm-gpudirect-clique-split", "vm",
	SEV_WARNING, SEV_WARNING, RC_VIRTUALIZATION,
	"the GPUs carry the GPUDirect clique capability in different cliques",
	"give the GPUs one clique on the host")
FINDING(FC_VM_CLIQUE_UNREADABLE, "vm-clique-unreadable", "vm",
	SEV_INFO, SEV_INFO, RC_VIRTUALIZATION,
	"the GPUs' config space past 64 bytes is root's only",
	"run as root")

/* the environment */
FINDING(FC_ENV_NCCL_P2P_DISABLE, "env-nccl-p2p-disable", "environment",
	SEV_INFO, SEV_WARNING, RC_DRIVER,
	"NCCL_P2P_DISABLE is set",
	NULL)
FINDING(FC_ENV_NCCL_P2P_LEVEL, "env-nccl-p2p-level", "environment",
	SEV_INFO, SEV_WARNING, RC_DRIVER,
	"NCCL_P2P_LEVEL is set: how many GPU pairs gain or lose P2P",
	NULL)
FINDING(FC_ENV_NCCL_IGNORE_DISABLED_P2P, "env-nccl-ignore-disabled-p2p", "environment",
	SEV_INFO, SEV_INFO, RC_DRIVER,
	"NCCL_IGNORE_DISABLED_P2P is set",
	NULL)
FINDING(FC_ENV_NCCL_NET_GDR_LEVEL, "env-nccl-net-gdr-level", "environment",
	SEV_INFO, SEV_INFO, RC_DRIVER,
	"NCCL_NET_GDR_LEVEL is set",
	NULL)
FINDING(FC_ENV_CUDA_VISIBLE_DEVICES, "env-cuda-visible-devices", "environment",
	SEV_INFO, SEV_INFO, RC_DRIVER,
	"CUDA_VISIBLE_DEVICES is set",
	NULL)
FINDING(FC_ENV_CUDA_DEVICE_ORDER, "env-cuda-device-order", "environment",
	SEV_INFO, SEV_INFO, RC_DRIVER,
	"CUDA_DEVICE_ORDER unset or FASTEST_FIRST while CUDA's order is not PCI order",
	"CUDA_DEVICE_ORDER=PCI_BUS_ID")
FINDING(FC_ENV_CUDA_ACS_CHECK_DISABLED, "env-cuda-acs-check-disabled", "environment",
	SEV_INFO, SEV_WARNING, RC_DRIVER,
	"CUDA_DISABLE_IOMMU_ACS_P2P_CAPABILITY_CHECK is set: CUDA 13.5+ drivers skip their IOMMU and ACS check",
	"unset CUDA_DISABLE_IOMMU_ACS_P2P_CAPABILITY_CHECK")

/* --evidence: pasted files of another machine (evidence/) */
FINDING(FC_IOMMU_FAULT_DURING_P2P, "iommu-fault-during-p2p", "evidence",
	SEV_ERROR, SEV_ERROR, RC_IOMMU_TRANSLATION,
	"the kernel log has IOMMU faults of a GPU: peer DMA was refused",
	"remove the ACS redirect, or put the devices' groups in identity mode")
FINDING(FC_NCCL_P2P_DISABLED, "nccl-p2p-disabled", "evidence",
	SEV_WARNING, SEV_WARNING, RC_UNDECIDED,
	"NCCL did not use P2P between GPUs of one node",
	"run p2pdiag-check on that machine")
FINDING(FC_P2P_NOT_SUPPORTED, "p2p-not-supported", "evidence",
	SEV_INFO, SEV_ERROR, RC_UNDECIDED,
	"the tools report no peer access between the GPUs (a note where only pairs across CPU sockets are refused)",
	"run p2pdiag-check on that machine")
FINDING(FC_P2P_SLOWER_THAN_HOST, "p2p-slower-than-host", "evidence",
	SEV_WARNING, SEV_WARNING, RC_UNDECIDED,
	"a pair with P2P enabled is slower than with it disabled",
	"run p2pdiag-check on that machine")
FINDING(FC_P2P_HOST_STAGED, "p2p-host-staged", "evidence",
	SEV_WARNING, SEV_WARNING, RC_UNDECIDED,
	"peer access granted, yet the bandwidth of the staged path",
	"run p2pdiag-check on that machine")
FINDING(FC_PAIR_ASYMMETRIC, "pair-asymmetric", "evidence",
	SEV_WARNING, SEV_WARNING, RC_UNDECIDED,
	"one direction of a pair below 60% of the other",
	"run p2pdiag-check on that machine")
FINDING(FC_BIDIR_COLLAPSE, "bidir-collapse", "evidence",
	SEV_WARNING, SEV_WARNING, RC_UNDECIDED,
	"bidirectional P2P below 1.15 times the faster direction alone",
	"remove the ACS redirect on the pair's path")
FINDING(FC_P2P_LATENCY_DETOUR, "p2p-latency-detour", "evidence",
	SEV_WARNING, SEV_WARNING, RC_UNDECIDED,
	"a pair's P2P latency far above the others'",
	"run p2pdiag-check on that machine")
FINDING(FC_NVLINK_DOWN, "nvlink-down", "evidence",
	SEV_ERROR, SEV_ERROR, RC_NVLINK,
	"GPUs joined by NVLink whose peer path does not work: NCCL finds P2P disabled over the link, or CUDA waits on the NVSwitch fabric manager",
	"nvidia-smi nvlink -s and -e (links down or counting errors: reseat the bridge or service the board); on NVSwitch machines start the fabric manager of the driver's version (systemctl status nvidia-fabricmanager)")
FINDING(FC_NVLINK_INACTIVE, "nvlink-inactive", "evidence",
	SEV_WARNING, SEV_WARNING, RC_NVLINK,
	"a GPU with no NVLink up where another GPU of the same paste has links up: a bridge missing or unseated, or GPUs never bridged",
	"nvidia-smi nvlink -s on that machine; where the GPUs should be bridged, reseat or replace the NVLink bridge")
FINDING(FC_NVRM_PEER_ASSERT, "nvrm-peer-assert", "evidence",
	SEV_WARNING, SEV_WARNING, RC_UNDECIDED,
	"the NVIDIA driver asserted in its BAR1 peer-mapping code, and nothing shows BAR1 too small: BAR1 or the driver",
	"nvidia-smi -q | grep -A3 BAR1 (BAR1 total below the GPU's memory: enable Resizable BAR); otherwise another driver version")
FINDING(FC_CUDA_SYSTEM_NOT_READY, "cuda-system-not-ready", "evidence",
	SEV_WARNING, SEV_WARNING, RC_UNDECIDED,
	"CUDA would not start (cudaErrorSystemNotReady) and nothing shows an NVSwitch fabric whose manager it would wait on",
	"systemctl status nvidia-fabricmanager and nvidia-smi -q | grep -A2 Fabric (an NVSwitch machine: start the fabric manager of the driver's version); otherwise nvidia-smi and the driver's log")
FINDING(FC_EVIDENCE_UNDECIDED, "evidence-undecided", "evidence",
	SEV_INFO, SEV_INFO, RC_UNDECIDED,
	"these files cannot decide; the message names the command that would",
	NULL)
