// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's pair decision, written plainly from its rules (see
 * kernel_oracle.h).  Only facts are taken from the kernel: which registers
 * count, the walk order, the distance arithmetic, the whitelist entries.
 */
#include "uapi/p2pdiag/abi.h"
#include "kernel_oracle.h"

/*
 * drivers/pci/p2pdma.c's pci_p2pdma_whitelist by release: vendor, device
 * (0x10000: any), needs both ends on one host bridge, the first mainline
 * release whose list has it, and the stable point release that took it
 * into an older series (0: none).  Where each release comes from:
 * kmod/engine/verdict.c's history above its table.
 */
#define ANY 0x10000u
#define R(a, b) P2PD_RELEASE(a, b, 0)
#define S713 P2PD_RELEASE(7, 1, 3)
static const struct {
	unsigned int vendor, device;
	int same_only;
	unsigned int since, stable;
} whitelist[] = {
	{ 0x8086, 0x3c00, 1, R(5, 4), 0 }, { 0x8086, 0x3c01, 1, R(5, 4), 0 },
	{ 0x8086, 0x2f00, 1, R(5, 4), 0 }, { 0x8086, 0x2f01, 1, R(5, 4), 0 },
	{ 0x8086, 0x2030, 0, R(5, 6), 0 }, { 0x8086, 0x2020, 0, R(5, 6), 0 },
	{ 0x8086, 0x2031, 0, R(5, 7), 0 }, { 0x8086, 0x2032, 0, R(5, 7), 0 },
	{ 0x8086, 0x2033, 0, R(5, 7), 0 }, { 0x8086, 0x09a2, 0, R(5, 18), 0 },
	{ 0x1ae0, ANY, 0, R(7, 1), 0 },
	/* 7.2, and 7.1.3: DSA SPR0, IAX SPR0, DSA GNRD, DSA DMR, IAA DMR, QAT x5 */
	{ 0x8086, 0x0b25, 0, R(7, 2), S713 }, { 0x8086, 0x0cfe, 0, R(7, 2), S713 },
	{ 0x8086, 0x11fb, 0, R(7, 2), S713 }, { 0x8086, 0x1212, 0, R(7, 2), S713 },
	{ 0x8086, 0x1216, 0, R(7, 2), S713 }, { 0x8086, 0x4940, 0, R(7, 2), S713 },
	{ 0x8086, 0x4942, 0, R(7, 2), S713 }, { 0x8086, 0x4944, 0, R(7, 2), S713 },
	{ 0x8086, 0x4946, 0, R(7, 2), S713 }, { 0x8086, 0x4948, 0, R(7, 2), S713 },
	/* 7.3: NVIDIA CPUs */
	{ 0x10de, 0x2f95, 0, R(7, 3), 0 }, { 0x10de, 0x2f96, 0, R(7, 3), 0 },
	{ 0x10de, 0x2f97, 0, R(7, 3), 0 }, { 0x10de, 0x2f98, 0, R(7, 3), 0 },
	/* 7.4: Zhaoxin, Haswell client, Xeon v4 (Yitian 710: id not known) */
	{ 0x1d17, 0x1003, 1, R(7, 4), 0 }, { 0x1d17, 0x1005, 1, R(7, 4), 0 },
	{ 0x1d17, 0x1006, 1, R(7, 4), 0 }, { 0x1d17, 0x1007, 1, R(7, 4), 0 },
	{ 0x1d17, 0x1008, 0, R(7, 4), 0 },
	{ 0x8086, 0x0c08, 1, R(7, 4), 0 }, { 0x8086, 0x6f00, 1, R(7, 4), 0 },
};

static int listed_in(unsigned int i, unsigned int release)
{
	unsigned int st = whitelist[i].stable;

	if (whitelist[i].since <= release)
		return 1;
	/* the same stable series (major.minor), from the point release on */
	return st && release >= st && (release >> 8) == (st >> 8);
}

int oracle_whitelisted(unsigned int release, unsigned int vendor,
		       unsigned int device, int same_host_bridge)
{
	unsigned int i;

	/* not known: the newest list; before 5.10 (not supported): 5.10's */
	if (!release)
		release = ~0u;
	if (release < R(5, 10))
		release = R(5, 10);
	for (i = 0; i < sizeof(whitelist) / sizeof(whitelist[0]); i++)
		if (listed_in(i, release) && whitelist[i].vendor == vendor &&
		    (whitelist[i].device == ANY ||
		     whitelist[i].device == device))
			return !whitelist[i].same_only || same_host_bridge;
	return 0;
}

/* pci_upstream_bridge(): -1 on a root bus; -2 when the parent is missing */
static int upstream(const struct p2pd_model *m, int i)
{
	int p;

	if (!m->fn[i].has_parent)
		return -1;
	p = p2pd_model_find(m, m->fn[i].parent);
	return p == P2PD_NO_INDEX ? -2 : p;
}

/*
 * pci_bridge_has_acs_redir().  A port that does not answer reads as
 * all-ones (pci_read_config_word() sets PCI_SET_ERROR_RESPONSE), and
 * all-ones has RR, CR and EC set: to the kernel it redirects.
 */
static int redirects(const struct p2pd_function *f, int *unreadable)
{
	if (f->acs == P2PD_UNKNOWN) {
		*unreadable = 1;
		return 1;
	}
	return f->acs == P2PD_PRESENT &&
	       (f->acs_ctrl & (P2PD_ACS_RR | P2PD_ACS_CR | P2PD_ACS_EC));
}

/*
 * The root-bus device the kernel of @release matches against its list.
 * 5.14 on, pci_host_bridge_dev(): the device heading the root bus's list
 * (the one marked root_bus_first; unmarked, a boot-time scan's order:
 * lowest devfn), used only when it is 00.0 or, from 5.19, a root port.
 * Before 5.14, pci_get_slot(bus, 00.0): devfn 00.0 wherever it is.
 */
static int root_bus_device(const struct p2pd_model *m, unsigned long long hb)
{
	unsigned int release = m->kernel_release ? m->kernel_release : ~0u;
	int head = -1, lowest = -1, zero = -1;
	unsigned int i;

	for (i = 0; i < m->nr_fn; i++) {
		const struct p2pd_function *f = &m->fn[i];

		if (f->has_parent || f->host_bridge != hb)
			continue;
		if (f->root_bus_first && head < 0)
			head = (int)i;
		if (lowest < 0 || f->addr < m->fn[lowest].addr)
			lowest = (int)i;
		if ((f->addr & 0xff) == 0)
			zero = (int)i;
	}
	if (release < R(5, 14))
		return zero;
	if (head < 0)
		head = lowest;
	if (head < 0)
		return -1;
	if ((m->fn[head].addr & 0xff) == 0 ||
	    (release >= R(5, 19) && m->fn[head].role == P2PD_ROLE_ROOT_PORT))
		return head;
	return -1;
}

static int host_listed(const struct p2pd_model *m, unsigned long long hb, int same)
{
	int r = root_bus_device(m, hb);

	return r >= 0 && oracle_whitelisted(m->kernel_release, m->fn[r].vendor,
					    m->fn[r].device, same);
}

enum p2pd_map oracle_map(const struct p2pd_model *m, int provider, int client,
			 int *dist, int *usable, int *unreadable)
{
	int a = provider, bb, dist_a = 0, dist_b = 0, redirect = 0, r;
	int common = 0, routes;

	*usable = 1;
	*unreadable = 0;
	while (a >= 0) {
		dist_b = 0;
		r = redirects(&m->fn[a], unreadable);
		redirect |= r;
		for (bb = client; bb >= 0; bb = upstream(m, bb), dist_b++) {
			if (bb == a) {
				common = 1;
				break;
			}
		}
		if (bb == -2)
			*usable = 0;
		if (common)
			break;
		a = upstream(m, a);
		dist_a++;
	}
	if (a == -2)
		*usable = 0;
	*dist = dist_a + dist_b;

	if (common) {
		/* the client's side, below the common bridge */
		for (bb = client; bb != a; bb = upstream(m, bb)) {
			r = redirects(&m->fn[bb], unreadable);
			redirect |= r;
		}
		if (!redirect)
			return P2PD_MAP_BUS_ADDR;
	}
	if (!common && *usable) {
		/*
		 * The kernel ignores ACS here; p2pdiag weighs only the
		 * root-bus functions (the engine's own rule), so only their
		 * unreadable controls leave the answer open.
		 */
		int top;

		*unreadable = 0;
		for (top = provider; upstream(m, top) >= 0;)
			top = upstream(m, top);
		redirects(&m->fn[top], unreadable);
		for (top = client; upstream(m, top) >= 0;)
			top = upstream(m, top);
		redirects(&m->fn[top], unreadable);
	}
	/* no common bridge, or ACS sends it up: the host bridge decides */
	routes = !oracle_host_bridge_blocks(m, provider, client, 0) &&
		 !oracle_host_bridge_blocks(m, provider, client, 1);
	return routes ? P2PD_MAP_THRU_HOST_BRIDGE : P2PD_MAP_NOT_SUPPORTED;
}

int oracle_host_bridge_blocks(const struct p2pd_model *m, int a, int b,
			      int side)
{
	unsigned long long hb_a = m->fn[a].host_bridge;
	unsigned long long hb_b = m->fn[b].host_bridge;

	if (m->cpu_flags & P2PD_CPU_ROUTES_P2P)
		return 0;
	/* one host bridge: the kernel asks once, with the same-bridge rule */
	if (hb_a == hb_b)
		return !side && !host_listed(m, hb_a, 1);
	return !host_listed(m, side ? hb_b : hb_a, 0);
}
