/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Decoding rules both walkers need: what a register value or a class code
 * means for the snapshot model.  The module's walk (struct pci_dev and the
 * kernel's config accessors) and the tool's libpci walk read the registers
 * and hand the raw values here, so a Gen7 link or a reserved port type
 * reads the same from both.  Source: kmod/engine/decode.c and link.c.
 */
#ifndef P2PDIAG_DECODE_H
#define P2PDIAG_DECODE_H

#include "model.h"

/*
 * Link Capabilities (PCIe r6.0, 7.5.3.6) and Link Status (7.5.3.8) keep
 * the speed code and the width in the same bits.
 */
#define P2PD_LINK_SPEED_BITS	0x000f
#define P2PD_LINK_WIDTH_BITS	0x03f0
#define P2PD_LINK_WIDTH_SHIFT	4

/*
 * The registers of the ATS, Page Request and PASID extended capabilities
 * that the model records, by offset from the capability, and their bits.
 */
#define P2PD_ATS_CTRL_REG	0x06	/* ATS Control */
#define P2PD_ATS_CTRL_ENABLE	0x8000
#define P2PD_ATS_CTRL_STU	0x001f	/* Smallest Translation Unit */
#define P2PD_PRI_CTRL_REG	0x04	/* Page Request Control */
#define P2PD_PRI_CTRL_ENABLE	0x0001
#define P2PD_PASID_CAP_REG	0x04	/* PASID Capability */
#define P2PD_PASID_CAP_WIDTH	0x1f00	/* Max PASID Width */
#define P2PD_PASID_WIDTH_SHIFT	8
#define P2PD_PASID_CTRL_REG	0x06	/* PASID Control */
#define P2PD_PASID_CTRL_ENABLE	0x0001

/*
 * What a P2P endpoint is, from its class code; also the order in which
 * the reports list them.  Everything but P2PD_KIND_OTHER does peer
 * traffic.
 */
enum p2pd_kind {
	P2PD_KIND_GPU,		/* display and 3D controllers, base 0x03 */
	P2PD_KIND_ACCELERATOR,	/* processing accelerators 0x12, co-processors 0x0b40 */
	P2PD_KIND_NIC,		/* network, InfiniBand included, base 0x02 */
	P2PD_KIND_NVME,		/* 0x0108, any prog-if */
	P2PD_KIND_OTHER,
	P2PD_KIND_COUNT
};

/* The host CPU's vendor, as far as the P2P rule cares. */
enum p2pd_cpu_vendor {
	P2PD_CPU_VENDOR_OTHER,
	P2PD_CPU_VENDOR_AMD,	/* AuthenticAMD */
	P2PD_CPU_VENDOR_HYGON,	/* HygonGenuine */
};

/**
 * p2pd_link_speed_tenths() - a link speed code in 0.1 GT/s.
 * @code: the Current/Max Link Speed field (1 = 2.5 GT/s .. 7 = 128 GT/s)
 *
 * Return: 25 to 1280, or 0 for a reserved code.
 */
unsigned int p2pd_link_speed_tenths(unsigned int code);

/**
 * p2pd_link_width() - lanes from a Negotiated or Maximum Link Width field.
 * @field: the field's value, shifted down (0 .. 63)
 *
 * Return: 1, 2, 4, 8, 12, 16 or 32, or 0 for a reserved value (the
 * topology file's link widths stop at 32).
 */
unsigned int p2pd_link_width(unsigned int field);

/**
 * p2pd_decode_link() - fill @link from Link Status and Link Capabilities.
 * @link: set to P2PD_PRESENT with current and maximum speed and width
 * @lnksta: Link Status, as read
 * @lnkcap: Link Capabilities, as read
 *
 * The caller has ruled out failed reads (all ones).
 */
void p2pd_decode_link(struct p2pd_link *link, unsigned int lnksta,
		      unsigned int lnkcap);

/**
 * p2pd_decode_ats() - fill @f's ATS state from ATS Control.
 * @f: ats set to P2PD_PRESENT, with ats_enabled and ats_stu
 * @ctrl: the function's ATS Control, as read
 * @stu_ctrl: the ATS Control that holds the STU: @ctrl, or for a VF, whose
 *            STU field is reserved, its PF's
 *
 * The caller has ruled out failed reads (all ones).
 */
void p2pd_decode_ats(struct p2pd_function *f, unsigned int ctrl,
		     unsigned int stu_ctrl);

/**
 * p2pd_decode_pri() - fill @f's PRI state from Page Request Control.
 * @f: pri set to P2PD_PRESENT, with pri_enabled
 * @ctrl: Page Request Control, as read
 */
void p2pd_decode_pri(struct p2pd_function *f, unsigned int ctrl);

/**
 * p2pd_decode_pasid() - fill @f's PASID state from its capability.
 * @f: pasid set to P2PD_PRESENT, with pasid_enabled and pasid_width
 * @cap: PASID Capability, as read
 * @ctrl: PASID Control, as read
 */
void p2pd_decode_pasid(struct p2pd_function *f, unsigned int cap,
		       unsigned int ctrl);

/**
 * p2pd_decode_role() - the role of a function.
 * @is_pcie: whether it has a PCI Express capability
 * @pcie_type: that capability's Device/Port Type field (PCIe r6.0, 7.5.3.2)
 * @header_type: the Header Type register's layout bits (0x7f)
 *
 * Return: the port type's role; for a conventional function, or a PCIe one
 * with a reserved port type, P2PD_ROLE_PCI_DEVICE (header type 0),
 * P2PD_ROLE_CARDBUS_BRIDGE (header type 2) or P2PD_ROLE_PCI_BRIDGE (any
 * other header).
 */
enum p2pd_role p2pd_decode_role(int is_pcie, unsigned int pcie_type,
				unsigned int header_type);

/**
 * p2pd_role_has_link() - whether a function of @role reports a link.
 * @is_pcie: whether it has a PCI Express capability
 * @role: from p2pd_decode_role()
 *
 * Return: 1, or 0 for conventional and root complex integrated functions,
 * which have no link.
 */
int p2pd_role_has_link(int is_pcie, enum p2pd_role role);

/**
 * p2pd_is_pcie() - whether @f has a PCI Express capability.
 * @f: the function
 *
 * Its role says so, but for a reserved Device/Port Type, which reads as
 * pci_device or pci_bridge like a conventional function: the link
 * registers (p2pd_role_has_link()) tell that one apart.
 *
 * Return: 1 for a PCI Express function, 0 for a conventional one.
 */
int p2pd_is_pcie(const struct p2pd_function *f);

/**
 * p2pd_config_unread() - whether a value from @f's config space is missing.
 * @f: the function
 *
 * Return: 1 when ACS, ATS or the link is "unknown" (a read failed or was
 * not tried) or "suspended" (powered down, left so), else 0.  A walk that
 * cannot read a function marks them all so; PRI and PASID are left out,
 * because a topology file from an older module lacks them (unknown).
 */
int p2pd_config_unread(const struct p2pd_function *f);

/**
 * p2pd_role_is_endpoint() - whether @role can be one end of a P2P pair.
 * @role: the role
 *
 * Return: 1 for PCIe endpoints (legacy and root complex integrated ones
 * too) and conventional PCI devices, 0 for ports and bridges.
 */
int p2pd_role_is_endpoint(enum p2pd_role role);

/**
 * p2pd_device_kind() - what a function is, from its class code.
 * @class_code: 24 bits, base class, sub-class, prog-if
 *
 * Return: the kind; P2PD_KIND_OTHER for classes that do no peer traffic.
 */
enum p2pd_kind p2pd_device_kind(unsigned int class_code);

/**
 * p2pd_kind_name() - "GPU", "accelerator", "NIC", "NVMe" or "device".
 * @kind: the kind
 *
 * Return: the name, or NULL when @kind is out of range.
 */
const char *p2pd_kind_name(enum p2pd_kind kind);

/**
 * p2pd_is_nvidia_gpu() - whether @f is a GPU made by NVIDIA.
 * @f: the function
 *
 * Return: 1 for an NVIDIA display or 3D controller, else 0.
 */
int p2pd_is_nvidia_gpu(const struct p2pd_function *f);

/**
 * p2pd_paravirtual_vendor() - whether a vendor's devices are paravirtual.
 * @vendor: a device's PCI vendor ID (not a host bridge's: vendor_ids.h)
 *
 * A paravirtual device (virtio, Hyper-V, VMware, Xen, Google gVNIC) has
 * no peer-to-peer or RDMA data path: the hypervisor moves its data.
 *
 * Return: the device family's name, or P2PD_NULL for any other vendor.
 */
const char *p2pd_paravirtual_vendor(unsigned int vendor);

/**
 * p2pd_is_p2p_endpoint() - whether a function counts in pairs.
 * @role: its role
 * @class_code: its class code
 * @all_endpoints: every endpoint counts, not only those doing peer traffic
 *
 * Return: 1 for an endpoint whose kind is not P2PD_KIND_OTHER (any
 * endpoint with @all_endpoints), else 0.
 */
int p2pd_is_p2p_endpoint(enum p2pd_role role, unsigned int class_code,
			 int all_endpoints);

/**
 * p2pd_cpu_flags() - P2PD_CPU_* for a host CPU, as the kernel's
 * cpu_supports_p2pdma() decides: AMD family 0x17 (Zen) and newer route P2P
 * between host bridges; Hygon is AMD for NCCL but not for the kernel.
 * @vendor: the CPU's vendor
 * @family: its x86 family
 *
 * Return: P2PD_CPU_AMD and P2PD_CPU_ROUTES_P2P as they apply.
 */
unsigned int p2pd_cpu_flags(enum p2pd_cpu_vendor vendor, unsigned int family);

/* What a snapshot's root complexes say about the CPU that has them. */
enum p2pd_cpu_guess {
	P2PD_CPU_GUESS_NONE,		/* nothing to go by (or emulated, or mixed) */
	P2PD_CPU_GUESS_INTEL,		/* an Intel host bridge */
	P2PD_CPU_GUESS_AMD_ZEN,		/* an AMD root complex of family 0x17 on */
	P2PD_CPU_GUESS_AMD_OLDER,	/* an AMD root complex before Zen */
	P2PD_CPU_GUESS_AMD,		/* AMD, a root complex of no family known here */
	P2PD_CPU_GUESS_HYGON,
};

/**
 * p2pd_cpu_guess() - infer the CPU from the host bridges of @m (the
 *	functions of class 0600 on its root buses): for a dump or a saved
 *	file that does not say which CPU it came from.  The AMD root
 *	complex IDs that give a family are those of pci.ids' "Family 17h"
 *	and later parts; an emulated host bridge (QEMU's q35 and i440FX)
 *	says nothing about the CPU under it.
 * @m: the model
 * @evidence: set to the index of the function it went by, or P2PD_NO_INDEX
 *
 * Return: the guess; P2PD_CPU_GUESS_NONE when the host bridges disagree.
 */
enum p2pd_cpu_guess p2pd_cpu_guess(const struct p2pd_model *m, int *evidence);

/**
 * p2pd_cpu_guess_flags() - the P2PD_CPU_* flags a guess stands for.
 * @guess: from p2pd_cpu_guess()
 *
 * Return: AMD Zen routes P2P; an AMD (or Hygon) CPU of another or unknown
 * family is P2PD_CPU_AMD alone; anything else 0.
 */
unsigned int p2pd_cpu_guess_flags(enum p2pd_cpu_guess guess);

/**
 * p2pd_link_above() - the link above function @idx, as both ends see it.
 * @m: the model
 * @idx: index of a function that faces upwards (not a root or downstream
 *	port, whose link leads down to another function)
 * @link: its current speed and width; maximum speed and width are the
 *	lower of the two ends' capabilities (a Gen4 card in a Gen5 slot runs
 *	at its best at Gen4); an end that cannot say leaves it to the other
 *
 * Return: 1 with @link filled, 0 when @idx faces down or its link is not
 * present.
 */
int p2pd_link_above(const struct p2pd_model *m, int idx,
		    struct p2pd_link *link);

/**
 * p2pd_link_encoding() - the line code's payload fraction at a speed.
 * @speed_tenths: link speed in 0.1 GT/s
 * @num: numerator: 8b/10b up to 5 GT/s, 128b/130b up to 32 GT/s,
 *	FLIT mode (242 of 256 bytes) above
 * @den: denominator
 */
void p2pd_link_encoding(unsigned int speed_tenths, unsigned int *num,
			unsigned int *den);

/**
 * p2pd_link_rate() - raw data rate of a link per direction in MB/s, after
 * the line code and before protocol overhead; for comparing links.
 * @speed_tenths: link speed in 0.1 GT/s
 * @width: lanes
 *
 * Return: MB/s, 0 when the speed or the width is 0.
 */
unsigned long p2pd_link_rate(unsigned int speed_tenths, unsigned int width);

#endif /* P2PDIAG_DECODE_H */
