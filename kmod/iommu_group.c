// SPDX-License-Identifier: GPL-2.0
/*
 * The IOMMU group of a function, read so that a virtual function removed
 * meanwhile cannot take its group away under the read.
 */
#include <linux/device.h>
#include <linux/iommu.h>
#include <linux/pci.h>

#include <p2pdiag/model.h>
#include "p2pdiag.h"

/**
 * p2pd_read_iommu_group() - the IOMMU group of one function, into @f.
 * @pdev: the function, held by the walk
 * @f: its model entry: iommu_group and iommu_domain are set
 *
 * Only the group, which lives as long as the device is in it.  A domain
 * belongs to whoever attached it: iommu_get_domain_for_dev() is valid for
 * the bound driver alone, and VFIO or iommufd attach and free domains at
 * open and close.  The group's type, which is what the domain means for
 * P2P, is in /sys/kernel/iommu_groups/<id>/type for p2pdiag-check to read.
 *
 * A virtual function comes and goes without the rescan lock this walk
 * holds: sriov_numvfs and the PF's driver enable and disable SR-IOV under
 * the PF's device lock, and removing a VF drops its group.  That lock is
 * held meanwhile, and only tried: a change of the VFs in progress may be
 * waiting for the rescan lock (kernels that take it there), and the VF is
 * read again later instead.
 *
 * Context: process context; takes and drops @pdev's PF's device lock.
 *
 * Return: false when the VF could not be looked at now.
 */
bool p2pd_read_iommu_group(struct pci_dev *pdev, struct p2pd_function *f)
{
	struct device *pf = pdev->is_virtfn ? &pci_physfn(pdev)->dev : NULL;
	struct iommu_group *group;

	f->iommu_group = -1;
	f->iommu_domain = P2PD_IOMMU_NONE;
	if (pf && !device_trylock(pf)) {
		f->iommu_domain = P2PD_IOMMU_UNKNOWN;
		return false;
	}
	group = iommu_group_get(&pdev->dev);
	if (pf)
		device_unlock(pf);
	if (!group)
		return true;
	f->iommu_group = iommu_group_id(group);
	f->iommu_domain = P2PD_IOMMU_UNKNOWN;
	iommu_group_put(group);
	return true;
}
