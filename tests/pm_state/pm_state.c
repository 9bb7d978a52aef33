// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only helper for the p2pdiag VM lab: a driver for a bridge that says
 * the bridge is in D3hot, or in D0, when told to, without touching it.
 *
 * QEMU's bridges have no PCI power management capability, so the PCI core
 * never puts one into a low-power state and the lab could not show what
 * p2pdiag does below a bridge that is powered down, nor how it notices the
 * bridge coming back (runtime resume sends no bus event).  Bound through
 * driver_override (the ID table is empty, so loading it claims nothing),
 * it offers lab_power_state on the bridge: "D3hot" or "D3cold" sets the
 * power state the PCI core records for it, pdev->current_state, and "D0"
 * sets it back.
 * Only what the core records changes: the bridge keeps forwarding config
 * requests, so config space below it still reads as it is.  Unbinding
 * leaves the state the bridge had when it was bound.
 *
 * Never installed with the product.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/string.h>

static const struct pci_device_id pm_state_ids[] = {
	{ }
};

struct pm_state {
	pci_power_t bound_state;	/* current_state when bound */
};

static ssize_t lab_power_state_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  pci_power_name(to_pci_dev(dev)->current_state));
}

static ssize_t lab_power_state_store(struct device *dev,
				     struct device_attribute *attr,
				     const char *buf, size_t count)
{
	struct pci_dev *pdev = to_pci_dev(dev);

	if (sysfs_streq(buf, "D3hot"))
		WRITE_ONCE(pdev->current_state, PCI_D3hot);
	else if (sysfs_streq(buf, "D3cold"))
		WRITE_ONCE(pdev->current_state, PCI_D3cold);
	else if (sysfs_streq(buf, "D0"))
		WRITE_ONCE(pdev->current_state, PCI_D0);
	else
		return -EINVAL;
	return count;
}

/*
 * Made in probe rather than through the driver's dev_groups, which
 * struct pci_driver lacks on 5.10 (and later kernels copy over the device
 * driver's): the lab boots 5.10 too.
 */
static DEVICE_ATTR_RW(lab_power_state);

static int pm_state_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct pm_state *st;

	if (!pdev->subordinate) {
		pci_info(pdev, "not a bridge, not taken\n");
		return -ENODEV;
	}
	st = devm_kzalloc(&pdev->dev, sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	st->bound_state = pdev->current_state;
	pci_set_drvdata(pdev, st);
	return device_create_file(&pdev->dev, &dev_attr_lab_power_state);
}

static void pm_state_remove(struct pci_dev *pdev)
{
	struct pm_state *st = pci_get_drvdata(pdev);

	device_remove_file(&pdev->dev, &dev_attr_lab_power_state);
	WRITE_ONCE(pdev->current_state, st->bound_state);
}

static struct pci_driver pm_state_driver = {
	.name = KBUILD_MODNAME,
	.id_table = pm_state_ids,
	.probe = pm_state_probe,
	.remove = pm_state_remove,
};
module_pci_driver(pm_state_driver);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("p2pdiag lab: say a bridge is in D3hot, D3cold or D0");
