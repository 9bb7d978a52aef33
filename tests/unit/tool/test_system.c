// SPDX-License-Identifier: GPL-2.0
/*
 * The system checks beyond GPUDirect: the kernel command line's ACS
 * options and their effect after a reboot (fixtures reboot-good and
 * reboot-bad, and command lines written out here), guests (vm-kvm,
 * vm-kvm-noclique, vm-firecracker), and the environment audit.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool_util.h"
#include "platform/fsroot.h"
#include "topology/pciaddr.h"
#include "system_fixture.h"
#include "judge/judge.h"
#include "system/aer.h"
#include "system/atomics.h"
#include "system/bars.h"
#include "judge/system_checks.h"
#include "system/environ.h"
#include "system/virt.h"

void test_system(struct ktap *k, const char *fixtures);

/* Findings with @code that @cmdline alone gives on the fixture's model. */
static size_t lint(struct fixture_run *f, const char *cmdline, const char *code)
{
	findings_free(&f->r.judged.findings);
	memset(&f->r.judged.findings, 0, sizeof(f->r.judged.findings));
	bootline_judge(&f->r, cmdline);
	return fixture_count(f, code);
}

/* Whether the pair @a, @b is redirected with @port among its blockers. */
static bool redirected_by(const struct fixture_run *f, const char *a, const char *b,
			  const char *port)
{
	unsigned long long xa, xb, xp;
	unsigned int i, k;

	if (!f->ok || pciaddr_parse(a, &xa) || pciaddr_parse(b, &xb) || pciaddr_parse(port, &xp))
		return false;
	for (i = 0; i < f->r.judged.nr_pairs; i++) {
		const struct p2pd_pair *p = &f->r.judged.pair[i];

		if (f->m.fn[p->a].addr != xa || f->m.fn[p->b].addr != xb ||
		    p->verdict != P2PD_VERDICT_REDIRECTED)
			continue;
		for (k = 0; k < p->nr_blockers; k++)
			if (f->m.fn[p->blocker[k]].addr == xp)
				return true;
	}
	return false;
}

/* Whether a finding with @code has @text in its message. */
static bool any_message(const struct fixture_run *f, const char *code, const char *text)
{
	size_t i;

	for (i = 0; f->ok && i < f->r.judged.findings.nr; i++)
		if (!strcmp(f->r.judged.findings.item[i].code, code) &&
		    strstr(f->r.judged.findings.item[i].message, text))
			return true;
	return false;
}

/* Index of the first finding with @code (0 when none: check the count first). */
static size_t finding_index(const struct fixture_run *f, const char *code)
{
	size_t i;

	for (i = 0; i < f->r.judged.findings.nr; i++)
		if (!strcmp(f->r.judged.findings.item[i].code, code))
			return i;
	return 0;
}

static void bootline_tests(struct ktap *k, const char *fixtures)
{
	struct fixture_run f;

	fixture_load(&f, fixtures, "reboot-good");
	CHECK(k, fixture_count(&f, "cmdline-fix-applied") == 1 &&
	      strstr(fixture_message(&f, "cmdline-fix-applied"), "0000:1a:08.0, 0000:1a:10.0, 0000:1a:18.0") &&
	      fixture_count(&f, "cmdline-fix-not-applied") == 0 &&
	      fixture_count(&f, "cmdline-acs-comma") == 0,
	      "bootline: reboot-good: the three named ports have RR/CR/EC clear (cmdline-fix-applied)");
	CHECK(k, lint(&f, "ro pci=disable_acs_redir=0000:1a:08.0 pci=realloc,disable_acs_redir=0000:1a:10.0",
		      "cmdline-pci-repeated") == 1 &&
	      strstr(fixture_message(&f, "cmdline-pci-repeated"), "disable_acs_redir='0000:1a:10.0'"),
	      "bootline: two pci= arguments with an ACS list: only the last applies (cmdline-pci-repeated)");
	CHECK(k, lint(&f, "pci=realloc pci=disable_acs_redir=0000:1a:08.0;0000:1a:10.0",
		      "cmdline-pci-repeated") == 0,
	      "bootline: a second pci= without an ACS list is no repeat");
	CHECK(k, lint(&f, "quiet pci=noacs", "cmdline-noacs") == 1,
	      "bootline: pci=noacs is no mainline option (cmdline-noacs)");
	CHECK(k, lint(&f, "pci=disable_acs_redir=0000:1a:18.1", "cmdline-fix-no-device") == 1 &&
	      strstr(fixture_message(&f, "cmdline-fix-no-device"), "0000:1a:18.1"),
	      "bootline: a list naming a device the topology lacks (bus numbers moved)");
	CHECK(k, lint(&f, "pci=disable_acs_redir=0000:00:03.0/00.0/08.0", "cmdline-fix-applied") == 1 &&
	      strstr(fixture_message(&f, "cmdline-fix-applied"), "0000:1a:08.0"),
	      "bootline: a path form resolves down the tree to its port");
	CHECK(k, lint(&f, "pci=config_acs=xxx1xxx@0000:1a:08.0", "cmdline-fix-not-applied") == 1,
	      "bootline: config_acs asking CmpltRedir on is not met by a port with it off");
	CHECK(k, lint(&f, "pci=config_acs=x0x00xx@pci:1000:c010", "cmdline-fix-not-applied") == 0 &&
	      fixture_count(&f, "cmdline-fix-applied") == 1,
	      "bootline: config_acs by vendor:device ids checks every matching port");
	fixture_unload(&f);

	fixture_load(&f, fixtures, "reboot-bad");
	CHECK(k, fixture_count(&f, "cmdline-acs-comma") == 1 && f.r.judged.findings.nr &&
	      strstr(fixture_message(&f, "cmdline-acs-comma"), "0000:1a:10.0;0000:1a:18.0 is read as an unknown pci= option") &&
	      !strcmp(f.r.judged.findings.item[finding_index(&f, "cmdline-acs-comma")].fix,
		      "pci=disable_acs_redir=0000:1a:08.0;0000:1a:10.0;0000:1a:18.0"),
	      "bootline: reboot-bad: the comma cut two ports from the list (cmdline-acs-comma), the fix is the ';' form");
	CHECK(k, strstr(fixture_message(&f, "cmdline-fix-applied"), "0000:1a:08.0") &&
	      !strstr(fixture_message(&f, "cmdline-fix-applied"), "0000:1a:10.0") &&
	      redirected_by(&f, "0000:1b:00.0", "0000:1c:00.0", "0000:1a:10.0"),
	      "bootline: reboot-bad: only 0000:1a:08.0 took; the GPU-NIC pair stays redirected by 0000:1a:10.0");
	CHECK(k, lint(&f, "iommu=pt", "cmdline-iommu-pt") == 1,
	      "bootline: iommu=pt next to redirected pairs does not clear ACS (cmdline-iommu-pt)");
	fixture_unload(&f);
}

static void vm_tests(struct ktap *k, const char *fixtures)
{
	static const unsigned char loop[0x48] = { [0x06] = 0x10, [0x34] = 0x40,
						  [0x40] = 0x09, [0x41] = 0x40 };
	struct fixture_run f;

	fixture_load(&f, fixtures, "vm-kvm");
	CHECK(k, f.s.virt.guest && strstr(f.s.virt.hypervisor, "QEMU") &&
	      fixture_count(&f, "vm-guest") == 1 &&
	      strstr(fixture_message(&f, "vm-guest"), "0000:00:02.0 [1b36:000c]") &&
	      fixture_count(&f, "vm-paravirtual") == 1 &&
	      fixture_count(&f, "vm-gpudirect-clique") == 1 &&
	      fixture_count(&f, "vm-no-gpudirect-clique") == 0,
	      "virt: vm-kvm: a QEMU guest, emulated root ports, virtio NIC, both GPUs in clique 0");
	fixture_unload(&f);

	fixture_load(&f, fixtures, "vm-kvm-noclique");
	CHECK(k, fixture_count(&f, "vm-no-gpudirect-clique") == 1 &&
	      strstr(fixture_message(&f, "vm-no-gpudirect-clique"), "0000:01:00.0, 0000:02:00.0"),
	      "virt: vm-kvm-noclique: GPUs without the clique capability (vm-no-gpudirect-clique)");
	fixture_unload(&f);

	fixture_load(&f, fixtures, "vm-firecracker");
	CHECK(k, f.s.virt.guest && fixture_count(&f, "vm-guest") == 1 &&
	      fixture_count(&f, "gdr-no-rdma-nic") == 1 &&
	      strstr(fixture_message(&f, "gdr-no-rdma-nic"), "eth0 (virtio_net on virtio0)"),
	      "virt: vm-firecracker: a guest by the CPU flag; no RDMA, eth0 is virtio-mmio");
	fixture_unload(&f);

	fixture_load(&f, fixtures, "peermem");
	CHECK(k, !f.s.virt.guest && fixture_count(&f, "vm-guest") == 0,
	      "virt: a bare-metal tree is no guest");
	fixture_unload(&f);
	CHECK(k, virt_clique(loop, sizeof(loop)) == -1,
	      "virt: a capability list that loops ends, without a clique");
}

static void env_tests(struct ktap *k, const char *fixtures)
{
	struct fixture_run f;

	fixture_load(&f, fixtures, "peermem");
	findings_free(&f.r.judged.findings);
	memset(&f.r.judged.findings, 0, sizeof(f.r.judged.findings));
	setenv("NCCL_P2P_DISABLE", "1", 1);
	setenv("NCCL_P2P_LEVEL", "PHB", 1);
	setenv("CUDA_VISIBLE_DEVICES", "1", 1);
	environ_read(&f.s.env);
	environ_judge(&f.r, &f.s.env);
	unsetenv("NCCL_P2P_DISABLE");
	unsetenv("NCCL_P2P_LEVEL");
	unsetenv("CUDA_VISIBLE_DEVICES");
	CHECK(k, fixture_count(&f, "env-nccl-p2p-disable") == 1 &&
	      fixture_count(&f, "env-cuda-visible-devices") == 1 &&
	      strstr(fixture_message(&f, "env-nccl-p2p-level"), "1 GPU pair(s) gain P2P and 0 lose it"),
	      "environ: NCCL_P2P_DISABLE, CUDA_VISIBLE_DEVICES and NCCL_P2P_LEVEL=PHB (the PHB GPU pair gains P2P)");
	findings_free(&f.r.judged.findings);
	memset(&f.r.judged.findings, 0, sizeof(f.r.judged.findings));
	setenv("NCCL_P2P_DISABLE", "0", 1);
	environ_read(&f.s.env);
	environ_judge(&f.r, &f.s.env);
	unsetenv("NCCL_P2P_DISABLE");
	CHECK(k, f.r.judged.findings.nr == 0, "environ: NCCL_P2P_DISABLE=0 and nothing else set: nothing to say");
	fixture_unload(&f);
	CHECK(k, environ_nccl_level("pxb") == P2PD_CLASS_PXB && environ_nccl_level("NVL") == -1 &&
	      environ_nccl_level("4") == -1,
	      "environ: NCCL level names compare with the engine's classes; others do not");
}

static void group_tests(struct ktap *k, const char *fixtures)
{
	struct fixture_run f;
	const char *msg;

	fixture_load(&f, fixtures, "fix-cost");
	msg = fixture_message(&f, "fix-merges-groups");
	CHECK(k, fixture_count(&f, "fix-merges-groups") == 1 &&
	      strstr(msg, "clearing ACS redirect on 0000:00:03.1") &&
	      strstr(msg, "0000:04:00.0 (group 5) joins group 3 of 0000:00:03.1") &&
	      strstr(msg, "0000:06:00.0 (group 6) joins group 3 of 0000:00:03.1"),
	      "groups: fix-cost: clearing the root port's redirect merges the groups below it into its own");
	CHECK(k, fixture_count(&f, "iommu-groups-stale") == 0,
	      "groups: fix-cost: groups that match today's ACS are not stale");
	fixture_unload(&f);

	fixture_load(&f, fixtures, "setpci-stale");
	msg = fixture_message(&f, "iommu-groups-stale");
	CHECK(k, fixture_count(&f, "iommu-groups-stale") == 1 &&
	      strstr(msg, "0000:1b:00.0 in group 8, though ACS control 0x0011 of 0000:1a:08.0 puts it into group 5"),
	      "groups: setpci-stale: a port cleared at run time leaves its GPU's group stale");
	CHECK(k, !any_message(&f, "fix-merges-groups", "on 0000:1a:08.0") &&
	      any_message(&f, "fix-merges-groups", "on 0000:00:03.0"),
	      "groups: setpci-stale: the cleared port is no blocker and costs nothing; the root port's fix does");
	fixture_unload(&f);

	fixture_load(&f, fixtures, "reboot-good");
	CHECK(k, fixture_count(&f, "iommu-groups-stale") == 0,
	      "groups: reboot-good: the fix given at boot leaves groups that match");
	fixture_unload(&f);
}

static void aer_tests(struct ktap *k, const char *fixtures)
{
	char *dir = make_tmpdir(), cmd[PATH_MAX * 2 + 32], path[PATH_MAX];
	unsigned long long total;
	struct fixture_run f;
	const char *msg;
	char detail[64];

	fixture_load(&f, fixtures, "aer");
	msg = fixture_message(&f, "aer-logged");
	CHECK(k, fixture_count(&f, "aer-logged") == 1 && f.r.judged.findings.nr &&
	      strstr(msg, "downstream_port 0000:1a:10.0 has logged AER errors since boot: correctable 15, non-fatal 1") &&
	      strstr(msg, "CmpltTO 1") && strstr(msg, "0000:1b:00.0-0000:1c:00.0") &&
	      f.r.judged.findings.item[finding_index(&f, "aer-logged")].severity == SEV_WARNING,
	      "aer: a port's non-fatal error since boot is a warning on that port, naming the pairs through it");
	CHECK(k, fixture_count(&f, "link-retrained") == 1 &&
	      strstr(fixture_message(&f, "link-retrained"), "0000:1a:10.0: Link Status 0x6104"),
	      "aer: Link Bandwidth Management Status on the port is link-retrained; DLL-active alone is not");
	fixture_unload(&f);

	/* the copies ran and the counters rose: a copy of the tree, changed between the reads */
	snprintf(cmd, sizeof(cmd), "cp -a '%s/system/aer/.' '%s/'", fixtures, dir);
	if (system(cmd))
		fprintf(stderr, "# cannot copy the aer tree\n");
	memset(&f, 0, sizeof(f));
	fixture_load(&f, fixtures, "aer");
	if (f.ok) {
		char err[64];

		findings_free(&f.r.judged.findings);
		memset(&f.r.judged.findings, 0, sizeof(f.r.judged.findings));
		fsroot_init(&f.root, dir, err, sizeof(err));
		aer_free(&f.s.aer);
		aer_choose(&f.r, &f.s.aer);
		aer_read_before(&f.root, &f.s.refused, &f.s.aer);
		snprintf(path, sizeof(path), "%s/sys/bus/pci/devices/0000:1a:08.0/aer_dev_correctable", dir);
		write_file(path, "RxErr 0\nBadTLP 4\nTOTAL_ERR_COR 4\n", 33);
		f.r.in.gpu_measured = true;
		aer_read_ports_after(&f.root, &f.s.refused, &f.s.aer);
		aer_judge(&f.r, &f.s.aer);
	}
	msg = fixture_message(&f, "aer-during-run");
	CHECK(k, fixture_count(&f, "aer-during-run") == 1 &&
	      strstr(msg, "0000:1a:08.0 logged errors during this run's copies: correctable +4") &&
	      strstr(msg, "0000:1b:00.0-0000:1c:00.0"),
	      "aer: counters that rose between before and after the copies are aer-during-run on that port");
	fixture_unload(&f);
	remove_tree(dir);
	free(dir);
	CHECK(k, aer_parse("RxErr 2\nTimeout 1\nTOTAL_ERR_COR 3\n", &total, detail, sizeof(detail)) == 0 &&
	      total == 3 && !strcmp(detail, "RxErr 2, Timeout 1") &&
	      aer_parse("garbage\n", &total, detail, sizeof(detail)) == -1,
	      "aer: a counter file's total and non-zero counters; one without a total is refused");
}

/*
 * Links held below their speed: by a Target Link Speed, by an active
 * bwctrl cooling device, and one with nothing holding it (reseat).
 */
static void capped_link_tests(struct ktap *k, const char *fixtures)
{
	struct fixture_run f;
	const char *msg;

	fixture_load(&f, fixtures, "capped-links");
	if (f.ok)
		judge_topology(&f.r);
	msg = fixture_message(&f, "link-capped-target");
	CHECK(k, fixture_count(&f, "link-capped-target") == 1 &&
	      strstr(msg, "GPU 0000:1b:00.0 runs at 8.0 of 16.0 GT/s") &&
	      strstr(msg, "Target Link Speed in 0000:1a:08.0's Link Control 2 caps it at 8.0 GT/s") &&
	      strstr(f.r.judged.findings.item[finding_index(&f, "link-capped-target")].fix,
		     "setpci -s 0000:1a:08.0 CAP_EXP+0x30.w=4:000f") &&
	      !fixture_count(&f, "link-slow-idle"),
	      "links: Target Link Speed 8 GT/s on a GPU's port -> link-capped-target with the setpci that lifts it, not link-slow-idle: %s", msg);
	msg = fixture_message(&f, "link-capped-thermal");
	CHECK(k, fixture_count(&f, "link-capped-thermal") == 1 &&
	      strstr(msg, "NIC 0000:1c:00.0") &&
	      strstr(msg, "thermal cooling device 1 (PCIe_Port_Link_Speed_0000:1a:10.0, state 1 of 3)") &&
	      !strstr(f.r.judged.findings.item[finding_index(&f, "link-capped-thermal")].fix, "reseat the"),
	      "links: an active bwctrl cooling device on the NIC's port -> link-capped-thermal naming it: %s", msg);
	msg = fixture_message(&f, "link-degraded");
	CHECK(k, fixture_count(&f, "link-degraded") == 1 && strstr(msg, "0000:1d:00.0"),
	      "links: the NVMe link with nothing capping it (cooling device at state 0) stays link-degraded: %s", msg);
	fixture_unload(&f);
}

/* BARs: one Resizable BAR kept small, one left without an address. */
static void bar_tests(struct ktap *k, const char *fixtures)
{
	struct bar bar[BARS_MAX];
	struct fixture_run f;
	const char *msg;
	unsigned int fixes;
	size_t i;

	CHECK(k, bars_parse("0x10 0x1f 0x200\n0x0 0x0 0x0\n", bar) == 2 &&
	      bar[0].end == 0x1f && bars_parse("0x10 nope\n", bar) == -1,
	      "bars: a resource file's lines are start, end and flags; a malformed one is refused");
	fixture_load(&f, fixtures, "bars");
	msg = fixture_message(&f, "bar-resizable-small");
	CHECK(k, fixture_count(&f, "bar-resizable-small") == 1 &&
	      strstr(msg, "GPU 0000:02:00.0: BAR 1 is 256 MiB, while its Resizable BAR capability offers up to 64 GiB") &&
	      strstr(f.r.judged.findings.item[finding_index(&f, "bar-resizable-small")].fix,
		     "echo 16 > /sys/bus/pci/devices/0000:02:00.0/resource1_resize"),
	      "bars: a 256 MiB BAR1 of a capability offering 64 GiB -> bar-resizable-small with the resize line: %s", msg);
	msg = fixture_message(&f, "bar-unassigned");
	CHECK(k, fixture_count(&f, "bar-unassigned") == 1 &&
	      strstr(msg, "GPU 0000:1b:00.0: BAR 1 (32 GiB, 64-bit) has no address") &&
	      strstr(f.r.judged.findings.item[finding_index(&f, "bar-unassigned")].fix, "Above 4G Decoding") &&
	      f.r.judged.findings.item[finding_index(&f, "bar-unassigned")].severity == SEV_ERROR,
	      "bars: an unassigned 64-bit BAR1 -> bar-unassigned (error) naming Above 4G Decoding: %s", msg);
	CHECK(k, fixture_count(&f, "bar-bridge-window") == 0 && fixture_count(&f, "bar-below-4g") == 0,
	      "bars: bridges whose config files are not there are no window finding");
	fixture_unload(&f);

	/*
	 * bar-windows: GPU 02:00.0's 64-bit BARs both below 4 GiB behind a
	 * root port whose prefetchable window is 32-bit only; GPU 1b:00.0's
	 * 32 GiB BAR1 unassigned behind 1a:08.0's 16 GiB 64-bit window (its
	 * BAR3 above 4 GiB); NIC 1c:00.0's 64-bit BAR below 4 GiB, in
	 * 1a:10.0's non-prefetchable window (its prefetchable one is off).
	 */
	fixture_load(&f, fixtures, "bar-windows");
	msg = fixture_message(&f, "bar-below-4g");
	CHECK(k, fixture_count(&f, "bar-below-4g") == 1 &&
	      strstr(msg, "GPU 0000:02:00.0: BAR 1 (256 MiB, 64-bit prefetchable) lies at 0xc0000000, below 4 GiB") &&
	      strstr(msg, "bridge 0000:00:02.0's prefetchable window decodes 32-bit addresses only") &&
	      strstr(f.r.judged.findings.item[finding_index(&f, "bar-below-4g")].fix, "Above 4G Decoding"),
	      "bars: a GPU's 64-bit BARs all below 4 GiB -> one bar-below-4g naming the largest and the 32-bit window: %s", msg);
	CHECK(k, !any_message(&f, "bar-below-4g", "0000:1c:00.0") &&
	      !any_message(&f, "bar-below-4g", "0000:1b:00.0"),
	      "bars: no bar-below-4g for a NIC, nor for a GPU with a 64-bit BAR above 4 GiB");
	msg = fixture_message(&f, "bar-bridge-window");
	CHECK(k, fixture_count(&f, "bar-bridge-window") == 1 &&
	      strstr(msg, "GPU 0000:1b:00.0: BAR 1 (32 GiB, 64-bit prefetchable) cannot fit bridge 0000:1a:08.0's prefetchable window (16 GiB at 0x38000000000-0x383ffffffff, 64-bit): so the BAR has no address") &&
	      f.r.judged.findings.item[finding_index(&f, "bar-bridge-window")].severity == SEV_ERROR &&
	      strstr(f.r.judged.findings.item[finding_index(&f, "bar-bridge-window")].fix, "pci=realloc"),
	      "bars: a 32 GiB BAR behind a 16 GiB window -> bar-bridge-window (error) naming the bridge: %s", msg);
	CHECK(k, !any_message(&f, "bar-bridge-window", "0000:1c:00.0"),
	      "bars: a placed BAR in its bridge's non-prefetchable window is no window finding");
	fixture_unload(&f);

	/*
	 * bar-dma-mask: NVMe 1d:00.0's driver addresses 48 bits; GPU 1b:00.0
	 * (same switch, bus addresses) and GPU 02:00.0 (through the root
	 * complex, IOMMU in passthrough) have BAR1 above 2^48; NIC 1c:00.0
	 * has no driver, so its 32 bits are the PCI core's default.
	 */
	fixture_load(&f, fixtures, "bar-dma-mask");
	CHECK(k, fixture_count(&f, "bar-above-dma-mask") == 2 &&
	      any_message(&f, "bar-above-dma-mask",
			  "NVMe 0000:1d:00.0 addresses 48 bits (its driver's DMA mask, dma_mask_bits), but GPU 0000:1b:00.0's BAR 1 ends at 0x20007ffffffff: with bus addresses across the switch") &&
	      any_message(&f, "bar-above-dma-mask",
			  "but GPU 0000:02:00.0's BAR 1 ends at 0x18007ffffffff: with the IOMMU in passthrough"),
	      "bars: a 48-bit NVMe and GPU BARs above 2^48 -> bar-above-dma-mask for both paths: %s",
	      fixture_message(&f, "bar-above-dma-mask"));
	CHECK(k, !any_message(&f, "bar-above-dma-mask", "NIC 0000:1c:00.0"),
	      "bars: an unbound NIC's 32-bit default mask is no finding");
	for (i = 0, fixes = 0; f.ok && i < f.r.judged.findings.nr; i++) {
		const struct finding *it = &f.r.judged.findings.item[i];

		if (strcmp(it->code, "bar-above-dma-mask"))
			continue;
		if (strstr(it->message, "passthrough") &&
		    strstr(it->fix, "echo DMA > /sys/kernel/iommu_groups/7/type"))
			fixes |= 1;
		if (strstr(it->message, "across the switch") &&
		    strstr(it->fix, "which no IOMMU setting changes") &&
		    strstr(it->fix, "\"MMIO High Base\""))
			fixes |= 2;
	}
	CHECK(k, fixes == 3,
	      "bars: the fix is the IOMMU's translated mode through the root complex, the MMIO base across a switch");
	fixture_unload(&f);
}

/* The kernel's own P2PDMA lines, each beside p2pdiag's verdict for its pair. */
static void kernel_verdict_tests(struct ktap *k, const char *fixtures)
{
	struct fixture_run f;
	size_t i, host = 0, refused_ok = 0, agreed = 0, other = 0;

	fixture_load(&f, fixtures, "kernel-log");
	for (i = 0; f.ok && i < f.r.judged.findings.nr; i++) {
		const struct finding *it = &f.r.judged.findings.item[i];

		if (strcmp(it->code, "kernel-p2pdma-verdict"))
			continue;
		if (strstr(it->message, "Host bridge not in P2PDMA whitelist: 8086:2020\"; p2pdiag's verdict for the pair: redirected: the kernel's list lacks this host bridge") &&
		    it->severity == SEV_WARNING)
			host++;
		else if (strstr(it->message, "mlx5_core 0000:1c:00.0: cannot be used") &&
			 strstr(it->message, "p2pdiag's verdict for the pair: ok: the kernel refused") &&
			 it->a == P2PD_ADDR(0, 0x1b, 0, 0) && it->b == P2PD_ADDR(0, 0x1c, 0, 0))
			refused_ok++;
		else if (strstr(it->message, "nvme 0000:1d:00.0: cannot be used") &&
			 strstr(it->message, "verdict for the pair: redirected") &&
			 it->severity == SEV_INFO)
			agreed++;
		else
			other++;
	}
	CHECK(k, host == 3 && refused_ok == 1 && agreed == 1 && !other,
	      "kernel log: the host-bridge line beside the 3 pairs through it, a refusal of an ok pair a warning, one of a redirected pair a note, the non-PCI line ignored (%zu %zu %zu %zu)",
	      host, refused_ok, agreed, other);
	fixture_unload(&f);
}

/* The fixture's three GPUs to CUDA: every ordered pair with peer access. */
static void cuda_gpus(struct gpu_state *st, struct gpu_pair *pairs,
		      int native, int partial)
{
	static const unsigned int bus[] = { 0x02, 0x1b, 0x1c };
	unsigned int i, j;

	memset(st, 0, sizeof(*st));
	st->cuda = GPU_OK;
	st->nr_dev = 3;
	st->pair = pairs;
	for (i = 0; i < 3; i++) {
		st->dev[i].ordinal = (int)i;
		st->dev[i].pci_addr = P2PD_ADDR(0, bus[i], 0, 0);
	}
	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++) {
			struct gpu_pair *p = &pairs[st->nr_pairs];

			if (i == j)
				continue;
			memset(p, 0, sizeof(*p));
			p->src = (int)i;
			p->dst = (int)j;
			p->cuda_valid = true;
			p->can_access = p->access_supported = 1;
			p->native_atomics = native;
			p->partial_atomics = partial;
			st->nr_pairs++;
		}
}

/* How many p2p-atomics findings say @what, and how many in all. */
static size_t atomics_saying(const struct fixture_run *f, const char *what,
			     size_t *all)
{
	size_t i, n = 0;

	*all = 0;
	for (i = 0; i < f->r.judged.findings.nr; i++) {
		if (strcmp(f->r.judged.findings.item[i].code, "p2p-atomics"))
			continue;
		(*all)++;
		n += strstr(f->r.judged.findings.item[i].message, what) != NULL;
	}
	return n;
}

/*
 * CUDA's P2P attributes 3 and 5 beside the registers: said with each
 * pair's finding, and alone (a warning where none work) when the
 * registers cannot be read.
 */
static void cuda_atomics_tests(struct ktap *k, struct fixture_run *f,
			       const char *fixtures)
{
	static const struct {
		int native, partial;
		const char *says;
	} cases[] = {
		{ 1, 0, "CUDA says every atomic works over the link" },
		{ 0, 1, "CUDA says only some atomics work over the link (P2P attribute ONLY_PARTIAL_NATIVE_ATOMIC_SUPPORTED)" },
		{ 0, -1, "CUDA says no atomics work over the link (NATIVE_ATOMIC_SUPPORTED 0, ONLY_PARTIAL_NATIVE_ATOMIC_SUPPORTED unknown to this driver)" },
	};
	struct gpu_pair pairs[6];
	struct gpu_state *st = malloc(sizeof(*st));
	const struct fsroot *root = f->r.in.root;
	struct fsroot bare;
	char path[PATH_MAX], err[128];
	size_t i, n, all, bad;

	if (!st)
		abort();
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cuda_gpus(st, pairs, cases[i].native, cases[i].partial);
		f->r.in.gpu = st;
		findings_free(&f->r.judged.findings);
		atomics_judge(&f->r, f->s.fn);
		n = atomics_saying(f, cases[i].says, &all);
		CHECK(k, n == 3 && all == 3,
		      "atomics: attributes 3 = %d, 5 = %d: each of the 3 pairs' findings says \"%s\" (%zu of %zu)",
		      cases[i].native, cases[i].partial, cases[i].says, n, all);
	}
	/*
	 * The capabilities call (CUDA 13.0): every operation native, and the
	 * pairs NVML says have NVLinks; the blocked pairs of 02:00.0 carry
	 * their atomics there, which no PCIe register governs.
	 */
	cuda_gpus(st, pairs, 1, 0);
	for (i = 0; i < st->nr_pairs; i++) {
		unsigned int op;

		pairs[i].atomic_caps_state = GPU_ATOMIC_CAPS_READ;
		for (op = 0; op < GPU_ATOMIC_OPS; op++)
			pairs[i].atomic_caps[op] = GPU_ATOMIC_SCALAR_32 | GPU_ATOMIC_SCALAR_64;
		pairs[i].nvml_valid = true;
		pairs[i].nvlinks = pairs[i].src == 0 || pairs[i].dst == 0 ? 4 : 0;
	}
	f->r.in.gpu = st;
	findings_free(&f->r.judged.findings);
	atomics_judge(&f->r, f->s.fn);
	n = atomics_saying(f, "13 of 13 atomic operations native between", &all);
	CHECK(k, n == 3 && all == 3 &&
	      atomics_saying(f, "travel over the pair's 4 NVLinks, where the PCIe path's registers do not apply", &all) == 2 &&
	      !atomics_saying(f, "does not hold for this path", &all),
	      "atomics: capabilities all native; the blocked pairs' NVLinks carry them, said, no disagreement (%zu of %zu)",
	      n, all);
	/* its failure: an unknown for the pair, never a note of health */
	for (i = 0; i < st->nr_pairs; i++) {
		pairs[i].atomic_caps_state = GPU_ATOMIC_CAPS_FAILED;
		snprintf(pairs[i].atomic_caps_error, sizeof(pairs[i].atomic_caps_error),
			 "CUDA_ERROR_INVALID_VALUE");
	}
	findings_free(&f->r.judged.findings);
	atomics_judge(&f->r, f->s.fn);
	n = atomics_saying(f, "is unknown: cuDeviceGetP2PAtomicCapabilities failed (CUDA_ERROR_INVALID_VALUE)", &all);
	for (i = 0, bad = 0; i < f->r.judged.findings.nr; i++)
		bad += !strcmp(f->r.judged.findings.item[i].code, "p2p-atomics") &&
		       f->r.judged.findings.item[i].severity != SEV_WARNING;
	CHECK(k, n == 3 && all == 3 && !bad,
	      "atomics: the capabilities call failing: each pair says which call, all warnings (%zu of %zu, %zu not warnings)",
	      n, all, bad);
	/* a root without the config files: CUDA's word alone */
	snprintf(path, sizeof(path), "%s/system/atomics/proc", fixtures);
	if (fsroot_init(&bare, path, err, sizeof(err)) == 0) {
		struct function_facts *none = function_facts_read(&bare, &f->s.refused, f->r.in.model, false);

		f->r.in.root = &bare;
		for (i = 0; i < 2; i++) {
			cuda_gpus(st, pairs, (int)i, 0);
			findings_free(&f->r.judged.findings);
			atomics_judge(&f->r, none);
			n = atomics_saying(f, i ? "peer atomics work, by CUDA's word alone" :
					   "peer atomics blocked, by CUDA's word alone: the path's registers could not be read; CUDA says no atomics work",
					   &all);
			CHECK(k, n == 3 && all == 3 &&
				 f->r.judged.findings.item[0].severity ==
				 (i ? SEV_INFO : SEV_WARNING),
			      "atomics: registers unreadable, CUDA says %s: 3 %s on its word (%zu of %zu)",
			      i ? "all" : "none", i ? "notes" : "warnings", n, all);
		}
		free(none);
		f->r.in.root = root;
	} else {
		CHECK(k, 0, "atomics: the bare root %s: %s", path, err);
	}
	f->r.in.gpu = NULL;
	free(st);
}

/* Peer atomics: blocked by the port that blocks their egress, else working. */
static void atomics_tests(struct ktap *k, const char *fixtures)
{
	struct fixture_run f;
	size_t i, blocked = 0, work = 0, other = 0;

	fixture_load(&f, fixtures, "atomics");
	for (i = 0; f.ok && i < f.r.judged.findings.nr; i++) {
		const struct finding *it = &f.r.judged.findings.item[i];

		if (strcmp(it->code, "p2p-atomics"))
			continue;
		if (it->severity == SEV_WARNING && it->a == P2PD_ADDR(0, 2, 0, 0) &&
		    strstr(it->message, "peer atomics blocked by port 0000:00:03.0 (AtomicOp Egress Blocking"))
			blocked++;
		else if (it->severity == SEV_INFO && it->a == P2PD_ADDR(0, 0x1b, 0, 0) &&
			 it->b == P2PD_ADDR(0, 0x1c, 0, 0) && strstr(it->message, "peer atomics work"))
			work++;
		else
			other++;
	}
	CHECK(k, blocked == 2 && work == 1 && !other,
	      "atomics: Egress Blocking on root port 00:03.0 blocks both pairs through it, naming it; the switch pair works (%zu %zu %zu)",
	      blocked, work, other);
	if (f.ok)
		cuda_atomics_tests(k, &f, fixtures);
	fixture_unload(&f);
}

void test_system(struct ktap *k, const char *fixtures)
{
	atomics_tests(k, fixtures);
	kernel_verdict_tests(k, fixtures);
	bar_tests(k, fixtures);
	aer_tests(k, fixtures);
	capped_link_tests(k, fixtures);
	group_tests(k, fixtures);
	bootline_tests(k, fixtures);
	vm_tests(k, fixtures);
	env_tests(k, fixtures);
}
