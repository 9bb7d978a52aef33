// SPDX-License-Identifier: GPL-2.0
/*
 * The p2pdiag verdict engine: for a pair of PCI functions in a snapshot
 * model, the path between them, the class nvidia-smi would give it, the map
 * type and distance the kernel's pci_p2pdma_distance() would compute, what
 * breaks the direct path, and the verdict.
 *
 * Freestanding C over include/p2pdiag/model.h: the same object code is
 * built into p2pdiag.ko and into p2pdiag-check, so the module and the tool
 * cannot disagree about a pair.  No allocation, no library calls.
 *
 * The map/distance rules follow drivers/pci/p2pdma.c
 * (upstream_bridge_distance(), renamed calc_map_type_and_dist() in 5.14),
 * the same from Linux 5.10 to 7.1; what changed is which root-bus device
 * the host-bridge test looks at and which devices its list holds, both
 * applied as of the model's kernel release (see below):
 *
 *        common upstream bridge (checked for ACS, counted once)
 *          /                       \
 *     bridge  (checked)           bridge  (checked)
 *        |                           |
 *        a    (checked itself)       b    (checked itself)
 *
 * A port "redirects" when its ACS Control has RR, CR or EC set.  A pair
 * with a common bridge and no redirecting port maps by bus address; any
 * other pair goes to the host-bridge test: an AMD Zen (family >= 0x17) CPU
 * passes, otherwise the device the kernel takes for each root bus's host
 * bridge must be on the kernel's whitelist.  That is map= and distance=,
 * the kernel's answer.
 *
 * verdict= and blockers= are p2pdiag's own judgement on top of it: for a
 * pair without a common bridge the kernel weighs no ACS at all, but a root
 * port with RR or CR set makes the root complex send peer requests
 * through its IOMMU, so p2pdiag names such root-bus ports as blockers
 * (and an unreadable one leaves the verdict unknown) while map= stays
 * what the kernel says.
 */
#include "p2pdiag/verdict.h"
#include "uapi/p2pdiag/abi.h"
#include "p2pdiag/decode.h"
#include "p2pdiag/vendor_ids.h"

#define ANY_DEVICE		0xffffffffu

/*
 * The releases of drivers/pci/p2pdma.c whose host-bridge rules differ,
 * each the first mainline release with the change:
 *
 *   5.4   the list; Intel's Sandy Bridge-EP and Haswell-EP host bridges
 *         route only a pair on one host bridge (REQ_SAME_HOST_BRIDGE)
 *   5.6   Skylake-E's host bridge 2020 and root port A 2030
 *   5.7   Skylake-E's root ports B to D
 *   5.9   any AMD CPU of family 0x17 (Zen) or later routes P2P across
 *         host bridges (cpu_supports_p2pdma()); AMD's list entries go
 *   5.14  the root bus's device is the head of its list, taken only at
 *         devfn 00.0; before, pci_get_slot() found 00.0 wherever it was
 *   5.18  Ice Lake-SP's 09a2, which every Xeon since shows first
 *   5.19  a root port heading the list is taken at any devfn
 *   7.1   Google's devices, any id
 *   7.2   Intel's DSA, IAA and QAT root buses, also taken into 7.1.3 (the
 *         one stable series that has them)
 *   7.3   NVIDIA's CPUs
 *   7.4   the batch queued after 7.3-rc1: Zhaoxin's CPUs, and Intel's
 *         Haswell client (8086:0c08) and Xeon E3/E5/E7 v4 (8086:6f00) host
 *         bridges, both on one host bridge only; also Alibaba's T-HEAD
 *         Yitian 710, left out here because its root-bus device id is not
 *         known: a guessed id would be a verdict without grounds, and so
 *         would "not listed", so from 7.4 an unlisted Alibaba root bus
 *         leaves the verdict unknown (P2PD_MISSING_LIST)
 *
 * Each release is the one whose merge window took the change into
 * p2pdma.c, not the one its patch was first posted for; the 7.4 batch is
 * what the PCI tree queued for that merge window.
 *
 * p2pdiag supports kernels from 5.10 (the oldest the module is built and
 * tested on), so an older release is judged as 5.10 judges, and one newer
 * than the last list known as that list.  A stable series that took an
 * entry early is judged from the point release that took it (backport);
 * others (the 5.14 lookup was offered to older series) by their mainline
 * release.
 */
#define SINCE_5_4		P2PD_RELEASE(5, 4, 0)
#define SINCE_5_6		P2PD_RELEASE(5, 6, 0)
#define SINCE_5_7		P2PD_RELEASE(5, 7, 0)
#define SINCE_5_18		P2PD_RELEASE(5, 18, 0)
#define SINCE_7_1		P2PD_RELEASE(7, 1, 0)
#define SINCE_7_2		P2PD_RELEASE(7, 2, 0)
#define SINCE_7_3		P2PD_RELEASE(7, 3, 0)
#define SINCE_7_4		P2PD_RELEASE(7, 4, 0)
#define STABLE_7_1_3		P2PD_RELEASE(7, 1, 3)
#define HEAD_OF_LIST_SINCE	P2PD_RELEASE(5, 14, 0)
#define ROOT_PORT_HEAD_SINCE	P2PD_RELEASE(5, 19, 0)
#define OLDEST_SUPPORTED	P2PD_RELEASE(5, 10, 0)
#define NEWEST_LIST		SINCE_7_4

/* The kernel's pci_p2pdma_whitelist, each entry with its first release. */
static const struct host_bridge_entry {
	unsigned int vendor;
	unsigned int device;
	int same_host_bridge;	/* REQ_SAME_HOST_BRIDGE */
	unsigned int since;	/* P2PD_RELEASE() that added it */
	unsigned int backport;	/* its stable series' first point release, or 0 */
} host_bridge_whitelist[] = {
	/* Intel Xeon E5 / Core i7 (Sandy Bridge-EP) */
	{ P2PD_VENDOR_INTEL, 0x3c00, 1, SINCE_5_4, 0 },
	{ P2PD_VENDOR_INTEL, 0x3c01, 1, SINCE_5_4, 0 },
	/* Intel Xeon E7 v3 / E5 v3 (Haswell-EP) */
	{ P2PD_VENDOR_INTEL, 0x2f00, 1, SINCE_5_4, 0 },
	{ P2PD_VENDOR_INTEL, 0x2f01, 1, SINCE_5_4, 0 },
	/* Intel Skylake-E: the host bridge and root ports A to D */
	{ P2PD_VENDOR_INTEL, 0x2030, 0, SINCE_5_6, 0 },
	{ P2PD_VENDOR_INTEL, 0x2031, 0, SINCE_5_7, 0 },
	{ P2PD_VENDOR_INTEL, 0x2032, 0, SINCE_5_7, 0 },
	{ P2PD_VENDOR_INTEL, 0x2033, 0, SINCE_5_7, 0 },
	{ P2PD_VENDOR_INTEL, 0x2020, 0, SINCE_5_6, 0 },
	/* Intel Ice Lake-SP, and every Xeon since */
	{ P2PD_VENDOR_INTEL, 0x09a2, 0, SINCE_5_18, 0 },
	/* Intel DSA, IAA and QAT accelerators on their own root buses */
	{ P2PD_VENDOR_INTEL, 0x0b25, 0, SINCE_7_2, STABLE_7_1_3 },
	{ P2PD_VENDOR_INTEL, 0x0cfe, 0, SINCE_7_2, STABLE_7_1_3 },
	{ P2PD_VENDOR_INTEL, 0x11fb, 0, SINCE_7_2, STABLE_7_1_3 },
	{ P2PD_VENDOR_INTEL, 0x1212, 0, SINCE_7_2, STABLE_7_1_3 },
	{ P2PD_VENDOR_INTEL, 0x1216, 0, SINCE_7_2, STABLE_7_1_3 },
	{ P2PD_VENDOR_INTEL, 0x4940, 0, SINCE_7_2, STABLE_7_1_3 },
	{ P2PD_VENDOR_INTEL, 0x4942, 0, SINCE_7_2, STABLE_7_1_3 },
	{ P2PD_VENDOR_INTEL, 0x4944, 0, SINCE_7_2, STABLE_7_1_3 },
	{ P2PD_VENDOR_INTEL, 0x4946, 0, SINCE_7_2, STABLE_7_1_3 },
	{ P2PD_VENDOR_INTEL, 0x4948, 0, SINCE_7_2, STABLE_7_1_3 },
	/* Google SoCs: the host-bridge meaning of 0x1ae0 (vendor_ids.h) */
	{ P2PD_VENDOR_GOOGLE, ANY_DEVICE, 0, SINCE_7_1, 0 },
	/* NVIDIA CPUs */
	{ P2PD_VENDOR_NVIDIA, 0x2f95, 0, SINCE_7_3, 0 },
	{ P2PD_VENDOR_NVIDIA, 0x2f96, 0, SINCE_7_3, 0 },
	{ P2PD_VENDOR_NVIDIA, 0x2f97, 0, SINCE_7_3, 0 },
	{ P2PD_VENDOR_NVIDIA, 0x2f98, 0, SINCE_7_3, 0 },
	/* Zhaoxin KX-6000, KH-40000, KX-6000G, KX-7000, KH-50000 */
	{ P2PD_VENDOR_ZHAOXIN, 0x1003, 1, SINCE_7_4, 0 },
	{ P2PD_VENDOR_ZHAOXIN, 0x1005, 1, SINCE_7_4, 0 },
	{ P2PD_VENDOR_ZHAOXIN, 0x1006, 1, SINCE_7_4, 0 },
	{ P2PD_VENDOR_ZHAOXIN, 0x1007, 1, SINCE_7_4, 0 },
	{ P2PD_VENDOR_ZHAOXIN, 0x1008, 0, SINCE_7_4, 0 },
	/* Intel Haswell client (Xeon E3-1200 v3 / Core) */
	{ P2PD_VENDOR_INTEL, 0x0c08, 1, SINCE_7_4, 0 },
	/* Intel Xeon E3 v4 / E5 v4 / E7 v4 (Broadwell) */
	{ P2PD_VENDOR_INTEL, 0x6f00, 1, SINCE_7_4, 0 },
	/* Alibaba T-HEAD Yitian 710: id not known here (see above) */
};

/*
 * Whether kernel @release's list may hold @host_fn by an id the table
 * above lacks: an Alibaba root bus from 7.4, the release that lists
 * Yitian 710.
 */
static int host_bridge_entry_unknown(const struct p2pd_model *m, int host_fn)
{
	if (host_fn == P2PD_NO_INDEX)
		return 0;
	return m->fn[host_fn].vendor == P2PD_VENDOR_ALIBABA &&
	       p2pd_whitelist_release(m) >= SINCE_7_4;
}

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

int p2pd_next_pair(const struct p2pd_model *m, int *a, int *b)
{
	int n = (int)m->nr_fn;
	int i = *a, j = *b;

	if (i == P2PD_NO_INDEX) {
		i = -1;
		j = n;
	}
	for (;;) {
		/* advance b within a's row, else move a on */
		for (j = j + 1; i >= 0 && j < n; j++)
			if (m->fn[j].p2p_endpoint)
				break;
		if (i >= 0 && j < n)
			break;
		for (i = i + 1; i < n; i++)
			if (m->fn[i].p2p_endpoint)
				break;
		if (i >= n)
			return 0;
		j = i;
	}
	*a = i;
	*b = j;
	return 1;
}

unsigned long p2pd_count_pairs(const struct p2pd_model *m)
{
	unsigned long n = 0;
	unsigned int i;

	for (i = 0; i < m->nr_fn; i++)
		n += m->fn[i].p2p_endpoint ? 1 : 0;
	return n < 2 ? 0 : n * (n - 1) / 2;
}

/*
 * Collect @idx and its upstream bridges into @chain, nearest first.
 * Returns the length; sets @missing when the chain is cut short.
 */
static unsigned int upstream_chain(const struct p2pd_model *m, int idx,
				   int *chain, unsigned int *missing)
{
	unsigned int len = 0;

	while (idx != P2PD_NO_INDEX) {
		const struct p2pd_function *f = &m->fn[idx];

		if (len == P2PD_MAX_DEPTH) {
			*missing |= P2PD_MISSING_DEPTH;
			break;
		}
		chain[len++] = idx;
		/*
		 * The kernel walks through a CardBus bridge like any other
		 * (map= and distance= stay its answer), but what a CardBus
		 * slot does to peer traffic is not p2pdiag's to say.
		 */
		if (len > 1 && f->role == P2PD_ROLE_CARDBUS_BRIDGE)
			*missing |= P2PD_MISSING_BRIDGE;
		if (!f->has_parent)
			break;
		idx = p2pd_model_find(m, f->parent);
		if (idx == P2PD_NO_INDEX)
			*missing |= P2PD_MISSING_PARENT;
	}
	return len;
}

/* The kernel's pci_bridge_has_acs_redir(), on the snapshot's values. */
static unsigned int acs_redirect_bits(const struct p2pd_function *f)
{
	if (f->acs != P2PD_PRESENT)
		return 0;
	return f->acs_ctrl & P2PD_ACS_REDIRECT_MASK;
}

/*
 * The function the kernel's host-bridge test looks at for a root bus, as
 * of the model's release.  From 5.14, pci_host_bridge_dev(): the first device
 * in the root bus's list, taken when it is devfn 00.0 or (from 5.19) a
 * root port.  The walk marks which one heads the list (root_bus_first);
 * without a mark the lowest address does, which is the order of a
 * boot-time scan (devfn ascending, each device appended as found).
 * Before 5.14, pci_get_slot(bus, 00.0): the function at devfn 00.0
 * wherever it is in the list.  So before 5.19 a root bus that starts with
 * a root port at another devfn (Skylake-E's 2031-2033 with port A absent,
 * VMD's buses) has no function on the list.
 *
 * Behind Intel VMD nothing else changes: the vmd driver makes a root bus
 * of its own (pci_create_root_bus(), in a domain from 0x10000 up), so
 * pci_find_host_bridge() of a function behind it stops at that bus, not
 * at the VMD endpoint's, and the test takes that bus's head, one of the
 * root ports VMD took over.  A pair with one end behind VMD and the other
 * outside it has two host bridges, each judged without
 * REQ_SAME_HOST_BRIDGE: a root port on no list (Ice Lake's and later
 * ones) makes it not_supported; Skylake-SP's root ports 2030-2033 are on
 * the list, so there such a pair is thru_host_bridge (from 5.19, or with
 * port A at 00.0).  The host-bridge key carries the whole domain, so
 * VMD's bus never merges with domain 0's bus of the same number.
 */
static int host_bridge_function(const struct p2pd_model *m,
				unsigned long long host_bridge, int *root_bus_empty)
{
	unsigned int release = p2pd_whitelist_release(m);
	int first = P2PD_NO_INDEX, slot_zero = P2PD_NO_INDEX, marked = 0;
	unsigned int i;

	for (i = 0; i < m->nr_fn; i++) {
		const struct p2pd_function *f = &m->fn[i];

		if (f->has_parent || f->host_bridge != host_bridge)
			continue;
		if (P2PD_ADDR_DEVFN(f->addr) == 0 && slot_zero == P2PD_NO_INDEX)
			slot_zero = (int)i;
		if (first == P2PD_NO_INDEX || (f->root_bus_first && !marked))
			first = (int)i;
		marked |= f->root_bus_first;
	}
	*root_bus_empty = first == P2PD_NO_INDEX;
	if (first == P2PD_NO_INDEX)
		return P2PD_NO_INDEX;
	if (release < HEAD_OF_LIST_SINCE)
		return slot_zero;
	if (P2PD_ADDR_DEVFN(m->fn[first].addr) == 0 ||
	    (release >= ROOT_PORT_HEAD_SINCE &&
	     m->fn[first].role == P2PD_ROLE_ROOT_PORT))
		return first;
	return P2PD_NO_INDEX;
}

/* host_index values besides a function's index */
#define HOST_INDEX_EMPTY	(-2)	/* no function on the root bus */
#define HOST_INDEX_UNSET	(-3)	/* being filled */

void p2pd_host_index_fill(const struct p2pd_model *m, int *index)
{
	unsigned int i, j;

	for (i = 0; i < m->nr_fn; i++)
		index[i] = HOST_INDEX_UNSET;
	for (i = 0; i < m->nr_fn; i++) {
		unsigned long long hb = m->fn[i].host_bridge;
		int empty, host;

		if (index[i] != HOST_INDEX_UNSET)
			continue;
		host = host_bridge_function(m, hb, &empty);
		for (j = i; j < m->nr_fn; j++)
			if (m->fn[j].host_bridge == hb)
				index[j] = empty ? HOST_INDEX_EMPTY : host;
	}
}

/* host_bridge_function() of function @fn's host bridge, indexed or not. */
static int host_bridge_function_of(const struct p2pd_model *m, int fn,
				   int *root_bus_empty)
{
	int host;

	if (!m->host_index)
		return host_bridge_function(m, m->fn[fn].host_bridge,
					    root_bus_empty);
	host = m->host_index[fn];
	*root_bus_empty = host == HOST_INDEX_EMPTY;
	return host < 0 ? P2PD_NO_INDEX : host;
}

unsigned int p2pd_whitelist_release(const struct p2pd_model *m)
{
	if (!m->kernel_release || m->kernel_release > NEWEST_LIST)
		return NEWEST_LIST;
	if (m->kernel_release < OLDEST_SUPPORTED)
		return OLDEST_SUPPORTED;
	return m->kernel_release;
}

/*
 * Whether kernel @release's list has @e: from its mainline release, or
 * from its backport's point release within that stable series.
 */
static int entry_in_release(const struct host_bridge_entry *e,
			    unsigned int release)
{
	if (e->since <= release)
		return 1;
	return e->backport && release >= e->backport &&
	       P2PD_RELEASE_MAJOR(release) == P2PD_RELEASE_MAJOR(e->backport) &&
	       P2PD_RELEASE_MINOR(release) == P2PD_RELEASE_MINOR(e->backport);
}

static int host_bridge_listed(const struct p2pd_model *m, int host_fn,
			      int same_host_bridge)
{
	unsigned int release = p2pd_whitelist_release(m);
	const struct p2pd_function *f;
	unsigned int i;

	if (host_fn == P2PD_NO_INDEX)
		return 0;
	f = &m->fn[host_fn];
	for (i = 0; i < ARRAY_LEN(host_bridge_whitelist); i++) {
		const struct host_bridge_entry *e = &host_bridge_whitelist[i];

		if (!entry_in_release(e, release) || f->vendor != e->vendor)
			continue;
		if (e->device != ANY_DEVICE && f->device != e->device)
			continue;
		return !e->same_host_bridge || same_host_bridge;
	}
	return 0;
}

/*
 * Weigh the link above @idx (see link.c: taken once, from below, at the
 * lower of its two ends' capabilities).
 */
static void consider_link(const struct p2pd_model *m, int idx,
			  struct p2pd_pair *p, unsigned long *best)
{
	struct p2pd_link l;
	unsigned long rate;

	if (!p2pd_link_above(m, idx, &l) || !l.speed || !l.width)
		return;
	if ((l.max_speed && l.speed < l.max_speed) ||
	    (l.max_width && l.width < l.max_width))
		p->degraded = 1;
	rate = p2pd_link_rate(l.speed, l.width);
	if (p->bottleneck_fn == P2PD_NO_INDEX || rate < *best) {
		*best = rate;
		p->bottleneck = l;
		p->bottleneck_fn = idx;
	}
}

static unsigned int count_nvidia_gpus(const struct p2pd_model *m)
{
	unsigned int i, n = 0;

	for (i = 0; i < m->nr_fn; i++)
		n += p2pd_is_nvidia_gpu(&m->fn[i]) ? 1 : 0;
	return n;
}

/* Switches on the path: each has one upstream port; PCI bridges count too. */
static unsigned int switches_on_path(const struct p2pd_model *m,
				     const struct p2pd_pair *p)
{
	unsigned int i, n = 0;

	for (i = 0; i < p->path_len; i++) {
		switch (m->fn[p->path[i]].role) {
		case P2PD_ROLE_UPSTREAM_PORT:
		case P2PD_ROLE_PCI_BRIDGE:
		case P2PD_ROLE_PCIE_TO_PCI_BRIDGE:
		case P2PD_ROLE_PCI_TO_PCIE_BRIDGE:
			n++;
			break;
		default:
			break;
		}
	}
	return n;
}

static enum p2pd_class pair_class(const struct p2pd_model *m,
				  const struct p2pd_pair *p)
{
	const struct p2pd_function *fa = &m->fn[p->a], *fb = &m->fn[p->b];

	switch (p->common_kind) {
	case P2PD_COMMON_BRIDGE:
		return switches_on_path(m, p) <= 1 ? P2PD_CLASS_PIX :
						     P2PD_CLASS_PXB;
	case P2PD_COMMON_HOST:
		return P2PD_CLASS_PHB;
	default:
		return fa->numa_node == fb->numa_node ? P2PD_CLASS_NODE :
							P2PD_CLASS_SYS;
	}
}

/* NCCL's default P2P level: PXB, or SYS on AMD with at most two GPUs. */
static int nccl_would_use_p2p(const struct p2pd_model *m,
			      const struct p2pd_pair *p)
{
	const struct p2pd_function *fa = &m->fn[p->a], *fb = &m->fn[p->b];
	int gpu_a = p2pd_is_nvidia_gpu(fa), gpu_b = p2pd_is_nvidia_gpu(fb);

	if (!gpu_a && !gpu_b)
		return 0;
	if (p->cls <= P2PD_CLASS_PXB)
		return 1;
	return gpu_a && gpu_b && (m->cpu_flags & P2PD_CPU_AMD) &&
	       count_nvidia_gpus(m) <= 2;
}

static void add_blocker(const struct p2pd_model *m, int idx,
			struct p2pd_pair *p, unsigned int *dt_all)
{
	const struct p2pd_function *f = &m->fn[idx];

	/* Unread (unknown or suspended): what it would do is not known. */
	if (f->acs != P2PD_PRESENT && f->acs != P2PD_ABSENT) {
		p->missing |= P2PD_MISSING_ACS;
		return;
	}
	if (!acs_redirect_bits(f))
		return;
	if (p->nr_blockers < P2PD_MAX_PATH)
		p->blocker[p->nr_blockers++] = idx;
	if (!(f->acs_ctrl & P2PD_ACS_DT))
		*dt_all = 0;
}

/*
 * One host bridge for both ends is judged once, as the a side's, with the
 * list's same-host-bridge entries; two are judged each on its own, and the
 * pair routes only where neither blocks.  On a CPU that routes P2P (AMD
 * Zen) none blocks.
 */
int p2pd_host_bridge_blocks(const struct p2pd_model *m,
			    const struct p2pd_pair *p, int side)
{
	int same = m->fn[p->a].host_bridge == m->fn[p->b].host_bridge;

	if (m->cpu_flags & P2PD_CPU_ROUTES_P2P)
		return 0;
	if (same)
		return !side && !host_bridge_listed(m, p->host_fn, 1);
	return !host_bridge_listed(m, side ? p->host_fn_b : p->host_fn, 0);
}

static void judge_host_bridge(const struct p2pd_model *m, struct p2pd_pair *p)
{
	const struct p2pd_function *fa = &m->fn[p->a], *fb = &m->fn[p->b];
	int same = fa->host_bridge == fb->host_bridge;
	int empty_a, empty_b = 0, routes;

	p->host_fn = host_bridge_function_of(m, p->a, &empty_a);
	if (!same)
		p->host_fn_b = host_bridge_function_of(m, p->b, &empty_b);
	if (empty_a || empty_b)
		p->missing |= P2PD_MISSING_HOST;

	routes = !p2pd_host_bridge_blocks(m, p, 0) &&
		 !p2pd_host_bridge_blocks(m, p, 1);
	if ((p2pd_host_bridge_blocks(m, p, 0) &&
	     host_bridge_entry_unknown(m, p->host_fn)) ||
	    (p2pd_host_bridge_blocks(m, p, 1) &&
	     host_bridge_entry_unknown(m, p->host_fn_b)))
		p->missing |= P2PD_MISSING_LIST;

	p->map = routes ? P2PD_MAP_THRU_HOST_BRIDGE : P2PD_MAP_NOT_SUPPORTED;
	p->host_blocks = !routes;
}

/* A virtual function's physical function's address, else its own. */
static unsigned long long device_function(const struct p2pd_function *f)
{
	return f->has_physfn ? f->physfn : f->addr;
}

/*
 * Whether two functions belong to one device.  A root or downstream port's
 * link has one device at its far end, so every function below the same
 * such port is part of it, whatever its device number: with ARI a device's
 * functions spread over device numbers 0 to 31, and its virtual functions
 * may sit on the next bus numbers too.  Elsewhere (a root bus, a
 * conventional PCI bus) the slot decides, a virtual function taking its
 * physical function's.
 */
static int same_device(const struct p2pd_model *m,
		       const struct p2pd_function *fa,
		       const struct p2pd_function *fb)
{
	if (fa->has_parent && fb->has_parent && fa->parent == fb->parent) {
		int up = p2pd_model_find(m, fa->parent);
		enum p2pd_role role;

		if (up != P2PD_NO_INDEX) {
			role = m->fn[up].role;
			if (role == P2PD_ROLE_ROOT_PORT ||
			    role == P2PD_ROLE_DOWNSTREAM_PORT)
				return 1;
		}
	}
	if (fa->has_parent != fb->has_parent ||
	    (fa->has_parent && fa->parent != fb->parent) ||
	    fa->host_bridge != fb->host_bridge)
		return 0;
	return (device_function(fa) & ~7u) == (device_function(fb) & ~7u);
}

/*
 * The notes that name the two functions themselves, not their path:
 * p2pd_derive_member_pair() derives them anew for every member pair of a
 * group pair, so a rule here that reads more of a function than
 * p2pd_judge_inputs_cmp() compares stays exact.
 */
static unsigned int pair_own_notes(const struct p2pd_model *m,
				   const struct p2pd_function *fa,
				   const struct p2pd_function *fb)
{
	unsigned int notes = 0;

	if (fa->iommu_domain == P2PD_IOMMU_TRANSLATED)
		notes |= P2PD_NOTE_IOMMU_A;
	if (fb->iommu_domain == P2PD_IOMMU_TRANSLATED)
		notes |= P2PD_NOTE_IOMMU_B;
	if (fa->ats == P2PD_PRESENT && fa->ats_enabled)
		notes |= P2PD_NOTE_ATS_A;
	if (fb->ats == P2PD_PRESENT && fb->ats_enabled)
		notes |= P2PD_NOTE_ATS_B;
	if (same_device(m, fa, fb))
		notes |= P2PD_NOTE_SAME_DEVICE;
	return notes;
}

static void fill_notes(const struct p2pd_model *m, struct p2pd_pair *p,
		       unsigned int dt_all)
{
	p->notes = pair_own_notes(m, &m->fn[p->a], &m->fn[p->b]);
	if (p->nr_blockers && dt_all)
		p->notes |= P2PD_NOTE_DIRECT_TRANS;
}

static enum p2pd_verdict pair_verdict(const struct p2pd_pair *p)
{
	if (p->missing)
		return P2PD_VERDICT_UNKNOWN;
	if (p->map == P2PD_MAP_NOT_SUPPORTED)
		return P2PD_VERDICT_BLOCKED;
	if (p->nr_blockers)
		return P2PD_VERDICT_REDIRECTED;
	if (p->map == P2PD_MAP_THRU_HOST_BRIDGE)
		return P2PD_VERDICT_HOST;
	return P2PD_VERDICT_OK;
}

/* upstream_chain()'s reasons for a chain that stops short of a root bus */
#define P2PD_CHAIN_CUT	(P2PD_MISSING_PARENT | P2PD_MISSING_DEPTH)

/* The upstream chains of a pair's two ends, each from the end upwards. */
struct pair_chains {
	int a[P2PD_MAX_DEPTH], b[P2PD_MAX_DEPTH];
	unsigned int len_a, len_b;
};

/*
 * The lowest common upstream bridge, nearest to a first, as the kernel
 * looks for it: 1 with its places in the two chains in *@ia and *@jb,
 * 0 when the chains share none.
 */
static int common_bridge(const struct pair_chains *c, unsigned int *ia,
			 unsigned int *jb)
{
	unsigned int i, j;

	for (i = 0; i < c->len_a; i++)
		for (j = 0; j < c->len_b; j++)
			if (c->a[i] == c->b[j]) {
				*ia = i;
				*jb = j;
				return 1;
			}
	return 0;
}

/*
 * The path meets at the common bridge c->a[i] (c->b[j]): a's side up to
 * and including it may redirect, b's side below it; the links below it
 * carry the traffic.
 */
static void meet_at_bridge(const struct p2pd_model *m, struct p2pd_pair *p,
			   const struct pair_chains *c, unsigned int i,
			   unsigned int j, unsigned int *dt_all,
			   unsigned long *best)
{
	unsigned int k;

	p->common_kind = P2PD_COMMON_BRIDGE;
	p->common = c->a[i];
	p->distance = (int)(i + j);
	for (k = 1; k <= i; k++)
		p->path[p->path_len++] = c->a[k];
	for (k = j; k-- > 1;)
		p->path[p->path_len++] = c->b[k];
	for (k = 0; k <= i; k++)
		add_blocker(m, c->a[k], p, dt_all);
	for (k = 0; k < j; k++)
		add_blocker(m, c->b[k], p, dt_all);
	for (k = 0; k < i; k++)
		consider_link(m, c->a[k], p, best);
	for (k = 0; k < j; k++)
		consider_link(m, c->b[k], p, best);
}

/*
 * No common bridge: the path runs up both chains to their tops; every
 * link of the two chains is on it.
 */
static void join_chains(const struct p2pd_model *m, struct p2pd_pair *p,
			const struct pair_chains *c, unsigned long *best)
{
	unsigned int k;

	for (k = 1; k < c->len_a; k++)
		p->path[p->path_len++] = c->a[k];
	for (k = c->len_b; k-- > 1;)
		p->path[p->path_len++] = c->b[k];
	for (k = 0; k < c->len_a; k++)
		consider_link(m, c->a[k], p, best);
	for (k = 0; k < c->len_b; k++)
		consider_link(m, c->b[k], p, best);
}

/*
 * A chain stops short of its root bus: the kernel, whose tree has every
 * bridge, may still meet one above the gap, or reach the root bus and
 * test the host bridge; which, and after how many hops, the snapshot
 * does not say.  The top of a cut chain is no root-bus port, so no
 * blocker is named either.
 */
static void meet_unknown(const struct p2pd_model *m, struct p2pd_pair *p,
			 const struct pair_chains *c, unsigned long *best)
{
	p->common_kind = P2PD_COMMON_UNKNOWN;
	p->cls = P2PD_CLASS_UNKNOWN;
	p->map = P2PD_MAP_UNKNOWN;
	p->distance = P2PD_DISTANCE_UNKNOWN;
	join_chains(m, p, c, best);
}

/*
 * Both chains reach their root buses without meeting.  The kernel does
 * not weigh ACS here: the traffic leaves every switch upwards anyway, so
 * a switch port's redirect changes nothing.  Only the ports on the root
 * buses matter: with RR/CR set there the root complex must send peer
 * requests through its IOMMU instead of routing them.
 */
static void meet_above_root_buses(const struct p2pd_model *m,
				  struct p2pd_pair *p,
				  const struct pair_chains *c,
				  unsigned int *dt_all, unsigned long *best)
{
	p->common_kind = m->fn[p->a].host_bridge == m->fn[p->b].host_bridge ?
			 P2PD_COMMON_HOST : P2PD_COMMON_NONE;
	p->distance = (int)(c->len_a + c->len_b);
	join_chains(m, p, c, best);
	if (c->len_a)
		add_blocker(m, c->a[c->len_a - 1], p, dt_all);
	if (c->len_b)
		add_blocker(m, c->b[c->len_b - 1], p, dt_all);
}

/*
 * The map, class and NCCL level of a path whose meeting is known.  An
 * unreadable ACS control reads as all-ones in the kernel
 * (PCI_SET_ERROR_RESPONSE), which has RR, CR and EC set: there it
 * redirects, so the map goes to the host-bridge test as well.  A cut
 * path's class, map and distance stay unknown, and no NCCL level is
 * claimed for it.
 */
static void judge_path(const struct p2pd_model *m, struct p2pd_pair *p,
		       int at_bridge)
{
	if (p->common_kind == P2PD_COMMON_UNKNOWN)
		return;
	if (at_bridge && !p->nr_blockers && !(p->missing & P2PD_MISSING_ACS))
		p->map = P2PD_MAP_BUS_ADDR;
	else
		judge_host_bridge(m, p);
	p->cls = pair_class(m, p);
	p->nccl_p2p = nccl_would_use_p2p(m, p);
}

int p2pd_judge(const struct p2pd_model *m, int a, int b, struct p2pd_pair *p)
{
	struct pair_chains c;
	unsigned int i = 0, j = 0, dt_all = 1, cut = 0;
	unsigned long best = 0;
	int at_bridge;

	if (a < 0 || b < 0 || a == b || (unsigned int)a >= m->nr_fn ||
	    (unsigned int)b >= m->nr_fn)
		return -1;

	*p = (struct p2pd_pair){ 0 };
	p->a = a;
	p->b = b;
	p->common = P2PD_NO_INDEX;
	p->host_fn = P2PD_NO_INDEX;
	p->host_fn_b = P2PD_NO_INDEX;
	p->bottleneck_fn = P2PD_NO_INDEX;

	c.len_a = upstream_chain(m, a, c.a, &cut);
	c.len_b = upstream_chain(m, b, c.b, &cut);
	p->missing |= cut;

	at_bridge = common_bridge(&c, &i, &j);
	if (at_bridge)
		meet_at_bridge(m, p, &c, i, j, &dt_all, &best);
	else if (cut & P2PD_CHAIN_CUT)
		meet_unknown(m, p, &c, &best);
	else
		meet_above_root_buses(m, p, &c, &dt_all, &best);
	judge_path(m, p, at_bridge);
	fill_notes(m, p, dt_all);
	p->verdict = pair_verdict(p);
	return 0;
}

#define NR_JUDGE_INPUTS	18

/* What p2pd_judge() reads of an endpoint, in one row of numbers. */
static void judge_inputs(const struct p2pd_function *f,
			 unsigned long long v[NR_JUDGE_INPUTS])
{
	unsigned int n = 0;

	/* where it hangs: its upstream chain, root bus and NUMA node */
	v[n++] = (unsigned int)f->has_parent;
	v[n++] = f->has_parent ? f->parent : 0;
	v[n++] = f->host_bridge;
	v[n++] = (unsigned int)f->numa_node;
	v[n++] = f->role;
	/* its own ACS: a blocker when it redirects (add_blocker) */
	v[n++] = f->acs;
	v[n++] = f->acs_cap;
	v[n++] = f->acs_ctrl;
	/* its own link, the first on the path (consider_link) */
	v[n++] = f->link.state;
	v[n++] = f->link.speed;
	v[n++] = f->link.width;
	v[n++] = f->link.max_speed;
	v[n++] = f->link.max_width;
	/* whether it is a GPU (nccl_would_use_p2p) */
	v[n++] = f->vendor;
	v[n++] = f->class_code;
	/*
	 * on a root bus, whether it can be the function the host-bridge
	 * test looks at (host_bridge_function), and what that test matches;
	 * below a bridge none of it is read, so a PF and its VFs, whose
	 * device IDs differ, still share a group
	 */
	v[n++] = (unsigned int)f->root_bus_first;
	v[n++] = !f->has_parent && !P2PD_ADDR_DEVFN(f->addr);
	v[n++] = f->has_parent ? 0 : f->device;
}

int p2pd_judge_inputs_cmp(const struct p2pd_function *x,
			  const struct p2pd_function *y)
{
	unsigned long long vx[NR_JUDGE_INPUTS], vy[NR_JUDGE_INPUTS];
	unsigned int i;

	judge_inputs(x, vx);
	judge_inputs(y, vy);
	for (i = 0; i < NR_JUDGE_INPUTS; i++)
		if (vx[i] != vy[i])
			return vx[i] < vy[i] ? -1 : 1;
	return 0;
}

/* @idx as it stands in a judgement of @from_a, @from_b, for @to_a, @to_b. */
static int member_index(int idx, int from_a, int from_b, int to_a, int to_b)
{
	if (idx == from_a)
		return to_a;
	if (idx == from_b)
		return to_b;
	return idx;
}

int p2pd_derive_member_pair(const struct p2pd_model *m,
			    const struct p2pd_pair *rep, int a, int b,
			    struct p2pd_pair *out)
{
	int ra = rep->a, rb = rep->b;
	unsigned int i;

	if (a < 0 || b < 0 || a == b || (unsigned int)a >= m->nr_fn ||
	    (unsigned int)b >= m->nr_fn)
		return -1;
	if (out != rep)
		*out = *rep;
	out->a = a;
	out->b = b;
	/* an endpoint is in its own judgement as a blocker or bottleneck */
	for (i = 0; i < out->path_len; i++)
		out->path[i] = member_index(out->path[i], ra, rb, a, b);
	for (i = 0; i < out->nr_blockers; i++)
		out->blocker[i] = member_index(out->blocker[i], ra, rb, a, b);
	out->common = member_index(out->common, ra, rb, a, b);
	out->host_fn = member_index(out->host_fn, ra, rb, a, b);
	out->host_fn_b = member_index(out->host_fn_b, ra, rb, a, b);
	out->bottleneck_fn = member_index(out->bottleneck_fn, ra, rb, a, b);
	out->notes = (rep->notes & P2PD_NOTE_DIRECT_TRANS) |
		     pair_own_notes(m, &m->fn[a], &m->fn[b]);
	return 0;
}
