// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only helper for the p2pdiag VM lab: count every config write the
 * kernel makes while it is loaded, and optionally make one bridge claim to
 * be an IDT 0x80b5 switch port.
 *
 * p2pdiag promises never to write config space, through any helper it
 * calls.  The PCI core's pci_bus_read_dev_vendor_id() (behind
 * pci_device_is_present()) has a quirk for functions below an IDT 0x80b5
 * switch port that writes the port's ACS Control and the function's
 * Vendor ID.  The quirk looks only at the IDs the PCI core cached at
 * enumeration (pdev->vendor, pdev->device), and QEMU's switch ports have
 * no property to set their IDs, so this module changes the cached IDs of
 * the bridge named by idt= while it is loaded: the kernel then takes the
 * quirk's path exactly as on the real switch.
 *
 * Counting: the pci_ops of every bus are replaced (pci_bus_set_ops(), the
 * technique of the kernel's aer_inject) by a copy whose write callback
 * counts and passes the write on; reads go straight to the original
 * callbacks.  The count, since load, is the writes parameter; the first
 * few writes are logged with their address.
 *
 * Never installed with the product.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/pci.h>
#include <linux/rcupdate.h>

#define CFGW_MAX_BUSES		256
#define CFGW_LOGGED		8
#define CFGW_IDT_VENDOR		0x111d
#define CFGW_IDT_DEVICE		0x80b5

static char *idt;
module_param(idt, charp, 0444);
MODULE_PARM_DESC(idt, "dddd:bb:dd.f of a bridge made to claim IDT 0x80b5 while loaded");

static atomic_t cfgw_writes = ATOMIC_INIT(0);
/* Calls inside cfgw_write(), waited for at unload. */
static atomic_t cfgw_inflight = ATOMIC_INIT(0);

static int cfgw_writes_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&cfgw_writes));
}

static const struct kernel_param_ops cfgw_writes_ops = {
	.get = cfgw_writes_get,
};
module_param_cb(writes, &cfgw_writes_ops, NULL, 0444);
MODULE_PARM_DESC(writes, "config writes counted since load");

/* One wrapped bus: its original ops and the copy installed instead. */
struct cfgw_bus {
	struct pci_bus *bus;
	struct pci_ops *orig;
	struct pci_ops ops;
};

static struct cfgw_bus cfgw_buses[CFGW_MAX_BUSES];
static unsigned int cfgw_nr_buses;

static struct pci_dev *cfgw_idt_dev;
static unsigned short cfgw_idt_vendor, cfgw_idt_device;

static bool cfgw_ours(const struct pci_ops *ops);

static int cfgw_write(struct pci_bus *bus, unsigned int devfn, int where,
		      int size, u32 val)
{
	struct pci_ops *ops;
	int n, ret;

	atomic_inc(&cfgw_inflight);
	/*
	 * A bus made below a wrapped one inherits the copy (same original);
	 * a bus unwrapped while this call was on its way has its own back.
	 */
	ops = READ_ONCE(bus->ops);
	if (cfgw_ours(ops))
		ops = container_of(ops, struct cfgw_bus, ops)->orig;
	n = atomic_inc_return(&cfgw_writes);
	if (n <= CFGW_LOGGED)
		pr_info("write %d: %04x:%02x:%02x.%u offset 0x%03x size %d value 0x%x\n",
			n, pci_domain_nr(bus), bus->number, PCI_SLOT(devfn),
			PCI_FUNC(devfn), where, size, val);
	ret = ops->write(bus, devfn, where, size, val);
	atomic_dec(&cfgw_inflight);
	return ret;
}

static bool cfgw_ours(const struct pci_ops *ops)
{
	unsigned int i;

	for (i = 0; i < cfgw_nr_buses; i++)
		if (ops == &cfgw_buses[i].ops)
			return true;
	return false;
}

static int cfgw_wrap(struct pci_bus *bus)
{
	struct pci_bus *child;
	struct cfgw_bus *cb;
	int ret;

	if (cfgw_nr_buses == CFGW_MAX_BUSES)
		return -ENOSPC;
	cb = &cfgw_buses[cfgw_nr_buses];
	cb->bus = bus;
	cb->orig = bus->ops;
	cb->ops = *bus->ops;
	cb->ops.write = cfgw_write;
	cfgw_nr_buses++;
	pci_bus_set_ops(bus, &cb->ops);
	list_for_each_entry(child, &bus->children, node) {
		ret = cfgw_wrap(child);
		if (ret)
			return ret;
	}
	return 0;
}

/* Every bus whose ops are one of our copies, including buses made since. */
static void cfgw_unwrap(struct pci_bus *bus)
{
	struct pci_bus *child;

	if (cfgw_ours(bus->ops))
		pci_bus_set_ops(bus,
				container_of(bus->ops, struct cfgw_bus, ops)->orig);
	list_for_each_entry(child, &bus->children, node)
		cfgw_unwrap(child);
}

static void cfgw_unwrap_all(void)
{
	struct pci_bus *root = NULL;

	while ((root = pci_find_next_bus(root)))
		cfgw_unwrap(root);
	/* A caller may have loaded our write callback before it went. */
	synchronize_rcu();
	while (atomic_read(&cfgw_inflight))
		msleep(20);
	cfgw_nr_buses = 0;
}

static int cfgw_claim_idt(void)
{
	unsigned int domain, bus, dev, fn;
	struct pci_dev *pdev;

	if (!idt || !*idt)
		return 0;
	if (sscanf(idt, "%x:%x:%x.%x", &domain, &bus, &dev, &fn) != 4)
		return -EINVAL;
	pdev = pci_get_domain_bus_and_slot(domain, bus, PCI_DEVFN(dev, fn));
	if (!pdev)
		return -ENODEV;
	if (!pdev->subordinate) {
		pci_dev_put(pdev);
		return -EINVAL;
	}
	cfgw_idt_dev = pdev;
	cfgw_idt_vendor = pdev->vendor;
	cfgw_idt_device = pdev->device;
	pdev->vendor = CFGW_IDT_VENDOR;
	pdev->device = CFGW_IDT_DEVICE;
	pci_info(pdev, "claims to be IDT %04x:%04x until unload\n",
		 CFGW_IDT_VENDOR, CFGW_IDT_DEVICE);
	return 0;
}

static void cfgw_release_idt(void)
{
	if (!cfgw_idt_dev)
		return;
	cfgw_idt_dev->vendor = cfgw_idt_vendor;
	cfgw_idt_dev->device = cfgw_idt_device;
	pci_dev_put(cfgw_idt_dev);
	cfgw_idt_dev = NULL;
}

static int __init cfgw_init(void)
{
	struct pci_bus *root = NULL;
	int ret;

	pci_lock_rescan_remove();
	ret = cfgw_claim_idt();
	if (ret)
		goto unlock;
	while ((root = pci_find_next_bus(root))) {
		ret = cfgw_wrap(root);
		if (ret)
			goto unwrap;
	}
	pci_unlock_rescan_remove();
	pr_info("counting config writes on %u buses\n", cfgw_nr_buses);
	return 0;

unwrap:
	cfgw_unwrap_all();
	cfgw_release_idt();
unlock:
	pci_unlock_rescan_remove();
	return ret;
}

static void __exit cfgw_exit(void)
{
	pci_lock_rescan_remove();
	cfgw_unwrap_all();
	cfgw_release_idt();
	pci_unlock_rescan_remove();
	pr_info("%d config writes counted\n", atomic_read(&cfgw_writes));
}

module_init(cfgw_init);
module_exit(cfgw_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("p2pdiag lab: count config writes; make a bridge claim IDT 0x80b5");
