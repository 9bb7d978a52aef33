/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The verdict engine's interface: a snapshot model in, one judgement per
 * unordered pair of P2P endpoints out.  The same source
 * (kmod/engine/verdict.c) is built into the kernel module and into
 * p2pdiag-check.
 */
#ifndef P2PDIAG_VERDICT_H
#define P2PDIAG_VERDICT_H

#include "model.h"

/* nvidia-smi topo -m / NVML common-ancestor levels, nearest first. */
enum p2pd_class {
	P2PD_CLASS_PIX,		/* at most one PCIe switch */
	P2PD_CLASS_PXB,		/* several switches, no host bridge */
	P2PD_CLASS_PHB,		/* through one host bridge */
	P2PD_CLASS_NODE,	/* between host bridges of one NUMA node */
	P2PD_CLASS_SYS,		/* across NUMA nodes */
	P2PD_CLASS_UNKNOWN,	/* the path leaves the snapshot (missing parent) */
	P2PD_CLASS_COUNT
};

/*
 * The kernel's enum pci_p2pdma_map_type, as pci_p2pdma_distance() decides.
 * UNKNOWN: the snapshot does not hold the path the kernel would walk (a
 * parent missing from it), so what the kernel decides cannot be said.
 */
enum p2pd_map {
	P2PD_MAP_BUS_ADDR,
	P2PD_MAP_THRU_HOST_BRIDGE,
	P2PD_MAP_NOT_SUPPORTED,
	P2PD_MAP_UNKNOWN,
	P2PD_MAP_COUNT
};

enum p2pd_verdict {
	P2PD_VERDICT_OK,	 /* direct through switches, nothing redirects */
	P2PD_VERDICT_HOST,	 /* through a host bridge that routes P2P */
	P2PD_VERDICT_REDIRECTED, /* ACS sends it up to a root complex that routes P2P */
	P2PD_VERDICT_BLOCKED,	 /* nothing on the way routes it: expect failure */
	P2PD_VERDICT_UNKNOWN,	 /* see p2pd_pair.missing */
	P2PD_VERDICT_COUNT
};

enum p2pd_common {
	P2PD_COMMON_BRIDGE,	/* a bridge above both: p2pd_pair.common */
	P2PD_COMMON_HOST,	/* same root bus, different root ports */
	P2PD_COMMON_NONE,	/* different host bridges */
	P2PD_COMMON_UNKNOWN,	/* no common bridge in a snapshot that lacks a parent */
	P2PD_COMMON_COUNT
};

/* p2pd_pair.distance when the map is P2PD_MAP_UNKNOWN */
#define P2PD_DISTANCE_UNKNOWN	(-1)

/* p2pd_pair.notes */
#define P2PD_NOTE_IOMMU_A	0x01	/* a sits in a translated IOMMU domain */
#define P2PD_NOTE_IOMMU_B	0x02
#define P2PD_NOTE_ATS_A		0x04	/* ATS enabled on a */
#define P2PD_NOTE_ATS_B		0x08
#define P2PD_NOTE_DIRECT_TRANS	0x10	/* every redirecting port has DirectTrans+ */
#define P2PD_NOTE_SAME_DEVICE	0x20	/* two functions of one device */

/* p2pd_pair.missing: why the verdict is unknown */
#define P2PD_MISSING_ACS	0x01	/* a port's ACS control could not be read */
#define P2PD_MISSING_PARENT	0x02	/* an upstream bridge is not in the snapshot */
#define P2PD_MISSING_HOST	0x04	/* the root bus has no function to identify it */
#define P2PD_MISSING_DEPTH	0x08	/* the hierarchy is deeper than P2PD_MAX_DEPTH */
#define P2PD_MISSING_BRIDGE	0x10	/* an upstream bridge p2pdiag does not model (CardBus) */
/* the kernel's list may name the host bridge by an id not known here */
#define P2PD_MISSING_LIST	0x20

#define P2PD_MAX_DEPTH		32
#define P2PD_MAX_PATH		(2 * P2PD_MAX_DEPTH)

/* The judgement of one unordered pair.  Indices refer to model->fn[]. */
struct p2pd_pair {
	int a, b;
	/* bridges from a up to the common point and down to b (a, b excluded) */
	int path[P2PD_MAX_PATH];
	unsigned int path_len;
	enum p2pd_common common_kind;
	int common;			/* index, P2PD_NO_INDEX unless BRIDGE */
	enum p2pd_class cls;
	enum p2pd_map map;
	int distance;			/* pci_p2pdma_distance() hops, or UNKNOWN */
	/*
	 * functions whose ACS control redirects (RR, CR or EC), in the
	 * kernel's walk order: a's side upwards, then b's side upwards
	 */
	int blocker[P2PD_MAX_PATH];
	unsigned int nr_blockers;
	int host_blocks;		/* the host-bridge test failed */
	int host_fn;			/* first function of a's root bus, or NO_INDEX */
	int host_fn_b;			/* the same for b when on another root bus */
	struct p2pd_link bottleneck;	/* slowest link on the path */
	int bottleneck_fn;		/* whose link it is, or NO_INDEX */
	int degraded;			/* some link on the path is below its max */
	int nccl_p2p;
	unsigned int notes;		/* P2PD_NOTE_* */
	enum p2pd_verdict verdict;
	unsigned int missing;		/* P2PD_MISSING_* */
};

/**
 * p2pd_next_pair() - step through the unordered pairs of P2P endpoints.
 * @m: the model
 * @a: in/out: start with P2PD_NO_INDEX
 * @b: in/out
 *
 * Return: 1 with the next pair in *a < *b, 0 when there are no more.
 */
int p2pd_next_pair(const struct p2pd_model *m, int *a, int *b);

/**
 * p2pd_count_pairs() - number of unordered pairs of P2P endpoints.
 * @m: the model
 */
unsigned long p2pd_count_pairs(const struct p2pd_model *m);

/**
 * p2pd_judge() - judge one pair of functions.
 * @m: the model
 * @a: index of one function
 * @b: index of the other, a != b
 * @out: the judgement
 *
 * Return: 0, or -1 when an index is out of range or a == b.
 */
int p2pd_judge(const struct p2pd_model *m, int a, int b, struct p2pd_pair *out);

/**
 * p2pd_judge_inputs_cmp() - compare what p2pd_judge() reads of two
 * endpoints, apart from what p2pd_derive_member_pair() derives per pair.
 * @x: one function
 * @y: another
 *
 * Equal (0) means: for any peer z that is neither's upstream bridge, the
 * pairs (x, z) and (y, z) are judged alike (endpoint_groups.h).  A change
 * to p2pd_judge() that reads another field of an endpoint must compare it
 * here.
 *
 * Return: <0, 0 or >0, a total order.
 */
int p2pd_judge_inputs_cmp(const struct p2pd_function *x,
			  const struct p2pd_function *y);

/**
 * p2pd_derive_member_pair() - p2pd_judge(@m, @a, @b) from the judgement of
 * another pair whose ends compare equal to @a's and @b's, in that order.
 * @m: the model
 * @rep: the judged pair; p2pd_judge_inputs_cmp(rep->a, @a) and
 *	 (rep->b, @b) are 0, and no end of either pair is upstream of another
 * @a: one function
 * @b: the other
 * @out: the judgement; may be @rep
 *
 * Return: 0, or -1 when an index is out of range or @a == @b.
 */
int p2pd_derive_member_pair(const struct p2pd_model *m,
			    const struct p2pd_pair *rep, int a, int b,
			    struct p2pd_pair *out);

/**
 * p2pd_host_bridge_blocks() - whether @p's host bridge on @side (0: a's,
 *	1: b's) does not route its P2P; @p->host_blocks is either side's.
 * @m: the model
 * @p: a pair judged by p2pd_judge() or p2pd_derive_member_pair()
 * @side: 0 or 1; side 1 of a pair with one host bridge is 0
 *
 * Return: 1 when that host bridge blocks the pair, else 0.
 */
int p2pd_host_bridge_blocks(const struct p2pd_model *m,
			    const struct p2pd_pair *p, int side);

/**
 * p2pd_whitelist_release() - the kernel release whose host-bridge rules
 *	(its list, and which root-bus device it looks at) judge @m: its
 *	kernel_release; the newest release the engine knows when that is 0
 *	(not known) or newer still; 5.10, the oldest p2pdiag supports, for
 *	anything older.
 * @m: the model
 *
 * Return: a P2PD_RELEASE() value.
 */
unsigned int p2pd_whitelist_release(const struct p2pd_model *m);

/* Names used in the ABI and the reports; NULL when out of range. */
const char *p2pd_role_name(enum p2pd_role role);
const char *p2pd_class_name(enum p2pd_class cls);
const char *p2pd_map_name(enum p2pd_map map);
/* "host", "none" or "unknown"; NULL for P2PD_COMMON_BRIDGE (an address) */
const char *p2pd_common_name(enum p2pd_common common);
const char *p2pd_verdict_name(enum p2pd_verdict verdict);
const char *p2pd_iommu_domain_name(enum p2pd_iommu_domain domain);

/**
 * p2pd_host_index_fill() - for each function of @m, the function that
 * identifies its host bridge (the one the kernel's host-bridge list is
 * matched against), for p2pd_model.host_index.
 * @m: the model
 * @index: @m->nr_fn ints, written
 *
 * Each distinct host bridge is looked up once: O(host bridges x
 * functions), against one lookup per pair without it.  The index holds
 * only while fn[] does not change.
 */
void p2pd_host_index_fill(const struct p2pd_model *m, int *index);

#endif /* P2PDIAG_VERDICT_H */
