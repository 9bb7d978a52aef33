// SPDX-License-Identifier: GPL-2.0
/*
 * The fake PCI bus behind kernel_shim.h: reference counts, device locks
 * and IOMMU groups as the kernel keeps them, each misuse counted.
 */
#include <stdarg.h>
#include <string.h>

#include "kernel_shim.h"
#include <p2pdiag/model.h>
#include "p2pdiag.h"

struct shim_bus shim;

void shim_log(const char *fmt, ...)
{
	va_list ap;

	if (!getenv("SHIM_VERBOSE"))
		return;
	va_start(ap, fmt);
	printf("# ");
	vprintf(fmt, ap);
	va_end(ap);
}

void shim_violation(const char *fmt, ...)
{
	va_list ap;

	if (!shim.violations++) {
		va_start(ap, fmt);
		vsnprintf(shim.first_violation, sizeof(shim.first_violation),
			  fmt, ap);
		va_end(ap);
	}
}

/* A use of @pdev: it must not have been freed. */
static struct pci_dev *use(struct pci_dev *pdev, const char *by)
{
	if (pdev && pdev->freed)
		shim_violation("%s used %s after its last reference was dropped",
			       by, pdev->name);
	return pdev;
}

struct pci_dev *shim_add(int domain, unsigned int bus, unsigned int devfn,
			 struct pci_dev *physfn)
{
	struct pci_dev *pdev = calloc(1, sizeof(*pdev)), **tail;

	if (!pdev || !(pdev->bus = calloc(1, sizeof(*pdev->bus)))) {
		free(pdev);
		return NULL;
	}
	pdev->bus->domain = domain;
	pdev->bus->number = (unsigned char)bus;
	pdev->devfn = devfn;
	pdev->refs = 1;
	pdev->present = true;
	snprintf(pdev->name, sizeof(pdev->name), "%04x:%02x:%02x.%u",
		 (unsigned int)domain, bus, PCI_SLOT(devfn), PCI_FUNC(devfn));
	if (physfn) {
		pdev->is_virtfn = true;
		pdev->physfn = pci_dev_get(physfn);
	}
	for (tail = &shim.first; *tail; tail = &(*tail)->next)
		;
	*tail = pdev;
	return pdev;
}

void shim_remove_pf(struct pci_dev *pf)
{
	struct pci_dev *d;

	if (shim.rescan_locked) {
		shim.pending_remove = pf;
		return;
	}
	for (d = shim.first; d; d = d->next) {
		if (!d->is_virtfn || d->physfn != pf || !d->present)
			continue;
		d->present = false;
		d->iommu_group = NULL;	/* iommu_release_device() */
		pci_dev_put(d);		/* the bus's */
		pci_dev_put(pf);	/* pci_iov_remove_virtfn(): the VF's on its PF */
	}
	pf->present = false;
	pf->iommu_group = NULL;
	pci_dev_put(pf);
}

void shim_reset(void)
{
	struct pci_dev *d, *next;

	for (d = shim.first; d; d = next) {
		next = d->next;
		free(d->bus);
		free(d);
	}
	memset(&shim, 0, sizeof(shim));
}

struct pci_dev *pci_dev_get(struct pci_dev *pdev)
{
	if (use(pdev, "pci_dev_get()"))
		pdev->refs++;
	return pdev;
}

void pci_dev_put(struct pci_dev *pdev)
{
	if (!use(pdev, "pci_dev_put()"))
		return;
	if (pdev->refs <= 0) {
		shim_violation("pci_dev_put() of %s with no reference", pdev->name);
		return;
	}
	if (!--pdev->refs)
		pdev->freed = true;	/* kept, so that a later use is seen */
}

/* The next present device after @from, referenced; @from's reference dropped. */
struct pci_dev *pci_get_device(unsigned int vendor, unsigned int device,
			       struct pci_dev *from)
{
	struct pci_dev *d = from ? from->next : shim.first;

	(void)vendor;
	(void)device;
	while (d && !d->present)
		d = d->next;
	pci_dev_get(d);
	pci_dev_put(from);
	if (d && shim.on_get)
		shim.on_get(shim.ctx, d);
	return d;
}

void pci_lock_rescan_remove(void)
{
	shim.rescan_locked++;
}

void pci_unlock_rescan_remove(void)
{
	struct pci_dev *pf = shim.pending_remove;

	if (!shim.rescan_locked) {
		shim_violation("pci_unlock_rescan_remove() without the lock");
		return;
	}
	if (--shim.rescan_locked || !pf)
		return;
	shim.pending_remove = NULL;
	shim_remove_pf(pf);
}

struct pci_dev *pci_physfn(struct pci_dev *pdev)
{
	use(pdev, "pci_physfn()");
	return pdev->is_virtfn ? use(pdev->physfn, "pci_physfn()") : pdev;
}

const char *pci_name(const struct pci_dev *pdev)
{
	return pdev->name;
}

int pci_domain_nr(struct pci_bus *bus)
{
	return bus->domain;
}

static struct pci_dev *to_pci_dev(struct device *dev)
{
	return (struct pci_dev *)((char *)dev - offsetof(struct pci_dev, dev));
}

/* The kernel's answer matters not here, only how it is asked. */
int pci_p2pdma_distance(struct pci_dev *provider, struct device *client,
			bool verbose)
{
	(void)verbose;
	shim.distance_calls++;
	/* Each end's walk to the root goes through a VF's PF. */
	pci_physfn(provider);
	pci_physfn(to_pci_dev(client));
	if (!provider->dev.locked)
		shim_violation("pci_p2pdma_distance() asked %s without its device lock",
			       provider->name);
	if (provider->p2pdma)
		shim_violation("pci_p2pdma_distance() asked %s, which has P2PDMA state",
			       provider->name);
	return -1;
}

int device_trylock(struct device *dev)
{
	if (dev->locked)
		return 0;
	dev->locked = 1;
	return 1;
}

void device_unlock(struct device *dev)
{
	if (!dev->locked)
		shim_violation("device_unlock() of a device not locked");
	else
		dev->locked--;
}

struct iommu_group *iommu_group_get(struct device *dev)
{
	struct pci_dev *pdev = to_pci_dev(dev);

	shim.iommu_group_gets++;
	use(pdev, "iommu_group_get()");
	if (pdev->is_virtfn && !pdev->physfn->dev.locked)
		shim_violation("iommu_group_get() of VF %s without its PF's device lock",
			       pdev->name);
	if (pdev->iommu_group)
		pdev->iommu_group->refs++;
	return pdev->iommu_group;
}

void iommu_group_put(struct iommu_group *group)
{
	if (group && group->refs-- <= 0)
		shim_violation("iommu_group_put() with no reference");
}

int iommu_group_id(struct iommu_group *group)
{
	return group->id;
}

void cond_resched(void)
{
	if (shim.resched)
		shim.resched(shim.ctx);
}

/* walk.c's, for crosscheck.c's lookups. */
u64 p2pd_pci_addr(const struct pci_dev *pdev)
{
	return P2PD_ADDR(pci_domain_nr(pdev->bus), pdev->bus->number,
			 PCI_SLOT(pdev->devfn), PCI_FUNC(pdev->devfn));
}
