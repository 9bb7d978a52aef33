// SPDX-License-Identifier: GPL-2.0
/*
 * Register and class-code decoding shared by the two walkers.  Each rule
 * is written once here; kmod/walk.c and userspace's libpci walker only
 * read config space and pass the raw values in.  Freestanding, like the
 * rest of the engine.
 */
#include "p2pdiag/decode.h"
#include "p2pdiag/vendor_ids.h"

#define CLASS_BASE(c)		(((c) >> 16) & 0xff)
#define CLASS_BASE_SUB(c)	(((c) >> 8) & 0xffff)
#define BASE_NETWORK		0x02
#define BASE_DISPLAY		0x03
#define BASE_ACCELERATOR	0x12
#define BASE_SUB_NVME		0x0108
#define BASE_SUB_COPROCESSOR	0x0b40
#define CLASS_HOST_BRIDGE	0x0600
#define HEADER_TYPE_NORMAL	0
#define HEADER_TYPE_CARDBUS	2
#define CPU_FAMILY_ZEN		0x17

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

unsigned int p2pd_link_speed_tenths(unsigned int code)
{
	/* PCIe r6.0 Supported Link Speeds; 7 is PCIe 7.0's 128 GT/s. */
	static const unsigned int tenths[] = {
		[1] = 25, [2] = 50, [3] = 80, [4] = 160, [5] = 320, [6] = 640,
		[7] = 1280,
	};

	return code < ARRAY_LEN(tenths) ? tenths[code] : 0;
}

unsigned int p2pd_link_width(unsigned int field)
{
	/* PCIe r6.0 7.5.3.6 and 7.5.3.8: x1 .. x32; the other values are reserved. */
	switch (field) {
	case 1: case 2: case 4: case 8: case 12: case 16: case 32:
		return field;
	default:
		return 0;
	}
}

void p2pd_decode_link(struct p2pd_link *link, unsigned int lnksta,
		      unsigned int lnkcap)
{
	link->state = P2PD_PRESENT;
	link->speed = p2pd_link_speed_tenths(lnksta & P2PD_LINK_SPEED_BITS);
	link->width = p2pd_link_width((lnksta & P2PD_LINK_WIDTH_BITS) >>
				      P2PD_LINK_WIDTH_SHIFT);
	link->max_speed = p2pd_link_speed_tenths(lnkcap & P2PD_LINK_SPEED_BITS);
	link->max_width = p2pd_link_width((lnkcap & P2PD_LINK_WIDTH_BITS) >>
					  P2PD_LINK_WIDTH_SHIFT);
}

void p2pd_decode_ats(struct p2pd_function *f, unsigned int ctrl,
		     unsigned int stu_ctrl)
{
	f->ats = P2PD_PRESENT;
	f->ats_enabled = !!(ctrl & P2PD_ATS_CTRL_ENABLE);
	/* the raw field, as lspci prints it */
	f->ats_stu = stu_ctrl & P2PD_ATS_CTRL_STU;
}

void p2pd_decode_pri(struct p2pd_function *f, unsigned int ctrl)
{
	f->pri = P2PD_PRESENT;
	f->pri_enabled = !!(ctrl & P2PD_PRI_CTRL_ENABLE);
}

void p2pd_decode_pasid(struct p2pd_function *f, unsigned int cap,
		       unsigned int ctrl)
{
	f->pasid = P2PD_PRESENT;
	f->pasid_enabled = !!(ctrl & P2PD_PASID_CTRL_ENABLE);
	f->pasid_width = (cap & P2PD_PASID_CAP_WIDTH) >> P2PD_PASID_WIDTH_SHIFT;
}

/* Device/Port Type values, PCIe r6.0 7.5.3.2; the gaps are reserved. */
static const struct {
	int valid;
	enum p2pd_role role;
} pcie_port_types[] = {
	[0x0] = { 1, P2PD_ROLE_ENDPOINT },
	[0x1] = { 1, P2PD_ROLE_LEGACY_ENDPOINT },
	[0x4] = { 1, P2PD_ROLE_ROOT_PORT },
	[0x5] = { 1, P2PD_ROLE_UPSTREAM_PORT },
	[0x6] = { 1, P2PD_ROLE_DOWNSTREAM_PORT },
	[0x7] = { 1, P2PD_ROLE_PCIE_TO_PCI_BRIDGE },
	[0x8] = { 1, P2PD_ROLE_PCI_TO_PCIE_BRIDGE },
	[0x9] = { 1, P2PD_ROLE_RC_ENDPOINT },
	[0xa] = { 1, P2PD_ROLE_RC_EVENT_COLLECTOR },
};

enum p2pd_role p2pd_decode_role(int is_pcie, unsigned int pcie_type,
				unsigned int header_type)
{
	if (is_pcie && pcie_type < ARRAY_LEN(pcie_port_types) &&
	    pcie_port_types[pcie_type].valid)
		return pcie_port_types[pcie_type].role;
	if ((header_type & 0x7f) == HEADER_TYPE_NORMAL)
		return P2PD_ROLE_PCI_DEVICE;
	if ((header_type & 0x7f) == HEADER_TYPE_CARDBUS)
		return P2PD_ROLE_CARDBUS_BRIDGE;
	return P2PD_ROLE_PCI_BRIDGE;
}

int p2pd_role_has_link(int is_pcie, enum p2pd_role role)
{
	return is_pcie && role != P2PD_ROLE_RC_ENDPOINT &&
	       role != P2PD_ROLE_RC_EVENT_COLLECTOR;
}

int p2pd_is_pcie(const struct p2pd_function *f)
{
	return (f->role != P2PD_ROLE_PCI_DEVICE &&
		f->role != P2PD_ROLE_PCI_BRIDGE &&
		f->role != P2PD_ROLE_CARDBUS_BRIDGE) ||
	       f->link.state != P2PD_ABSENT;
}

static int state_unread(enum p2pd_state state)
{
	return state == P2PD_UNKNOWN || state == P2PD_SUSPENDED;
}

int p2pd_config_unread(const struct p2pd_function *f)
{
	return state_unread(f->acs) || state_unread(f->ats) ||
	       state_unread(f->link.state);
}

int p2pd_role_is_endpoint(enum p2pd_role role)
{
	return role == P2PD_ROLE_ENDPOINT ||
	       role == P2PD_ROLE_LEGACY_ENDPOINT ||
	       role == P2PD_ROLE_RC_ENDPOINT ||
	       role == P2PD_ROLE_PCI_DEVICE;
}

enum p2pd_kind p2pd_device_kind(unsigned int class_code)
{
	unsigned int base = CLASS_BASE(class_code);
	unsigned int base_sub = CLASS_BASE_SUB(class_code);

	if (base == BASE_DISPLAY)
		return P2PD_KIND_GPU;
	if (base == BASE_NETWORK)
		return P2PD_KIND_NIC;
	if (base_sub == BASE_SUB_NVME)
		return P2PD_KIND_NVME;
	if (base == BASE_ACCELERATOR || base_sub == BASE_SUB_COPROCESSOR)
		return P2PD_KIND_ACCELERATOR;
	return P2PD_KIND_OTHER;
}

int p2pd_is_nvidia_gpu(const struct p2pd_function *f)
{
	return f->vendor == P2PD_VENDOR_NVIDIA &&
	       p2pd_device_kind(f->class_code) == P2PD_KIND_GPU;
}

/*
 * The vendors whose devices a hypervisor emulates: the host moves their
 * data, no peer DMAs into them.  0x1ae0 here is Google's gVNIC/gVE, not
 * the Google host bridges of the P2PDMA whitelist (vendor_ids.h).
 */
static const struct {
	unsigned int vendor;
	const char *name;
} paravirtual_vendors[] = {
	{ P2PD_VENDOR_VIRTIO, "virtio" },
	{ P2PD_VENDOR_MICROSOFT, "Hyper-V" },
	{ P2PD_VENDOR_VMWARE, "VMware" },
	{ P2PD_VENDOR_XEN, "Xen" },
	{ P2PD_VENDOR_GOOGLE, "Google gVNIC/gVE" },
};

const char *p2pd_paravirtual_vendor(unsigned int vendor)
{
	unsigned int i;

	for (i = 0; i < ARRAY_LEN(paravirtual_vendors); i++)
		if (paravirtual_vendors[i].vendor == vendor)
			return paravirtual_vendors[i].name;
	return P2PD_NULL;
}

int p2pd_is_p2p_endpoint(enum p2pd_role role, unsigned int class_code,
			 int all_endpoints)
{
	return p2pd_role_is_endpoint(role) &&
	       (all_endpoints ||
		p2pd_device_kind(class_code) != P2PD_KIND_OTHER);
}

unsigned int p2pd_cpu_flags(enum p2pd_cpu_vendor vendor, unsigned int family)
{
	unsigned int flags = 0;

	if (vendor == P2PD_CPU_VENDOR_AMD || vendor == P2PD_CPU_VENDOR_HYGON)
		flags |= P2PD_CPU_AMD;
	if (vendor == P2PD_CPU_VENDOR_AMD && family >= CPU_FAMILY_ZEN)
		flags |= P2PD_CPU_ROUTES_P2P;
	return flags;
}

/*
 * AMD root complexes (pci.ids, vendor 1022), by what their family does for
 * the kernel's host-bridge rule.  Zen: "Family 17h (Models 00h-0fh) Root
 * Complex", Raven/Raven2, Starship/Matisse, "Family 17h-19h PCIe Root
 * Complex", Renoir/Cezanne, VanGogh.  Older: the Family 12h, 14h, 15h
 * and 16h processor root complexes and the RS780/RS880 host bridges.
 */
static const unsigned int amd_zen_root_complex[] = {
	0x1450, 0x15d0, 0x1480, 0x14b5, 0x1630, 0x1645,
};

static const unsigned int amd_older_root_complex[] = {
	0x1705, 0x1510, 0x1410, 0x1422, 0x1576, 0x1536, 0x1566, 0x9600, 0x9601,
};

/* QEMU's emulated host bridges: q35 (MCH) and i440FX. */
static const unsigned int emulated_host_bridge[] = { 0x29c0, 0x1237 };

static int listed(const unsigned int *ids, unsigned int n, unsigned int id)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (ids[i] == id)
			return 1;
	return 0;
}

static enum p2pd_cpu_guess host_bridge_guess(const struct p2pd_function *f)
{
	switch (f->vendor) {
	case P2PD_VENDOR_INTEL:
		if (listed(emulated_host_bridge, ARRAY_LEN(emulated_host_bridge),
			   f->device))
			return P2PD_CPU_GUESS_NONE;
		return P2PD_CPU_GUESS_INTEL;
	case P2PD_VENDOR_AMD:
		if (listed(amd_zen_root_complex, ARRAY_LEN(amd_zen_root_complex),
			   f->device))
			return P2PD_CPU_GUESS_AMD_ZEN;
		if (listed(amd_older_root_complex,
			   ARRAY_LEN(amd_older_root_complex), f->device))
			return P2PD_CPU_GUESS_AMD_OLDER;
		return P2PD_CPU_GUESS_AMD;
	case P2PD_VENDOR_HYGON:
		return P2PD_CPU_GUESS_HYGON;
	default:
		return P2PD_CPU_GUESS_NONE;
	}
}

/* A plain AMD guess (e.g. a "PCIe Dummy Host Bridge") yields to a family. */
static int refines(enum p2pd_cpu_guess have, enum p2pd_cpu_guess g)
{
	return have == P2PD_CPU_GUESS_AMD &&
	       (g == P2PD_CPU_GUESS_AMD_ZEN || g == P2PD_CPU_GUESS_AMD_OLDER);
}

enum p2pd_cpu_guess p2pd_cpu_guess(const struct p2pd_model *m, int *evidence)
{
	enum p2pd_cpu_guess guess = P2PD_CPU_GUESS_NONE, g;
	unsigned int i;

	*evidence = P2PD_NO_INDEX;
	for (i = 0; i < m->nr_fn; i++) {
		const struct p2pd_function *f = &m->fn[i];

		if (f->has_parent || CLASS_BASE_SUB(f->class_code) !=
		    CLASS_HOST_BRIDGE)
			continue;
		g = host_bridge_guess(f);
		if (g == P2PD_CPU_GUESS_NONE || g == guess ||
		    refines(g, guess))
			continue;
		if (guess == P2PD_CPU_GUESS_NONE || refines(guess, g)) {
			guess = g;
			*evidence = (int)i;
			continue;
		}
		/* Intel next to AMD, or two AMD families: say nothing */
		*evidence = P2PD_NO_INDEX;
		return P2PD_CPU_GUESS_NONE;
	}
	return guess;
}

unsigned int p2pd_cpu_guess_flags(enum p2pd_cpu_guess guess)
{
	switch (guess) {
	case P2PD_CPU_GUESS_AMD_ZEN:
		return p2pd_cpu_flags(P2PD_CPU_VENDOR_AMD, CPU_FAMILY_ZEN);
	case P2PD_CPU_GUESS_AMD_OLDER:
	case P2PD_CPU_GUESS_AMD:
		return P2PD_CPU_AMD;
	case P2PD_CPU_GUESS_HYGON:
		return p2pd_cpu_flags(P2PD_CPU_VENDOR_HYGON, CPU_FAMILY_ZEN);
	default:
		return 0;
	}
}
