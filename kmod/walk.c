// SPDX-License-Identifier: GPL-2.0
/*
 * Walk the PCI tree into a struct p2pd_model: plain values and addresses,
 * never a struct pci_dev pointer.  Every reference taken is dropped before
 * the walk returns, and config space is only ever read.
 */
#include <linux/mm.h>
#include <linux/pci.h>
#include <linux/pm_runtime.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#ifdef CONFIG_X86
#include <asm/processor.h>
#endif

#include <p2pdiag/decode.h>
#include <p2pdiag/verdict.h>
#include "compat.h"
#include "p2pdiag.h"

/**
 * p2pd_pci_addr() - @pdev's address in the model's packing.
 * @pdev: any PCI function; its domain is kept whole (Intel VMD numbers
 *	its domains from 0x10000, and the ABI writes them as sysfs does)
 *
 * Return: P2PD_ADDR() of its domain, bus, device and function.
 */
u64 p2pd_pci_addr(const struct pci_dev *pdev)
{
	return P2PD_ADDR(pci_domain_nr(pdev->bus), pdev->bus->number,
			 PCI_SLOT(pdev->devfn), PCI_FUNC(pdev->devfn));
}

static enum p2pd_role p2pd_role_of(struct pci_dev *pdev)
{
	return p2pd_decode_role(pci_is_pcie(pdev),
				pci_is_pcie(pdev) ? pci_pcie_type(pdev) : 0,
				pdev->hdr_type);
}

/*
 * Every config read of the walk goes through the user accessors: they
 * wait while a reset blocks the function's config access
 * (pci_cfg_access_lock()) instead of reading a function half way through
 * its reset, and they take no lock that a reset or an open by VFIO tries.
 * Nothing here reaches a kernel helper that writes config space.
 */
static bool p2pd_read_word(struct pci_dev *pdev, int where, u16 *val)
{
	return !pci_user_read_config_word(pdev, where, val) &&
	       !PCI_POSSIBLE_ERROR(*val);
}

static bool p2pd_read_dword(struct pci_dev *pdev, int where, u32 *val)
{
	return !pci_user_read_config_dword(pdev, where, val) &&
	       !PCI_POSSIBLE_ERROR(*val);
}

/*
 * Whether the function still answers config reads at all: its Vendor ID,
 * read plainly.  Not pci_device_is_present(): that goes through
 * pci_bus_read_dev_vendor_id(), whose quirk for IDT switches (0x80b5)
 * clears ACS Source Validation in the switch port, writes the function's
 * Vendor ID and restores the port.  A virtual function reads 0xffff as
 * Vendor and Device ID by specification (SR-IOV 1.1, 3.4.1.1), so its
 * physical function is asked, as the kernel does; one the PCI core knows
 * to be gone (surprise removal, DPC) is not read at all.
 */
static bool p2pd_responds(struct pci_dev *pdev)
{
	struct pci_dev *pf = pci_physfn(pdev);
	u32 id;

	if (p2pd_dev_is_disconnected(pf))
		return false;
	return p2pd_read_dword(pf, PCI_VENDOR_ID, &id);
}

/*
 * The offset of extended capability @id, found as
 * pci_find_ext_capability() finds it, but through the user accessors, and
 * telling a list that could not be read from one without @id.
 *
 * Return: P2PD_PRESENT with *@pos set, P2PD_ABSENT, or P2PD_UNKNOWN.
 */
static enum p2pd_state p2pd_find_ext_cap(struct pci_dev *pdev, int id,
					 u16 *pos)
{
	/* Each capability takes at least 8 bytes: a bound on a looping list. */
	int ttl = (PCI_CFG_SPACE_EXP_SIZE - PCI_CFG_SPACE_SIZE) / 8;
	int where = PCI_CFG_SPACE_SIZE;
	u32 header;

	if (pdev->cfg_size <= PCI_CFG_SPACE_SIZE)
		return P2PD_ABSENT;
	while (ttl-- > 0) {
		if (!p2pd_read_dword(pdev, where, &header))
			return P2PD_UNKNOWN;
		/* An empty list reads 0 in its first header. */
		if (!header)
			return P2PD_ABSENT;
		if (PCI_EXT_CAP_ID(header) == id) {
			*pos = where;
			return P2PD_PRESENT;
		}
		where = PCI_EXT_CAP_NEXT(header);
		if (where < PCI_CFG_SPACE_SIZE)
			return P2PD_ABSENT;
	}
	return P2PD_ABSENT;
}

/*
 * The ACS capability is searched in config space rather than taken from
 * pdev->acs_cap, the offset cached at enumeration: the snapshot describes
 * what the function says now (the lab's ACS overlay relies on this).
 */
static void p2pd_read_acs(struct pci_dev *pdev, struct p2pd_function *f)
{
	u16 pos = 0, cap, ctrl;

	f->acs = p2pd_find_ext_cap(pdev, PCI_EXT_CAP_ID_ACS, &pos);
	if (f->acs != P2PD_PRESENT)
		return;
	if (!p2pd_read_word(pdev, pos + PCI_ACS_CAP, &cap) ||
	    !p2pd_read_word(pdev, pos + PCI_ACS_CTRL, &ctrl)) {
		f->acs = P2PD_UNKNOWN;
		return;
	}
	f->acs = P2PD_PRESENT;
	f->acs_cap = cap;
	f->acs_ctrl = ctrl;
}

/*
 * Read the control word of extended capability @id at @ctrl_off.  Return
 * the state; *ctrl is valid when it is P2PD_PRESENT.
 */
static enum p2pd_state p2pd_read_ext_ctrl(struct pci_dev *pdev, int id,
					  int ctrl_off, u16 *ctrl)
{
	enum p2pd_state state;
	u16 pos = 0;

	state = p2pd_find_ext_cap(pdev, id, &pos);
	if (state != P2PD_PRESENT)
		return state;
	if (!p2pd_read_word(pdev, pos + ctrl_off, ctrl))
		return P2PD_UNKNOWN;
	return P2PD_PRESENT;
}

static void p2pd_read_ats_pri_pasid(struct pci_dev *pdev,
				    struct p2pd_function *f)
{
	/*
	 * A VF has one PRI and PASID interface with its PF, configured in
	 * the PF (pci_enable_pri() and pci_enable_pasid() look there), and
	 * its ATS Smallest Translation Unit is reserved: the PF's applies
	 * (pci_enable_ats() programs and checks the PF's).
	 */
	struct pci_dev *shared = pci_physfn(pdev);
	u16 ctrl, stu_ctrl, cap;

	f->ats = p2pd_read_ext_ctrl(pdev, PCI_EXT_CAP_ID_ATS, PCI_ATS_CTRL,
				    &ctrl);
	if (f->ats == P2PD_PRESENT) {
		stu_ctrl = ctrl;
		if (pdev->is_virtfn &&
		    p2pd_read_ext_ctrl(shared, PCI_EXT_CAP_ID_ATS,
				       PCI_ATS_CTRL, &stu_ctrl) == P2PD_UNKNOWN)
			f->ats = P2PD_UNKNOWN;
		else
			p2pd_decode_ats(f, ctrl, stu_ctrl);
	}

	f->pri = p2pd_read_ext_ctrl(shared, PCI_EXT_CAP_ID_PRI, PCI_PRI_CTRL,
				    &ctrl);
	if (f->pri == P2PD_PRESENT)
		p2pd_decode_pri(f, ctrl);

	f->pasid = p2pd_read_ext_ctrl(shared, PCI_EXT_CAP_ID_PASID,
				      PCI_PASID_CTRL, &ctrl);
	if (f->pasid == P2PD_PRESENT)
		f->pasid = p2pd_read_ext_ctrl(shared, PCI_EXT_CAP_ID_PASID,
					      PCI_PASID_CAP, &cap);
	if (f->pasid == P2PD_PRESENT)
		p2pd_decode_pasid(f, cap, ctrl);
}

static bool p2pd_has_link(struct pci_dev *pdev, enum p2pd_role role)
{
	return p2pd_role_has_link(pci_is_pcie(pdev), role);
}

static void p2pd_read_link(struct pci_dev *pdev, struct p2pd_function *f)
{
	struct p2pd_link *link = &f->link;
	u16 sta;
	u32 cap;

	if (!p2pd_has_link(pdev, f->role)) {
		link->state = P2PD_ABSENT;
		return;
	}
	if (!p2pd_read_word(pdev, pci_pcie_cap(pdev) + PCI_EXP_LNKSTA, &sta) ||
	    !p2pd_read_dword(pdev, pci_pcie_cap(pdev) + PCI_EXP_LNKCAP, &cap)) {
		link->state = P2PD_UNKNOWN;
		return;
	}
	p2pd_decode_link(link, sta, cap);
}

/*
 * Mark every value that came from config space as not read (@state).  ACS
 * is the exception where the kernel itself knows the answer: a function
 * without an ACS capability at enumeration (pdev->acs_cap 0) is one whose
 * ACS the kernel's pci_bridge_has_acs_redir() never reads, so for it the
 * function redirects nothing, read or not.
 */
static void p2pd_mark_unread(struct pci_dev *pdev, struct p2pd_function *f,
			     enum p2pd_state state)
{
	f->acs = pdev->acs_cap ? state : P2PD_ABSENT;
	f->ats = state;
	f->pri = state;
	f->pasid = state;
	if (f->link.state != P2PD_ABSENT)
		f->link.state = state;
}

/*
 * Whether the PCI core knows @state to be a low-power state: D1 to D3cold.
 * PCI_UNKNOWN is what it leaves on a bridge that no driver enabled (a
 * conventional PCI-to-PCI bridge, any port under pcie_ports=compat): such
 * a bridge is powered and forwards config requests, and the kernel's own
 * config accessors read below it (pci_config_pm_runtime_get() wakes a
 * function only from D3cold).
 */
static bool p2pd_low_power(pci_power_t state)
{
	return state == PCI_D1 || state == PCI_D2 || state == PCI_D3hot ||
	       state == PCI_D3cold;
}

/*
 * Whether reading @pdev's config space would need a wake-up: the function
 * (for a VF, its PF) is in D3cold, or a bridge above it is in a low-power
 * state and forwards no config requests.  A function in D3hot answers
 * config reads; it is read as it is.  The states may change right after
 * this look; a read that then fails is unknown and the walk is retried.
 */
static bool p2pd_powered_down(struct pci_dev *pdev)
{
	struct pci_dev *up;

	if (pdev->current_state == PCI_D3cold ||
	    pci_physfn(pdev)->current_state == PCI_D3cold)
		return true;
	for (up = pci_upstream_bridge(pdev); up; up = pci_upstream_bridge(up))
		if (p2pd_low_power(up->current_state))
			return true;
	return false;
}

/* Why a function's config space was not read, if it was not. */
enum p2pd_read_result {
	P2PD_READ_DONE,
	P2PD_READ_SUSPENDED,	/* powered down: left alone, not woken */
	P2PD_READ_RETRY,	/* reset, error recovery or a failed read */
};

/*
 * Hold the bridge above @pdev runtime-active for the reads, as the
 * kernel's own config accessors do (pci_config_pm_runtime_get()), but
 * without waking it: a bridge that runtime PM suspended, or is suspending
 * or resuming, is left so, and what is below it is "suspended".  A bridge
 * whose runtime PM is disabled (no driver bound, or pcie_ports=compat) is
 * as its power state says.
 *
 * Return: the bridge, held, for p2pd_unpin_upstream(); NULL when there is
 * none to hold; ERR_PTR(-EAGAIN) when it is not active.
 */
static struct pci_dev *p2pd_pin_upstream(struct pci_dev *pdev)
{
	struct pci_dev *up = pci_upstream_bridge(pdev);
	int ret;

	if (!up)
		return NULL;
	ret = p2pd_pm_runtime_get_if_active(&up->dev);
	if (ret > 0)
		return up;
	return ret ? NULL : ERR_PTR(-EAGAIN);
}

static void p2pd_unpin_upstream(struct pci_dev *up)
{
	if (!IS_ERR_OR_NULL(up))
		pm_runtime_put(&up->dev);
}

/*
 * Read the config-space values of @pdev into @f.  No lock of the reset
 * protocol is taken, not even tried: a reset, or VFIO's open (whose reset
 * is only tried, and fails the open with -EAGAIN when a lock is busy),
 * must never find one held by a diagnostic.  Each read waits while a
 * reset blocks config access (the user accessors), so none reads a
 * function half way through its reset; one after a reset reads the
 * function as the reset left it.
 */
static enum p2pd_read_result p2pd_read_config(struct pci_dev *pdev,
					      struct p2pd_function *f)
{
	enum p2pd_read_result result = P2PD_READ_DONE;
	struct pci_dev *up;

	f->link.state = p2pd_has_link(pdev, f->role) ? P2PD_UNKNOWN :
						       P2PD_ABSENT;
	up = p2pd_pin_upstream(pdev);
	if (IS_ERR(up) || p2pd_powered_down(pdev)) {
		p2pd_mark_unread(pdev, f, P2PD_SUSPENDED);
		result = P2PD_READ_SUSPENDED;
		goto unpin;
	}
	if (pdev->error_state != pci_channel_io_normal ||
	    !p2pd_responds(pdev)) {
		p2pd_mark_unread(pdev, f, P2PD_UNKNOWN);
		result = P2PD_READ_RETRY;
		goto unpin;
	}
	p2pd_read_acs(pdev, f);
	p2pd_read_ats_pri_pasid(pdev, f);
	p2pd_read_link(pdev, f);

	/*
	 * A function that stopped answering half way may have made a
	 * capability search come back empty: "none" would then be a lie.
	 */
	if (!p2pd_responds(pdev)) {
		p2pd_mark_unread(pdev, f, P2PD_UNKNOWN);
		result = P2PD_READ_RETRY;
	} else if (f->acs == P2PD_UNKNOWN || f->ats == P2PD_UNKNOWN ||
		   f->pri == P2PD_UNKNOWN || f->pasid == P2PD_UNKNOWN ||
		   f->link.state == P2PD_UNKNOWN) {
		result = P2PD_READ_RETRY;
	}
unpin:
	p2pd_unpin_upstream(up);
	return result;
}

static enum p2pd_read_result p2pd_read_function(struct pci_dev *pdev,
						struct p2pd_function *f,
						bool all_endpoints)
{
	struct pci_bus *root = pdev->bus;
	struct pci_dev *up = pci_upstream_bridge(pdev);
	enum p2pd_read_result result;
	bool iommu_read;

	while (!pci_is_root_bus(root))
		root = root->parent;

	f->addr = p2pd_pci_addr(pdev);
	f->has_parent = !!up;
	f->parent = up ? p2pd_pci_addr(up) : 0;
	f->host_bridge = P2PD_HOST_BRIDGE(pci_domain_nr(root), root->number);
	/*
	 * The head of the root bus's list, the device the kernel's
	 * pci_host_bridge_dev() takes: a pointer compared, never kept.
	 */
	f->root_bus_first = pdev->bus == root &&
		list_first_entry_or_null(&root->devices, struct pci_dev,
					 bus_list) == pdev;
	f->has_physfn = pdev->is_virtfn;
	f->physfn = pdev->is_virtfn ? p2pd_pci_addr(pci_physfn(pdev)) : 0;
	f->numa_node = dev_to_node(&pdev->dev);
	/* Identity as enumerated: cached by the PCI core, valid after removal. */
	f->vendor = pdev->vendor;
	f->device = pdev->device;
	f->class_code = pdev->class;
	f->role = p2pd_role_of(pdev);
	f->p2p_endpoint = p2pd_is_p2p_endpoint(f->role, pdev->class,
					       all_endpoints);
	iommu_read = p2pd_read_iommu_group(pdev, f);
	result = p2pd_read_config(pdev, f);
	return iommu_read ? result : P2PD_READ_RETRY;
}

static unsigned int p2pd_host_cpu_flags(void)
{
#ifdef CONFIG_X86
	enum p2pd_cpu_vendor vendor = P2PD_CPU_VENDOR_OTHER;

	if (boot_cpu_data.x86_vendor == X86_VENDOR_AMD)
		vendor = P2PD_CPU_VENDOR_AMD;
	else if (boot_cpu_data.x86_vendor == X86_VENDOR_HYGON)
		vendor = P2PD_CPU_VENDOR_HYGON;
	return p2pd_cpu_flags(vendor, boot_cpu_data.x86);
#else
	return 0;
#endif
}

static int p2pd_cmp_addr(const void *a, const void *b)
{
	const struct p2pd_function *fa = a, *fb = b;

	if (fa->addr != fb->addr)
		return fa->addr < fb->addr ? -1 : 1;
	return 0;
}

/**
 * p2pd_walk() - read every PCI function into a model.
 * @m: filled in; release with p2pd_model_release()
 * @all_endpoints: count every endpoint as a P2P endpoint, not only the
 *	classes that do peer traffic
 *
 * @retry: set to the number of functions worth reading again later (in
 *	reset or error recovery, a VF whose PF is changing its VFs, or a
 *	read failed)
 * @suspended: set to the number of functions left unread because they
 *	are powered down ("suspended", which is what they are)
 *
 * Holds the PCI rescan/remove lock for the walk, so the tree stands still
 * and every struct pci_dev seen stays valid; no pointer to one survives it.
 *
 * Context: process context, may sleep.
 * Return: 0, -ENOMEM, or -EIO when the result is not a valid model.
 */
int p2pd_walk(struct p2pd_model *m, bool all_endpoints, unsigned int *retry,
	      unsigned int *suspended)
{
	struct pci_dev *pdev = NULL;
	struct p2pd_function *fn;
	unsigned int nr = 0, i = 0;
	int ret = 0;

	*retry = 0;
	*suspended = 0;
	memset(m, 0, sizeof(*m));
	m->cpu_flags = p2pd_host_cpu_flags();
	m->kernel_release = P2PD_KERNEL_RELEASE;

	pci_lock_rescan_remove();
	for_each_pci_dev(pdev)
		nr++;
	fn = kvcalloc(max(nr, 1U), sizeof(*fn), GFP_KERNEL);
	if (!fn) {
		ret = -ENOMEM;
		goto unlock;
	}
	/*
	 * Virtual functions are added without the rescan lock, so the count
	 * may have moved: stop at the array's end, dropping the reference
	 * for_each_pci_dev() holds on the function it stopped at.
	 */
	for_each_pci_dev(pdev) {
		if (i == nr) {
			pci_dev_put(pdev);
			break;
		}
		cond_resched();
		switch (p2pd_read_function(pdev, &fn[i++], all_endpoints)) {
		case P2PD_READ_RETRY:
			(*retry)++;
			break;
		case P2PD_READ_SUSPENDED:
			(*suspended)++;
			break;
		default:
			break;
		}
	}
	m->fn = fn;
	m->nr_fn = i;
	sort(m->fn, m->nr_fn, sizeof(*m->fn), p2pd_cmp_addr, NULL);
	if (p2pd_model_check(m)) {
		pr_err("walk produced duplicate addresses\n");
		ret = -EIO;
		goto free_fn;
	}
	pci_unlock_rescan_remove();
	return 0;

free_fn:
	kvfree(fn);
	memset(m, 0, sizeof(*m));
unlock:
	pci_unlock_rescan_remove();
	return ret;
}

/**
 * p2pd_model_release() - free what p2pd_walk() allocated.
 * @m: the model; emptied
 */
void p2pd_model_release(struct p2pd_model *m)
{
	kvfree(m->fn);
	m->fn = NULL;
	m->nr_fn = 0;
}
