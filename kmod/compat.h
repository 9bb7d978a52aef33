/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every difference between the kernels p2pdiag builds against, as a named
 * feature macro.  This is the only file that looks at LINUX_VERSION_CODE;
 * the rest of the module tests the P2PD_HAVE_* names.
 *
 * Supported from 5.10 on.  Built and checked in the lab against 5.10
 * (bullseye), 6.1 (bookworm), 6.12 (bookworm-backports) and the newest 7.x
 * (trixie-backports), and against the newest kernel in Debian unstable
 * (make compat-check).
 */
#ifndef P2PDIAG_COMPAT_H
#define P2PDIAG_COMPAT_H

#include <linux/kconfig.h>
#include <linux/pci.h>
#include <linux/version.h>

/*
 * PCI_POSSIBLE_ERROR() names the all-ones value a read from a function
 * that is not there (removed, powered off, in reset) returns.  It came
 * with 5.17 and reached the 5.10 and 5.15 stable series only part way
 * (5.10.218 lacks it, 5.10.223 has it), so it is tested by name, not by
 * version: the distribution kernels based on those series may have it or
 * not.
 *
 * P2PD_HAVE_PCI_POSSIBLE_ERROR	<linux/pci.h> defines PCI_POSSIBLE_ERROR()
 */
#ifdef PCI_POSSIBLE_ERROR
#define P2PD_HAVE_PCI_POSSIBLE_ERROR	1
#else
#define P2PD_HAVE_PCI_POSSIBLE_ERROR	0
#define PCI_POSSIBLE_ERROR(val)		((val) == ((typeof(val))~0ull))
#endif

/*
 * pci_dev_is_disconnected() (the PCI core marked the function gone:
 * surprise removal, DPC) moved from the PCI core's private header to
 * <linux/pci.h> in 6.9, and reached some stable series later (5.10.214);
 * it is a static inline, which cannot be tested for by name.  Where it
 * is not known to be public, the same test it makes.
 *
 * P2PD_HAVE_PUBLIC_DEV_IS_DISCONNECTED	<linux/pci.h> has pci_dev_is_disconnected()
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)
#define P2PD_HAVE_PUBLIC_DEV_IS_DISCONNECTED	1
#define p2pd_dev_is_disconnected(pdev)	pci_dev_is_disconnected(pdev)
#else
#define P2PD_HAVE_PUBLIC_DEV_IS_DISCONNECTED	0
#define p2pd_dev_is_disconnected(pdev) \
	((pdev)->error_state == pci_channel_io_perm_failure)
#endif

/*
 * pm_runtime_get_if_active() took a second argument, ign_usage_count,
 * until 6.9, which made the call always ignore the usage count (what
 * passing true did) and dropped the argument.
 *
 * P2PD_HAVE_PM_RUNTIME_GET_IF_ACTIVE_1ARG	pm_runtime_get_if_active(dev)
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)
#define P2PD_HAVE_PM_RUNTIME_GET_IF_ACTIVE_1ARG	1
#define p2pd_pm_runtime_get_if_active(dev)	pm_runtime_get_if_active(dev)
#else
#define P2PD_HAVE_PM_RUNTIME_GET_IF_ACTIVE_1ARG	0
#define p2pd_pm_runtime_get_if_active(dev)	pm_runtime_get_if_active(dev, true)
#endif

/*
 * The const bin_attribute transition.  6.13 added read_new() and
 * attribute_group.bin_attrs_new, which take a const struct bin_attribute,
 * beside the old non-const read() and bin_attrs.  6.18 finished it: read()
 * and bin_attrs themselves are const and the _new names are gone.
 *
 * P2PD_HAVE_CONST_BIN_ATTR	callbacks get a const struct bin_attribute *
 * P2PD_HAVE_BIN_ATTR_NEW	the const forms are named read_new/bin_attrs_new
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
#define P2PD_HAVE_CONST_BIN_ATTR	1
#else
#define P2PD_HAVE_CONST_BIN_ATTR	0
#endif

#if P2PD_HAVE_CONST_BIN_ATTR && LINUX_VERSION_CODE < KERNEL_VERSION(6, 18, 0)
#define P2PD_HAVE_BIN_ATTR_NEW		1
#else
#define P2PD_HAVE_BIN_ATTR_NEW		0
#endif

/* The qualifier of the attribute argument of a bin_attribute callback. */
#if P2PD_HAVE_CONST_BIN_ATTR
#define P2PD_BIN_ATTR_CONST		const
#else
#define P2PD_BIN_ATTR_CONST
#endif

/*
 * Designators for the read callback and a group's binary attribute list,
 * with the type the list has under that name.
 */
#if P2PD_HAVE_BIN_ATTR_NEW
#define P2PD_BIN_ATTR_READ		read_new
#define P2PD_GROUP_BIN_ATTRS		bin_attrs_new
#else
#define P2PD_BIN_ATTR_READ		read
#define P2PD_GROUP_BIN_ATTRS		bin_attrs
#endif

/*
 * pci_p2pdma_distance_many() gives a real answer only where the kernel was
 * built with CONFIG_PCI_P2PDMA (not Debian's 6.1 and 6.12; unstable has it).
 */
#define P2PD_HAVE_P2PDMA		IS_ENABLED(CONFIG_PCI_P2PDMA)

/*
 * Before 6.9 pci_p2pdma_distance() stored its answer in the provider's
 * map_types with GFP_KERNEL inside rcu_read_lock() ("PCI/P2PDMA: Fix a
 * sleeping issue in a RCU read section"): calling it could sleep in an RCU
 * read-side section.
 *
 * P2PD_HAVE_P2PDMA_CROSSCHECK	pci_p2pdma_distance() exists and is safe to call
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)
#define P2PD_HAVE_P2PDMA_CROSSCHECK	P2PD_HAVE_P2PDMA
#else
#define P2PD_HAVE_P2PDMA_CROSSCHECK	0
#endif

/* The P2PDMA state a provider of P2P memory has (NULL: none, or no P2PDMA). */
#if P2PD_HAVE_P2PDMA
#define p2pd_p2pdma_state(pdev)		rcu_access_pointer((pdev)->p2pdma)
#else
#define p2pd_p2pdma_state(pdev)		((void)(pdev), NULL)
#endif

/*
 * The release whose pci_p2pdma_whitelist this kernel has, as the engine's
 * P2PD_RELEASE(), which counts like KERNEL_VERSION(): the module is built
 * for the kernel it runs on.
 *
 * P2PD_KERNEL_RELEASE	this kernel's LINUX_VERSION_CODE
 */
#define P2PD_KERNEL_RELEASE		LINUX_VERSION_CODE

#endif /* P2PDIAG_COMPAT_H */
