// SPDX-License-Identifier: GPL-2.0
/*
 * On request (the crosscheck module parameter), ask the kernel's own P2P
 * judge, pci_p2pdma_distance(), about every pair the engine judged and say
 * when the two disagree.  The engine mirrors it, so a difference means a
 * bug on one side or a kernel whose rules moved on.
 *
 * The call is not free of side effects: it stores its answer in the
 * provider's P2PDMA state (map_types), which drivers that publish P2P
 * memory own.  So it is opt-in, and a pair is only asked with a provider
 * that has no such state (either end may be the provider: the distance is
 * the same both ways); pairs where both ends have it are counted as
 * skipped.  Before 6.9 the call could allocate with GFP_KERNEL inside an
 * RCU read-side section, so there it is never made (compat.h).
 */
#include <linux/mm.h>
#include <linux/pci.h>
#include <linux/pci-p2pdma.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include <p2pdiag/verdict.h>
#include "compat.h"
#include "p2pdiag.h"

/* Enough to see the pattern without flooding the log on a big machine. */
#define P2PD_CROSSCHECK_MAX_REPORTS	8

/* The value pci_p2pdma_distance() returns for the engine's judgement. */
static int p2pd_expected_distance(const struct p2pd_pair *pair)
{
	return pair->map == P2PD_MAP_NOT_SUPPORTED ? -1 : pair->distance;
}

/*
 * One reference per P2P endpoint of @m, indexed like m->fn, taken in one
 * pass over the PCI devices (a lookup per pair would scan them all every
 * time).  A function that left since the walk stays NULL.
 */
static struct pci_dev **p2pd_get_endpoints(const struct p2pd_model *m)
{
	struct pci_dev **devs, *pdev = NULL;

	devs = kvcalloc(max(m->nr_fn, 1U), sizeof(*devs), GFP_KERNEL);
	if (!devs)
		return NULL;
	for_each_pci_dev(pdev) {
		int i;

		i = p2pd_model_find(m, p2pd_pci_addr(pdev));
		if (i != P2PD_NO_INDEX && m->fn[i].p2p_endpoint && !devs[i])
			devs[i] = pci_dev_get(pdev);
	}
	return devs;
}

static void p2pd_put_endpoints(const struct p2pd_model *m,
			       struct pci_dev **devs)
{
	unsigned int i;

	for (i = 0; i < m->nr_fn; i++)
		pci_dev_put(devs[i]);
	kvfree(devs);
}

/**
 * p2pd_crosscheck_p2pdma() - compare the engine with pci_p2pdma_distance().
 * @m: a model just walked
 *
 * Does nothing where the kernel has no P2PDMA or its pci_p2pdma_distance()
 * may sleep under RCU.  Holds a reference on every endpoint meanwhile, not
 * the PCI rescan/remove lock.
 *
 * Context: process context, may sleep.
 */
void p2pd_crosscheck_p2pdma(const struct p2pd_model *m)
{
	unsigned int checked = 0, skipped = 0, disagreements = 0;
	int a = P2PD_NO_INDEX, b = P2PD_NO_INDEX;
	struct pci_dev **devs;
	struct p2pd_pair *pair;

	if (!P2PD_HAVE_P2PDMA_CROSSCHECK)
		return;
	pair = kmalloc(sizeof(*pair), GFP_KERNEL);
	devs = p2pd_get_endpoints(m);
	if (!pair || !devs)
		goto free;

	while (p2pd_next_pair(m, &a, &b)) {
		struct pci_dev *provider = devs[a], *client = devs[b];
		int kernel_dist;

		if (!provider || !client || p2pd_judge(m, a, b, pair) ||
		    pair->verdict == P2PD_VERDICT_UNKNOWN)
			continue;
		if (p2pd_p2pdma_state(provider))
			swap(provider, client);
		if (p2pd_p2pdma_state(provider)) {
			skipped++;
			continue;
		}
		checked++;
		kernel_dist = pci_p2pdma_distance(provider, &client->dev,
						  false);
		if (kernel_dist != p2pd_expected_distance(pair) &&
		    disagreements++ < P2PD_CROSSCHECK_MAX_REPORTS)
			pr_warn("%s -> %s: pci_p2pdma_distance() says %d, the engine %d\n",
				pci_name(provider), pci_name(client),
				kernel_dist, p2pd_expected_distance(pair));
		cond_resched();
	}
	if (disagreements > P2PD_CROSSCHECK_MAX_REPORTS)
		pr_warn("%u pairs disagree with pci_p2pdma_distance()\n",
			disagreements);
	pr_debug("%u pairs checked against pci_p2pdma_distance() (%u skipped: P2PDMA state at both ends), %u disagree\n",
		 checked, skipped, disagreements);
free:
	if (devs)
		p2pd_put_endpoints(m, devs);
	kfree(pair);
}
