/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The snapshot model: what p2pdiag knows about one PCI function, as plain
 * values.  The kernel module fills it from struct pci_dev during a walk,
 * p2pdiag-check fills it from libpci or from the module's topology file;
 * the verdict engine reads nothing else.  No kernel or libc types here.
 *
 * A PCI address is packed into one unsigned long long, the domain whole
 * (the kernel's pci_domain_nr() is an int; Intel VMD numbers its domains
 * from 0x10000):
 *
 *   47                        16 15      8 7     3 2   0
 *   +---------------------------+---------+-------+-----+
 *   |          domain           |   bus   |  dev  | fn  |
 *   +---------------------------+---------+-------+-----+
 *
 * and a host bridge (root bus) as domain << 8 | bus.
 */
#ifndef P2PDIAG_MODEL_H
#define P2PDIAG_MODEL_H

#define P2PD_ADDR(dom, bus, dev, fn) \
	(((unsigned long long)(unsigned int)(dom) << 16) | \
	 ((unsigned long long)(bus) << 8) | \
	 ((unsigned long long)(dev) << 3) | (unsigned long long)(fn))
#define P2PD_ADDR_DOMAIN(a)	((unsigned int)(((a) >> 16) & 0xffffffff))
#define P2PD_ADDR_BUS(a)	((unsigned int)(((a) >> 8) & 0xff))
#define P2PD_ADDR_DEV(a)	((unsigned int)(((a) >> 3) & 0x1f))
#define P2PD_ADDR_FN(a)		((unsigned int)((a) & 0x7))
#define P2PD_ADDR_DEVFN(a)	((unsigned int)((a) & 0xff))

/**
 * p2pd_parent_plausible() - whether @parent can be @addr's upstream bridge.
 * @addr: a function, P2PD_ADDR()
 * @parent: the bridge named as its parent, P2PD_ADDR()
 *
 * A bridge's secondary bus is above its own, so a parent sits on a lower
 * bus of the same domain and every chain of parents ends.
 *
 * Return: nonzero when it can.
 */
static inline int p2pd_parent_plausible(unsigned long long addr,
					unsigned long long parent)
{
	return P2PD_ADDR_DOMAIN(parent) == P2PD_ADDR_DOMAIN(addr) &&
	       P2PD_ADDR_BUS(parent) < P2PD_ADDR_BUS(addr);
}

#define P2PD_HOST_BRIDGE(dom, bus) \
	(((unsigned long long)(unsigned int)(dom) << 8) | \
	 (unsigned long long)(bus))
#define P2PD_HOST_BRIDGE_DOMAIN(h)	((unsigned int)(((h) >> 8) & 0xffffffff))
#define P2PD_HOST_BRIDGE_BUS(h)		((unsigned int)((h) & 0xff))
/*
 * A kernel release as one number, ordered like the kernel's
 * KERNEL_VERSION(): 6.12.95 is P2PD_RELEASE(6, 12, 95).  A sublevel above
 * 255 is given as 255, as LINUX_VERSION_CODE caps it.  0: not known.
 */
#define P2PD_RELEASE(major, minor, sub) \
	(((unsigned int)(major) << 16) | ((unsigned int)(minor) << 8) | \
	 (unsigned int)(sub))
#define P2PD_RELEASE_MAJOR(r)	((r) >> 16)
#define P2PD_RELEASE_MINOR(r)	(((r) >> 8) & 0xff)
#define P2PD_RELEASE_SUB(r)	((r) & 0xff)
#define P2PD_NO_INDEX		(-1)
/* The shared sources include no library header, so no NULL either. */
#define P2PD_NULL		((void *)0)

/* "ffffffff:bb:dd.f" (the widest domain) plus NUL. */
#define P2PD_ADDR_STRLEN	17
/* "ffffffff:bb" plus NUL. */
#define P2PD_HOST_BRIDGE_STRLEN	12

/* Port types and header kinds; the names are the ABI's role words. */
enum p2pd_role {
	P2PD_ROLE_ROOT_PORT,
	P2PD_ROLE_UPSTREAM_PORT,
	P2PD_ROLE_DOWNSTREAM_PORT,
	P2PD_ROLE_ENDPOINT,
	P2PD_ROLE_LEGACY_ENDPOINT,
	P2PD_ROLE_RC_ENDPOINT,
	P2PD_ROLE_RC_EVENT_COLLECTOR,
	P2PD_ROLE_PCIE_TO_PCI_BRIDGE,
	P2PD_ROLE_PCI_TO_PCIE_BRIDGE,
	P2PD_ROLE_PCI_BRIDGE,
	P2PD_ROLE_PCI_DEVICE,
	P2PD_ROLE_CARDBUS_BRIDGE,	/* header type 2 */
	P2PD_ROLE_COUNT
};

/* Whether an optional register set was read. */
enum p2pd_state {
	P2PD_ABSENT,	/* capability not present: "none" */
	P2PD_PRESENT,	/* read and decoded */
	P2PD_UNKNOWN,	/* read failed (removed device, all-ones): "unknown" */
	P2PD_SUSPENDED,	/* powered down, not woken, not read: "suspended" */
};

enum p2pd_iommu_domain {
	P2PD_IOMMU_NONE,	/* no IOMMU group */
	P2PD_IOMMU_TRANSLATED,	/* DMA or DMA-FQ default domain */
	P2PD_IOMMU_IDENTITY,	/* passthrough */
	P2PD_IOMMU_BLOCKED,
	P2PD_IOMMU_UNKNOWN,
	P2PD_IOMMU_COUNT
};

/* One PCIe link as seen from a function's own Link Status/Capabilities. */
struct p2pd_link {
	enum p2pd_state state;		/* ABSENT for non-PCIe functions */
	unsigned int speed;		/* current, in 0.1 GT/s (160 = 16.0) */
	unsigned int width;		/* current lanes */
	unsigned int max_speed;		/* capability, 0.1 GT/s */
	unsigned int max_width;
};

/* One PCI function. */
struct p2pd_function {
	unsigned long long addr;	/* P2PD_ADDR() */
	unsigned long long parent;	/* upstream bridge address if has_parent */
	int has_parent;			/* 0: on a root bus */
	unsigned long long host_bridge;	/* P2PD_HOST_BRIDGE() of its root bus */
	/*
	 * On a root bus: 1 when it heads the bus's device list, the one
	 * function the kernel's pci_host_bridge_dev() looks at.  When no
	 * function of a root bus says so, the lowest address stands in
	 * (the order of a boot-time scan).
	 */
	int root_bus_first;
	int has_physfn;			/* an SR-IOV virtual function: */
	unsigned long long physfn;	/* its physical function's address */
	int numa_node;			/* -1 unknown */
	unsigned int vendor;
	unsigned int device;
	unsigned int class_code;	/* 24 bits: base, sub, prog-if */
	enum p2pd_role role;		/* with link: whether it is PCIe (p2pd_is_pcie()) */

	enum p2pd_state acs;
	unsigned int acs_cap;
	unsigned int acs_ctrl;

	/*
	 * Address translation services, as the capabilities say; a VF's
	 * STU, PRI and PASID are its PF's (the PF's registers configure them).
	 */
	enum p2pd_state ats;		/* ABSENT: no ATS capability */
	int ats_enabled;
	unsigned int ats_stu;		/* Smallest Translation Unit: 4 KiB << stu */
	enum p2pd_state pri;		/* Page Request Interface */
	int pri_enabled;
	enum p2pd_state pasid;		/* Process Address Space ID */
	int pasid_enabled;
	unsigned int pasid_width;	/* Max PASID Width, bits */

	struct p2pd_link link;

	int iommu_group;		/* -1: none */
	enum p2pd_iommu_domain iommu_domain;

	int p2p_endpoint;		/* counts in pairs */
};

/* What the host CPU means for routing (the kernel's cpu_supports_p2pdma()). */
#define P2PD_CPU_AMD		0x1	/* vendor AuthenticAMD or HygonGenuine */
#define P2PD_CPU_ROUTES_P2P	0x2	/* AMD family >= 0x17: every host bridge routes P2P */

/*
 * A snapshot.  fn[] is sorted by addr (the engine looks functions up by
 * binary search) and owned by whoever filled it.
 */
struct p2pd_model {
	struct p2pd_function *fn;
	unsigned int nr_fn;
	unsigned int cpu_flags;
	/*
	 * P2PD_RELEASE() of the kernel whose rules apply (its host-bridge
	 * list); 0 when not known: then the newest list the engine has.
	 */
	unsigned int kernel_release;
	unsigned long generation;
	/*
	 * Optional, per function: the function that identifies its host
	 * bridge, as p2pd_host_index_fill() writes it, so that judging a
	 * pair does not scan fn[] for it; NULL: scanned for each pair.
	 */
	const int *host_index;
};

/**
 * p2pd_model_find() - index of the function at @addr, or P2PD_NO_INDEX.
 * @m: a model whose fn[] is sorted by address
 * @addr: P2PD_ADDR() of the function
 */
int p2pd_model_find(const struct p2pd_model *m, unsigned long long addr);

/**
 * p2pd_model_check() - check that a model is usable by the engine.
 * @m: the model
 *
 * Return: 0, or -1 when fn[] is not strictly sorted by address.
 */
int p2pd_model_check(const struct p2pd_model *m);

#endif /* P2PDIAG_MODEL_H */
