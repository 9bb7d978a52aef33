// SPDX-License-Identifier: GPL-2.0
/*
 * p2pdiag: publish the live PCIe tree and a per-pair peer-to-peer verdict
 * in /sys/kernel/p2pdiag.  Read-only: it never writes config space.
 */
#include <linux/init.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>

#include <uapi/p2pdiag/abi.h>
#include "compat.h"
#include "p2pdiag.h"

static char *endpoints = "p2p";
module_param(endpoints, charp, 0444);
MODULE_PARM_DESC(endpoints,
		 "which endpoints are paired: \"p2p\" (display, network, NVMe, accelerators, co-processors; default) or \"all\"");

static bool crosscheck;
module_param(crosscheck, bool, 0444);
MODULE_PARM_DESC(crosscheck,
		 "after every rebuild, compare each pair with the kernel's pci_p2pdma_distance() (CONFIG_PCI_P2PDMA, kernel 6.9 or later; default off: the kernel caches every answer in the provider's P2PDMA state)");

static unsigned long pairs_max_bytes = P2PD_PAIRS_MAX_BYTES_DEFAULT;
module_param(pairs_max_bytes, ulong, 0444);
MODULE_PARM_DESC(pairs_max_bytes,
		 "the most bytes the grouped pairs file may take, 4096 to 1073741824 (default 16 MiB); past it the file says status=limit-exceeded and devices/<addr>/pairs still hold every function's pairs");

static int __init p2pd_init(void)
{
	bool all_endpoints;
	int ret;

	if (crosscheck && !P2PD_HAVE_P2PDMA_CROSSCHECK) {
		/* The parameter file then tells what the module does. */
		pr_warn("crosscheck=1 ignored: this kernel has no P2PDMA, or its pci_p2pdma_distance() may sleep under RCU (before 6.9)\n");
		crosscheck = false;
	}

	if (!strcmp(endpoints, "all")) {
		all_endpoints = true;
	} else if (!strcmp(endpoints, "p2p")) {
		all_endpoints = false;
	} else {
		pr_err("endpoints=%s: expected \"p2p\" or \"all\"\n", endpoints);
		return -EINVAL;
	}

	if (pairs_max_bytes < P2PD_PAIRS_MAX_BYTES_MIN ||
	    pairs_max_bytes > P2PD_PAIRS_MAX_BYTES_MAX) {
		pr_err("pairs_max_bytes=%lu: expected %lu to %lu\n",
		       pairs_max_bytes, P2PD_PAIRS_MAX_BYTES_MIN,
		       P2PD_PAIRS_MAX_BYTES_MAX);
		return -EINVAL;
	}

	ret = p2pd_sysfs_init();
	if (ret)
		return ret;
	ret = p2pd_snapshot_init(all_endpoints, crosscheck, pairs_max_bytes);
	if (ret)
		goto sysfs_exit;
	ret = p2pd_sysfs_publish();
	if (ret)
		goto snapshot_exit;
	pr_info("ABI %d at %s\n", P2PD_ABI_VERSION, P2PD_SYSFS_ROOT);
	return 0;

snapshot_exit:
	p2pd_snapshot_exit();
sysfs_exit:
	p2pd_sysfs_exit();
	return ret;
}

static void __exit p2pd_exit(void)
{
	/* Files first: a rescan write in flight still needs the snapshots. */
	p2pd_sysfs_unpublish();
	p2pd_snapshot_exit();
	p2pd_sysfs_exit();
}

module_init(p2pd_init);
module_exit(p2pd_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("PCIe peer-to-peer path diagnostics in /sys/kernel/p2pdiag");
MODULE_VERSION(P2PD_MODULE_VERSION);
