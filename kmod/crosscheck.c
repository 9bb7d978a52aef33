// SPDX-License-Identifier: GPL-2.0
/*
 * Where the kernel can judge P2P itself (CONFIG_PCI_P2PDMA), ask it about
 * every pair the engine judged and say when the two disagree.  The engine
 * mirrors pci_p2pdma_distance(), so a difference means a bug on one side or
 * a kernel whose rules moved on.
 */
#include <linux/pci.h>
#include <linux/pci-p2pdma.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include <p2pdiag/verdict.h>
#include "compat.h"
#include "p2pdiag.h"

/* Enough to see the pattern without flooding the log on a big machine. */
#define P2PD_CROSSCHECK_MAX_REPORTS	8

static struct pci_dev *p2pd_get_pci_dev(unsigned int addr)
{
	return pci_get_domain_bus_and_slot(P2PD_ADDR_DOMAIN(addr),
					   P2PD_ADDR_BUS(addr),
					   P2PD_ADDR_DEVFN(addr));
}

/* The value pci_p2pdma_distance() returns for the engine's judgement. */
static int p2pd_expected_distance(const struct p2pd_pair *pair)
{
	return pair->map == P2PD_MAP_NOT_SUPPORTED ? -1 : pair->distance;
}

/**
 * p2pd_crosscheck_p2pdma() - compare the engine with pci_p2pdma_distance().
 * @m: a model just walked
 *
 * Context: the caller holds the PCI rescan/remove lock, so the functions of
 * @m are still there.  Does nothing where the kernel has no P2PDMA.
 */
void p2pd_crosscheck_p2pdma(const struct p2pd_model *m)
{
	int a = P2PD_NO_INDEX, b = P2PD_NO_INDEX;
	unsigned int checked = 0, disagreements = 0;
	struct p2pd_pair *pair;

	if (!P2PD_HAVE_P2PDMA)
		return;
	pair = kmalloc(sizeof(*pair), GFP_KERNEL);
	if (!pair)
		return;

	while (p2pd_next_pair(m, &a, &b)) {
		struct pci_dev *pa, *pb;
		int kernel_dist;

		if (p2pd_judge(m, a, b, pair) ||
		    pair->verdict == P2PD_VERDICT_UNKNOWN)
			continue;
		pa = p2pd_get_pci_dev(m->fn[a].addr);
		pb = p2pd_get_pci_dev(m->fn[b].addr);
		if (pa && pb) {
			checked++;
			kernel_dist = pci_p2pdma_distance(pa, &pb->dev, false);
			if (kernel_dist != p2pd_expected_distance(pair) &&
			    disagreements++ < P2PD_CROSSCHECK_MAX_REPORTS)
				pr_warn("%s -> %s: pci_p2pdma_distance() says %d, the engine %d\n",
					pci_name(pa), pci_name(pb), kernel_dist,
					p2pd_expected_distance(pair));
		}
		pci_dev_put(pb);
		pci_dev_put(pa);
		cond_resched();
	}
	if (disagreements > P2PD_CROSSCHECK_MAX_REPORTS)
		pr_warn("%u pairs disagree with pci_p2pdma_distance()\n",
			disagreements);
	pr_debug("%u pairs checked against pci_p2pdma_distance(), %u disagree\n",
		 checked, disagreements);
	kfree(pair);
}
