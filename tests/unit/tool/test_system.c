// SPDX-License-Identifier: GPL-2.0
/*
 * The system checks beyond GPUDirect: the kernel command line's ACS
 * options and their effect after a reboot (fixtures reboot-good and
 * reboot-bad, and command lines written out here), guests (vm-kvm,
 * vm-kvm-noclique, vm-firecracker), and the environment audit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool_util.h"
#include "system_fixture.h"
#include "system/bootline.h"
#include "system/environ.h"
#include "system/virt.h"

void test_system(struct ktap *k, const char *fixtures);

/* Findings with @code that @cmdline alone gives on the fixture's model. */
static size_t lint(struct fixture_run *f, const char *cmdline, const char *code)
{
	findings_free(&f->r.findings);
	memset(&f->r.findings, 0, sizeof(f->r.findings));
	bootline_judge(&f->r, cmdline);
	return fixture_count(f, code);
}

/* Pairs still redirected. */
static unsigned int redirected(const struct fixture_run *f)
{
	unsigned int i, n = 0;

	for (i = 0; f->ok && i < f->r.nr_pairs; i++)
		n += f->r.pair[i].verdict == P2PD_VERDICT_REDIRECTED;
	return n;
}

static void bootline_tests(struct ktap *k, const char *fixtures)
{
	struct fixture_run f;

	fixture_load(&f, fixtures, "reboot-good");
	CHECK(k, fixture_count(&f, "cmdline-fix-applied") == 1 &&
	      strstr(fixture_message(&f, "cmdline-fix-applied"), "0000:1a:08.0, 0000:1a:10.0") &&
	      fixture_count(&f, "cmdline-fix-not-applied") == 0 &&
	      fixture_count(&f, "cmdline-acs-comma") == 0,
	      "bootline: reboot-good: both named ports have RR/CR/EC clear (cmdline-fix-applied)");
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
	CHECK(k, fixture_count(&f, "cmdline-acs-comma") == 1 && f.r.findings.nr &&
	      strstr(fixture_message(&f, "cmdline-acs-comma"), "0000:1a:10.0 is read as an unknown pci= option"),
	      "bootline: reboot-bad: the comma cut 0000:1a:10.0 from the list (cmdline-acs-comma)");
	CHECK(k, strstr(fixture_message(&f, "cmdline-fix-applied"), "0000:1a:08.0") &&
	      !strstr(fixture_message(&f, "cmdline-fix-applied"), "0000:1a:10.0") &&
	      redirected(&f) == 2,
	      "bootline: reboot-bad: only 0000:1a:08.0 took; the pair through 0000:1a:10.0 stays redirected");
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
	findings_free(&f.r.findings);
	memset(&f.r.findings, 0, sizeof(f.r.findings));
	setenv("NCCL_P2P_DISABLE", "1", 1);
	setenv("NCCL_P2P_LEVEL", "PHB", 1);
	setenv("CUDA_VISIBLE_DEVICES", "1", 1);
	environ_judge(&f.r);
	unsetenv("NCCL_P2P_DISABLE");
	unsetenv("NCCL_P2P_LEVEL");
	unsetenv("CUDA_VISIBLE_DEVICES");
	CHECK(k, fixture_count(&f, "env-nccl-p2p-disable") == 1 &&
	      fixture_count(&f, "env-cuda-visible-devices") == 1 &&
	      strstr(fixture_message(&f, "env-nccl-p2p-level"), "1 GPU pair(s) gain P2P and 0 lose it"),
	      "environ: NCCL_P2P_DISABLE, CUDA_VISIBLE_DEVICES and NCCL_P2P_LEVEL=PHB (the PHB GPU pair gains P2P)");
	findings_free(&f.r.findings);
	memset(&f.r.findings, 0, sizeof(f.r.findings));
	setenv("NCCL_P2P_DISABLE", "0", 1);
	environ_judge(&f.r);
	unsetenv("NCCL_P2P_DISABLE");
	CHECK(k, f.r.findings.nr == 0, "environ: NCCL_P2P_DISABLE=0 and nothing else set: nothing to say");
	fixture_unload(&f);
	CHECK(k, environ_nccl_level("pxb") == P2PD_CLASS_PXB && environ_nccl_level("NVL") == -1 &&
	      environ_nccl_level("4") == -1,
	      "environ: NCCL level names compare with the engine's classes; others do not");
}

void test_system(struct ktap *k, const char *fixtures)
{
	bootline_tests(k, fixtures);
	vm_tests(k, fixtures);
	env_tests(k, fixtures);
}
