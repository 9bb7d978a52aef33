// SPDX-License-Identifier: GPL-2.0
/*
 * The decoding rules both walkers share (kmod/engine/decode.c, link.c):
 * each a table of register values or class codes and what they mean.
 */
#include <stdio.h>
#include <string.h>

#include "p2pdiag/decode.h"
#include "p2pdiag/format.h"
#include "p2pdiag/parse.h"
#include "p2pdiag/vendor_ids.h"
#include "p2pdiag/verdict.h"
#include "ktap.h"

static struct ktap k;

#define LEN(a) (sizeof(a) / sizeof((a)[0]))

static void test_speed_codes(void)
{
	/* code -> 0.1 GT/s; 0 and 8 and up are reserved */
	static const unsigned int want[16] = {
		0, 25, 50, 80, 160, 320, 640, 1280,
	};
	unsigned int code;

	for (code = 0; code < LEN(want); code++) {
		unsigned int got = p2pd_link_speed_tenths(code);

		ktap_result(&k, got == want[code], "", "speed code %u reads %u (got %u)",
			    code, want[code], got);
	}
	ktap_result(&k, p2pd_link_speed_tenths(0xffffffffu) == 0, "",
		    "speed code 0xffffffff reads unknown");
}

static void test_decode_link(void)
{
	static const struct {
		unsigned int sta, cap;
		unsigned int speed, width, max_speed, max_width;
	} cases[] = {
		/* Gen1 x16 at idle on a Gen4 x16 card */
		{ 0x1101, 0x0047d104, 25, 16, 160, 16 },
		/* Gen6 x8 running as it should */
		{ 0x0086, 0x00400086, 640, 8, 640, 8 },
		/* Gen7 x16: 128 GT/s */
		{ 0x0107, 0x00000107, 1280, 16, 1280, 16 },
		/* x1 of x32, reserved current speed */
		{ 0x001f, 0x00000205, 0, 1, 320, 32 },
		/* only the speed and width bits count */
		{ 0xfc23, 0xfffffc23, 80, 2, 80, 2 },
		/* reserved widths (x48, x63, x3) are 0, like a reserved speed */
		{ 0x0304, 0x000003f4, 160, 0, 160, 0 },
		{ 0x0034, 0x00000104, 160, 0, 160, 16 },
		{ 0x00c4, 0x00000204, 160, 12, 160, 32 },
	};
	unsigned int i;

	for (i = 0; i < LEN(cases); i++) {
		struct p2pd_link l = { .state = P2PD_UNKNOWN };

		p2pd_decode_link(&l, cases[i].sta, cases[i].cap);
		ktap_result(&k, l.state == P2PD_PRESENT &&
			    l.speed == cases[i].speed &&
			    l.width == cases[i].width &&
			    l.max_speed == cases[i].max_speed &&
			    l.max_width == cases[i].max_width, "",
			    "lnksta %#06x lnkcap %#010x: %u x%u of %u x%u (got %u x%u of %u x%u)",
			    cases[i].sta, cases[i].cap, cases[i].speed,
			    cases[i].width, cases[i].max_speed, cases[i].max_width,
			    l.speed, l.width, l.max_speed, l.max_width);
	}
}

/* ATS, PRI and PASID registers, as lspci decodes them. */
static void test_translation_caps(void)
{
	static const struct {
		unsigned int ctrl, stu_ctrl;
		int enabled;
		unsigned int stu;
	} ats[] = {
		{ 0x8000, 0x8000, 1, 0 },	/* enabled, 4 KiB */
		{ 0x0005, 0x0005, 0, 5 },	/* disabled, STU kept as set */
		{ 0x801f, 0x801f, 1, 31 },
		{ 0x8000, 0x0003, 1, 3 },	/* a VF: the PF's STU */
		{ 0x7fe0, 0x7fe0, 0, 0 },	/* reserved bits ignored */
	};
	static const struct {
		unsigned int cap, ctrl;
		int enabled;
		unsigned int width;
	} pasid[] = {
		{ 0x1400, 0x0001, 1, 20 },	/* 20 bits, enabled */
		{ 0x1406, 0x0006, 0, 20 },	/* exec/priv bits are not width */
		{ 0x1f00, 0x0001, 1, 31 },
		{ 0xe0ff, 0xfffe, 0, 0 },	/* only bits 12:8 are the width */
	};
	unsigned int i;

	for (i = 0; i < LEN(ats); i++) {
		struct p2pd_function f = { .ats = P2PD_UNKNOWN };

		p2pd_decode_ats(&f, ats[i].ctrl, ats[i].stu_ctrl);
		ktap_result(&k, f.ats == P2PD_PRESENT &&
			    f.ats_enabled == ats[i].enabled &&
			    f.ats_stu == ats[i].stu, "",
			    "ATS Control 0x%04x (STU from 0x%04x): %s stu=%u",
			    ats[i].ctrl, ats[i].stu_ctrl,
			    ats[i].enabled ? "enabled" : "disabled", ats[i].stu);
	}
	for (i = 0; i < 2; i++) {
		struct p2pd_function f = { .pri = P2PD_UNKNOWN };
		unsigned int ctrl = i ? 0xfffe : 0x0001;

		p2pd_decode_pri(&f, ctrl);
		ktap_result(&k, f.pri == P2PD_PRESENT && f.pri_enabled == !i,
			    "", "Page Request Control 0x%04x: %s", ctrl,
			    i ? "disabled" : "enabled");
	}
	for (i = 0; i < LEN(pasid); i++) {
		struct p2pd_function f = { .pasid = P2PD_UNKNOWN };

		p2pd_decode_pasid(&f, pasid[i].cap, pasid[i].ctrl);
		ktap_result(&k, f.pasid == P2PD_PRESENT &&
			    f.pasid_enabled == pasid[i].enabled &&
			    f.pasid_width == pasid[i].width, "",
			    "PASID Capability 0x%04x Control 0x%04x: %s width=%u",
			    pasid[i].cap, pasid[i].ctrl,
			    pasid[i].enabled ? "enabled" : "disabled",
			    pasid[i].width);
	}
}

static void test_roles(void)
{
	static const struct {
		int is_pcie;
		unsigned int type, hdr;
		enum p2pd_role role;
		int has_link, endpoint;
	} cases[] = {
		{ 1, 0x0, 0, P2PD_ROLE_ENDPOINT, 1, 1 },
		{ 1, 0x1, 0, P2PD_ROLE_LEGACY_ENDPOINT, 1, 1 },
		{ 1, 0x4, 1, P2PD_ROLE_ROOT_PORT, 1, 0 },
		{ 1, 0x5, 1, P2PD_ROLE_UPSTREAM_PORT, 1, 0 },
		{ 1, 0x6, 1, P2PD_ROLE_DOWNSTREAM_PORT, 1, 0 },
		{ 1, 0x7, 1, P2PD_ROLE_PCIE_TO_PCI_BRIDGE, 1, 0 },
		{ 1, 0x8, 1, P2PD_ROLE_PCI_TO_PCIE_BRIDGE, 1, 0 },
		{ 1, 0x9, 0, P2PD_ROLE_RC_ENDPOINT, 0, 1 },
		{ 1, 0xa, 0, P2PD_ROLE_RC_EVENT_COLLECTOR, 0, 0 },
		/* reserved port types fall back to the header type */
		{ 1, 0x2, 0, P2PD_ROLE_PCI_DEVICE, 1, 1 },
		{ 1, 0x3, 1, P2PD_ROLE_PCI_BRIDGE, 1, 0 },
		{ 1, 0xb, 0x80, P2PD_ROLE_PCI_DEVICE, 1, 1 },
		{ 1, 0xf, 0x81, P2PD_ROLE_PCI_BRIDGE, 1, 0 },
		{ 1, 0x10, 0, P2PD_ROLE_PCI_DEVICE, 1, 1 },
		/* conventional PCI: the port type is not looked at */
		{ 0, 0x4, 0, P2PD_ROLE_PCI_DEVICE, 0, 1 },
		{ 0, 0x0, 0x80, P2PD_ROLE_PCI_DEVICE, 0, 1 },
		{ 0, 0x0, 0x01, P2PD_ROLE_PCI_BRIDGE, 0, 0 },
		{ 0, 0x0, 0x02, P2PD_ROLE_CARDBUS_BRIDGE, 0, 0 },
		{ 0, 0x0, 0x82, P2PD_ROLE_CARDBUS_BRIDGE, 0, 0 },	/* multi-function */
	};
	unsigned int i;

	for (i = 0; i < LEN(cases); i++) {
		enum p2pd_role r = p2pd_decode_role(cases[i].is_pcie,
						    cases[i].type, cases[i].hdr);

		ktap_result(&k, r == cases[i].role &&
			    p2pd_role_has_link(cases[i].is_pcie, r) ==
			    cases[i].has_link &&
			    p2pd_role_is_endpoint(r) == cases[i].endpoint, "",
			    "%s type %#x header %#04x: %s, %s link, %s endpoint (got %s)",
			    cases[i].is_pcie ? "PCIe" : "PCI", cases[i].type,
			    cases[i].hdr, p2pd_role_name(cases[i].role),
			    cases[i].has_link ? "a" : "no",
			    cases[i].endpoint ? "an" : "no", p2pd_role_name(r));
	}
}

/* PCIe or not from what the topology file keeps: role and link. */
static void test_is_pcie(void)
{
	static const struct {
		enum p2pd_role role;
		enum p2pd_state link;
		int pcie;
	} cases[] = {
		{ P2PD_ROLE_ENDPOINT, P2PD_PRESENT, 1 },
		{ P2PD_ROLE_RC_ENDPOINT, P2PD_ABSENT, 1 },	/* no link, PCIe */
		{ P2PD_ROLE_ROOT_PORT, P2PD_UNKNOWN, 1 },
		{ P2PD_ROLE_PCI_DEVICE, P2PD_ABSENT, 0 },	/* conventional */
		{ P2PD_ROLE_PCI_BRIDGE, P2PD_ABSENT, 0 },
		/* a reserved port type: a pci_* role with a link */
		{ P2PD_ROLE_PCI_DEVICE, P2PD_PRESENT, 1 },
		{ P2PD_ROLE_PCI_BRIDGE, P2PD_SUSPENDED, 1 },
	};
	unsigned int i;

	for (i = 0; i < LEN(cases); i++) {
		struct p2pd_function f = { .role = cases[i].role };

		f.link.state = cases[i].link;
		ktap_result(&k, p2pd_is_pcie(&f) == cases[i].pcie, "",
			    "%s with link state %d is %s", p2pd_role_name(cases[i].role),
			    (int)cases[i].link, cases[i].pcie ? "PCIe" : "conventional PCI");
	}
}

/* Which config values missing make a function's reading incomplete. */
static void test_config_unread(void)
{
	struct p2pd_function f = { .acs = P2PD_PRESENT };
	enum p2pd_state *states[] = { &f.acs, &f.ats, &f.link.state };
	static const char *const names[] = { "acs", "ats", "link" };
	unsigned int i;

	ktap_result(&k, !p2pd_config_unread(&f), "",
		    "present and absent values: config read");
	for (i = 0; i < LEN(states); i++) {
		enum p2pd_state keep = *states[i];

		*states[i] = P2PD_UNKNOWN;
		ktap_result(&k, p2pd_config_unread(&f), "", "%s unknown: unread", names[i]);
		*states[i] = P2PD_SUSPENDED;
		ktap_result(&k, p2pd_config_unread(&f), "", "%s suspended: unread", names[i]);
		*states[i] = keep;
	}
	f.pri = f.pasid = P2PD_UNKNOWN;
	ktap_result(&k, !p2pd_config_unread(&f), "",
		    "pri and pasid unknown (an older module's line): config read");
}

static void test_kinds(void)
{
	static const struct {
		unsigned int class_code;
		enum p2pd_kind kind;
		const char *name;
	} cases[] = {
		{ 0x030000, P2PD_KIND_GPU, "GPU" },		/* VGA */
		{ 0x030200, P2PD_KIND_GPU, "GPU" },		/* 3D (H100) */
		{ 0x038000, P2PD_KIND_GPU, "GPU" },
		{ 0x020000, P2PD_KIND_NIC, "NIC" },		/* Ethernet */
		{ 0x020700, P2PD_KIND_NIC, "NIC" },		/* InfiniBand */
		{ 0x010802, P2PD_KIND_NVME, "NVMe" },
		{ 0x010803, P2PD_KIND_NVME, "NVMe" },
		{ 0x120000, P2PD_KIND_ACCELERATOR, "accelerator" },
		{ 0x0b4000, P2PD_KIND_ACCELERATOR, "accelerator" },
		{ 0x0b4001, P2PD_KIND_ACCELERATOR, "accelerator" },
		{ 0x010601, P2PD_KIND_OTHER, "device" },	/* AHCI */
		{ 0x060400, P2PD_KIND_OTHER, "device" },	/* bridge */
		{ 0x0b0000, P2PD_KIND_OTHER, "device" },	/* 386 */
		{ 0x040300, P2PD_KIND_OTHER, "device" },	/* audio */
		{ 0xff030000, P2PD_KIND_GPU, "GPU" },		/* bits above 24 ignored */
	};
	unsigned int i;

	for (i = 0; i < LEN(cases); i++) {
		enum p2pd_kind kd = p2pd_device_kind(cases[i].class_code);
		const char *name = p2pd_kind_name(kd);

		ktap_result(&k, kd == cases[i].kind && name &&
			    !strcmp(name, cases[i].name), "",
			    "class %#08x is a %s (got %s)", cases[i].class_code,
			    cases[i].name, name ? name : "(null)");
	}
	ktap_result(&k, !p2pd_kind_name(P2PD_KIND_COUNT), "",
		    "a kind out of range has no name");
}

static void test_p2p_endpoints(void)
{
	static const struct {
		enum p2pd_role role;
		unsigned int class_code;
		int all, want;
	} cases[] = {
		{ P2PD_ROLE_ENDPOINT, 0x030200, 0, 1 },
		{ P2PD_ROLE_LEGACY_ENDPOINT, 0x020000, 0, 1 },
		{ P2PD_ROLE_RC_ENDPOINT, 0x120000, 0, 1 },
		{ P2PD_ROLE_PCI_DEVICE, 0x010802, 0, 1 },
		{ P2PD_ROLE_ENDPOINT, 0x010601, 0, 0 },
		{ P2PD_ROLE_ENDPOINT, 0x010601, 1, 1 },
		{ P2PD_ROLE_ROOT_PORT, 0x030200, 1, 0 },
		{ P2PD_ROLE_UPSTREAM_PORT, 0x060400, 1, 0 },
		{ P2PD_ROLE_PCI_BRIDGE, 0x030000, 0, 0 },
		{ P2PD_ROLE_RC_EVENT_COLLECTOR, 0x080700, 1, 0 },
	};
	unsigned int i;

	for (i = 0; i < LEN(cases); i++)
		ktap_result(&k, p2pd_is_p2p_endpoint(cases[i].role,
						     cases[i].class_code,
						     cases[i].all) == cases[i].want,
			    "", "%s of class %#08x%s: %s P2P endpoint",
			    p2pd_role_name(cases[i].role), cases[i].class_code,
			    cases[i].all ? " (all endpoints)" : "",
			    cases[i].want ? "a" : "no");
}

static void test_nvidia_gpu(void)
{
	struct p2pd_function f = { .vendor = 0x10de, .class_code = 0x030200 };

	ktap_result(&k, p2pd_is_nvidia_gpu(&f), "", "10de class 0302 is an NVIDIA GPU");
	f.class_code = 0x068000;	/* an NVSwitch's bridge function */
	ktap_result(&k, !p2pd_is_nvidia_gpu(&f), "", "10de class 0680 is no GPU");
	f.vendor = 0x1002;
	f.class_code = 0x030000;
	ktap_result(&k, !p2pd_is_nvidia_gpu(&f), "", "1002 class 0300 is no NVIDIA GPU");
}

static void test_cpu_rule(void)
{
	static const struct {
		enum p2pd_cpu_vendor vendor;
		unsigned int family, flags;
	} cases[] = {
		{ P2PD_CPU_VENDOR_AMD, 0x19, P2PD_CPU_AMD | P2PD_CPU_ROUTES_P2P },
		{ P2PD_CPU_VENDOR_AMD, 0x17, P2PD_CPU_AMD | P2PD_CPU_ROUTES_P2P },
		{ P2PD_CPU_VENDOR_AMD, 0x16, P2PD_CPU_AMD },
		{ P2PD_CPU_VENDOR_AMD, 0x0f, P2PD_CPU_AMD },
		/* the kernel tests X86_VENDOR_AMD only */
		{ P2PD_CPU_VENDOR_HYGON, 0x18, P2PD_CPU_AMD },
		{ P2PD_CPU_VENDOR_OTHER, 6, 0 },
		{ P2PD_CPU_VENDOR_OTHER, 0x19, 0 },
	};
	unsigned int i;

	for (i = 0; i < LEN(cases); i++) {
		unsigned int got = p2pd_cpu_flags(cases[i].vendor,
						  cases[i].family);

		ktap_result(&k, got == cases[i].flags, "",
			    "cpu vendor %d family %#x: flags %#x (got %#x)",
			    cases[i].vendor, cases[i].family, cases[i].flags, got);
	}
}

/* The CPU a dump's root buses point to (2, 3 or 4 root-bus functions). */
static void test_cpu_guess(void)
{
	static const struct {
		const char *what;
		unsigned int ids[4][2];	/* vendor, device; class 0600 but [3] */
		unsigned int n;
		enum p2pd_cpu_guess guess;
		int evidence;
		unsigned int flags;
	} cases[] = {
		{ "Intel GM965 laptop (8086:2a00)", { { 0x8086, 0x2a00 } }, 1,
		  P2PD_CPU_GUESS_INTEL, 0, 0 },
		{ "EPYC Rome: Starship root complex and a dummy host bridge",
		  { { 0x1022, 0x1482 }, { 0x1022, 0x1480 } }, 2,
		  P2PD_CPU_GUESS_AMD_ZEN, 1, P2PD_CPU_AMD | P2PD_CPU_ROUTES_P2P },
		{ "Family 15h root complex", { { 0x1022, 0x1422 } }, 1,
		  P2PD_CPU_GUESS_AMD_OLDER, 0, P2PD_CPU_AMD },
		{ "AMD root complex of no known family", { { 0x1022, 0x14a4 } }, 1,
		  P2PD_CPU_GUESS_AMD, 0, P2PD_CPU_AMD },
		{ "Hygon", { { 0x1d94, 0x1450 } }, 1, P2PD_CPU_GUESS_HYGON, 0,
		  P2PD_CPU_AMD },
		{ "QEMU q35 says nothing", { { 0x8086, 0x29c0 } }, 1,
		  P2PD_CPU_GUESS_NONE, -1, 0 },
		{ "Intel next to AMD: nothing", { { 0x8086, 0x2020 },
		  { 0x1022, 0x1480 } }, 2, P2PD_CPU_GUESS_NONE, -1, 0 },
		{ "a Zen and a pre-Zen root complex: nothing", { { 0x1022, 0x1450 },
		  { 0x1022, 0x1410 } }, 2, P2PD_CPU_GUESS_NONE, -1, 0 },
		{ "an unknown vendor's host bridge", { { 0x1ae0, 0x0001 } }, 1,
		  P2PD_CPU_GUESS_NONE, -1, 0 },
		{ "no host bridge, only an AMD root port (class 0604)",
		  { { 0, 0 }, { 0, 0 }, { 0, 0 }, { 0x1022, 0x1483 } }, 4,
		  P2PD_CPU_GUESS_NONE, -1, 0 },
	};
	unsigned int i, j;

	for (i = 0; i < LEN(cases); i++) {
		struct p2pd_function fn[4] = { { 0 } };
		struct p2pd_model m = { .fn = fn, .nr_fn = cases[i].n };
		enum p2pd_cpu_guess got;
		int ev;

		for (j = 0; j < cases[i].n; j++) {
			fn[j].addr = P2PD_ADDR(0, 0x20 * j, 0, 0);
			fn[j].host_bridge = P2PD_HOST_BRIDGE(0, 0x20 * j);
			fn[j].vendor = cases[i].ids[j][0];
			fn[j].device = cases[i].ids[j][1];
			fn[j].class_code = j == 3 ? 0x060400 :
					   cases[i].ids[j][0] ? 0x060000 : 0x020000;
		}
		got = p2pd_cpu_guess(&m, &ev);
		ktap_result(&k, got == cases[i].guess && ev == cases[i].evidence &&
			    p2pd_cpu_guess_flags(got) == cases[i].flags, "",
			    "cpu from host bridges: %s (guess %d, by function %d)",
			    cases[i].what, got, ev);
	}
}

/* A root port, a GPU below it, a switch with a NIC, and the links' ends. */
static void test_link_above(void)
{
	struct p2pd_function fn[] = {
		{ .addr = P2PD_ADDR(0, 0, 1, 0), .role = P2PD_ROLE_ROOT_PORT,
		  .link = { P2PD_PRESENT, 320, 16, 320, 16 } },
		{ .addr = P2PD_ADDR(0, 0, 2, 0), .role = P2PD_ROLE_ROOT_PORT,
		  .link = { P2PD_PRESENT, 160, 8, 0, 8 } },
		{ .addr = P2PD_ADDR(0, 0, 3, 0), .role = P2PD_ROLE_ROOT_PORT,
		  .link = { P2PD_UNKNOWN, 0, 0, 0, 0 } },
		/* Gen4 x16 GPU in a Gen5 x16 slot, idle at Gen1 */
		{ .addr = P2PD_ADDR(0, 1, 0, 0), .has_parent = 1,
		  .parent = P2PD_ADDR(0, 0, 1, 0), .role = P2PD_ROLE_ENDPOINT,
		  .link = { P2PD_PRESENT, 25, 16, 160, 16 } },
		/* x16 card in an x8 slot whose speed capability is unreadable */
		{ .addr = P2PD_ADDR(0, 2, 0, 0), .has_parent = 1,
		  .parent = P2PD_ADDR(0, 0, 2, 0), .role = P2PD_ROLE_ENDPOINT,
		  .link = { P2PD_PRESENT, 160, 8, 160, 16 } },
		/* below a port whose link could not be read: its own caps */
		{ .addr = P2PD_ADDR(0, 3, 0, 0), .has_parent = 1,
		  .parent = P2PD_ADDR(0, 0, 3, 0), .role = P2PD_ROLE_UPSTREAM_PORT,
		  .link = { P2PD_PRESENT, 80, 4, 160, 4 } },
		/* a downstream port: its link leads down */
		{ .addr = P2PD_ADDR(0, 4, 0, 0), .has_parent = 1,
		  .parent = P2PD_ADDR(0, 3, 0, 0), .role = P2PD_ROLE_DOWNSTREAM_PORT,
		  .link = { P2PD_PRESENT, 80, 4, 160, 4 } },
		/* parent outside the snapshot: its own caps */
		{ .addr = P2PD_ADDR(0, 7, 0, 0), .has_parent = 1,
		  .parent = P2PD_ADDR(0, 6, 0, 0), .role = P2PD_ROLE_ENDPOINT,
		  .link = { P2PD_PRESENT, 640, 16, 1280, 16 } },
		/* no link at all */
		{ .addr = P2PD_ADDR(0, 8, 0, 0), .role = P2PD_ROLE_RC_ENDPOINT,
		  .link = { P2PD_ABSENT, 0, 0, 0, 0 } },
	};
	static const struct {
		int idx, faces_up;
		unsigned int speed, width, max_speed, max_width;
	} cases[] = {
		{ 3, 1, 25, 16, 160, 16 },
		{ 4, 1, 160, 8, 160, 8 },
		{ 5, 1, 80, 4, 160, 4 },
		{ 6, 0, 0, 0, 0, 0 },
		{ 7, 1, 640, 16, 1280, 16 },
		{ 8, 0, 0, 0, 0, 0 },
		{ 0, 0, 0, 0, 0, 0 },
	};
	struct p2pd_model m = { .fn = fn, .nr_fn = LEN(fn) };
	unsigned int i;

	for (i = 0; i < LEN(cases); i++) {
		struct p2pd_link l = { 0 };
		int up = p2pd_link_above(&m, cases[i].idx, &l);

		ktap_result(&k, up == cases[i].faces_up &&
			    (!up || (l.speed == cases[i].speed &&
				     l.width == cases[i].width &&
				     l.max_speed == cases[i].max_speed &&
				     l.max_width == cases[i].max_width)), "",
			    "link above fn %d: %s %u x%u of %u x%u (got %d: %u x%u of %u x%u)",
			    cases[i].idx, cases[i].faces_up ? "up" : "none",
			    cases[i].speed, cases[i].width, cases[i].max_speed,
			    cases[i].max_width, up, l.speed, l.width,
			    l.max_speed, l.max_width);
	}
}

static void test_link_rate(void)
{
	static const struct {
		unsigned int speed, width;
		unsigned long mbs;
	} cases[] = {
		{ 25, 16, 4000 },	/* 8b/10b */
		{ 50, 1, 500 },
		{ 80, 16, 15753 },	/* 128b/130b */
		{ 160, 16, 31507 },
		{ 320, 16, 63015 },
		{ 640, 16, 121000 },	/* FLIT */
		{ 1280, 16, 242000 },
		{ 0, 16, 0 },
		{ 160, 0, 0 },
	};
	unsigned int i;

	for (i = 0; i < LEN(cases); i++) {
		unsigned long got = p2pd_link_rate(cases[i].speed,
						   cases[i].width);

		ktap_result(&k, got == cases[i].mbs, "",
			    "%u x%u carries %lu MB/s raw (got %lu)",
			    cases[i].speed, cases[i].width, cases[i].mbs, got);
	}
}

/*
 * The one address spelling the engine writes is the only one read back:
 * the module's directory names and the tool's files alike.
 */
static void test_parse_addr(void)
{
	static const struct { const char *s; unsigned long long want; } good[] = {
		{ "0000:01:00.0", P2PD_ADDR(0, 1, 0, 0) },
		{ "0000:ff:1f.7", P2PD_ADDR(0, 0xff, 0x1f, 7) },
		{ "10000:e1:00.0", P2PD_ADDR(0x10000, 0xe1, 0, 0) },
		{ "ffffffff:00:00.0", P2PD_ADDR(0xffffffffu, 0, 0, 0) },
	};
	/* what the module's sscanf("%8x:%2x:%2x.%1x") used to take, and more */
	static const char *const bad[] = {
		"0:01:00.0", "000:01:00.0", "00000:01:00.0", "0000:1:00.0",
		"0000:01:0.0", "0000:01:20.0", "0000:01:00.8", "0000:01:00.0 ",
		"0000:01:00.00", "0000:01:00", "01:00.0", "", "0000:01:00.0x",
		"+000:01:00.0", "100000000:00:00.0",
	};
	unsigned long long v, hb;
	unsigned int i;
	char buf[P2PD_ADDR_STRLEN];
	struct p2pd_buf b;

	for (i = 0; i < LEN(good); i++) {
		v = 0;
		p2pd_buf_init(&b, buf, sizeof(buf));
		p2pd_put_addr(&b, good[i].want);
		p2pd_buf_terminate(&b);
		ktap_result(&k, !p2pd_parse_addr(good[i].s, &v) && v == good[i].want &&
			    !strcmp(buf, good[i].s), buf,
			    "address %s reads back as written", good[i].s);
	}
	for (i = 0; i < LEN(bad); i++) {
		v = 42;
		ktap_result(&k, p2pd_parse_addr(bad[i], &v) == -1 && v == 42, "",
			    "address '%s' is refused", bad[i]);
	}
	ktap_result(&k, !p2pd_parse_host_bridge("10000:e0", &hb) &&
		    hb == P2PD_HOST_BRIDGE(0x10000, 0xe0) &&
		    p2pd_parse_host_bridge("0000:e0:00", &hb) &&
		    p2pd_parse_host_bridge("000:e0", &hb), "",
		    "a root bus reads as written, nothing else");
}

/* One table of paravirtual vendors; Google's 0x1ae0 is gVNIC's here. */
static void test_paravirtual(void)
{
	const char *g = p2pd_paravirtual_vendor(P2PD_VENDOR_GOOGLE);

	ktap_result(&k, p2pd_paravirtual_vendor(P2PD_VENDOR_VIRTIO) &&
		    p2pd_paravirtual_vendor(P2PD_VENDOR_MICROSOFT) &&
		    p2pd_paravirtual_vendor(P2PD_VENDOR_VMWARE) &&
		    p2pd_paravirtual_vendor(P2PD_VENDOR_XEN) &&
		    g && strstr(g, "gVNIC") &&
		    !p2pd_paravirtual_vendor(P2PD_VENDOR_NVIDIA) &&
		    !p2pd_paravirtual_vendor(P2PD_VENDOR_INTEL), "",
		    "paravirtual: virtio, Hyper-V, VMware, Xen, gVNIC; not NVIDIA or Intel");
}

int main(void)
{
	ktap_start("decode");
	test_speed_codes();
	test_decode_link();
	test_translation_caps();
	test_roles();
	test_is_pcie();
	test_config_unread();
	test_kinds();
	test_p2p_endpoints();
	test_nvidia_gpu();
	test_cpu_rule();
	test_cpu_guess();
	test_link_above();
	test_link_rate();
	test_parse_addr();
	test_paravirtual();
	return ktap_finish(&k);
}
