// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only helper for the p2pdiag VM lab: give chosen PCIe ports an ACS
 * extended capability they do not have.
 *
 * QEMU's switch ports (xio3130-downstream) carry no ACS capability, so the
 * lab could never exercise ReqRedir, CmpltRedir, EgressCtrl or DirectTrans
 * on a switch.  This module wraps the pci_ops of each chosen port's bus
 * (pci_bus_set_ops(), the technique of the kernel's aer_inject) and, for
 * the chosen devfns only, links an ACS capability into the extended
 * capability list and answers its registers from memory.  Writes to ACS
 * Control stick (limited to the bits the capability advertises, as real
 * hardware does), so a test can change them through
 * /sys/bus/pci/devices/<addr>/config.  Everything else passes through.
 *
 * The kernel caches the ACS position at enumeration (pdev->acs_cap) and
 * its own ACS checks (pci_bridge_has_acs_redir(), pci_acs_enabled(), so
 * pci_p2pdma_distance()) read only that.  While the overlay is in place
 * the port's acs_cap names the overlaid capability, so the kernel and the
 * module judge the same registers; unloading clears it again.  A port
 * re-enumerated while the overlay is loaded finds the capability through
 * the wrapped ops by itself.
 *
 * Never installed with the product.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/pci.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#define OVL_MAX_PORTS		8
/* ACS header, capability and control, and at most a 256-bit egress vector */
#define OVL_MAX_LEN		(PCI_ACS_EGRESS_CTL_V + 256 / 8)
#define OVL_ACS_VERSION		1
/* where the automatic placement starts looking, downwards */
#define OVL_AUTO_TOP		0xf00
#define OVL_AUTO_STEP		0x40

static char *ports;
module_param(ports, charp, 0444);
MODULE_PARM_DESC(ports, "comma-separated dddd:bb:dd.f of the ports to overlay");

static ushort cap[OVL_MAX_PORTS] = { 0x5f };
static int nr_cap;
module_param_array(cap, ushort, &nr_cap, 0444);
MODULE_PARM_DESC(cap, "ACS Capability register, one value for all ports or one per port (default 0x5f)");

static ushort ctrl[OVL_MAX_PORTS];
static int nr_ctrl;
module_param_array(ctrl, ushort, &nr_ctrl, 0444);
MODULE_PARM_DESC(ctrl, "initial ACS Control register, one value for all ports or one per port (default 0)");

static ushort offset;
module_param(offset, ushort, 0444);
MODULE_PARM_DESC(offset, "config offset of the capability (default: highest free 0x40-aligned slot at or below 0xf00)");

/* One wrapped bus: its original ops and the copy installed in their place. */
struct ovl_bus {
	struct pci_bus *bus;		/* holds a reference on bus->dev */
	struct pci_ops *orig;
	struct pci_ops ops;
};

/* One overlaid port. */
struct ovl_port {
	int domain;
	unsigned int busnr;
	unsigned int devfn;
	struct ovl_bus *ob;
	u16 pos;			/* offset of the ACS capability */
	u16 len;			/* its length in bytes */
	u16 link;			/* header whose Next pointer we redirect, 0: none */
	u8 regs[OVL_MAX_LEN];		/* the capability's registers, little endian */
	u8 wmask[OVL_MAX_LEN];		/* bits a write may change */
};

static struct ovl_bus ovl_buses[OVL_MAX_PORTS];
static unsigned int nr_ovl_buses;
static struct ovl_port ovl_ports[OVL_MAX_PORTS];
static unsigned int nr_ovl_ports;
/* Guards regs[]: config accesses run concurrently (PCI_LOCKLESS_CONFIG). */
static DEFINE_RAW_SPINLOCK(ovl_lock);

static struct ovl_port *ovl_find_port(struct pci_bus *bus, unsigned int devfn)
{
	int domain = pci_domain_nr(bus);
	unsigned int i;

	for (i = 0; i < nr_ovl_ports; i++) {
		struct ovl_port *p = &ovl_ports[i];

		if (p->domain == domain && p->busnr == bus->number &&
		    p->devfn == devfn)
			return p;
	}
	return NULL;
}

/*
 * The original ops of @bus: a bus created under a wrapped one while we are
 * loaded inherits our ops, so look for the wrapped ancestor.
 */
static struct pci_ops *ovl_orig_ops(struct pci_bus *bus)
{
	struct pci_bus *b;
	unsigned int i;

	for (b = bus; b; b = b->parent)
		for (i = 0; i < nr_ovl_buses; i++)
			if (ovl_buses[i].bus == b)
				return ovl_buses[i].orig;
	return NULL;
}

/* Overlay the bytes [where, where + size) that fall into the capability. */
static void ovl_patch_cap(struct ovl_port *p, int where, int size, u32 *val)
{
	unsigned long flags;
	int i;

	raw_spin_lock_irqsave(&ovl_lock, flags);
	for (i = 0; i < size; i++) {
		int rel = where + i - p->pos;

		if (rel < 0 || rel >= p->len)
			continue;
		*val &= ~(0xffU << (8 * i));
		*val |= (u32)p->regs[rel] << (8 * i);
	}
	raw_spin_unlock_irqrestore(&ovl_lock, flags);
}

static int ovl_read_locked(struct pci_bus *bus, unsigned int devfn, int where,
			   int size, u32 *val)
{
	struct pci_ops *orig = ovl_orig_ops(bus);
	struct ovl_port *p;
	u32 hdr;
	int ret, i;

	if (!orig)
		return PCIBIOS_DEVICE_NOT_FOUND;
	p = ovl_find_port(bus, devfn);
	if (!p)
		return orig->read(bus, devfn, where, size, val);

	if (where >= p->pos && where < p->pos + p->len) {
		*val = 0;
		ovl_patch_cap(p, where, size, val);
		return PCIBIOS_SUCCESSFUL;
	}

	ret = orig->read(bus, devfn, where, size, val);
	if (ret || !p->link || where + size <= p->link || where >= p->link + 4)
		return ret;

	/* Redirect the last capability's Next pointer (bits 31:20) to us. */
	ret = orig->read(bus, devfn, p->link, 4, &hdr);
	if (ret)
		return ret;
	hdr = (hdr & 0x000fffff) | ((u32)p->pos << 20);
	for (i = 0; i < size; i++) {
		int rel = where + i - p->link;

		if (rel < 0 || rel > 3)
			continue;
		*val &= ~(0xffU << (8 * i));
		*val |= ((hdr >> (8 * rel)) & 0xff) << (8 * i);
	}
	return PCIBIOS_SUCCESSFUL;
}

static int ovl_write_locked(struct pci_bus *bus, unsigned int devfn,
			    int where, int size, u32 val)
{
	struct pci_ops *orig = ovl_orig_ops(bus);
	struct ovl_port *p;
	unsigned long flags;
	int i;

	if (!orig)
		return PCIBIOS_DEVICE_NOT_FOUND;
	p = ovl_find_port(bus, devfn);
	if (!p || where < p->pos || where >= p->pos + p->len)
		return orig->write(bus, devfn, where, size, val);

	raw_spin_lock_irqsave(&ovl_lock, flags);
	for (i = 0; i < size; i++) {
		int rel = where + i - p->pos;
		u8 b = (val >> (8 * i)) & 0xff;

		if (rel >= p->len)
			break;
		p->regs[rel] = (p->regs[rel] & ~p->wmask[rel]) |
			       (b & p->wmask[rel]);
	}
	raw_spin_unlock_irqrestore(&ovl_lock, flags);
	return PCIBIOS_SUCCESSFUL;
}

/*
 * The ops entry points.  The RCU read section lets ovl_unwrap_all() wait
 * for accesses that were already inside our ops when they were removed.
 */
static int ovl_read(struct pci_bus *bus, unsigned int devfn, int where,
		    int size, u32 *val)
{
	int ret;

	rcu_read_lock();
	ret = ovl_read_locked(bus, devfn, where, size, val);
	rcu_read_unlock();
	return ret;
}

static int ovl_write(struct pci_bus *bus, unsigned int devfn, int where,
		     int size, u32 val)
{
	int ret;

	rcu_read_lock();
	ret = ovl_write_locked(bus, devfn, where, size, val);
	rcu_read_unlock();
	return ret;
}

static void ovl_put16(u8 *regs, unsigned int at, u16 v)
{
	regs[at] = v & 0xff;
	regs[at + 1] = v >> 8;
}

/* Length of the ACS capability for @acs_cap (PCIe r6.0, 7.7.8). */
static u16 ovl_cap_len(u16 acs_cap)
{
	unsigned int bits;

	if (!(acs_cap & PCI_ACS_EC))
		return PCI_ACS_EGRESS_CTL_V;
	bits = (acs_cap >> 8) & 0xff;
	if (!bits)
		bits = 256;
	return PCI_ACS_EGRESS_CTL_V + DIV_ROUND_UP(bits, 32) * 4;
}

/*
 * Find where the capability goes: at 0x100 when the extended list is
 * empty, else in a free (all-zero) slot above every existing capability,
 * linked from the last one.
 */
static int ovl_place(struct pci_dev *pdev, struct ovl_port *p)
{
	u16 last = 0, top = 0, pos = PCI_CFG_SPACE_SIZE;
	int loops = (PCI_CFG_SPACE_EXP_SIZE - PCI_CFG_SPACE_SIZE) / 8;
	u32 hdr, v;
	u16 start, at;

	if (pdev->cfg_size < PCI_CFG_SPACE_EXP_SIZE)
		return -ENODEV;
	if (pci_read_config_dword(pdev, pos, &hdr) || PCI_POSSIBLE_ERROR(hdr))
		return -ENODEV;

	while (hdr && loops--) {
		if (PCI_EXT_CAP_ID(hdr) == PCI_EXT_CAP_ID_ACS)
			return -EEXIST;
		last = pos;
		top = max(top, pos);
		pos = PCI_EXT_CAP_NEXT(hdr);
		if (pos < PCI_CFG_SPACE_SIZE)
			break;
		if (pci_read_config_dword(pdev, pos, &hdr))
			return -EIO;
	}
	p->link = last;
	if (!last) {
		if (offset && offset != PCI_CFG_SPACE_SIZE)
			return -EINVAL;
		p->pos = PCI_CFG_SPACE_SIZE;
		return 0;
	}

	start = offset ? offset : OVL_AUTO_TOP;
	for (pos = start; pos > top; pos -= OVL_AUTO_STEP) {
		for (at = pos; at < pos + p->len; at += 4) {
			if (pci_read_config_dword(pdev, at, &v) || v)
				break;
		}
		if (at >= pos + p->len) {
			p->pos = pos;
			return 0;
		}
		if (offset)
			break;
	}
	return -ENOSPC;
}

static struct ovl_bus *ovl_bus_slot(struct pci_bus *bus)
{
	unsigned int i;

	for (i = 0; i < nr_ovl_buses; i++)
		if (ovl_buses[i].bus == bus)
			return &ovl_buses[i];
	ovl_buses[nr_ovl_buses].bus = bus;
	get_device(&bus->dev);
	return &ovl_buses[nr_ovl_buses++];
}

static int ovl_add_port(const char *addr, unsigned int idx)
{
	u16 acs_cap = nr_cap > 1 ? cap[idx] : cap[0];
	u16 acs_ctrl = nr_ctrl > 1 ? ctrl[idx] : ctrl[0];
	struct ovl_port *p = &ovl_ports[nr_ovl_ports];
	unsigned int domain, busnr, dev, fn;
	struct pci_dev *pdev;
	unsigned int i;
	char tail;
	int ret;

	if (sscanf(addr, "%x:%x:%x.%x%c", &domain, &busnr, &dev, &fn,
		   &tail) != 4 || domain > 0xffff || busnr > 0xff ||
	    dev > 0x1f || fn > 7) {
		pr_err("bad port address '%s' (want dddd:bb:dd.f)\n", addr);
		return -EINVAL;
	}
	if ((nr_cap > 1 && idx >= nr_cap) || (nr_ctrl > 1 && idx >= nr_ctrl)) {
		pr_err("no cap/ctrl value for port %s\n", addr);
		return -EINVAL;
	}
	if (acs_cap & ~0xff7f) {
		pr_err("cap 0x%04x: bit 7 (enhanced ACS) is not emulated\n",
		       acs_cap);
		return -EINVAL;
	}

	for (i = 0; i < nr_ovl_ports; i++) {
		if (ovl_ports[i].domain == domain &&
		    ovl_ports[i].busnr == busnr &&
		    ovl_ports[i].devfn == PCI_DEVFN(dev, fn)) {
			pr_err("port %s named twice\n", addr);
			return -EINVAL;
		}
	}

	pdev = pci_get_domain_bus_and_slot(domain, busnr, PCI_DEVFN(dev, fn));
	if (!pdev) {
		pr_err("no PCI function %s\n", addr);
		return -ENODEV;
	}
	if (!pci_is_pcie(pdev)) {
		pci_err(pdev, "not a PCIe function\n");
		ret = -EINVAL;
		goto put_pdev;
	}

	memset(p, 0, sizeof(*p));
	p->domain = domain;
	p->busnr = busnr;
	p->devfn = pdev->devfn;
	p->len = ovl_cap_len(acs_cap);
	ret = ovl_place(pdev, p);
	if (ret) {
		pci_err(pdev, "cannot place an ACS capability (%d)\n", ret);
		goto put_pdev;
	}

	/* Header: ID, version, Next = 0 (we are last); RO. */
	ovl_put16(p->regs, 0, PCI_EXT_CAP_ID_ACS);
	ovl_put16(p->regs, 2, OVL_ACS_VERSION);
	ovl_put16(p->regs, PCI_ACS_CAP, acs_cap);
	ovl_put16(p->regs, PCI_ACS_CTRL, acs_ctrl & acs_cap & 0x7f);
	/* Control bits are writable where the capability is implemented. */
	ovl_put16(p->wmask, PCI_ACS_CTRL, acs_cap & 0x7f);
	if (acs_cap & PCI_ACS_EC)
		memset(p->wmask + PCI_ACS_EGRESS_CTL_V, 0xff,
		       p->len - PCI_ACS_EGRESS_CTL_V);

	p->ob = ovl_bus_slot(pdev->bus);
	nr_ovl_ports++;
	pci_info(pdev, "ACS capability at 0x%03x (linked from 0x%03x) cap 0x%04x ctrl 0x%04x\n",
		 p->pos, p->link, acs_cap, acs_ctrl & acs_cap & 0x7f);
	ret = 0;
put_pdev:
	pci_dev_put(pdev);
	return ret;
}

/* Put the original ops back on @ob's bus and on any bus that copied ours. */
static void ovl_restore_bus(struct pci_bus *bus, struct ovl_bus *ob)
{
	struct pci_bus *child;

	if (bus->ops == &ob->ops)
		pci_bus_set_ops(bus, ob->orig);
	list_for_each_entry(child, &bus->children, node)
		ovl_restore_bus(child, ob);
}

/*
 * Point (or stop pointing) the PCI core's cached ACS position of each
 * overlaid port at the capability.  Clearing touches only a cache that
 * names our capability.  Called with the rescan/remove lock held.
 */
static void ovl_set_acs_cap(bool on)
{
	unsigned int i;

	for (i = 0; i < nr_ovl_ports; i++) {
		struct ovl_port *p = &ovl_ports[i];
		struct pci_dev *pdev;

		pdev = pci_get_domain_bus_and_slot(p->domain, p->busnr, p->devfn);
		if (!pdev)
			continue;
		if (on)
			WRITE_ONCE(pdev->acs_cap, p->pos);
		else if (READ_ONCE(pdev->acs_cap) == p->pos)
			WRITE_ONCE(pdev->acs_cap, 0);
		pci_dev_put(pdev);
	}
}

static void ovl_unwrap_all(void)
{
	struct pci_bus *root = NULL;
	unsigned int i;

	pci_lock_rescan_remove();
	/* The cache first: nothing may look for ACS where it is about to vanish. */
	ovl_set_acs_cap(false);
	for (i = 0; i < nr_ovl_buses; i++) {
		if (!ovl_buses[i].orig)
			continue;
		ovl_restore_bus(ovl_buses[i].bus, &ovl_buses[i]);
		while ((root = pci_find_next_bus(root)))
			ovl_restore_bus(root, &ovl_buses[i]);
	}
	pci_unlock_rescan_remove();
	/* Let config accesses that already entered our ops finish. */
	synchronize_rcu();
	for (i = 0; i < nr_ovl_buses; i++)
		put_device(&ovl_buses[i].bus->dev);
	nr_ovl_buses = 0;
	nr_ovl_ports = 0;
}

static int ovl_wrap_all(void)
{
	unsigned int i;

	for (i = 0; i < nr_ovl_buses; i++) {
		struct ovl_bus *ob = &ovl_buses[i];
		struct pci_ops *old;

		ob->ops = *ob->bus->ops;
		ob->ops.read = ovl_read;
		ob->ops.write = ovl_write;
		ob->orig = ob->bus->ops;
		old = pci_bus_set_ops(ob->bus, &ob->ops);
		if (old != ob->orig) {
			pr_err("ops of bus %04x:%02x changed under us\n",
			       pci_domain_nr(ob->bus), ob->bus->number);
			pci_bus_set_ops(ob->bus, old);
			ob->orig = NULL;
			return -EBUSY;
		}
	}
	return 0;
}

static int __init ovl_init(void)
{
	char *list, *cur, *addr;
	int ret = 0;

	if (!ports || !*ports) {
		pr_err("ports= names no port\n");
		return -EINVAL;
	}
	list = kstrdup(ports, GFP_KERNEL);
	if (!list)
		return -ENOMEM;

	pci_lock_rescan_remove();
	cur = list;
	while ((addr = strsep(&cur, ",")) && !ret) {
		if (!*addr)
			continue;
		if (nr_ovl_ports == OVL_MAX_PORTS) {
			pr_err("at most %d ports\n", OVL_MAX_PORTS);
			ret = -E2BIG;
			break;
		}
		ret = ovl_add_port(addr, nr_ovl_ports);
	}
	if (!ret)
		ret = ovl_wrap_all();
	if (!ret)
		ovl_set_acs_cap(true);
	pci_unlock_rescan_remove();
	kfree(list);
	if (ret)
		goto unwrap;
	return 0;

unwrap:
	ovl_unwrap_all();
	return ret;
}

static void __exit ovl_exit(void)
{
	ovl_unwrap_all();
	pr_info("original config space restored\n");
}

module_init(ovl_init);
module_exit(ovl_exit);

MODULE_DESCRIPTION("p2pdiag test helper: ACS capability overlay on chosen PCIe ports");
MODULE_LICENSE("GPL");
