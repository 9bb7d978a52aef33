/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-ins for the kernel calls that the module's device code
 * makes (kmod/crosscheck.c, kmod/iommu_group.c), so that it runs here
 * against a fake PCI bus that keeps the kernel's rules and says when
 * they are broken:
 * - a struct pci_dev whose last reference is dropped is freed: any use
 *   of it after that, directly or as a VF's physfn, is a violation;
 * - device locks are counted: unlocking one not held is a violation;
 * - pci_p2pdma_distance() wants the provider's device lock held and no
 *   P2PDMA state on the provider (crosscheck.c's promise);
 * - iommu_group_get() on a VF wants the PF's device lock held, under
 *   which the kernel removes VFs and drops their groups.
 * Hot removal is played as the PCI core does it: VFs first, each dropping
 * its reference on the PF, then the PF, under the PCI rescan/remove lock:
 * a removal asked for while the lock is held happens when it is let go.
 */
#ifndef P2PD_TEST_KERNEL_SHIM_H
#define P2PD_TEST_KERNEL_SHIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <linux/pci_regs.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;

#define IS_ENABLED(option)		(option)
#define CONFIG_PCI_P2PDMA		1
#define KERNEL_VERSION(a, b, c)		(((a) << 16) + ((b) << 8) + (c))
#define LINUX_VERSION_CODE		KERNEL_VERSION(6, 12, 0)
#define SZ_4K				0x1000UL
#define SZ_1M				0x100000UL
#define SZ_1G				0x40000000UL
#define GFP_KERNEL			0
#define PCI_DEVFN(slot, func)		((((slot) & 0x1f) << 3) | ((func) & 0x07))
#define PCI_SLOT(devfn)			(((devfn) >> 3) & 0x1f)
#define PCI_FUNC(devfn)			((devfn) & 0x07)

#define max(a, b)		((a) > (b) ? (a) : (b))
#define swap(a, b) \
	do { __typeof__(a) __tmp = (a); (a) = (b); (b) = __tmp; } while (0)
#define rcu_access_pointer(p)	(p)
#define pr_warn(fmt, ...)	shim_log("warn: " fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...)	shim_log("debug: " fmt, ##__VA_ARGS__)

struct kref {
	int refcount;
};

struct pci_dev;

struct device {
	int locked;			/* holders of the device lock */
};

struct pci_bus {
	int domain;
	unsigned char number;
};

struct iommu_group {
	int id;
	int refs;
};

struct pci_dev {
	struct device dev;
	struct pci_bus *bus;
	unsigned int devfn;
	bool is_virtfn;
	struct pci_dev *physfn;
	void *p2pdma;			/* P2PDMA state: a driver published memory */
	struct iommu_group *iommu_group;
	/* the fake bus's own */
	int refs;			/* the bus's reference while present, and gets */
	bool present;			/* on the bus: pci_get_device() finds it */
	bool freed;			/* its last reference was dropped */
	char name[16];
	struct pci_dev *next;
};

/* The fake bus: its devices in order, present or removed. */
struct shim_bus {
	struct pci_dev *first;
	unsigned int violations;
	char first_violation[256];
	/* Called from cond_resched(): the test's moment to change the bus. */
	void (*resched)(void *ctx);
	/* Called as pci_get_device() returns @d: another such moment. */
	void (*on_get)(void *ctx, struct pci_dev *d);
	void *ctx;
	int rescan_locked;		/* holders of the rescan/remove lock */
	struct pci_dev *pending_remove;	/* a PF removal waiting for that lock */
	unsigned int distance_calls;
	unsigned int iommu_group_gets;
};
extern struct shim_bus shim;

void shim_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void shim_violation(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Add a function on the bus (one reference, the bus's); a VF holds its PF. */
struct pci_dev *shim_add(int domain, unsigned int bus, unsigned int devfn,
			 struct pci_dev *physfn);
/* Hot-remove @pf and its VFs, as the PCI core does. */
void shim_remove_pf(struct pci_dev *pf);
/* Free what was never freed, at the end of a test. */
void shim_reset(void);

struct pci_dev *pci_dev_get(struct pci_dev *pdev);
void pci_dev_put(struct pci_dev *pdev);
struct pci_dev *pci_get_device(unsigned int vendor, unsigned int device,
			       struct pci_dev *from);
struct pci_dev *pci_physfn(struct pci_dev *pdev);
const char *pci_name(const struct pci_dev *pdev);
int pci_domain_nr(struct pci_bus *bus);
int pci_p2pdma_distance(struct pci_dev *provider, struct device *client,
			bool verbose);
int device_trylock(struct device *dev);
void device_unlock(struct device *dev);
struct iommu_group *iommu_group_get(struct device *dev);
void iommu_group_put(struct iommu_group *group);
int iommu_group_id(struct iommu_group *group);
void cond_resched(void);
void pci_lock_rescan_remove(void);
void pci_unlock_rescan_remove(void);

#define PCI_ANY_ID		(~0U)
#define for_each_pci_dev(d) \
	while ((d = pci_get_device(PCI_ANY_ID, PCI_ANY_ID, d)) != NULL)

#define kmalloc(size, gfp)		malloc(size)
#define kfree(p)			free(p)
#define kvcalloc(n, size, gfp)		calloc(n, size)
#define kvfree(p)			free(p)

#endif /* P2PD_TEST_KERNEL_SHIM_H */
