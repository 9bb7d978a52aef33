// SPDX-License-Identifier: GPL-2.0
/*
 * The host-bridge list against the kernel's history: for each listed id,
 * on a small two-socket tree whose root buses begin with that id, the
 * engine's map for a pair on one host bridge and for a pair across two
 * must be the kernel's (the oracle's list, kernel_oracle.c) in every
 * release around the one that added it; and the releases that changed
 * (the 7.4 batch, Zhaoxin's, NVIDIA's and the DSA/IAA/QAT ids with their
 * 7.1.3 backport) are spelt out once more as plain cases, so that a table
 * and an oracle wrong the same way still fail.
 * Usage: test_host_bridge_list
 */
#include <stdio.h>
#include <string.h>

#include "kernel_oracle.h"
#include "ktap.h"

#define R(a, b, c) P2PD_RELEASE(a, b, c)

/*
 * 0000:00 and 0000:80, each with @dev at 00.0 (on bus 80 @dev80), root
 * ports 01.0 and 02.0 with an endpoint each on bus 00, one on bus 80.
 */
struct two_sockets {
	struct p2pd_function fn[8];
	struct p2pd_model m;
};

static void put(struct two_sockets *t, unsigned int bus, unsigned int dev,
		enum p2pd_role role, int parent_bus, unsigned int parent_dev,
		unsigned int vendor, unsigned int device)
{
	struct p2pd_function *f = &t->fn[t->m.nr_fn++];
	unsigned int root = bus < 0x80 ? 0 : 0x80;

	memset(f, 0, sizeof(*f));
	f->addr = P2PD_ADDR(0, bus, dev, 0);
	f->has_parent = parent_bus >= 0;
	if (f->has_parent)
		f->parent = P2PD_ADDR(0, (unsigned int)parent_bus, parent_dev, 0);
	f->host_bridge = P2PD_HOST_BRIDGE(0, root);
	f->numa_node = root ? 1 : 0;
	f->vendor = vendor;
	f->device = device;
	f->role = role;
	f->class_code = role == P2PD_ROLE_ENDPOINT ? 0x030200 :
			role == P2PD_ROLE_ROOT_PORT ? 0x060400 : 0x060000;
	f->acs = f->ats = f->pri = f->pasid = P2PD_ABSENT;
	f->iommu_group = -1;
	f->p2p_endpoint = role == P2PD_ROLE_ENDPOINT;
}

static void build(struct two_sockets *t, unsigned int vendor,
		  unsigned int dev, unsigned int dev80, unsigned int release)
{
	memset(t, 0, sizeof(*t));
	t->m.fn = t->fn;
	t->m.kernel_release = release;
	put(t, 0x00, 0, P2PD_ROLE_PCI_DEVICE, -1, 0, vendor, dev);
	put(t, 0x00, 1, P2PD_ROLE_ROOT_PORT, -1, 0, vendor, 0x0001);
	put(t, 0x00, 2, P2PD_ROLE_ROOT_PORT, -1, 0, vendor, 0x0002);
	put(t, 0x01, 0, P2PD_ROLE_ENDPOINT, 0x00, 1, 0x10de, 0x2330);
	put(t, 0x02, 0, P2PD_ROLE_ENDPOINT, 0x00, 2, 0x15b3, 0x101d);
	put(t, 0x80, 0, P2PD_ROLE_PCI_DEVICE, -1, 0, vendor, dev80);
	put(t, 0x80, 1, P2PD_ROLE_ROOT_PORT, -1, 0, vendor, 0x0001);
	put(t, 0x81, 0, P2PD_ROLE_ENDPOINT, 0x80, 1, 0x10de, 0x2330);
}

/* The engine's map for endpoints @a and @b (indices into the tree). */
static enum p2pd_map engine_map(const struct two_sockets *t, int a, int b)
{
	struct p2pd_pair p;

	if (p2pd_judge(&t->m, a, b, &p))
		return P2PD_MAP_UNKNOWN;
	return p.map;
}

/* The engine's verdict for endpoints @a and @b. */
static enum p2pd_verdict engine_verdict(const struct two_sockets *t, int a,
					int b)
{
	struct p2pd_pair p;

	if (p2pd_judge(&t->m, a, b, &p))
		return P2PD_VERDICT_UNKNOWN;
	return p.verdict;
}

#define EP_SAME_A	3	/* 01:00.0 */
#define EP_SAME_B	4	/* 02:00.0 */
#define EP_OTHER	7	/* 81:00.0 */

static const char *release_text(unsigned int r, char *buf, size_t len)
{
	if (!r)
		snprintf(buf, len, "unknown");
	else
		snprintf(buf, len, "%u.%u.%u", P2PD_RELEASE_MAJOR(r),
			 P2PD_RELEASE_MINOR(r), P2PD_RELEASE_SUB(r));
	return buf;
}

/* Engine and oracle agree on both pairs of @vendor:@dev at @release. */
static void against_oracle(struct ktap *k, unsigned int vendor,
			   unsigned int dev, unsigned int release)
{
	struct two_sockets t;
	char why[160], rel[24];
	int i, ok = 1;

	build(&t, vendor, dev, dev, release);
	for (i = 0; i < 2 && ok; i++) {
		int b = i ? EP_OTHER : EP_SAME_B, dist, usable, unreadable;
		enum p2pd_map want = oracle_map(&t.m, EP_SAME_A, b, &dist,
						&usable, &unreadable);
		enum p2pd_map got = engine_map(&t, EP_SAME_A, b);

		if (got != want) {
			snprintf(why, sizeof(why), "%s host bridge: engine %s, kernel %s",
				 i ? "across a" : "one", p2pd_map_name(got),
				 p2pd_map_name(want));
			ok = 0;
		}
	}
	ktap_result(k, ok, why, "%04x:%04x under %s as the kernel's list",
		    vendor, dev, release_text(release, rel, sizeof(rel)));
}

struct expect {
	const char *what;
	unsigned int vendor, dev, dev80, release;
	enum p2pd_map same, across;
};

#define THRU	P2PD_MAP_THRU_HOST_BRIDGE
#define NOT	P2PD_MAP_NOT_SUPPORTED

static const struct expect cases[] = {
	/* the 7.4 batch: same host bridge only, and not before 7.4 */
	{ "Xeon E5 v4 before its list", 0x8086, 0x6f00, 0x6f00, R(7, 3, 9), NOT, NOT },
	{ "Xeon E5 v4, same host bridge only", 0x8086, 0x6f00, 0x6f00, R(7, 4, 0), THRU, NOT },
	{ "Xeon E5 v4, release not known", 0x8086, 0x6f00, 0x6f00, 0, THRU, NOT },
	{ "Haswell client before its list", 0x8086, 0x0c08, 0x0c08, R(7, 3, 0), NOT, NOT },
	{ "Haswell client, same host bridge only", 0x8086, 0x0c08, 0x0c08, R(7, 4, 1), THRU, NOT },
	{ "Zhaoxin KH-40000 not in 7.2", 0x1d17, 0x1003, 0x1003, R(7, 2, 0), NOT, NOT },
	{ "Zhaoxin KH-40000 not in 7.3", 0x1d17, 0x1003, 0x1003, R(7, 3, 5), NOT, NOT },
	{ "Zhaoxin KH-40000, same host bridge only", 0x1d17, 0x1003, 0x1003, R(7, 4, 0), THRU, NOT },
	{ "Zhaoxin KH-50000 across host bridges", 0x1d17, 0x1008, 0x1008, R(7, 4, 0), THRU, THRU },
	/* one of a same-host-bridge-only kind and one listed without limit */
	{ "Xeon E5 v4 with Skylake-E", 0x8086, 0x6f00, 0x2020, R(7, 4, 0), THRU, NOT },
	{ "Haswell-EP with Xeon E5 v4, both limited", 0x8086, 0x2f00, 0x6f00, R(7, 4, 0), THRU, NOT },
	/* NVIDIA's CPUs in 7.3 */
	{ "NVIDIA CPU not in 7.2", 0x10de, 0x2f95, 0x2f95, R(7, 2, 9), NOT, NOT },
	{ "NVIDIA CPU in 7.3", 0x10de, 0x2f95, 0x2f95, R(7, 3, 0), THRU, THRU },
	/* DSA: 7.2, and 7.1.y from 7.1.3 */
	{ "DSA not in 7.1.0", 0x8086, 0x0b25, 0x0b25, R(7, 1, 0), NOT, NOT },
	{ "DSA not in 7.1.2", 0x8086, 0x0b25, 0x0b25, R(7, 1, 2), NOT, NOT },
	{ "DSA in 7.1.3", 0x8086, 0x0b25, 0x0b25, R(7, 1, 3), THRU, THRU },
	{ "DSA not in 7.0.40", 0x8086, 0x0b25, 0x0b25, R(7, 0, 40), NOT, NOT },
	{ "DSA in 7.2.0", 0x8086, 0x0b25, 0x0b25, R(7, 2, 0), THRU, THRU },
	/* Yitian 710's root complex: no id known, so the map is no list's */
	{ "an Alibaba root complex", 0x1ded, 0x8000, 0x8000, R(7, 4, 0), NOT, NOT },
};

/*
 * Verdicts where the map alone does not say it: from 7.4 (and on a kernel
 * of unknown release, judged by the newest list) the kernel lists Yitian
 * 710 by an id p2pdiag lacks, so an unlisted Alibaba root bus is unknown,
 * not blocked; before 7.4, and for any other unlisted vendor, blocked.
 */
static const struct expect_verdict {
	const char *what;
	unsigned int vendor, dev, release;
	enum p2pd_verdict same, across;
} verdict_cases[] = {
	{ "an Alibaba root complex before 7.4", 0x1ded, 0x8000, R(7, 3, 9),
	  P2PD_VERDICT_BLOCKED, P2PD_VERDICT_BLOCKED },
	{ "an Alibaba root complex in 7.4", 0x1ded, 0x8000, R(7, 4, 0),
	  P2PD_VERDICT_UNKNOWN, P2PD_VERDICT_UNKNOWN },
	{ "an Alibaba root complex, release not known", 0x1ded, 0x8000, 0,
	  P2PD_VERDICT_UNKNOWN, P2PD_VERDICT_UNKNOWN },
	{ "another unlisted root complex in 7.4", 0x1234, 0x8000, R(7, 4, 0),
	  P2PD_VERDICT_BLOCKED, P2PD_VERDICT_BLOCKED },
};

/* Ids on the kernel's list, each checked around its release. */
static const struct {
	unsigned int vendor, dev;
} ids[] = {
	{ 0x8086, 0x3c00 }, { 0x8086, 0x2f00 }, { 0x8086, 0x2030 },
	{ 0x8086, 0x2020 }, { 0x8086, 0x09a2 }, { 0x8086, 0x0b25 },
	{ 0x8086, 0x4948 }, { 0x1ae0, 0x0042 }, { 0x10de, 0x2f95 },
	{ 0x10de, 0x2f98 }, { 0x1d17, 0x1003 }, { 0x1d17, 0x1007 },
	{ 0x1d17, 0x1008 }, { 0x8086, 0x0c08 }, { 0x8086, 0x6f00 },
	{ 0x8086, 0x29c0 },
};

static const unsigned int releases[] = {
	0, R(5, 10, 0), R(6, 12, 95), R(7, 1, 0), R(7, 1, 2), R(7, 1, 3),
	R(7, 2, 0), R(7, 2, 9), R(7, 3, 0), R(7, 4, 0), R(8, 0, 0),
};

/* One case's result on its two pairs, named by what each gave and wanted. */
static void both_pairs(struct ktap *k, const char *what, int ok,
		       const char *same, const char *want_same,
		       const char *across, const char *want_across)
{
	char why[160];

	snprintf(why, sizeof(why), "one host bridge %s (want %s), across %s (want %s)",
		 same, want_same, across, want_across);
	ktap_result(k, ok, why, "%s", what);
}

int main(void)
{
	struct ktap k = { 0 };
	unsigned int i, j;

	ktap_start("host bridge list");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct expect *c = &cases[i];
		struct two_sockets t;
		enum p2pd_map same, across;

		build(&t, c->vendor, c->dev, c->dev80, c->release);
		same = engine_map(&t, EP_SAME_A, EP_SAME_B);
		across = engine_map(&t, EP_SAME_A, EP_OTHER);
		both_pairs(&k, c->what, same == c->same && across == c->across,
			   p2pd_map_name(same), p2pd_map_name(c->same),
			   p2pd_map_name(across), p2pd_map_name(c->across));
	}
	for (i = 0; i < sizeof(verdict_cases) / sizeof(verdict_cases[0]); i++) {
		const struct expect_verdict *c = &verdict_cases[i];
		struct two_sockets t;
		enum p2pd_verdict same, across;

		build(&t, c->vendor, c->dev, c->dev, c->release);
		same = engine_verdict(&t, EP_SAME_A, EP_SAME_B);
		across = engine_verdict(&t, EP_SAME_A, EP_OTHER);
		both_pairs(&k, c->what, same == c->same && across == c->across,
			   p2pd_verdict_name(same), p2pd_verdict_name(c->same),
			   p2pd_verdict_name(across), p2pd_verdict_name(c->across));
	}
	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		for (j = 0; j < sizeof(releases) / sizeof(releases[0]); j++)
			against_oracle(&k, ids[i].vendor, ids[i].dev, releases[j]);
	return ktap_finish(&k);
}
