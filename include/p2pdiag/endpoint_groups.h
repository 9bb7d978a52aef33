/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Endpoint groups: P2P endpoints whose pairs are judged alike.
 *
 * A server with SR-IOV has thousands of virtual functions, and a VF's
 * pairs equal its PF's and its sibling VFs' pairs with the same peer: the
 * judgement reads of an endpoint only where it hangs (its upstream bridge)
 * and a few values of its own (p2pd_judge_inputs_cmp()).  Endpoints equal
 * in all of those form one group, and the pairs of two groups (a member of
 * each, or two members of one) need one judgement, p2pd_judge_group_pair(),
 * which p2pd_judge_member() turns into any one of its member pairs
 * exactly.  What differs between the member pairs of one group pair is
 * re-derived per pair there: the notes that name the two functions
 * themselves (same device, their IOMMU domains and ATS).
 *
 * The module and p2pdiag-check both group with this code, so a grouped
 * pairs file means the same to both.  No allocation: the caller passes
 * arrays of P2PD_GROUP_INTS_PER_FN * nr_fn ints.
 */
#ifndef P2PDIAG_ENDPOINT_GROUPS_H
#define P2PDIAG_ENDPOINT_GROUPS_H

#include "model.h"
#include "verdict.h"

/* ints of storage per function that p2pd_groups_attach() carves up */
#define P2PD_GROUP_INTS_PER_FN	4

struct p2pd_groups {
	/* per function: its group, P2PD_NO_INDEX when not a P2P endpoint */
	int *group_of;
	/* per function: the next member of its group by address, or NO_INDEX */
	int *next;
	/* per group: its first member (the lowest address); groups sorted by it */
	int *first;
	/* per group: its number of members */
	int *size;
	unsigned int nr;
	unsigned int nr_fn;		/* the model's, when grouped */
};

/**
 * p2pd_groups_attach() - point @g's arrays into @storage.
 * @g: the groups
 * @storage: P2PD_GROUP_INTS_PER_FN * @nr_fn ints
 * @nr_fn: the model's number of functions
 */
void p2pd_groups_attach(struct p2pd_groups *g, int *storage, unsigned int nr_fn);

/**
 * p2pd_group_endpoints() - sort the P2P endpoints of @m into groups.
 * @m: the model (checked with p2pd_model_check())
 * @g: attached storage for @m->nr_fn functions
 *
 * Two endpoints share a group when p2pd_judge_inputs_cmp() finds them
 * equal and neither is referenced by another pair's judgement (an upstream
 * bridge of some function, or a function on a root bus, which may identify
 * a host bridge) nor a GPU (measured pair by pair): those stay alone.
 * O(n log n), no allocation.
 *
 * Return: 0, or -1 when @g was attached for another number of functions.
 */
int p2pd_group_endpoints(const struct p2pd_model *m, struct p2pd_groups *g);

/**
 * p2pd_next_group_pair() - step through the pairs of groups that hold
 * pairs of endpoints: every two groups, and a group with itself when it
 * has two members or more.
 * @g: the groups
 * @ga: in/out: start with P2PD_NO_INDEX
 * @gb: in/out, *ga <= *gb
 *
 * Return: 1 with the next group pair, 0 when there are no more.
 */
int p2pd_next_group_pair(const struct p2pd_groups *g, int *ga, int *gb);

/**
 * p2pd_group_pair_count() - how many endpoint pairs a group pair stands for.
 * @g: the groups
 * @ga: one group
 * @gb: the other, or @ga
 */
unsigned long p2pd_group_pair_count(const struct p2pd_groups *g, int ga, int gb);

/**
 * p2pd_count_group_pairs() - the number of group pairs.
 * @g: the groups
 */
unsigned long p2pd_count_group_pairs(const struct p2pd_groups *g);

/**
 * p2pd_judge_group_pair() - judge the representative pair of two groups:
 * their first members, or a group's first two members.
 * @m: the model
 * @g: its groups
 * @ga: one group
 * @gb: the other, @ga <= @gb
 * @out: the judgement; out->a < out->b
 *
 * Return: 0, or -1 for a group pair that holds no pair.
 */
int p2pd_judge_group_pair(const struct p2pd_model *m, const struct p2pd_groups *g,
			  int ga, int gb, struct p2pd_pair *out);

/**
 * p2pd_judge_member() - the judgement of one member pair of a group pair.
 * @m: the model
 * @g: its groups
 * @rep: p2pd_judge_group_pair() of the groups of @a and @b
 * @a: one member
 * @b: a member of the other group (or of the same), @a < @b
 * @out: what p2pd_judge(@m, @a, @b) gives, field for field; may be @rep
 *	 (a member pair stands for its group pair as well as the first)
 *
 * Return: 0, or -1 when @a and @b are not members of @rep's groups.
 */
int p2pd_judge_member(const struct p2pd_model *m, const struct p2pd_groups *g,
		      const struct p2pd_pair *rep, int a, int b,
		      struct p2pd_pair *out);

#endif /* P2PDIAG_ENDPOINT_GROUPS_H */
