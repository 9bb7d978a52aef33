// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only helper for the p2pdiag VM lab: a physical function driver that
 * does nothing but let sriov_numvfs enable and disable virtual functions.
 *
 * The PCI core accepts a write to sriov_numvfs only while the PF is bound
 * to a driver with an sriov_configure callback.  The lab's guest has no
 * NVMe driver (and QEMU's NVMe VFs would need their controllers brought
 * online before one could use them), so it binds the PF here instead.
 * The ID table is empty: the driver takes a device only through its
 * driver_override, so loading it never claims anything by itself.
 *
 * Never installed with the product.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/pci.h>

static const struct pci_device_id sriov_pf_ids[] = {
	{ }
};

static int sriov_pf_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	if (!pdev->is_physfn) {
		pci_info(pdev, "no SR-IOV capability, not taken\n");
		return -ENODEV;
	}
	return 0;
}

/* VFs go with their PF's driver, as every SR-IOV driver does it. */
static void sriov_pf_remove(struct pci_dev *pdev)
{
	pci_disable_sriov(pdev);
}

static struct pci_driver sriov_pf_driver = {
	.name = KBUILD_MODNAME,
	.id_table = sriov_pf_ids,
	.probe = sriov_pf_probe,
	.remove = sriov_pf_remove,
	.sriov_configure = pci_sriov_configure_simple,
};
module_pci_driver(sriov_pf_driver);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("p2pdiag lab: bind an SR-IOV PF so sriov_numvfs works");
