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
 * that has no such state, under that provider's device lock (either end
 * may be the provider: the distance is the same both ways); pairs where
 * both ends have it, or a driver is binding, are counted as skipped.
 * Before 6.9 the call could allocate with GFP_KERNEL inside an RCU
 * read-side section, so there it is never made (compat.h).
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
 * A P2P endpoint of the model, held for the calls.  A VF's walk to the
 * root goes through its PF (pci_upstream_bridge() takes pci_physfn()),
 * and the VF's own reference on its PF is dropped when the VF is
 * removed, not when it is freed: a VF removed and a PF hot-removed
 * meanwhile would leave physfn dangling, so the PF is held too.
 */
struct p2pd_endpoint_ref {
	struct pci_dev *dev;
	struct pci_dev *pf;	/* dev's PF when dev is a VF, else NULL */
};

/*
 * One reference per P2P endpoint of @m, indexed like m->fn, taken in one
 * pass over the PCI devices (a lookup per pair would scan them all every
 * time).  A function that left since the walk stays NULL.
 */
static struct p2pd_endpoint_ref *p2pd_get_endpoints(const struct p2pd_model *m)
{
	struct p2pd_endpoint_ref *refs;
	struct pci_dev *pdev = NULL;

	refs = kvcalloc(max(m->nr_fn, 1U), sizeof(*refs), GFP_KERNEL);
	if (!refs)
		return NULL;
	/* A PF is hot-removed under this lock: its VF's physfn stays valid. */
	pci_lock_rescan_remove();
	for_each_pci_dev(pdev) {
		int i;

		i = p2pd_model_find(m, p2pd_pci_addr(pdev));
		if (i == P2PD_NO_INDEX || !m->fn[i].p2p_endpoint || refs[i].dev)
			continue;
		refs[i].dev = pci_dev_get(pdev);
		if (pdev->is_virtfn)
			refs[i].pf = pci_dev_get(pci_physfn(pdev));
		cond_resched();
	}
	pci_unlock_rescan_remove();
	return refs;
}

static void p2pd_put_endpoints(const struct p2pd_model *m,
			       struct p2pd_endpoint_ref *refs)
{
	unsigned int i;

	for (i = 0; i < m->nr_fn; i++) {
		pci_dev_put(refs[i].dev);
		pci_dev_put(refs[i].pf);
	}
	kvfree(refs);
}

/*
 * Pick the end of a pair to ask as the provider: one without P2PDMA
 * state.  Drivers set that state up in probe and it goes with their
 * unbind (a devres action), both under the device's lock, so the
 * provider's lock is held from the look until the call has returned and
 * state from a probe cannot appear in between; a device whose lock is
 * busy (a driver binding) is not waited for.  A driver that publishes its
 * memory later (nvme maps its CMB from its reset work) may still find
 * this pair's answer in its state: the value the kernel computes and
 * stores for that pair itself.
 *
 * Return: true with *@provider locked, *@provider and *@client in the
 * order to ask; false when neither end can be asked now.
 */
static bool p2pd_lock_provider(struct pci_dev **provider,
			       struct pci_dev **client)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (device_trylock(&(*provider)->dev)) {
			if (!p2pd_p2pdma_state(*provider))
				return true;
			device_unlock(&(*provider)->dev);
		}
		swap(*provider, *client);
	}
	return false;
}

/**
 * p2pd_crosscheck_p2pdma() - compare the engine with pci_p2pdma_distance().
 * @m: a model just walked
 *
 * Does nothing where the kernel has no P2PDMA or its pci_p2pdma_distance()
 * may sleep under RCU.  Holds a reference on every endpoint (and a VF's
 * PF) meanwhile, not the PCI rescan/remove lock, and the provider's device
 * lock for each call.
 *
 * Context: process context, may sleep.
 */
void p2pd_crosscheck_p2pdma(const struct p2pd_model *m)
{
	unsigned int checked = 0, skipped = 0, disagreements = 0;
	int a = P2PD_NO_INDEX, b = P2PD_NO_INDEX;
	struct p2pd_endpoint_ref *refs;
	struct p2pd_pair *pair;

	if (!P2PD_HAVE_P2PDMA_CROSSCHECK)
		return;
	pair = kmalloc(sizeof(*pair), GFP_KERNEL);
	refs = p2pd_get_endpoints(m);
	if (!pair || !refs)
		goto free;

	while (p2pd_next_pair(m, &a, &b)) {
		struct pci_dev *provider = refs[a].dev, *client = refs[b].dev;
		int kernel_dist;

		/* Millions of pairs on a large machine: every pass yields. */
		cond_resched();
		if (!provider || !client || p2pd_judge(m, a, b, pair) ||
		    pair->verdict == P2PD_VERDICT_UNKNOWN)
			continue;
		if (!p2pd_lock_provider(&provider, &client)) {
			skipped++;
			continue;
		}
		checked++;
		kernel_dist = pci_p2pdma_distance(provider, &client->dev,
						  false);
		device_unlock(&provider->dev);
		if (kernel_dist != p2pd_expected_distance(pair) &&
		    disagreements++ < P2PD_CROSSCHECK_MAX_REPORTS)
			pr_warn("%s -> %s: pci_p2pdma_distance() says %d, the engine %d\n",
				pci_name(provider), pci_name(client),
				kernel_dist, p2pd_expected_distance(pair));
	}
	if (disagreements > P2PD_CROSSCHECK_MAX_REPORTS)
		pr_warn("%u pairs disagree with pci_p2pdma_distance()\n",
			disagreements);
	pr_debug("%u pairs checked against pci_p2pdma_distance() (%u skipped: P2PDMA state or a driver binding at both ends), %u disagree\n",
		 checked, skipped, disagreements);
free:
	if (refs)
		p2pd_put_endpoints(m, refs);
	kfree(pair);
}
